// Matches of a text in this frame (case-insensitive, across element text).
// With `scrollTo` set, scroll match number `scrollTo` into view and mark it.
({ text, scrollTo }) => {
  const needle = text.toLowerCase();
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  const hits = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const hay = node.nodeValue.toLowerCase();
    let at = hay.indexOf(needle);
    while (needle && at !== -1) {
      const parent = node.parentElement;
      const style = parent ? getComputedStyle(parent) : null;
      if (!style || (style.display !== "none" && style.visibility !== "hidden")) hits.push([node, at]);
      at = hay.indexOf(needle, at + needle.length);
    }
  }
  if (scrollTo !== null && scrollTo < hits.length) {
    const [node, at] = hits[scrollTo];
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + needle.length);
    node.parentElement.scrollIntoView({ block: "center", inline: "nearest" });
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return hits.length;
}

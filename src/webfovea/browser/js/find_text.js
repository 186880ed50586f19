// Matches of a text in this frame (case-insensitive, visible text nodes only, open shadow
// roots included).
// With `scrollTo` set, scroll match number `scrollTo` into view and select it, so the
// screenshot shows where it is. Returns the number of matches, never the text.
({ text, scrollTo }) => {
  const norm = (s) => s.replace(/\u00a0/g, " ").toLowerCase();
  const needle = norm(text);
  if (!needle.trim()) return 0;
  const shown = (el) => (el.checkVisibility
    ? el.checkVisibility({ visibilityProperty: true })
    : el.getClientRects().length > 0);
  // The document and every open shadow root in it: their text is on the page too.
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const e of roots[i].querySelectorAll("*")) if (e.shadowRoot) roots.push(e.shadowRoot);
  }
  const hits = [];
  const seen = new Map();
  const texts = roots.flatMap((r) => {
    const walker = document.createTreeWalker(r === document ? document.body || document.documentElement : r, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) out.push(node);
    return out;
  });
  for (const node of texts) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(parent.tagName)) continue;
    const hay = norm(node.nodeValue);
    let at = hay.indexOf(needle);
    if (at === -1) continue;
    if (!seen.has(parent)) seen.set(parent, shown(parent));
    if (!seen.get(parent)) continue;
    while (at !== -1) {
      hits.push([node, at]);
      at = hay.indexOf(needle, at + needle.length);
    }
  }
  if (scrollTo !== null && scrollTo < hits.length) {
    const [node, at] = hits[scrollTo];
    node.parentElement.scrollIntoView({ block: "center", inline: "nearest" });
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + needle.length);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return hits.length;
}

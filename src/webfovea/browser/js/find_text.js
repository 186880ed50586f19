// Matches of a text in this frame (case-insensitive, visible text nodes only, open shadow
// roots included, `deep`: deep.js). Text whose parent has no box of its own (a <slot>, any
// display: contents element) is as visible as the nearest ancestor that has one.
// With `scrollTo` set, scroll match number `scrollTo` into view and select it, so the
// screenshot shows where it is. Returns the number of matches, never the text.
({ text, scrollTo }) => {
  const norm = (s) => s.replace(/\u00a0/g, " ").toLowerCase();
  const needle = norm(text);
  if (!needle.trim()) return 0;
  const boxed = (el) => {
    let n = el;
    while (n && getComputedStyle(n).display === "contents") n = deep.up(n);
    return n;
  };
  const shown = (el) => {
    const b = boxed(el);
    return Boolean(b) && (b.checkVisibility ? b.checkVisibility({ visibilityProperty: true })
      : b.getClientRects().length > 0);
  };
  // The document and every open shadow root in it: their text is on the page too.
  const roots = deep.roots();
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
    boxed(node.parentElement).scrollIntoView({ block: "center", inline: "nearest" });
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + needle.length);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return hits.length;
}

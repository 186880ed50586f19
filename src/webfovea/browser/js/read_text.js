// The DOM text around the best match for a label, hidden text included.
// Exact element text beats containment; visible beats hidden; then the match
// nearest the viewport centre. Private-use-area glyphs (icon fonts) become "?".
({ label, limit }) => {
  const want = label.replace(/\s+/g, " ").trim().toLowerCase();
  if (!want) return { matches: 0 };
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
  const cands = [];
  for (const el of document.querySelectorAll("body *")) {
    if (["SCRIPT", "STYLE", "NOSCRIPT"].includes(el.tagName)) continue;
    const own = norm(Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.nodeValue).join(" "));
    const attr = norm(el.getAttribute("aria-label") || el.getAttribute("title") || "");
    const mine = own || attr;
    if (!mine || !mine.toLowerCase().includes(want)) continue;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    const visible = r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0;
    const dx = r.left + r.width / 2 - innerWidth / 2;
    const dy = r.top + r.height / 2 - innerHeight / 2;
    cands.push({ el, exact: mine.toLowerCase() === want ? 1 : 0, visible: visible ? 1 : 0, dist: Math.hypot(dx, dy) });
  }
  if (!cands.length) return { matches: 0 };
  cands.sort((a, b) => b.exact - a.exact || b.visible - a.visible || a.dist - b.dist);
  const best = cands[0].el;
  let box = best;
  while (box.parentElement && norm(box.textContent).length < Math.min(limit, 160) && box.parentElement !== document.body) {
    box = box.parentElement;
  }
  const full = norm(box.textContent);
  const at = Math.max(0, full.toLowerCase().indexOf(want));
  const start = Math.max(0, Math.min(at - Math.floor(limit / 3), full.length - limit));
  let out = full.slice(start, start + limit);
  let glyphs = 0;
  out = out.replace(/[\uE000-\uF8FF]|[\uDB80-\uDBFF][\uDC00-\uDFFF]/g, () => { glyphs += 1; return "?"; });
  return { matches: cands.length, exact: cands[0].exact === 1, visible: cands[0].visible === 1, text: out, glyphs, tag: best.tagName.toLowerCase() };
}

// The DOM text around the best match for a label in this frame, hidden text included,
// open shadow roots too (`deep`: deep.js); an element without a box of its own (a <slot>)
// is as visible as the nearest ancestor that has one.
// Match levels: exact (3: the element's own words equal the label), contained (2),
// fuzzy (1: every word of the label among the element's words). Then visible beats
// hidden, then nearest the viewport centre. Characters a font draws as something else
// become "?" and are counted: private-use-area code points (icon fonts such as Font
// Awesome) and words set in a ligature icon font (Material Icons' "search").
({ label, limit }) => {
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const key = (s) => squash(s).toLowerCase().replace(/[\s:：.,;!?*]+$/u, "");
  const words = (s) => key(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const want = key(label);
  if (!want) return { matches: 0 };
  const wantWords = words(label);
  const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
  const ICON_FONT = /icon|awesome|material symbols|glyph|octicon|dashicons/i;
  const PUA = /[\uE000-\uF8FF]|[\uDB80-\uDBFF][\uDC00-\uDFFF]/g;

  const level = (text) => {
    const k = key(text);
    if (!k) return 0;
    if (k === want) return 3;
    if (k.includes(want)) return 2;
    const have = new Set(words(text));
    // Chinese and Japanese run words together without spaces: a word of the label in those
    // scripts counts where the text holds it, not only as a whole word between separators.
    return wantWords.length && wantWords.every((w) => have.has(w) || (CJK.test(w) && k.includes(w)))
      ? 1 : 0;
  };
  // The document and every open shadow root in it: their text is on the page too.
  const roots = deep.roots();
  const boxed = (el) => {
    let n = el;
    while (n && getComputedStyle(n).display === "contents") n = deep.up(n);
    return n || el;
  };
  // A text field or textarea shows its value (never a password's).
  const field = (el) => el.tagName === "TEXTAREA" ||
    (el.tagName === "INPUT" && ["text", "search", "email", "url", "tel", "number"].includes(el.type));
  const cands = [];
  const all = roots.flatMap((r) => [...r.querySelectorAll(r === document ? "body *" : "*")]);
  for (const el of all) {
    if (SKIP.has(el.tagName)) continue;
    const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.nodeValue).join(" ");
    const attr = el.getAttribute("aria-label") || el.getAttribute("title") || el.getAttribute("alt") || "";
    // What a text field shows is its value (a web component's read-only display input),
    // never a password's.
    const value = field(el) ? el.value : "";
    const lvl = Math.max(level(own), level(attr), level(value));
    if (!lvl) continue;
    const b = boxed(el);
    const r = b.getBoundingClientRect();
    const visible = b.checkVisibility ? b.checkVisibility({ visibilityProperty: true, opacityProperty: true }) : r.width > 0;
    const dist = Math.hypot(r.left + r.width / 2 - innerWidth / 2, r.top + r.height / 2 - innerHeight / 2);
    cands.push({ el, lvl, visible: visible ? 1 : 0, dist });
  }
  if (!cands.length) return { matches: 0 };
  cands.sort((a, b) => b.lvl - a.lvl || b.visible - a.visible || a.dist - b.dist);
  const best = cands[0];

  // Context: the nearest ancestor holding enough text, walked text node by text node.
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  const deepText = (n) => n.textContent + (n.shadowRoot ? n.shadowRoot.textContent : "") +
    [...n.querySelectorAll("*")].map((e) => (e.shadowRoot ? e.shadowRoot.textContent : "")).join("");
  let box = best.el;
  while (up(box) && box !== document.body && squash(deepText(box)).length < limit / 2) {
    box = up(box);
  }
  const iconFont = new Map();
  const isIcon = (el) => {
    if (!iconFont.has(el)) iconFont.set(el, ICON_FONT.test(getComputedStyle(el).fontFamily));
    return iconFont.get(el);
  };
  const GLYPH = "\u0000"; // placeholder, so only glyphs inside the window are counted
  let at = -1;
  const pieces = [];
  let length = 0;
  // Text nodes of the box in order, descending into open shadow roots where they are.
  const textNodes = (root) => {
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === 3) out.push(n);
      else if (field(n)) out.push({ nodeValue: n.value, parentElement: n, field: true });
      else if (n.shadowRoot) out.push(...textNodes(n.shadowRoot));
    }
    return out;
  };
  for (const node of textNodes(box)) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, noscript, template")) continue;
    let piece = squash(node.nodeValue);
    if (!piece) continue;
    const pua = piece.replace(PUA, GLYPH);
    // A ligature icon font draws each word as one glyph; PUA code points are one each.
    piece = pua === piece && isIcon(parent) ? piece.split(" ").map(() => GLYPH).join(" ") : pua;
    if (at === -1 && (node.field ? node.parentElement === best.el : best.el.contains(node))) at = length;
    pieces.push(piece);
    length += piece.length + 1;
  }
  const full = pieces.join(" ");
  let start = Math.max(0, Math.min(Math.max(at, 0) - Math.floor(limit / 3), full.length - limit));
  const space = full.indexOf(" ", start);
  if (start > 0 && space !== -1 && space < Math.max(at, 0)) start = space + 1; // whole words
  const window_ = full.slice(start, start + limit);
  return {
    matches: cands.length,
    level: best.lvl,
    visible: best.visible === 1,
    dist: best.dist,
    text: window_.split(GLYPH).join("?"),
    glyphs: window_.split(GLYPH).length - 1,
    tag: best.el.tagName.toLowerCase(),
  };
}

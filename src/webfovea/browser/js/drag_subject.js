// What a drag moves, read before and after it: a slider's value, or a list item's place
// among its like siblings (a sortable list's <li>, a board's card). "before" looks at the
// point and remembers the subject in this frame; "after" says where it is now. Only the
// window symbol is written: the page's DOM is never touched.
({ x, y, phase }) => {
  const key = Symbol.for("webfovea.drag");
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  const nameOf = (el) => squash(el.innerText === undefined ? el.textContent : el.innerText).slice(0, 60);
  const valueOf = (s) => s.getAttribute("aria-valuetext") || s.getAttribute("aria-valuenow") ||
    (s.tagName === "INPUT" ? s.value : "");
  const SLIDER = "[role=slider], input[type=range]";
  // The visible siblings of the same tag: a ghost or placeholder the library hides is not a place.
  const kin = (el) => [...el.parentElement.children].filter(
    (c) => c.tagName === el.tagName && c.getClientRects().length > 0);

  const subject = () => {
    const el = elementAt({ x, y });
    if (!el) return null;
    for (let n = el, i = 0; n && i < 3; n = up(n), i++) {
      const s = n.matches(SLIDER) ? n : n.querySelector(SLIDER);
      if (s) return { kind: "slider", el: s, value: valueOf(s) };
    }
    for (let n = el, i = 0; n && n.parentElement && i < 5 && n !== document.body; n = up(n), i++) {
      const like = kin(n);
      if (like.length >= 2 && nameOf(n) && nameOf(n).length < 60) {
        return { kind: "item", el: n, parent: n.parentElement, name: nameOf(n), index: like.indexOf(n) };
      }
    }
    return null;
  };

  if (phase === "before") {
    const s = subject();
    window[key] = s;
    return s ? { kind: s.kind } : null;
  }
  const s = window[key];
  window[key] = null;
  if (!s) return null;
  if (s.kind === "slider") {
    return { kind: "slider", before: s.value, after: s.el.isConnected ? valueOf(s.el) : null };
  }
  // A library that re-renders the list replaces the element: find it again by its words.
  let el = s.el.isConnected ? s.el : null;
  if (!el && s.parent.isConnected) el = [...s.parent.children].find((c) => nameOf(c) === s.name) || null;
  if (!el || !el.parentElement) return { kind: "item", name: s.name, gone: true };
  const like = kin(el);
  const index = like.indexOf(el);
  return {
    kind: "item", name: s.name, before: s.index, after: index, count: like.length,
    moved: el.parentElement !== s.parent || index !== s.index,
    prev: index > 0 ? nameOf(like[index - 1]) : null,
    next: index >= 0 && index < like.length - 1 ? nameOf(like[index + 1]) : null,
  };
}

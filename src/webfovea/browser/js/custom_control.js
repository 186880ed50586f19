// The custom dropdown at the point: climbing from the element there, the first ancestor
// that is or holds an ARIA combobox (react-select's input, MUI's role="combobox" div,
// Select2's selection, Tom Select's input) or a button that pops up a listbox, and a
// native <select> a library hid right before its widget (Select2, Tom Select). Web
// components count: the climb crosses shadow boundaries and looks into open roots. Returns
// { combo, backing, box }, all null when there is none.
({ x, y }) => {
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  const COMBO = "[role=combobox], [aria-haspopup=listbox], [aria-haspopup=true][aria-expanded]";
  const hidden = (el) => el.getClientRects().length === 0 || el.getBoundingClientRect().width <= 1 ||
    getComputedStyle(el).visibility === "hidden" || el.getAttribute("aria-hidden") === "true";
  const backingOf = (n) => {
    const prev = n.previousElementSibling;
    if (prev && prev.tagName === "SELECT" && hidden(prev)) return prev;
    const inner = n.querySelector(":scope > select");
    return inner && hidden(inner) ? inner : null;
  };
  // The box the user sees: the widget the climb reached unless it is a whole panel; when
  // that is a bare input (react-select's sits over the value), the nearest ancestor that
  // shows words (the value or the placeholder).
  const tall = (n) => n.getBoundingClientRect().height > 150;
  const words = (n) => deep.text(n) !== "";
  const boxOf = (n, combo) => {
    let box = combo && (n === combo || tall(n)) ? combo : n;
    for (let b = box, i = 0; b && i < 3 && !tall(b); b = up(b), i++) {
      if (words(b)) return b;
    }
    return box;
  };
  // The library's wrapper a few levels above the combobox (Select2's container, Tom
  // Select's wrapper) is what sits beside the hidden <select>.
  const backingAbove = (n) => {
    for (let a = up(n), i = 0; a && i < 3 && a !== document.body; a = up(a), i++) {
      const b = backingOf(a);
      if (b) return b;
    }
    return null;
  };
  const small = (n) => n.getElementsByTagName("*").length <= 60 &&
    (!n.shadowRoot || n.shadowRoot.querySelectorAll("*").length <= 60);
  const start = elementAt({ x, y });
  for (let n = start, i = 0; n && i < 7 && n !== document.body; n = up(n), i++) {
    const combo = n.matches(COMBO) ? n : small(n) ? deep.within(n, COMBO)[0] || null : null;
    const backing = backingOf(n);
    if (combo || backing) return { combo: combo || null, backing: backing || backingAbove(n), box: boxOf(n, combo) };
  }
  return { combo: null, backing: null, box: null };
}

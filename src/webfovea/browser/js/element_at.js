// The element at a point of this frame's viewport (CSS pixels), or null; inside open
// shadow roots, the innermost element there.
({ x, y }) => {
  // The innermost element at the point, through open shadow roots.
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

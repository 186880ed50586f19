// The element at a point of this frame's viewport (CSS pixels), or null.
({ x, y }) => document.elementFromPoint(x, y)

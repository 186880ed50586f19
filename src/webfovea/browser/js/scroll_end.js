// Where a scroll container (null: the page) stands after a scroll in the direction
// (dx, dy): "end" at its end that way, "none" when it has nothing to scroll, else null.
({ el, dx, dy }) => {
  const n = el || document.scrollingElement || document.documentElement;
  if (!n.isConnected) return null;
  const top = el ? n.scrollTop : window.scrollY;
  const left = el ? n.scrollLeft : window.scrollX;
  const high = el ? n.clientHeight : window.innerHeight;
  const wide = el ? n.clientWidth : window.innerWidth;
  const extent = dy !== 0 ? n.scrollHeight - high : n.scrollWidth - wide;
  if (extent <= 1) return "none";
  let end;
  if (dy > 0) end = top + high >= n.scrollHeight - 1;
  else if (dy < 0) end = top <= 0;
  else if (dx > 0) end = left + wide >= n.scrollWidth - 1;
  else end = left <= 0;
  return end ? "end" : null;
}

// Whether a scroll container (null: the page) is at its end in the direction scrolled.
({ el, dx, dy }) => {
  const n = el || document.scrollingElement || document.documentElement;
  if (!n.isConnected) return null;
  const top = el ? n.scrollTop : window.scrollY;
  const left = el ? n.scrollLeft : window.scrollX;
  const high = el ? n.clientHeight : window.innerHeight;
  const wide = el ? n.clientWidth : window.innerWidth;
  if (dy > 0) return top + high >= n.scrollHeight - 1;
  if (dy < 0) return top <= 0;
  if (dx > 0) return left + wide >= n.scrollWidth - 1;
  return left <= 0;
}

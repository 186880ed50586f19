// What a wheel at the point would scroll: the innermost scroll container there that can
// still move in the direction (dx, dy are -1, 0 or 1), else the page. Returns the
// container (null for the page) and its visible size, so the scroll is measured to it.
({ x, y, dx, dy }) => {
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  const room = (n) => {
    const s = getComputedStyle(n);
    const ys = dy !== 0 && /(auto|scroll)/.test(s.overflowY) && n.scrollHeight > n.clientHeight &&
      (dy > 0 ? n.scrollTop + n.clientHeight < n.scrollHeight - 1 : n.scrollTop > 0);
    const xs = dx !== 0 && /(auto|scroll)/.test(s.overflowX) && n.scrollWidth > n.clientWidth &&
      (dx > 0 ? n.scrollLeft + n.clientWidth < n.scrollWidth - 1 : n.scrollLeft > 0);
    return ys || xs;
  };
  const page = document.scrollingElement || document.documentElement;
  for (let n = elementAt({ x, y }); n && n !== page && n !== document.body; n = up(n)) {
    if (n.nodeType === 1 && room(n)) return [n, { width: n.clientWidth, height: n.clientHeight }];
  }
  return [null, { width: window.innerWidth, height: window.innerHeight }];
}

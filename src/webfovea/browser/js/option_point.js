// Bring option ``index`` of an open list into view inside the list (as a user scrolls the
// menu, not the page) and, once it has stopped moving (menus grow and slide in, MUI's
// puts the chosen item under the control), the centre of its visible part in this frame's
// CSS pixels; null when it cannot be shown or something else covers it.
({ list, index }) => new Promise((resolve) => {
  const option = list.querySelectorAll("[role=option]")[index];
  if (!option) return resolve(null);
  // "center": at an edge a sticky search box or header may cover it (Dash's). "instant": a
  // list styled scroll-behavior: smooth would still be on its way.
  option.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
  const started = performance.now();
  let last = "";
  let same = 0;
  const look = () => {
    const r = option.getBoundingClientRect();
    const key = `${r.left},${r.top},${r.width},${r.height}`;
    same = key === last ? same + 1 : 0;
    last = key;
    if (same < 2 && performance.now() - started < 1000) return requestAnimationFrame(look);
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, window.innerHeight);
    if (!option.isConnected || bottom - top < 2 || r.width < 2) return resolve(null);
    const x = r.left + Math.min(r.width / 2, 40);
    const y = (top + bottom) / 2;
    const there = document.elementFromPoint(x, y);
    resolve(there && (option === there || option.contains(there)) ? { x, y } : null);
  };
  requestAnimationFrame(look);
})

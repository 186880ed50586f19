// Bring option ``index`` of an open list into view inside the list (as a user scrolls the
// menu, not the page) and, once it has stopped moving (menus grow and slide in, MUI's
// puts the chosen item under the control), the centre of its visible part in this frame's
// CSS pixels; null when it cannot be shown or something else covers it. The option may be
// inside open shadow roots (`deep`, `elementAt`).
({ list, index }) => new Promise((resolve) => {
  const option = deep.within(list, "[role=option]")[index];
  if (!option) return resolve(null);
  // First the list's own opening animation ends (Material's menu grows its height for
  // 500 ms, which moves a scrolled option back): a finite one that the list holds or that
  // holds the list.
  const started = performance.now();
  const opening = () => document.getAnimations().some((a) => {
    const t = a.effect && a.effect.target;
    const timing = a.effect && a.effect.getComputedTiming();
    return a.playState === "running" && t && timing && Number.isFinite(timing.endTime) &&
      (deep.holds(list, t) || deep.holds(t, list));
  });
  const scroll = () => {
    if (opening() && performance.now() - started < 1000) return requestAnimationFrame(scroll);
    // "center": at an edge a sticky search box or header may cover it (Dash's). "instant": a
    // list styled scroll-behavior: smooth would still be on its way.
    option.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    requestAnimationFrame(look);
  };
  let last = "";
  let same = 0;
  let scrolls = 0;
  const look = () => {
    const r = option.getBoundingClientRect();
    const key = `${r.left},${r.top},${r.width},${r.height}`;
    same = key === last ? same + 1 : 0;
    last = key;
    if (same < 2 && performance.now() - started < 2000) return requestAnimationFrame(look);
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, window.innerHeight);
    if (!option.isConnected || r.width < 2) return resolve(null);
    const x = r.left + Math.min(r.width / 2, 40);
    const y = (top + bottom) / 2;
    const there = bottom - top >= 2 ? elementAt({ x, y }) : null;
    if (there && deep.holds(option, there)) return resolve({ x, y });
    // A list that grows as it is scrolled answers the first scroll by resizing itself and
    // setting its own scroll position (Radix's item-aligned content): scroll again once it
    // has stopped moving.
    if (++scrolls < 4 && performance.now() - started < 2000) return scroll();
    resolve(null);
  };
  scroll();
})

// Bring option ``index`` of an open list into view inside the list (as a user scrolls the
// menu, not the page) and return the centre of its visible part in this frame's CSS
// pixels, or null when it cannot be shown or something else covers it.
({ list, index }) => {
  const option = list.querySelectorAll("[role=option]")[index];
  if (!option) return null;
  option.scrollIntoView({ block: "nearest", inline: "nearest" });
  const r = option.getBoundingClientRect();
  const top = Math.max(r.top, 0);
  const bottom = Math.min(r.bottom, window.innerHeight);
  if (bottom - top < 2 || r.width < 2) return null;
  const x = r.left + Math.min(r.width / 2, 40);
  const y = (top + bottom) / 2;
  const there = document.elementFromPoint(x, y);
  return there && (option === there || option.contains(there)) ? { x, y } : null;
}

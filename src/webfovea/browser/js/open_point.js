// Where to click to open a custom dropdown: the model's point, unless it is on a button
// inside the control (a chip's "remove", a "clear" cross), which a click would press
// instead; then the middle of the combobox itself. This frame's CSS pixels.
({ x, y, combo, box }) => {
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  const words = (n) => `${n.getAttribute("aria-label") || ""} ${n.getAttribute("title") || ""}`;
  const pressable = (n) => n !== combo && (n.tagName === "BUTTON" || n.getAttribute("role") === "button" ||
    /remove|clear|delete/i.test(words(n)) || n.textContent.trim() === "×");
  let risky = false;
  for (let n = elementAt({ x, y }); n && n !== box && n !== combo && n !== document.body; n = up(n)) {
    if (n.nodeType === 1 && pressable(n)) risky = true;
  }
  const safe = combo && combo.getBoundingClientRect().width > 2 ? combo : box;
  if (!risky || !safe) return { x, y };
  const r = safe.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

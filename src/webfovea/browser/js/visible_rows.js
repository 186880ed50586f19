// The rows a user sees of a virtualised option list, whose role=listbox is only an
// accessibility mirror (Ant Design's: 0x0 px, the active option and its two neighbours):
// in the popup that holds the mirror, the element with the most children of one height
// that have words is the list of rows (only those in view exist); each row that shows at
// least half of itself inside every box that clips it, with its words, the centre of its
// shown part and whether it is marked selected; and where to turn the wheel to move the
// list (the middle of the clipping box), how tall that box and one row are. This frame's
// CSS pixels. Read after ``frames`` animation frames (the library moves its rows on the
// next frame after a wheel event). ``like``: the classes every row had when first found
// (returned as `like`), to know them again when a filter leaves fewer than two.
({ list, frames, like }) => new Promise((resolve) => {
  const rowsNow = () => {
    const sized = (el) => { const r = el.getBoundingClientRect(); return r.width >= 2 && r.height >= 2; };
    let popup = list;
    while (popup && (popup.nodeType !== 1 || !sized(popup))) popup = deep.up(popup);
    if (!popup) return null;
    // The children of one height with words, counted for each candidate container.
    const rowsOf = (el) => {
      if (el.children.length < 2) return [];
      // textContent, not deep.text, while looking: it is read for every element of the popup.
      const kids = [...el.children].filter((c) => (c.textContent.trim() || c.shadowRoot) && sized(c));
      const heights = new Map();
      for (const c of kids) {
        const h = Math.round(c.getBoundingClientRect().height);
        heights.set(h, (heights.get(h) || 0) + 1);
      }
      const [height] = [...heights.entries()].sort((a, b) => b[1] - a[1])[0] || [0];
      return kids.filter((c) => Math.round(c.getBoundingClientRect().height) === height);
    };
    let best = [];
    const inside = deep.within(popup, "*").filter((el) => !deep.holds(list, el));
    if (like && like.length) { // rows known by the classes they had: a filtered list may show one
      best = inside.filter((el) => like.every((c) => el.classList.contains(c)) && sized(el));
    } else {
      for (const el of inside) {
        const rows = rowsOf(el);
        if (rows.length > best.length) best = rows;
      }
      if (best.length < 2) return null;
    }
    if (!best.length) return { rows: [], wheel: { x: 0, y: 0 }, height: 0, row: 0, scale: 1, like };
    // The box the rows are shown in: the viewport cut by every ancestor that clips.
    let clip = { top: 0, bottom: window.innerHeight, left: 0, right: window.innerWidth };
    for (let n = deep.up(best[0]); n && n !== document.documentElement; n = deep.up(n)) {
      if (n.nodeType !== 1) continue;
      const style = getComputedStyle(n);
      if (style.overflowY === "visible" && style.overflowX === "visible") continue;
      const r = n.getBoundingClientRect();
      clip = { top: Math.max(clip.top, r.top), bottom: Math.min(clip.bottom, r.bottom),
               left: Math.max(clip.left, r.left), right: Math.min(clip.right, r.right) };
    }
    const selected = (row) => row.getAttribute("aria-selected") === "true" ||
      [...row.classList].some((c) => /(^|-)selected$/.test(c));
    const rows = [];
    for (const row of best) {
      const r = row.getBoundingClientRect();
      const top = Math.max(r.top, clip.top);
      const bottom = Math.min(r.bottom, clip.bottom);
      if (bottom - top < r.height / 2) continue;
      const x = Math.max(r.left, clip.left) + Math.min(r.width / 2, 40);
      const y = (top + bottom) / 2;
      const there = elementAt({ x, y });
      rows.push({ text: deep.text(row), x, y, selected: selected(row),
                  clickable: Boolean(there && deep.holds(row, there)) });
    }
    return {
      rows,
      wheel: { x: (clip.left + clip.right) / 2, y: (clip.top + clip.bottom) / 2 },
      height: clip.bottom - clip.top,
      row: best[0].getBoundingClientRect().height,
    like: [...best[0].classList].filter((c) => best.every((r) => r.classList.contains(c))),
      // The wheel's delta arrives divided by the device pixel ratio (Chromium's input).
      scale: window.devicePixelRatio || 1,
    };
};
  const later = (n) => (n > 0 ? requestAnimationFrame(() => later(n - 1)) : resolve(rowsNow()));
  later(frames || 0);
})

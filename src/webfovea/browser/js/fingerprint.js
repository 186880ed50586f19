// A structural summary of this frame, cheap enough for every step.
// The point (this frame's CSS pixels, may be null) selects the scroll
// container whose offsets are recorded, so inner scrollable divs count.
({ x, y }) => {
  const hash = (s) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16);
  };
  const body = document.body;
  const text = body ? body.innerText || "" : "";
  const fields = Array.from(document.querySelectorAll("input, textarea, select"))
    .map((e) => (e.type === "checkbox" || e.type === "radio") ? String(e.checked) : String(e.value))
    .join("\u0001");
  let container = null;
  if (x !== null && y !== null) {
    for (let n = document.elementFromPoint(x, y); n && n !== document.documentElement; n = n.parentElement) {
      const s = getComputedStyle(n);
      const scrollsY = n.scrollHeight > n.clientHeight && /(auto|scroll)/.test(s.overflowY);
      const scrollsX = n.scrollWidth > n.clientWidth && /(auto|scroll)/.test(s.overflowX);
      if (scrollsY || scrollsX) {
        container = { top: Math.round(n.scrollTop), left: Math.round(n.scrollLeft) };
        break;
      }
    }
  }
  const active = document.activeElement;
  const focus = !active || active === body ? "" :
    active.tagName === "IFRAME" ? "iframe" : `${active.tagName.toLowerCase()}#${active.id}`;
  return {
    url: location.href,
    title: document.title,
    nodes: document.getElementsByTagName("*").length,
    textLength: text.length,
    textHash: hash(text),
    scrollX: Math.round(window.scrollX),
    scrollY: Math.round(window.scrollY),
    container,
    fields: hash(fields),
    focus,
  };
}

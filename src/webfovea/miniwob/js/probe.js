// What the reference policy reads to plan (never to act): every rendered element of the
// task area with its box in viewport CSS pixels, own text, form state and scroll state.
// It acts only through the round trip, in pixels of the image it is sent.
() => {
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const out = [];
  // The whole body (autocomplete menus and calendars are appended to it), minus MiniWoB's
  // own instrumentation: the reward display, the click canvas and the start cover.
  const skip = ["reward-display", "click-canvas", "sync-task-cover"];
  for (const el of document.body.querySelectorAll("*")) {
    if (skip.some((id) => el.closest("#" + id))) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || style.visibility === "hidden" || style.display === "none") continue;
    // A point where a click lands on the element (not clipped by a scroll box, not covered
    // by another element): its centre if that is visible, else the first visible point of a
    // 5x5 grid over its box; null when none is (what a model sees as not on screen).
    const lands = (px, py) => {
      const at = document.elementFromPoint(px, py);
      return Boolean(at) && (at === el || el.contains(at));
    };
    const grid = [[0.5, 0.5], ...[0.1, 0.3, 0.5, 0.7, 0.9].flatMap((fy) => [0.1, 0.3, 0.5, 0.7, 0.9].map((fx) => [fx, fy]))];
    const spot = grid.map(([fx, fy]) => [r.left + r.width * fx, r.top + r.height * fy])
      .find(([px, py]) => lands(px, py)) || null;
    const own = squash(Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.nodeValue).join(" "));
    out.push({
      i: out.length,
      tag: el.tagName.toLowerCase(),
      id: el.id || "",
      cls: typeof el.className === "string" ? el.className : (el.getAttribute("class") || ""),
      own,
      text: squash(el.innerText === undefined ? el.textContent : el.innerText).slice(0, 300),
      x: r.left, y: r.top, w: r.width, h: r.height,
      type: el.type || "",
      value: "value" in el && typeof el.value === "string" ? el.value : null,
      checked: Boolean(el.checked),
      selected: Array.from(el.selectedOptions || []).map((o) => squash(o.text)),
      options: el.tagName === "SELECT" ? Array.from(el.options).map((o) => squash(o.text)) : [],
      scrollTop: el.scrollTop, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight,
      focused: document.activeElement === el,
      spot,
      attrs: Object.fromEntries(["data-wob_ref", "data-result", "aria-expanded", "aria-selected", "href", "title", "style"]
        .filter((a) => el.hasAttribute(a)).map((a) => [a, el.getAttribute(a)])),
    });
  }
  const query = document.getElementById("query");
  return {
    utterance: core.getUtterance(),
    bold: query ? Array.from(query.querySelectorAll("span, b, strong, .bold")).map((s) => squash(s.textContent)) : [],
    viewport: { w: innerWidth, h: innerHeight },
    selection: String(getSelection()),
    elements: out,
    // click-checkboxes-soft asks for synonyms: its own table stands in for a model's vocabulary.
    // use-colorwheel names a colour: the page's name table stands in for a model's knowledge.
    extra: {
      synonyms: typeof SYNONYMS === "undefined" ? null : SYNONYMS,
      colours: typeof ui_utils === "undefined" || !ui_utils.COLORS ? null
        : Object.fromEntries(ui_utils.COLORS.map((c) => [c, ui_utils.colorNameToHex(c)])),
    },
  };
}

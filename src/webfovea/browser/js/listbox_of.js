// The open list of options of a custom dropdown, or null while none shows: the listbox
// its combobox names (aria-controls, aria-owns, aria-activedescendant's list), else the
// visible listbox with options nearest to the control (menus portalled to <body>). Ids
// resolve in the combobox's own tree and lists are found inside open shadow roots, options
// through the slots that show them (`deep`, deep.js).
({ combo, box }) => {
  const visible = (el) => el && el.isConnected && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== "hidden";
  const hasOptions = (el) => el.querySelector("[role=option]") !== null ||
    deep.within(el, "[role=option]").length > 0;
  const ids = [];
  for (const el of [combo, box].filter(Boolean)) {
    for (const a of ["aria-controls", "aria-owns"]) {
      for (const id of (el.getAttribute(a) || "").split(/\s+/)) if (id) ids.push([id, el]);
    }
    const active = el.getAttribute("aria-activedescendant");
    const item = active && deep.byId(active, el);
    if (item) {
      const list = deep.closest(item, "[role=listbox]");
      if (visible(list)) return list;
    }
  }
  for (const [id, from] of ids) {
    const el = deep.byId(id, from);
    if (!visible(el)) continue;
    const list = el.matches("[role=listbox]") ? el : deep.within(el, "[role=listbox]")[0];
    if (list && visible(list) && hasOptions(list)) return list;
    if (hasOptions(el)) return el;
  }
  const at = box.getBoundingClientRect();
  const distance = (el) => {
    const r = el.getBoundingClientRect();
    return Math.abs(r.left - at.left) + Math.min(Math.abs(r.top - at.bottom), Math.abs(r.bottom - at.top));
  };
  const lists = deep.all("[role=listbox]").filter((l) => visible(l) && hasOptions(l));
  lists.sort((a, b) => distance(a) - distance(b));
  return lists[0] || null;
}

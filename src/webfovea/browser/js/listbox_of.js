// The open list of options of a custom dropdown, or null while none shows: the listbox
// its combobox names (aria-controls, aria-owns, aria-activedescendant's list), else the
// visible listbox with options nearest to the control (menus portalled to <body>).
({ combo, box }) => {
  const visible = (el) => el && el.isConnected && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== "hidden";
  const hasOptions = (el) => el.querySelector("[role=option]") !== null;
  const ids = [];
  for (const el of [combo, box].filter(Boolean)) {
    for (const a of ["aria-controls", "aria-owns"]) ids.push(...(el.getAttribute(a) || "").split(/\s+/));
    const active = el.getAttribute("aria-activedescendant");
    const item = active && document.getElementById(active);
    if (item) {
      const list = item.closest("[role=listbox]");
      if (visible(list)) return list;
    }
  }
  for (const id of ids.filter(Boolean)) {
    const el = document.getElementById(id);
    if (!visible(el)) continue;
    const list = el.matches("[role=listbox]") ? el : el.querySelector("[role=listbox]");
    if (list && visible(list) && hasOptions(list)) return list;
    if (hasOptions(el)) return el;
  }
  const at = box.getBoundingClientRect();
  const distance = (el) => {
    const r = el.getBoundingClientRect();
    return Math.abs(r.left - at.left) + Math.min(Math.abs(r.top - at.bottom), Math.abs(r.bottom - at.top));
  };
  const lists = [...document.querySelectorAll("[role=listbox]")].filter((l) => visible(l) && hasOptions(l));
  lists.sort((a, b) => distance(a) - distance(b));
  return lists[0] || null;
}

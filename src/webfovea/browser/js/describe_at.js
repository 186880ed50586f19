// Describe the element at a point, for notes and for select/fill:
// tag, role, short visible text, whether it looks clickable or editable,
// and the options of a <select> (the point may be on its label).
({ x, y }) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const text = (node) => (node.innerText || node.textContent || node.value || "")
    .replace(/\s+/g, " ").trim().slice(0, 80);
  const clickableTags = new Set(["A", "BUTTON", "SELECT", "INPUT", "TEXTAREA", "LABEL", "SUMMARY", "OPTION"]);
  const clickableRoles = new Set(["button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch", "combobox"]);
  let clickable = false;
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
    const role = n.getAttribute("role");
    if (clickableTags.has(n.tagName) || (role && clickableRoles.has(role)) || n.onclick ||
        n.hasAttribute("onclick") || getComputedStyle(n).cursor === "pointer") {
      clickable = true;
      break;
    }
  }
  let control = el;
  if (el.tagName === "LABEL" && el.control) control = el.control;
  const select = control.closest ? control.closest("select") : null;
  const editable = (control.tagName === "INPUT" && !["button", "submit", "checkbox", "radio", "file", "image", "reset", "range", "color"].includes(control.type)) ||
    control.tagName === "TEXTAREA" || control.isContentEditable;
  return {
    tag: el.tagName.toLowerCase(),
    id: el.id || "",
    role: el.getAttribute("role") || "",
    text: text(el),
    clickable,
    editable: Boolean(editable),
    select: select ? {
      options: Array.from(select.options).map((o) => o.text.replace(/\s+/g, " ").trim()),
      selected: select.selectedIndex,
      disabled: select.disabled,
    } : null,
  };
}

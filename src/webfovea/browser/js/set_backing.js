// Set a library's hidden native <select> to the options at ``indices`` and fire the events
// a user's choice fires, which Select2 (through jQuery) and plain listeners pick up.
({ select, indices }) => {
  [...select.options].forEach((o, i) => { o.selected = indices.includes(i); });
  select.dispatchEvent(new Event("input", { bubbles: true }));
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return [...select.selectedOptions].map((o) => o.index);
}

// The <select> an element belongs to: itself, an ancestor, or a label's control.
(el) => {
  const control = el.tagName === "LABEL" && el.control ? el.control : el;
  return control.closest("select");
}

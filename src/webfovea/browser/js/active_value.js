// The value of the focused field of this frame, as the page holds it now (inside open
// shadow roots too).
() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body) return null;
  const value = a.isContentEditable ? a.innerText : a.value;
  return {
    tag: a.tagName.toLowerCase(),
    value: value === undefined ? null : String(value),
    readOnly: Boolean(a.readOnly),
    maxLength: typeof a.maxLength === "number" && a.maxLength >= 0 ? a.maxLength : null,
  };
}

// Set a native date/time input the way its own widget does: focus, the value through the
// prototype's setter (so frameworks that track the value see the change), then `input` and
// `change` events. Returns the value the input holds afterwards ("" if it rejected it).
(el, value) => {
  const control = el.tagName === "LABEL" && el.control ? el.control : el;
  control.focus();
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  setter.call(control, value);
  control.dispatchEvent(new Event("input", { bubbles: true }));
  control.dispatchEvent(new Event("change", { bubbles: true }));
  return control.value;
}

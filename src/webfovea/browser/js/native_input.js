// The native date/time input an element stands for (itself or the control of its label),
// with its type, or null. Such inputs are segmented widgets that typing cannot fill reliably.
(el) => {
  const control = el.tagName === "LABEL" && el.control ? el.control : el;
  const types = ["date", "time", "datetime-local", "month", "week"];
  if (control.tagName !== "INPUT" || !types.includes(control.type)) return null;
  return { type: control.type, value: control.value, disabled: control.disabled, readOnly: control.readOnly };
}

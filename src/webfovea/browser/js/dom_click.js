// The full DOM mouse-event sequence (pointerdown, mousedown, pointerup, mouseup, click)
// on the element at a point of this frame: the iframe fallback, for frames whose
// handlers ignore the browser-level input the harness sends. True if an element was there.
// Run through scripts.at_point (elementAt: into open shadow roots; the events are composed).
({ x, y }) => {
  const el = elementAt({ x, y });
  if (!el) return false;
  const base = {
    bubbles: true, cancelable: true, composed: true, view: window,
    clientX: x, clientY: y, screenX: x, screenY: y, button: 0,
  };
  const pointer = { ...base, pointerId: 1, pointerType: "mouse", isPrimary: true };
  el.dispatchEvent(new PointerEvent("pointerdown", { ...pointer, buttons: 1 }));
  el.dispatchEvent(new MouseEvent("mousedown", { ...base, buttons: 1, detail: 1 }));
  if (typeof el.focus === "function") el.focus({ preventScroll: true });
  el.dispatchEvent(new PointerEvent("pointerup", { ...pointer, buttons: 0 }));
  el.dispatchEvent(new MouseEvent("mouseup", { ...base, buttons: 0, detail: 1 }));
  el.dispatchEvent(new MouseEvent("click", { ...base, buttons: 0, detail: 1 }));
  return true;
}

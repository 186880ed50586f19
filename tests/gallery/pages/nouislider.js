// noUiSlider: a pointer-event slider (no <input type=range>) whose value is read from the
// library's own get().
import noUiSlider from "nouislider";
import "nouislider/dist/nouislider.css";

const el = document.getElementById("slider");
const slider = noUiSlider.create(el, { start: 20, step: 1, connect: "lower", range: { min: 0, max: 100 } });
window.galleryState = { value: 20 };
slider.on("change", (values) => {
  const v = Math.round(Number(values[0]));
  window.galleryState.value = v;
  document.getElementById("status").textContent = `Value: ${v}`;
});
window.gallerySlider = slider;

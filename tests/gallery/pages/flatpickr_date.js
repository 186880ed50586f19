// flatpickr on a text input that stays typeable (allowInput), as booking sites use it.
import flatpickr from "flatpickr";
import "flatpickr/dist/flatpickr.min.css";

window.galleryState = { date: "none" };
const picker = flatpickr("#date", {
  allowInput: true, dateFormat: "Y-m-d",
  onChange: (dates, text) => {
    window.galleryState.date = text || "none";
    document.getElementById("status").textContent = `Date: ${text || "none"}`;
  },
});
window.galleryPicker = picker;

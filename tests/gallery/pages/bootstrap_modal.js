// Bootstrap 5: a fading modal and a Popper-positioned dropdown menu, from data attributes.
import "bootstrap/dist/css/bootstrap.min.css";
import { Modal } from "bootstrap";

window.galleryState = { last: "nothing" };
const say = (what) => {
  window.galleryState.last = what;
  document.getElementById("status").textContent = `Last: ${what}`;
};
for (const a of document.querySelectorAll("[data-choice]")) {
  a.addEventListener("click", (e) => { e.preventDefault(); say(`export ${a.dataset.choice}`); });
}
document.getElementById("yes").addEventListener("click", () => {
  say("deleted");
  Modal.getInstance(document.getElementById("confirm")).hide();
});
document.getElementById("confirm").addEventListener("shown.bs.modal", () => say("asked"));

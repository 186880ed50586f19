// Quill 2: a contenteditable editor whose model (getText) is the state read back.
import Quill from "quill";
import "quill/dist/quill.snow.css";

window.galleryState = { text: "" };
const quill = new Quill("#editor", { theme: "snow", placeholder: "Write a note" });
quill.on("text-change", () => {
  const text = quill.getText().trim();
  window.galleryState.text = text;
  document.getElementById("status").textContent = `Words: ${text ? text.split(/\s+/).length : 0}`;
});

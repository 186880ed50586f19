// Tom Select on a native <select>: the select stays in the DOM, hidden, and the library
// renders a control with a searchable input and a dropdown of role="option" items.
import TomSelect from "tom-select";
import "tom-select/dist/css/tom-select.css";
import { COUNTRIES } from "../lib/countries.js";

const el = document.getElementById("country");
el.append(new Option("", ""));
for (const c of COUNTRIES) el.append(new Option(c, c.toLowerCase()));
window.galleryState = { country: "none" };
const ts = new TomSelect(el, { maxOptions: 100, create: false });
ts.on("change", () => {
  const label = el.selectedOptions[0] ? el.selectedOptions[0].text : "";
  window.galleryState.country = label || "none";
  document.getElementById("status").textContent = `Country: ${label || "none"}`;
});

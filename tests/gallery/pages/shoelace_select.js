// Shoelace <sl-select>: a web component whose combobox (a read-only input) and role=listbox
// live in its open shadow root; its <sl-option> children (role=option, light DOM) are slotted
// into that listbox. It opens on mousedown and picks on mouseup. An <sl-tooltip> kept open
// shows its words from inside its own shadow root (a <slot> that has no box of its own);
// <sl-input>'s text field is in its shadow root too. The frame below holds the tooltip's
// words once more, in a declarative shadow root, for find_text's "match i of n".
import "@shoelace-style/shoelace/dist/themes/light.css";
import "@shoelace-style/shoelace/dist/components/select/select.js";
import "@shoelace-style/shoelace/dist/components/option/option.js";
import "@shoelace-style/shoelace/dist/components/tooltip/tooltip.js";
import "@shoelace-style/shoelace/dist/components/input/input.js";
import { COUNTRIES } from "../lib/countries.js";

const select = document.getElementById("country");
for (const c of COUNTRIES) {
  const option = document.createElement("sl-option");
  option.value = c.toLowerCase();
  option.textContent = c;
  select.append(option);
}
window.galleryState = { country: "none" };
select.addEventListener("sl-change", () => {
  const chosen = select.selectedOptions[0];
  const label = chosen ? chosen.getTextLabel() : "none";
  window.galleryState.country = label;
  document.getElementById("status").textContent = `Country: ${label}`;
});
const city = document.getElementById("city");
city.addEventListener("sl-input", () => { window.galleryState.city = city.value; });

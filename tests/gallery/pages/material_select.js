// Material Web (Lit) <md-outlined-select>: its role=combobox field and its role=listbox menu
// are in its open shadow root; each <md-select-option> (light DOM, slotted into the menu)
// renders its role=option item in a shadow root of its own. Picks on click.
import "@material/web/select/outlined-select.js";
import "@material/web/select/select-option.js";
import { COUNTRIES } from "../lib/countries.js";

const select = document.getElementById("country");
for (const c of COUNTRIES) {
  const option = document.createElement("md-select-option");
  option.value = c.toLowerCase();
  const headline = document.createElement("div");
  headline.slot = "headline";
  headline.textContent = c;
  option.append(headline);
  select.append(option);
}
window.galleryState = { country: "none" };
select.addEventListener("change", () => {
  const label = select.displayText || "none";
  window.galleryState.country = label;
  document.getElementById("status").textContent = `Country: ${label}`;
});

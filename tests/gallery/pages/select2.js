// Select2 on a single and a multiple <select>: jQuery's widget hides the native element
// (which keeps the value a form posts) and renders its own container and results list.
import $ from "jquery";
import "select2/dist/css/select2.min.css";
import installSelect2 from "select2/dist/js/select2.full.js";

window.jQuery = window.$ = $;
const fruits = ["Apple", "Apricot", "Banana", "Blackberry", "Cherry", "Date", "Fig", "Grape",
  "Kiwi", "Lemon", "Mango", "Orange", "Papaya", "Peach", "Pear", "Plum", "Quince", "Raspberry"];
const state = { fruit: "none", colours: "none" };
window.galleryState = state;
const show = () => {
  document.getElementById("status").textContent = `Fruit: ${state.fruit} | Colours: ${state.colours}`;
};

// Bundled as CommonJS, select2's UMD build exports a function that installs the plugin on
// the jQuery it is given.

installSelect2(window, $);
const fruit = $("#fruit");
fruit.append(new Option("", "", true, true));
for (const f of fruits) fruit.append(new Option(f, f.toLowerCase()));
fruit.select2({ placeholder: "Choose a fruit", width: "300px" });
fruit.on("change", () => { state.fruit = fruit.find("option:selected").text() || "none"; show(); });

const colours = $("#colours");
for (const c of ["Red", "Green", "Blue", "Yellow", "Purple", "Orange"]) colours.append(new Option(c, c.toLowerCase()));
colours.select2({ placeholder: "Colours", width: "320px" });
colours.on("change", () => {
  const picked = colours.find("option:selected").map((_, o) => o.text).get();
  state.colours = picked.length ? picked.join(", ") : "none";
  show();
});

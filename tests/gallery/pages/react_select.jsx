// react-select, single and multi, with their menus portalled to <body> as sites do to
// escape overflow: hidden. The status line shows the component's own value from onChange.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import Select from "react-select";
import { COUNTRIES } from "../lib/countries.js";

const options = COUNTRIES.map((c) => ({ value: c.toLowerCase(), label: c }));
const state = { single: "none", multi: "none" };
window.galleryState = state;
const show = () => {
  document.getElementById("status").textContent = `Single: ${state.single} | Multi: ${state.multi}`;
};

function Single() {
  const [value, setValue] = useState(null);
  return <Select inputId="single-input" options={options} value={value} placeholder="Choose a country"
    menuPortalTarget={document.body} maxMenuHeight={300}
    onChange={(v) => { setValue(v); state.single = v ? v.label : "none"; show(); }} />;
}

function Multi() {
  const [value, setValue] = useState([]);
  return <Select inputId="multi-input" isMulti options={options} value={value} placeholder="Countries visited"
    menuPortalTarget={document.body} maxMenuHeight={300}
    onChange={(v) => { setValue(v); state.multi = v.length ? v.map((o) => o.label).join(", ") : "none"; show(); }} />;
}

createRoot(document.getElementById("single")).render(<Single />);
createRoot(document.getElementById("multi")).render(<Multi />);

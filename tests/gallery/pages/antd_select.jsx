// Ant Design's Select over 228 countries: a virtual list (only the rows in view exist, moved
// by the library's own wheel handler) beside an accessibility-only role=listbox of 0x0 px
// that mirrors the active option and its two neighbours. The status line shows the value
// from onChange.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { Select } from "antd";
import { WORLD } from "../lib/world.js";

const options = WORLD.map((c) => ({ value: c.toLowerCase(), label: c }));
window.galleryState = { country: "none" };

function Country() {
  const [value, setValue] = useState(undefined);
  const change = (v, option) => {
    setValue(v);
    window.galleryState.country = option.label;
    document.getElementById("status").textContent = `Country: ${option.label}`;
  };
  return <Select id="country" style={{ width: 300 }} placeholder="Choose a country" options={options}
    value={value} onChange={change} listHeight={256} />;
}

createRoot(document.getElementById("root")).render(<Country />);

// Ant Design's Select over 228 countries: a virtual list (only the rows in view exist, moved
// by the library's own wheel handler) beside an accessibility-only role=listbox of 0x0 px
// that mirrors the active option and its two neighbours; beside it the same with a search
// field (showSearch: typing filters the rows). The status line shows the values from
// onChange.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { Select } from "antd";
import { WORLD } from "../lib/world.js";

const options = WORLD.map((c) => ({ value: c.toLowerCase(), label: c }));
const state = { country: "none", search: "none" };
window.galleryState = state;

function Country({ id, search }) {
  const [value, setValue] = useState(undefined);
  const change = (v, option) => {
    setValue(v);
    state[id] = option.label;
    document.getElementById("status").textContent = `Country: ${state.country} | Search: ${state.search}`;
  };
  return <Select id={id} style={{ width: 300 }} placeholder="Choose a country" options={options}
    value={value} onChange={change} listHeight={256} showSearch={search} />;
}

createRoot(document.getElementById("root")).render(<Country id="country" search={false} />);
createRoot(document.getElementById("search")).render(<Country id="search" search />);

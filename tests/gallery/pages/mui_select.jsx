// MUI Select: a role="combobox" div whose menu is a Popover portalled to <body>.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import { COUNTRIES } from "../lib/countries.js";

window.galleryState = { country: "none" };

function Country() {
  const [value, setValue] = useState("");
  const change = (e) => {
    setValue(e.target.value);
    window.galleryState.country = e.target.value;
    document.getElementById("status").textContent = `Country: ${e.target.value}`;
  };
  return (
    <FormControl sx={{ width: 300 }}>
      <InputLabel id="country-label">Country</InputLabel>
      <Select labelId="country-label" id="country" value={value} label="Country" onChange={change}
        MenuProps={{ slotProps: { paper: { style: { maxHeight: 320 } } } }}>
        {COUNTRIES.map((c) => <MenuItem key={c} value={c}>{c}</MenuItem>)}
      </Select>
    </FormControl>
  );
}

createRoot(document.getElementById("root")).render(<Country />);

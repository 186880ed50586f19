// Radix UI Select (headless) with position="item-aligned": a <button role=combobox> opened on
// pointerdown, its options in a portal, chosen on pointerup, the list scrolled inside its
// viewport by the library's own scroll buttons (on hover) or the wheel, the page's scrolling
// locked while it is open. Styled here, as every site using it does. The status line shows
// the value from onValueChange.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import * as Select from "@radix-ui/react-select";
import { WORLD } from "../lib/world.js";

window.galleryState = { country: "none" };

function Country() {
  const [value, setValue] = useState(undefined);
  const change = (v) => {
    setValue(v);
    window.galleryState.country = v;
    document.getElementById("status").textContent = `Country: ${v}`;
  };
  return (
    <Select.Root value={value} onValueChange={change}>
      <Select.Trigger className="trigger" aria-label="Country">
        <Select.Value placeholder="Choose a country" />
        <Select.Icon className="icon">▾</Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content className="content" position="item-aligned">
          <Select.ScrollUpButton className="scroll">▲</Select.ScrollUpButton>
          <Select.Viewport className="viewport">
            {WORLD.map((c) => (
              <Select.Item key={c} value={c} className="item">
                <Select.ItemText>{c}</Select.ItemText>
              </Select.Item>
            ))}
          </Select.Viewport>
          <Select.ScrollDownButton className="scroll">▼</Select.ScrollDownButton>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}

createRoot(document.getElementById("root")).render(<Country />);

// What a custom dropdown shows now: the words in its box, the options its backing
// <select> holds selected, and whether its list is still open. Words inside open shadow
// roots and a read-only input that displays the value count (`deep`, deep.js).
({ combo, box, backing }) => {
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  let shown = box && box.isConnected ? deep.text(box) : null;
  // A floating label drawn inside the box (Material's) is the control's name, not its value.
  const name = combo && squash(combo.getAttribute("aria-label"));
  if (shown && name && shown.startsWith(`${name} `)) shown = shown.slice(name.length + 1);
  return {
    shown,
    backing: backing && backing.isConnected ? [...backing.selectedOptions].map((o) => squash(o.text)) : null,
    expanded: Boolean(combo && combo.getAttribute("aria-expanded") === "true"),
  };
}

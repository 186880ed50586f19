// What a custom dropdown shows now: the words in its box, the options its backing
// <select> holds selected, and whether its list is still open.
({ combo, box, backing }) => {
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const shown = box && box.isConnected ? squash(box.innerText) : null;
  return {
    shown,
    backing: backing && backing.isConnected ? [...backing.selectedOptions].map((o) => squash(o.text)) : null,
    expanded: Boolean(combo && combo.getAttribute("aria-expanded") === "true"),
  };
}

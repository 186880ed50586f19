// A <select>'s options (visible text), which are selected now, and whether it takes several.
(select) => ({
  multiple: select.multiple,
  options: Array.from(select.options).map((o) => (o.text || "").replace(/\s+/g, " ").trim()),
  selected: Array.from(select.options).flatMap((o, i) => (o.selected ? [i] : [])),
})

// Where in a document view (webfovea.documents) something is: the current selection (the
// match find_text just selected), or every place holding `label` (read_text's). A PDF's
// places are pages, a table's are sheet and row. Null outside a document view.
({ label }) => {
  const root = document.documentElement;
  if (!root.dataset.webfoveaDocument) return null;
  const placeOf = (el) => {
    const page = el.closest("[data-page]");
    if (page) return { page: Number(page.dataset.page) };
    const row = el.closest("tr");
    const sheet = el.closest("[data-sheet]");
    const rn = row && row.querySelector("th.rn");
    if (rn && sheet) return { sheet: sheet.dataset.sheet, row: Number(rn.textContent) };
    return null;
  };
  const out = { kind: root.dataset.webfoveaDocument, pages: Number(root.dataset.pages), places: [] };
  if (label === null) {
    const node = getSelection().anchorNode;
    const el = node && (node.nodeType === 1 ? node : node.parentElement);
    const place = el && placeOf(el);
    if (place) out.places.push(place);
    return out;
  }
  const want = label.replace(/\s+/g, " ").trim().toLowerCase();
  if (!want) return out;
  for (const unit of document.querySelectorAll("[data-page], tr")) {
    if (unit.tagName === "TR" && unit.closest("[data-page]")) continue;
    const text = unit.textContent.replace(/\s+/g, " ").toLowerCase();
    if (text.includes(want)) {
      const place = placeOf(unit.tagName === "TR" ? unit.cells[0] || unit : unit);
      if (place) out.places.push(place);
    }
  }
  return out;
}

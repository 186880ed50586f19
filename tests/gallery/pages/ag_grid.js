// AG Grid community: 2000 rows in a 420 px grid, so the rows below the fold are not in the
// DOM (row virtualisation); sorting is a click on a column header.
import { AllCommunityModule, ModuleRegistry, createGrid } from "ag-grid-community";

ModuleRegistry.registerModules([AllCommunityModule]);
const cities = ["Oslo", "Lima", "Quito", "Accra", "Hanoi", "Perth", "Turin", "Cork"];
const rows = Array.from({ length: 2000 }, (_, i) => ({
  id: `Row ${String(i + 1).padStart(4, "0")}`,
  city: cities[(i * 7) % cities.length],
  score: (i * 37) % 1000,
}));
window.galleryState = { sorted: "nothing" };
const api = createGrid(document.getElementById("grid"), {
  rowData: rows,
  columnDefs: [{ field: "id", headerName: "Row" }, { field: "city", headerName: "City" },
    { field: "score", headerName: "Score" }],
  onSortChanged: (e) => {
    const s = e.api.getColumnState().filter((c) => c.sort).map((c) => `${c.colId} ${c.sort}`);
    window.galleryState.sorted = s.join(", ") || "nothing";
    document.getElementById("status").textContent = `Sorted by: ${window.galleryState.sorted}`;
  },
});
window.galleryGrid = api;

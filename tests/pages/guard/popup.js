// Three popups, each sent to the other site: after opening empty, at once, or after
// loading a page of this site first (hop.html moves itself on).
const other = document.documentElement.dataset.other;
document.getElementById("blank").addEventListener("click", () => {
  const w = window.open();
  w.location = `${other}/landing.html?via=popup-blank`;
});
document.getElementById("direct").addEventListener("click", () => {
  window.open(`${other}/landing.html?via=popup-direct`);
});
document.getElementById("hop").addEventListener("click", () => {
  window.open("hop.html");
});

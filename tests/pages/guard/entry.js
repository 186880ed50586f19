// The page's own ways out: a redirect from a timer and a window.open from a button.
const other = document.documentElement.dataset.other;
// After the load event, when the meta refresh (entry.html) has gone: a navigation started
// first would cancel the pending refresh, as it did on a loaded machine whose load took
// longer than a timer started while parsing.
window.addEventListener("load", () => {
  setTimeout(() => { location.href = `${other}/landing.html?via=timer`; }, 800);
});
document.getElementById("open").addEventListener("click", () => {
  window.open(`${other}/landing.html?via=open`);
});

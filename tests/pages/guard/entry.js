// The page's own ways out: a redirect from a timer and a window.open from a button.
const other = document.documentElement.dataset.other;
setTimeout(() => { location.href = `${other}/landing.html?via=timer`; }, 500);
document.getElementById("open").addEventListener("click", () => {
  window.open(`${other}/landing.html?via=open`);
});

// Synchronous on purpose: the page stays busy inside the click until /hold answers.
document.getElementById("go").addEventListener("click", () => {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", "/hold", false);
  xhr.send();
});

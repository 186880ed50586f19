// A CAPTCHA-like check: clicking the box "verifies" after a short spin and tells the parent.
(function () {
  "use strict";
  var box = document.querySelector(".box");
  box.addEventListener("click", function () {
    if (box.classList.contains("checking") || box.classList.contains("checked")) return;
    box.classList.add("checking");
    setTimeout(function () {
      box.classList.remove("checking");
      box.classList.add("checked");
      box.setAttribute("aria-checked", "true");
      window.parent.postMessage({ type: "fovea-verified" }, "*");
    }, 800);
  });
})();

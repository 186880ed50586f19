// Custom dropdown: a button that opens a list of options; not a native <select>.
window.FoveaWidgets = window.FoveaWidgets || {};
window.FoveaWidgets.dropdown = function (box, options, initial) {
  "use strict";
  var button = box.querySelector(".dd-button");
  var list = box.querySelector(".dd-list");
  var hidden = box.querySelector("input[type=hidden]");
  var name = box.dataset.name;

  function choose(key) {
    hidden.value = key;
    button.textContent = options[key];
    list.classList.remove("open");
  }

  Object.keys(options).forEach(function (key) {
    var li = document.createElement("li");
    li.textContent = options[key];
    li.setAttribute("data-fovea", name + "-opt-" + key);
    li.addEventListener("click", function () { choose(key); });
    list.appendChild(li);
  });
  button.addEventListener("click", function () { list.classList.toggle("open"); });
  document.addEventListener("mousedown", function (ev) {
    if (!box.contains(ev.target)) list.classList.remove("open");
  });
  choose(initial && options[initial] ? initial : Object.keys(options)[0]);
};

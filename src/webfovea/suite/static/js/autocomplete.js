// Autocomplete: typing two letters lists matching stations; a suggestion must be clicked.
window.FoveaWidgets = window.FoveaWidgets || {};
window.FoveaWidgets.autocomplete = function (field, choices) {
  "use strict";
  var input = field.querySelector("input");
  var list = field.querySelector(".ac-list");
  var name = list.dataset.list;

  function slug(text) { return text.toLowerCase().replace(/[^a-z0-9]+/g, "-"); }

  function render() {
    var typed = input.value.trim().toLowerCase();
    list.innerHTML = "";
    if (typed.length < 2) return;
    choices.filter(function (c) { return c.toLowerCase().indexOf(typed) >= 0; })
      .forEach(function (choice) {
        var li = document.createElement("li");
        li.textContent = choice;
        li.setAttribute("data-fovea", "ac-" + name + "-" + slug(choice));
        // mousedown, not click: the input's blur would remove the list first
        li.addEventListener("mousedown", function (ev) {
          ev.preventDefault();
          input.value = choice;
          list.innerHTML = "";
        });
        list.appendChild(li);
      });
  }

  input.addEventListener("input", render);
  input.addEventListener("blur", function () { setTimeout(function () { list.innerHTML = ""; }, 150); });
};

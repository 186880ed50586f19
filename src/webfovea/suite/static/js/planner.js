// Journey planner: wires the widgets from the page's config and checks the form on submit.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("planner-config").textContent);
  var form = document.getElementById("journey");
  var error = form.querySelector(".form-error");
  var W = window.FoveaWidgets;
  var pre = config.prefill;

  form.querySelectorAll(".field.ac").forEach(function (field) {
    var input = field.querySelector("input");
    if (pre[input.name]) input.value = pre[input.name];
    W.autocomplete(field, config.stations);
  });
  W.datepicker(form.querySelector(".field.dp"), config.today, pre.date);
  W.dropdown(form.querySelector("[data-name=class]"), config.classes, pre["class"]);
  W.dropdown(form.querySelector("[data-name=railcard]"), config.railcards, pre.railcard);

  form.addEventListener("submit", function (ev) {
    var from = form.elements.from.value, to = form.elements.to.value;
    var problem = config.stations.indexOf(from) < 0 ? "Choose a departure station from the list." :
      config.stations.indexOf(to) < 0 ? "Choose a destination station from the list." :
      !form.elements.date.value ? "Choose a travel date." : "";
    error.textContent = problem;
    if (problem) ev.preventDefault();
  });
})();

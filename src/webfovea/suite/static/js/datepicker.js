// Date picker: a read-only field that opens a month calendar; days before "today" are disabled.
window.FoveaWidgets = window.FoveaWidgets || {};
window.FoveaWidgets.datepicker = function (field, todayIso, initialIso) {
  "use strict";
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"];
  var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  var shown = field.querySelector("input[readonly]");
  var hidden = field.querySelector("input[type=hidden]");
  var popup = field.querySelector(".datepicker");
  var grid = popup.querySelector(".dp-grid");
  var label = popup.querySelector(".dp-month");
  var today = parse(todayIso);
  var view = new Date(today.getFullYear(), today.getMonth(), 1);

  function parse(iso) {
    var p = iso.split("-").map(Number);
    return new Date(p[0], p[1] - 1, p[2]);
  }
  function iso(d) {
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" +
      String(d.getDate()).padStart(2, "0");
  }
  function pretty(d) {
    return DAYS[d.getDay()] + " " + d.getDate() + " " + MONTHS[d.getMonth()].slice(0, 3) + " " +
      d.getFullYear();
  }
  function choose(d) {
    hidden.value = iso(d);
    shown.value = pretty(d);
    popup.classList.remove("open");
  }

  function render() {
    label.textContent = MONTHS[view.getMonth()] + " " + view.getFullYear();
    grid.innerHTML = "";
    ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].forEach(function (d) {
      var h = document.createElement("span");
      h.className = "dp-dow";
      h.textContent = d;
      grid.appendChild(h);
    });
    var offset = (view.getDay() + 6) % 7;
    for (var i = 0; i < offset; i++) grid.appendChild(document.createElement("span"));
    var days = new Date(view.getFullYear(), view.getMonth() + 1, 0).getDate();
    for (var n = 1; n <= days; n++) {
      var day = new Date(view.getFullYear(), view.getMonth(), n);
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = n;
      b.setAttribute("data-fovea", "dp-day-" + n);
      b.disabled = day < today;
      b.addEventListener("click", choose.bind(null, day));
      grid.appendChild(b);
    }
  }

  popup.querySelectorAll(".dp-nav").forEach(function (b) {
    b.addEventListener("click", function () {
      view = new Date(view.getFullYear(), view.getMonth() + Number(b.dataset.step), 1);
      render();
    });
  });
  shown.addEventListener("click", function () { popup.classList.toggle("open"); });
  document.addEventListener("mousedown", function (ev) {
    if (!field.contains(ev.target)) popup.classList.remove("open");
  });
  if (initialIso) {
    var start = parse(initialIso);
    view = new Date(start.getFullYear(), start.getMonth(), 1);
    choose(start);
  }
  render();
};

// Fovea Charts: an SVG bar or line chart whose exact values appear only in a hover tooltip.
// Reads {mark, unit, decimals, color, points: [{label, value}]} from #chart-data.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var W = 1180, H = 520, M = { top: 24, right: 24, bottom: 48, left: 72 };
  var box = document.getElementById("chart");
  var tip = box.querySelector(".tooltip");
  var spec = JSON.parse(document.getElementById("chart-data").textContent);

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    parent.appendChild(node);
    return node;
  }

  function niceStep(max) {
    var raw = max / 5;
    var mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var norm = raw / mag;
    return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
  }

  function fmt(v) {
    return v.toLocaleString("en-US", {
      minimumFractionDigits: spec.decimals, maximumFractionDigits: spec.decimals,
    });
  }

  var max = Math.max.apply(null, spec.points.map(function (p) { return p.value; }));
  var step = niceStep(max);
  var top = Math.ceil(max / step) * step;
  var plotW = W - M.left - M.right, plotH = H - M.top - M.bottom;
  var slot = plotW / spec.points.length;
  function yOf(v) { return M.top + plotH * (1 - v / top); }
  function xOf(i) { return M.left + slot * (i + 0.5); }

  var svg = el("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" }, box);
  for (var t = 0; t <= top + 1e-9; t += step) {
    el("line", { x1: M.left, x2: W - M.right, y1: yOf(t), y2: yOf(t), class: "grid" }, svg);
    el("text", { x: M.left - 10, y: yOf(t) + 5, class: "tick y" }, svg).textContent =
      t.toLocaleString("en-US");
  }
  spec.points.forEach(function (p, i) {
    el("text", { x: xOf(i), y: H - M.bottom + 24, class: "tick x" }, svg).textContent = p.label;
  });

  function show(p, x, y) {
    tip.textContent = p.label + ": " + fmt(p.value) + spec.unit;
    tip.classList.add("shown");
    tip.style.left = (x + 14) + "px";
    tip.style.top = (y - 44) + "px";
  }
  function hide() { tip.classList.remove("shown"); }

  function mark(p, i) {
    var node;
    if (spec.mark === "bar") {
      node = el("rect", {
        x: xOf(i) - slot * 0.35, y: yOf(p.value), width: slot * 0.7,
        height: M.top + plotH - yOf(p.value), fill: spec.color, class: "bar",
      }, svg);
    } else {
      node = el("circle", { cx: xOf(i), cy: yOf(p.value), r: 7, fill: spec.color, class: "dot" }, svg);
    }
    node.setAttribute("data-fovea", (spec.mark === "bar" ? "bar-" : "point-") + p.label);
    node.addEventListener("mouseenter", function () { show(p, xOf(i), yOf(p.value)); });
    node.addEventListener("mouseleave", hide);
  }

  if (spec.mark === "line") {
    var d = spec.points.map(function (p, i) {
      return (i ? "L" : "M") + xOf(i) + " " + yOf(p.value);
    }).join(" ");
    el("path", { d: d, fill: "none", stroke: spec.color, "stroke-width": 3 }, svg);
  }
  spec.points.forEach(mark);
})();

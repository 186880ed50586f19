// Fovea Dash: a canvas bar chart of one source and year at a time. Values appear only in
// a hover tooltip; the legend and the year buttons change the view. Each bar is reported
// to the layout reporter as a region, because a canvas has no elements to mark.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("viz-data").textContent);
  var canvas = document.getElementById("viz-canvas");
  var tip = document.querySelector(".viz .tooltip");
  var title = document.querySelector("[data-fovea=dash-title]");
  var ctx = canvas.getContext("2d");
  var W = 960, H = 500, M = { top: 20, right: 16, bottom: 40, left: 70 };
  var state = { source: data.sources[0].key, year: data.years[data.years.length - 1] };
  var bars = [];

  var ratio = window.devicePixelRatio || 1;
  canvas.width = W * ratio;
  canvas.height = H * ratio;
  ctx.scale(ratio, ratio);

  function source() {
    return data.sources.filter(function (s) { return s.key === state.source; })[0];
  }

  function niceTop(max) {
    var mag = Math.pow(10, Math.floor(Math.log10(max)));
    return Math.ceil(max / mag) * mag;
  }

  function draw() {
    var src = source();
    var values = src.values[String(state.year)];
    var top = niceTop(Math.max.apply(null, values));
    var plotW = W - M.left - M.right, plotH = H - M.top - M.bottom;
    var slot = plotW / values.length;
    ctx.clearRect(0, 0, W, H);
    ctx.font = "13px Inter, sans-serif";
    ctx.fillStyle = "#5b6575";
    ctx.strokeStyle = "#e3e6ec";
    ctx.textAlign = "right";
    for (var i = 0; i <= 5; i++) {
      var v = top * i / 5;
      var y = M.top + plotH * (1 - i / 5);
      ctx.beginPath(); ctx.moveTo(M.left, y); ctx.lineTo(W - M.right, y); ctx.stroke();
      ctx.fillText(v.toLocaleString("en-US"), M.left - 8, y + 4);
    }
    ctx.textAlign = "center";
    window.foveaRegions.clear("dash-bar-");
    bars = values.map(function (value, i) {
      var h = Math.max(2, plotH * value / top);
      var bar = { x: M.left + slot * i + slot * 0.15, y: M.top + plotH - h, w: slot * 0.7, h: h,
                  value: value, month: data.months[i] };
      ctx.fillStyle = src.color;
      ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
      ctx.fillStyle = "#5b6575";
      ctx.fillText(bar.month.slice(0, 3), bar.x + bar.w / 2, H - M.bottom + 22);
      window.foveaRegions.set("dash-bar-" + bar.month.slice(0, 3).toLowerCase(), canvas,
                              { x: bar.x, y: bar.y, w: bar.w, h: bar.h });
      return bar;
    });
    title.textContent = "Monthly electricity generation · " + src.label + " · " + state.year;
    document.querySelectorAll(".legend li").forEach(function (li) {
      li.classList.toggle("active", li.dataset.source === state.source);
    });
    document.querySelectorAll(".years button").forEach(function (b) {
      b.classList.toggle("active", b.dataset.year === String(state.year));
    });
    tip.classList.remove("shown");
  }

  canvas.addEventListener("mousemove", function (ev) {
    var r = canvas.getBoundingClientRect();
    var x = ev.clientX - r.left, y = ev.clientY - r.top;
    var hit = bars.filter(function (b) {
      return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
    })[0];
    if (!hit) { tip.classList.remove("shown"); return; }
    tip.textContent = source().label + " · " + hit.month + " " + state.year + ": " +
      hit.value.toLocaleString("en-US") + " GWh";
    tip.style.left = (canvas.offsetLeft + hit.x + hit.w + 8) + "px";
    tip.style.top = (canvas.offsetTop + Math.max(0, hit.y - 10)) + "px";
    tip.classList.add("shown");
  });
  canvas.addEventListener("mouseleave", function () { tip.classList.remove("shown"); });
  document.querySelectorAll(".legend li").forEach(function (li) {
    li.addEventListener("click", function () { state.source = li.dataset.source; draw(); });
  });
  document.querySelectorAll(".years button").forEach(function (b) {
    b.addEventListener("click", function () { state.year = Number(b.dataset.year); draw(); });
  });
  document.querySelectorAll(".legend .swatch").forEach(function (sw) {
    sw.style.background = sw.dataset.color;
  });
  document.fonts.ready.then(draw);
})();

// Layout reporter: tells the suite server where this document's marked elements are.
//
// Every suite page loads this script. On load and after every DOM change, scroll,
// mouse move, resize or transition (throttled), it POSTs to /__fovea/report the
// viewport, scroll offsets and, for each element with data-fovea="<id>", its rect in
// this document's viewport CSS pixels, whether it is visible, whether a click at its
// centre would hit it (null: unknown), and its displayed text (form controls: their
// value). A child frame reports the same in its own viewport with window.name as its
// frame name; the server shifts it by the iframe's content origin reported by the parent.
// Mutations inside [data-fovea-ticker] (a clock) are not reported on their own.
// Canvas charts register hit regions with window.foveaRegions.set(id, canvas, rect).
(function () {
  "use strict";
  var GAP_MS = 80;
  var MAX_TEXT = 1000;
  var page = "p" + Math.random().toString(36).slice(2) + Date.now().toString(36);
  var show = 1;
  var seq = 0;  // reports may arrive out of order; the server keeps the highest
  var timer = null;
  var last = 0;
  var regions = new Map();

  function isVisible(el, r) {
    if (r.width <= 1 || r.height <= 1) return false;
    if (el.checkVisibility) {
      return el.checkVisibility({
        opacityProperty: true, visibilityProperty: true, checkOpacity: true,
        checkVisibilityCSS: true,
      });
    }
    var cs = getComputedStyle(el);
    return cs.visibility !== "hidden" && cs.display !== "none" && Number(cs.opacity) > 0;
  }

  function hits(el, r) {
    // An element the pointer passes through (a tooltip) can be seen but never hit: unknown.
    if (getComputedStyle(el).pointerEvents === "none") return null;
    var cx = r.left + r.width / 2;
    var cy = r.top + r.height / 2;
    if (cx < 0 || cy < 0 || cx >= innerWidth || cy >= innerHeight) return null;
    var h = document.elementFromPoint(cx, cy);
    return !!h && (h === el || el.contains(h));
  }

  function shownText(el) {
    return (el.innerText || el.textContent || "").replace(/\s+/g, " ").trim().slice(0, MAX_TEXT);
  }

  function controlValue(el) {
    if (el.tagName === "SELECT") {
      var opt = el.selectedOptions[0];
      return opt ? opt.text.trim() : "";
    }
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") return el.value;
    return null;
  }

  function frameBox(el, r, out) {
    var cs = getComputedStyle(el);
    out.frame = el.name || null;
    out.ox = r.left + el.clientLeft + parseFloat(cs.paddingLeft);
    out.oy = r.top + el.clientTop + parseFloat(cs.paddingTop);
    out.cw = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    out.ch = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  }

  // A link that wraps over two lines has a bounding box whose centre may be blank space
  // between its line boxes; report the widest line box, where a person would click.
  function targetRect(el) {
    var rects = el.getClientRects();
    if (rects.length < 2) return el.getBoundingClientRect();
    return Array.prototype.reduce.call(rects, function (a, b) { return b.width > a.width ? b : a; });
  }

  function describe(el) {
    var r = targetRect(el);
    var visible = isVisible(el, r);
    var out = {
      id: el.getAttribute("data-fovea"), x: r.left, y: r.top, w: r.width, h: r.height,
      visible: visible, hit: visible ? hits(el, r) : false,
      text: visible ? shownText(el) : "", value: controlValue(el),
    };
    if (el.tagName === "IFRAME") frameBox(el, r, out);
    return out;
  }

  function describeRegion(id, region) {
    var r = region.canvas.getBoundingClientRect();
    var x = r.left + region.rect.x;
    var y = r.top + region.rect.y;
    var visible = isVisible(region.canvas, r);
    var box = { left: x, top: y, width: region.rect.w, height: region.rect.h };
    return {
      id: id, x: x, y: y, w: region.rect.w, h: region.rect.h, visible: visible,
      hit: visible ? hits(region.canvas, box) : false, text: region.text || "", value: null,
    };
  }

  function collect() {
    var elements = Array.prototype.map.call(document.querySelectorAll("[data-fovea]"), describe);
    regions.forEach(function (region, id) {
      if (region.canvas.isConnected) elements.push(describeRegion(id, region));
    });
    seq += 1;
    return {
      page: page, show: show, seq: seq, top: window.top === window, frame: window.name || "",
      url: location.href, title: document.title, vw: innerWidth, vh: innerHeight,
      sx: scrollX, sy: scrollY, elements: elements,
    };
  }

  function send(report) {
    fetch("/__fovea/report", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(report),
    }).catch(function () { /* the page must work without the server's bookkeeping */ });
  }

  function flush() {
    timer = null;
    last = Date.now();
    send(collect());
  }

  function schedule() {
    if (timer !== null) return;
    timer = setTimeout(flush, Math.max(0, last + GAP_MS - Date.now()));
  }

  function inTicker(node) {
    var el = node.nodeType === 1 ? node : node.parentElement;
    return !!el && !!el.closest("[data-fovea-ticker]");
  }

  window.foveaRegions = {
    set: function (id, canvas, rect, text) {
      regions.set(id, { canvas: canvas, rect: rect, text: text || "" });
      schedule();
    },
    clear: function (prefix) {
      Array.from(regions.keys()).forEach(function (id) {
        if (id.indexOf(prefix) === 0) regions.delete(id);
      });
      schedule();
    },
  };

  new MutationObserver(function (records) {
    if (records.some(function (rec) { return !inTicker(rec.target); })) schedule();
  }).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
  ["scroll", "mousemove", "resize", "input", "change", "focusin", "transitionend",
    "animationend", "load"].forEach(function (name) {
    window.addEventListener(name, schedule, { capture: true, passive: true });
  });
  window.addEventListener("pageshow", function (ev) {
    if (ev.persisted) show += 1;
    schedule();
  });
  window.addEventListener("pagehide", function () {
    navigator.sendBeacon("/__fovea/report", JSON.stringify({
      page: page, show: show, seq: seq + 1, top: window.top === window, frame: window.name || "",
      gone: true,
    }));
  });
  if (document.fonts) document.fonts.ready.then(schedule);
  schedule();
})();

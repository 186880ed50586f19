// Fovea Daily: a ticking clock and a carousel that rotates every few seconds. Hovering the
// carousel or choosing a story with a dot pauses it, as on most news sites.
(function () {
  "use strict";
  var clock = document.querySelector(".clock");
  function tick() {
    clock.textContent = new Date().toLocaleString("en-GB", {
      weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit",
      second: "2-digit",
    });
  }
  tick();
  setInterval(tick, 1000);

  var carousel = document.querySelector(".carousel");
  if (!carousel) return;
  var slides = carousel.querySelectorAll(".slide");
  var dots = carousel.querySelectorAll(".dot");
  var current = 0;
  var hovered = false;
  var pausedUntil = 0;

  function show(index) {
    current = (index + slides.length) % slides.length;
    slides.forEach(function (s, i) { s.classList.toggle("active", i === current); });
    dots.forEach(function (d, i) { d.classList.toggle("active", i === current); });
  }
  dots.forEach(function (dot, i) {
    dot.addEventListener("click", function () { pausedUntil = Date.now() + 15000; show(i); });
  });
  carousel.addEventListener("mouseenter", function () { hovered = true; });
  carousel.addEventListener("mouseleave", function () { hovered = false; });
  setInterval(function () {
    if (!hovered && Date.now() > pausedUntil) show(current + 1);
  }, 3500);
  show(0);
})();

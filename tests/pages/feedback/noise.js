// Things that change with no action at all: a ticking uptime clock (its text length
// grows), a carousel that swaps its slide element, a news ticker that adds and removes
// items, and a title that flashes. Every page under feedback/ includes this.
(() => {
  const started = Date.now();
  const clock = document.getElementById("clock");
  if (clock) setInterval(() => { clock.textContent = `Uptime ${Math.round((Date.now() - started) / 1000)} s`; }, 1000);
  const track = document.getElementById("track");
  const dots = document.querySelectorAll("#dots span");
  let slide = 0;
  window.advance = () => {
    slide = (slide + 1) % 5;
    const next = document.createElement("div");
    next.className = "slide";
    next.textContent = `Slide ${slide + 1}: headline number ${slide + 1}`;
    track.replaceChildren(next);
    dots.forEach((d, i) => d.classList.toggle("on", i === slide));
  };
  if (track) setInterval(window.advance, 700);
  const ticker = document.getElementById("ticker");
  let n = 0;
  if (ticker) {
    setInterval(() => {
      n += 1;
      const item = document.createElement("li");
      item.textContent = `Market update ${n}`;
      ticker.append(item);
      if (ticker.children.length > 1 + (n % 2)) ticker.firstElementChild.remove();
    }, 900);
  }
})();

// Fit each transparent text span to the width of the text it covers on the page image, so a
// selection (find_text's match) lies over the drawn words. Runs again when the page resizes.
(() => {
  const fit = () => {
    for (const span of document.querySelectorAll(".text-layer span")) {
      span.style.transform = "";
      const want = span.parentElement.clientWidth * Number(span.dataset.w);
      const have = span.scrollWidth;
      if (have > 0 && want > 0) span.style.transform = `scaleX(${want / have})`;
    }
  };
  fit();
  addEventListener("resize", fit);
})();

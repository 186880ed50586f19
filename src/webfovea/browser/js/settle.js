// Resolve true once the document has had no content mutations for quietMs
// (attribute churn from animations is ignored on purpose: a rotating carousel
// must not hold every step hostage), false when capMs passes first.
({ quietMs, capMs }) => new Promise((resolve) => {
  const start = performance.now();
  let last = start;
  const obs = new MutationObserver(() => { last = performance.now(); });
  obs.observe(document, { subtree: true, childList: true, characterData: true });
  const tick = () => {
    const now = performance.now();
    if (now - last >= quietMs && document.readyState !== "loading") {
      obs.disconnect();
      resolve(true);
    } else if (now - start >= capMs) {
      obs.disconnect();
      resolve(false);
    } else {
      setTimeout(tick, 40);
    }
  };
  setTimeout(tick, 40);
})

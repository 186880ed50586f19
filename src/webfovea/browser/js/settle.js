// Resolve true once the document has had no content mutations for quietMs
// (attribute churn from animations is ignored on purpose: a rotating carousel
// must not hold every step hostage), false when capMs passes first.
({ quietMs, capMs }) => new Promise((resolve) => {
  const start = performance.now();
  let last = start;
  const obs = new MutationObserver(() => { last = performance.now(); });
  obs.observe(document, { subtree: true, childList: true, characterData: true });
  const finish = (value) => { obs.disconnect(); resolve(value); };
  const check = () => {
    const now = performance.now();
    if (now - start >= capMs) return finish(false);
    const quietFor = now - last;
    if (quietFor >= quietMs && document.readyState !== "loading") return finish(true);
    setTimeout(check, Math.max(10, Math.min(quietMs - quietFor, capMs - (now - start))));
  };
  setTimeout(check, quietMs);
})

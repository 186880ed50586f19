// Resolve true once the document has had no content mutations for quietMs
// (attribute churn from animations is ignored on purpose: a rotating carousel
// must not hold every step hostage), false when capMs passes first.
// Mutations inside regions the fingerprint's watcher has learned to be
// volatile (a ticker, a clock) are ignored too, or a page that updates faster
// than quietMs would never settle.
({ quietMs, capMs }) => new Promise((resolve) => {
  const start = performance.now();
  let last = start;
  const watcher = window[Symbol.for("webfovea.watch")];
  const noise = (node) => Boolean(watcher) && [...watcher.volatile].some((v) => v.contains(node));
  const obs = new MutationObserver((records) => {
    if (records.some((r) => !noise(r.target))) last = performance.now();
  });
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

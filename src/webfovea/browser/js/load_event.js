// Epoch milliseconds of this document's load event, or null before it fired
// (webfovea.testing.timing: how long after it the first model call came).
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return nav && nav.loadEventEnd > 0 ? performance.timeOrigin + nav.loadEventEnd : null;
}

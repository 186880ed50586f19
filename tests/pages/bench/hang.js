// Once the page has loaded, its script never yields again: every later call into
// the page (screenshots, scripts) waits forever. The bench must end such a task.
window.addEventListener("load", () => {
  setTimeout(() => {
    for (;;) {
      // busy forever
    }
  }, 0);
});

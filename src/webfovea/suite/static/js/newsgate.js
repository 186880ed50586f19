// The archive gate: once the embedded check reports success, record it and reload.
(function () {
  "use strict";
  var CHECK_ORIGIN = "http://verify.fovea.test";
  window.addEventListener("message", function (ev) {
    if (ev.origin !== CHECK_ORIGIN || !ev.data || ev.data.type !== "fovea-verified") return;
    fetch("/archive/verify", { method: "POST" }).then(function () { location.reload(); });
  });
})();

(function () {
  "use strict";
  document.getElementById("now").textContent = String(Date.now());
  document.getElementById("lucky").textContent = String(Math.floor(Math.random() * 1e9));
  var bust = new URLSearchParams(location.search).get("cb") || String(Date.now());
  fetch("data.json?cb=" + bust + "&_=" + Date.now())
    .then(function (r) { return r.json(); })
    .then(function (d) { document.getElementById("data").textContent = d.line; })
    .catch(function () { document.getElementById("data").textContent = "failed"; });
  var id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()));
  fetch("echo", {method: "POST", headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({q: "tram 4", requestId: id, sent: Date.now()})})
    .then(function (r) { return r.json(); })
    .then(function (d) { document.getElementById("echo").textContent = d.q; })
    .catch(function () { document.getElementById("echo").textContent = "failed"; });
  var other = new URLSearchParams(location.search).get("frame");
  if (other) document.getElementById("frame").src = other;
})();

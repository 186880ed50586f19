fetch("count").then(function (r) { return r.text(); })
  .then(function (n) { document.getElementById("count").textContent = n; });

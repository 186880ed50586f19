// Rankings table: column sorting and "load more" fetch rows from the server; the cookie
// banner covers the lower part of the page until a choice is made.
(function () {
  "use strict";
  var ASC_FIRST = ["rank", "name", "country"];
  var body = document.getElementById("rank-rows");
  var count = document.querySelector("[data-fovea=loaded-count]");
  var status = document.querySelector("[data-fovea=sort-state]");
  var more = document.getElementById("load-more");
  var total = Number(count.textContent.match(/of (\d+)/)[1]);
  var state = { sort: "rank", dir: "asc", limit: body.rows.length };

  function refresh() {
    var url = "/rows?sort=" + state.sort + "&dir=" + state.dir + "&limit=" + state.limit;
    return fetch(url).then(function (r) { return r.text(); }).then(function (html) {
      body.innerHTML = html;
      count.textContent = "Showing " + body.rows.length + " of " + total + " universities";
      more.hidden = body.rows.length >= total;
      document.querySelectorAll("th button").forEach(function (b) {
        b.classList.toggle("sorted", b.dataset.sort === state.sort);
        b.classList.toggle("asc", state.dir === "asc");
      });
      var label = document.querySelector("th button[data-sort=" + state.sort + "]").textContent;
      status.textContent = "Sorted by " + label + (state.dir === "asc" ? " (ascending)" : " (descending)");
    });
  }

  document.querySelectorAll("th button").forEach(function (b) {
    b.addEventListener("click", function () {
      if (state.sort === b.dataset.sort) {
        state.dir = state.dir === "asc" ? "desc" : "asc";
      } else {
        state.sort = b.dataset.sort;
        state.dir = ASC_FIRST.indexOf(state.sort) >= 0 ? "asc" : "desc";
      }
      refresh();
    });
  });
  more.addEventListener("click", function () {
    state.limit = Math.min(total, state.limit + 20);
    refresh();
  });
  document.querySelectorAll("[data-consent]").forEach(function (b) {
    b.addEventListener("click", function () {
      document.cookie = "fovea_consent=" + b.dataset.consent + "; path=/; max-age=31536000";
      document.querySelector(".cookie-banner").remove();
    });
  });
})();

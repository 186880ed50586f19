// Statistical portal: a filter <select> applies itself as soon as it changes, like
// many national statistics portals (the search box still needs Enter).
document.querySelectorAll("form.filters select").forEach(function (select) {
  select.addEventListener("change", function () { select.form.submit(); });
});

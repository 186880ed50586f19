// The other site's origin comes in the query (?other=http://localhost:PORT).
const other = new URLSearchParams(location.search).get("other") + "/guard/still.html";
document.getElementById("link").href = other + "?via=link";
document.getElementById("tab").href = other + "?via=tab";
document.getElementById("popup").addEventListener("click", () => window.open(other + "?via=popup"));

// The link goes where ?to= says: another origin, so leaving is the domain lock's business.
const to = new URLSearchParams(location.search).get("to");
if (to) document.getElementById("away").href = to;

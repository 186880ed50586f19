// Seeded-looking fixed data: the demo's answer is known (East Basin grain 2023 = 48,210 t).
const DATA = [
  ["north", "grain", 2023, 31250], ["north", "timber", 2023, 12040],
  ["east", "grain", 2023, 48210], ["east", "timber", 2023, 9875],
  ["south", "grain", 2023, 22730], ["south", "containers", 2023, 77120],
];
const NAMES = { north: "North Quay", east: "East Basin", south: "South Terminal" };

function render(rows) {
  const table = document.getElementById("table");
  table.innerHTML = "<tr><th>Port</th><th>Cargo</th><th>Year</th><th>Tonnes</th></tr>" +
    rows.map((r) => `<tr><td>${NAMES[r[0]]}</td><td>${r[1]}</td><td>${r[2]}</td><td>${r[3].toLocaleString("en-US")}</td></tr>`).join("");
  document.getElementById("status").textContent = `${rows.length} result(s)`;
}

document.getElementById("query").addEventListener("submit", (event) => {
  event.preventDefault();
  const port = document.getElementById("port").value;
  const q = document.getElementById("q").value.trim().toLowerCase();
  render(DATA.filter((r) => (!port || r[0] === port) && (!q || r[1].includes(q))));
});

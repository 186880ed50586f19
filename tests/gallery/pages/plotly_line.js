// A Plotly SVG line chart: hovering a point shows its values in Plotly's hover label.
import Plotly from "plotly.js-dist-min";

const plot = document.getElementById("plot");
await Plotly.newPlot(plot, [
  { x: [2019, 2020, 2021, 2022, 2023], y: [41, 17, 33, 58, 46], mode: "lines+markers",
    name: "Exports", line: { color: "rgb(0, 150, 60)", width: 3 }, marker: { size: 14 } },
], {
  margin: { l: 60, r: 20, t: 40, b: 50 }, hovermode: "closest", hoverlabel: { bgcolor: "rgb(20, 20, 20)" },
  xaxis: { title: { text: "Year" }, dtick: 1 }, yaxis: { title: { text: "Exports (bn)" }, range: [0, 70] },
}, { displayModeBar: false, responsive: false });
window.plot = plot;
window.plotReady = true;

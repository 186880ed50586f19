// A Chart.js bar chart with its default animation, legend (click hides a dataset, fading
// its bars out frame by frame) and canvas tooltips.
import Chart from "chart.js/auto";

const chart = new Chart(document.getElementById("chart"), {
  type: "bar",
  data: {
    labels: ["Q1", "Q2", "Q3", "Q4"],
    datasets: [
      { label: "Revenue", data: [12, 19, 15, 22], backgroundColor: "rgb(230, 40, 40)" },
      { label: "Costs", data: [8, 11, 9, 13], backgroundColor: "rgb(30, 90, 220)" },
    ],
  },
  options: {
    maintainAspectRatio: false,
    // Counts finished animations, so a test can wait for the entry animation's end.
    animation: { duration: 1000, onComplete: () => { window.chartIdle = (window.chartIdle || 0) + 1; } },
    scales: { y: { beginAtZero: true, max: 25 } },
    plugins: { tooltip: { backgroundColor: "rgb(20, 20, 20)" } },
  },
});
window.chart = chart;

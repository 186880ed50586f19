// Draws the dashboard's total in large, clear digits: only the screenshot's pixels carry it.
const ctx = document.getElementById("total").getContext("2d");
ctx.fillStyle = "#ffffff";
ctx.fillRect(0, 0, 640, 200);
ctx.fillStyle = "#000000";
ctx.font = "bold 96px sans-serif";
ctx.textBaseline = "middle";
ctx.fillText("58,317", 40, 100);

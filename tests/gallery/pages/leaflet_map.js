// A Leaflet map without network: tiles are drawn locally on canvases (a grid labelled with
// the tile's coordinates), one circle marker with a popup.
import L from "leaflet";
import "leaflet/dist/leaflet.css";

const Grid = L.GridLayer.extend({
  createTile(coords) {
    const tile = document.createElement("canvas");
    const size = this.getTileSize();
    tile.width = size.x;
    tile.height = size.y;
    const ctx = tile.getContext("2d");
    ctx.fillStyle = (coords.x + coords.y) % 2 ? "rgb(235, 235, 220)" : "rgb(220, 230, 235)";
    ctx.fillRect(0, 0, size.x, size.y);
    ctx.strokeStyle = "rgb(160, 160, 160)";
    ctx.strokeRect(0, 0, size.x, size.y);
    ctx.fillStyle = "rgb(90, 90, 90)";
    ctx.font = "14px sans-serif";
    ctx.fillText(`${coords.z}/${coords.x}/${coords.y}`, 8, 20);
    return tile;
  },
});
const map = L.map("map", { center: [53.35, -6.26], zoom: 6 });
new Grid().addTo(map);
const office = L.circleMarker([53.35, -6.26], { radius: 14, color: "rgb(200, 0, 160)", fillColor: "rgb(200, 0, 160)", fillOpacity: 1 })
  .addTo(map).bindPopup("Dublin office: 42 staff");
window.map = map;
window.office = office;

// SortableJS in its native HTML5 drag-and-drop mode (no forceFallback): the browser's own
// dragstart/dragover/drop, which a pointer that jumps or releases at once does not finish.
import Sortable from "sortablejs";

const list = document.getElementById("list");
for (const li of list.children) {
  li.style.cssText = "height:44px;line-height:44px;margin:0 0 6px;padding:0 14px;background:#dde8ff;border:1px solid #8aa;cursor:grab";
}
const order = () => [...list.children].map((li) => li.textContent);
window.galleryState = { order: order() };
Sortable.create(list, {
  animation: 150,
  onEnd: () => {
    window.galleryState.order = order();
    document.getElementById("status").textContent = `Order: ${order().join(", ")}`;
  },
});

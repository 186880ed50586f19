// Swiper with autoplay: a carousel that moves to its next slide every 1.2 s by itself (a
// 300 ms transform transition, the pagination bullets' active class moving along), with its
// own arrows, and a like button beside it. window.gallerySlides records when each slide
// change began (performance.now()) and window.galleryNext when the next is due, so a test
// can time a click to land just before one.
import Swiper from "swiper";
import { Autoplay, Navigation, Pagination } from "swiper/modules";
import "swiper/css";
import "swiper/css/navigation";
import "swiper/css/pagination";

window.galleryState = { likes: 0, slide: 0, manual: 0 };
window.gallerySlides = [];
window.galleryNext = Infinity;
const swiper = new Swiper("#carousel", {
  modules: [Autoplay, Navigation, Pagination],
  loop: true,
  speed: 300,
  autoplay: { delay: 1200, disableOnInteraction: false },
  navigation: { nextEl: ".swiper-button-next", prevEl: ".swiper-button-prev" },
  pagination: { el: ".swiper-pagination", clickable: true },
});
swiper.on("slideChangeTransitionStart", () => {
  window.gallerySlides.push(performance.now());
  window.galleryState.slide = swiper.realIndex;
});
swiper.on("autoplayTimeLeft", (s, timeLeft) => { window.galleryNext = performance.now() + timeLeft; });
for (const arrow of document.querySelectorAll(".swiper-button-prev, .swiper-button-next")) {
  arrow.addEventListener("click", () => { window.galleryState.manual += 1; });
}
document.getElementById("likes").addEventListener("click", () => {
  window.galleryState.likes += 1;
  document.getElementById("status").textContent = `Likes: ${window.galleryState.likes}`;
});

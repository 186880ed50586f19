// What a screenshot is taken with, in one round trip: the layout viewport in CSS
// pixels as the page itself measures it, the device pixel ratio (capture = page x
// ratio), the screen's size (kept as it is: see capture.py), the document's title, and
// where the visual viewport is: its top-left in document CSS pixels (the window's scroll
// offset, plus the pinch-zoom pan) and its zoom. A capture clip is in document
// coordinates, so without the offset it draws the top of the document, not what is seen.
() => {
  const vv = window.visualViewport;
  return { width: window.innerWidth, height: window.innerHeight,
           ratio: window.devicePixelRatio, title: document.title,
           screenWidth: screen.width, screenHeight: screen.height,
           left: vv ? vv.pageLeft : window.scrollX, top: vv ? vv.pageTop : window.scrollY,
           zoom: vv ? vv.scale : 1 };
}

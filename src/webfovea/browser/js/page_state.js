// What a screenshot is taken with, in one round trip: the layout viewport in CSS
// pixels as the page itself measures it, the device pixel ratio (capture = page x
// ratio), the screen's size (kept as it is: see capture.py) and the document's title.
() => ({ width: window.innerWidth, height: window.innerHeight,
         ratio: window.devicePixelRatio, title: document.title,
         screenWidth: screen.width, screenHeight: screen.height })

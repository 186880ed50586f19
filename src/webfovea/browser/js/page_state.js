// What a screenshot is taken with, in one round trip: the layout viewport in CSS
// pixels as the page itself measures it, the device pixel ratio (capture = page x
// ratio) and the document's title.
() => ({ width: window.innerWidth, height: window.innerHeight,
         ratio: window.devicePixelRatio, title: document.title })

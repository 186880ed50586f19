// What a screenshot is taken with, in one round trip: the layout viewport in CSS
// pixels as the page itself measures it, and the document's title.
() => ({ width: window.innerWidth, height: window.innerHeight, title: document.title })

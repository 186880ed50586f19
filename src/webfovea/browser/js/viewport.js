// The layout viewport in CSS pixels, as the page itself measures it.
() => ({ width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio })

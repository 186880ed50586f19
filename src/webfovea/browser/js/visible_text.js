// The text this frame renders (innerText skips hidden elements), for the answer's evidence.
() => (document.body ? document.body.innerText : "")

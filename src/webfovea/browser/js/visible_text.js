// The text this frame renders, for the answer's evidence and its grounding: the body's
// innerText (which skips hidden elements), then the text of every open shadow root,
// which innerText does not enter. A shadow root's children are read one by one, and only
// those the browser renders (innerText of an unrendered element is its whole textContent).
() => {
  if (!document.body) return "";
  const parts = [document.body.innerText];
  const roots = [];
  for (const e of document.querySelectorAll("*")) if (e.shadowRoot) roots.push(e.shadowRoot);
  for (let i = 0; i < roots.length; i++) {
    for (const e of roots[i].querySelectorAll("*")) if (e.shadowRoot) roots.push(e.shadowRoot);
    for (const child of roots[i].children) {
      if (child.checkVisibility && !child.checkVisibility({ visibilityProperty: true })) continue;
      if (child.tagName === "STYLE" || child.tagName === "SCRIPT") continue;
      const text = child.innerText;
      if (text && text.trim()) parts.push(text);
    }
  }
  return parts.join("\n");
}

// Describe the element at a point of this frame, for notes and for select/fill:
// tag, role (explicit or implied), its own short visible text, whether it looks
// clickable or editable, whether it is a graphic (SVG or canvas, whose effects may be
// text or pixels only, with the canvas box), and the options of a <select> (the
// point may be on its label). Open shadow roots are looked into; a custom element whose
// content cannot be looked into (a closed shadow root) is a graphic like a canvas: only
// its pixels can tell whether it changed. Run through scripts.at_point (elementAt).
// An <iframe> there also gives its content box (frameBox), for the hit test to go on.
({ x, y }) => {
  const el = elementAt({ x, y });
  if (!el) return null;
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  // The element's own words: its text nodes, else its label attributes, else its whole
  // text when short; a large container's text would be the page, not this element.
  const ownText = (node) => {
    const own = squash(Array.from(node.childNodes).filter((n) => n.nodeType === 3).map((n) => n.nodeValue).join(" "));
    if (own) return own.slice(0, 80);
    for (const a of ["aria-label", "title", "alt", "placeholder", "value"]) {
      const v = squash(node.getAttribute(a));
      if (v) return v.slice(0, 80);
    }
    const all = squash(node.innerText === undefined ? node.textContent : node.innerText);
    return all.length <= 120 ? all.slice(0, 80) : "";
  };
  const implied = { A: "link", BUTTON: "button", SELECT: "combobox", TEXTAREA: "textbox", SUMMARY: "button", IMG: "img", H1: "heading", H2: "heading", H3: "heading", LI: "listitem", OPTION: "option" };
  const inputRoles = { checkbox: "checkbox", radio: "radio", button: "button", submit: "button", reset: "button", range: "slider" };
  const roleOf = (n) => {
    if (n.getAttribute("role")) return n.getAttribute("role");
    if (n.tagName === "INPUT") return inputRoles[n.type] || "textbox";
    if (n.tagName === "A" && !n.hasAttribute("href")) return "";
    return implied[n.tagName] || "";
  };
  const clickableTags = new Set(["A", "BUTTON", "SELECT", "INPUT", "TEXTAREA", "LABEL", "SUMMARY", "OPTION"]);
  const clickableRoles = new Set(["button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch", "combobox", "menuitemcheckbox", "menuitemradio", "treeitem"]);
  let clickable = false;
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  for (let n = el; n && n.nodeType === 1 && n !== document.body; n = up(n)) {
    const role = n.getAttribute("role");
    if (clickableTags.has(n.tagName) || (role && clickableRoles.has(role)) || n.onclick ||
        n.hasAttribute("onclick") || getComputedStyle(n).cursor === "pointer") {
      clickable = true;
      break;
    }
  }
  let control = el;
  if (el.tagName === "LABEL" && el.control) control = el.control;
  const select = control.closest ? control.closest("select") : null;
  const editable = (control.tagName === "INPUT" && !["button", "submit", "checkbox", "radio", "file", "image", "reset", "range", "color"].includes(control.type)) ||
    control.tagName === "TEXTAREA" || control.isContentEditable;
  const closed = el.tagName.includes("-") && !el.shadowRoot && !el.firstElementChild;
  const canvas = el.tagName === "CANVAS" || closed ? el : null;
  const box = canvas ? canvas.getBoundingClientRect() : null;
  // An iframe's content box in this frame's viewport (its box plus its border): the hit
  // test goes on inside it.
  const inner = el.tagName === "IFRAME" || el.tagName === "FRAME" ? el.getBoundingClientRect() : null;
  return {
    frameBox: inner ? { left: inner.left + el.clientLeft, top: inner.top + el.clientTop } : null,
    tag: el.tagName.toLowerCase(),
    id: el.id || "",
    role: roleOf(el),
    text: ownText(el),
    clickable,
    editable: Boolean(editable),
    // A field the page masks (a password): what is typed there is a secret, kept out of
    // exported datasets (webfovea.research.export).
    masked: control.tagName === "INPUT" && control.type === "password",
    graphic: closed ? "shadow" : canvas ? "canvas" : el.closest("svg") ? "svg" : null,
    canvas: box ? { left: box.left, top: box.top, width: box.width, height: box.height } : null,
    select: select ? {
      options: Array.from(select.options).map((o) => squash(o.text)),
      selected: select.selectedIndex,
      disabled: select.disabled,
    } : null,
  };
}

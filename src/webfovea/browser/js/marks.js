// The interactive elements one document shows (its open shadow roots included; child frames
// are asked one by one from Python): links, buttons, form fields, selects, ARIA widgets,
// editable regions. Only what a person can reach at its centre is kept: inside the viewport,
// with a size, not hidden, and the element (or a descendant) is what the centre hits. Each
// element keeps one id for the document's life (a WeakMap on the window), so its number is
// the same at every step while the page stays.
() => {
  const SELECTOR = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    "[contenteditable=''], [contenteditable=true]", "[tabindex]:not([tabindex='-1'])",
    ...["button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox",
      "menuitemradio", "option", "combobox", "textbox", "searchbox", "switch", "slider",
      "spinbutton", "listbox", "treeitem", "gridcell"].map((r) => `[role=${r}]`),
  ].join(", ");
  const state = (window.__foveaMarks ||= { ids: new WeakMap(), next: 1 });
  const vw = window.innerWidth, vh = window.innerHeight;
  const clean = (t) => (t || "").replace(/\s+/g, " ").trim().slice(0, 80);

  function implicitRole(el) {
    const tag = el.tagName.toLowerCase();
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "select") return el.multiple ? "listbox" : "combobox";
    if (tag === "textarea") return "textbox";
    if (tag === "input") {
      const type = (el.type || "text").toLowerCase();
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox" || type === "radio" || type === "range") {
        return type === "range" ? "slider" : type;
      }
      return type === "search" ? "searchbox" : "textbox";
    }
    return el.isContentEditable ? "textbox" : "generic";
  }

  function name(el) {
    const label = el.getAttribute("aria-label");
    if (label) return clean(label);
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const root = el.getRootNode();
      const text = by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent || "").join(" ");
      if (clean(text)) return clean(text);
    }
    // A web component's inner field often has an empty <label> (Shoelace's): read on.
    const labelled = el.labels && [...el.labels].map((l) => clean(l.textContent)).find(Boolean);
    if (labelled) return labelled;
    const tag = el.tagName.toLowerCase();
    if (tag === "input" && ["button", "submit", "reset"].includes(el.type)) return clean(el.value);
    if (tag === "select") return clean(el.selectedOptions?.[0]?.textContent);
    return clean(el.getAttribute("alt") || el.getAttribute("placeholder") || el.innerText ||
                 el.textContent || el.getAttribute("title") || hostPlaceholder(el) ||
                 described(el));
  }

  // Shoelace's <sl-input placeholder="City"> keeps the words on its host element.
  function hostPlaceholder(el) {
    const host = el.getRootNode().host;
    return host ? host.getAttribute("placeholder") || host.getAttribute("label") : "";
  }

  // react-select's input names nothing; its placeholder describes it (aria-describedby).
  function described(el) {
    const by = el.getAttribute("aria-describedby");
    const root = el.getRootNode();
    return by ? by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent || "").join(" ") : "";
  }

  function value(el) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked ? "checked" : "unchecked";
    if (el.tagName === "SELECT") return clean([...el.selectedOptions].map((o) => o.textContent).join(", "));
    if ("value" in el && el.tagName !== "BUTTON" && el.tagName !== "LI") return clean(String(el.value));
    return el.getAttribute("aria-valuenow") || el.getAttribute("aria-checked") || "";
  }

  function reachable(el, r) {
    if (r.width < 2 || r.height < 2) return false;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (cx < 0 || cy < 0 || cx >= vw || cy >= vh) return false;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none" || Number(style.opacity) === 0) return false;
    const root = el.getRootNode();
    const hit = (root.elementFromPoint ? root : document).elementFromPoint(cx, cy);
    return !!hit && (hit === el || el.contains(hit));
  }

  const found = [];
  const seen = new Set();
  function walk(root) {
    for (const el of root.querySelectorAll(SELECTOR)) {
      if (seen.has(el) || el.disabled) continue;
      seen.add(el);
      const r = el.getBoundingClientRect();
      if (!reachable(el, r)) continue;
      if (!state.ids.has(el)) state.ids.set(el, state.next++);
      found.push({
        id: state.ids.get(el), tag: el.tagName.toLowerCase(),
        role: el.getAttribute("role") || implicitRole(el), name: name(el), value: value(el),
        x: r.left, y: r.top, w: r.width, h: r.height,
      });
    }
    for (const host of root.querySelectorAll("*")) {
      if (host.shadowRoot) walk(host.shadowRoot);
    }
  }
  walk(document);
  // A nested interactive element (a button inside a link) keeps its own mark; one wrapping
  // a kept one adds nothing a reader can tell apart when both have the same box.
  return found.filter((a, i) => !found.some((b, j) => j < i && b.x === a.x && b.y === a.y &&
    b.w === a.w && b.h === a.h));
}

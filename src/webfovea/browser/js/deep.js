// Deep queries: the page as the user sees it, open shadow roots and what their slots show
// included, so every script that looks for an element, its parts or its words reaches a web
// component's insides the same way (watch.js and fingerprint.js keep their own list of
// roots, learned as they attach). In scope as `deep` wherever `elementAt` is (scripts.py).
() => {
  // The parent in the rendered (flat) tree: the slot a light child is shown in, else the
  // parent element, else the host of the shadow root.
  const up = (n) => n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host) || null;
  // The children the user sees: a host's shadow root's, a slot's assigned elements (its
  // fallback content when none are), an element's own otherwise.
  const kids = (n) => {
    if (n.shadowRoot) return [...n.shadowRoot.children];
    if (n.tagName === "SLOT") {
      const assigned = n.assignedElements({ flatten: true });
      return assigned.length ? assigned : [...n.children];
    }
    return [...n.children];
  };
  // The document and every open shadow root in it.
  const roots = () => {
    const out = [document];
    for (let i = 0; i < out.length; i++) {
      for (const e of out[i].querySelectorAll("*")) if (e.shadowRoot) out.push(e.shadowRoot);
    }
    return out;
  };
  const all = (selector) => roots().flatMap((r) => [...r.querySelectorAll(selector)]);
  // Elements inside `el` in the rendered tree that match, in the order they are shown.
  const within = (el, selector) => {
    const out = [];
    const seen = new Set();
    const visit = (n) => {
      for (const c of kids(n)) {
        if (seen.has(c)) continue;
        seen.add(c);
        if (c.matches(selector)) out.push(c);
        visit(c);
      }
    };
    visit(el);
    return out;
  };
  const holds = (outer, inner) => {
    for (let n = inner; n; n = up(n)) if (n === outer) return true;
    for (let n = inner; n; n = n.parentElement || (n.parentNode && n.parentNode.host)) {
      if (n === outer) return true; // a light child its host does not slot is still its own
    }
    return false;
  };
  const closest = (el, selector) => {
    for (let n = el; n; n = up(n)) if (n.nodeType === 1 && n.matches(selector)) return n;
    return null;
  };
  // An id as the element's own tree resolves it (aria-controls inside a shadow root names
  // an element of that root), else the document's.
  const byId = (id, from) => {
    const root = from && from.getRootNode && from.getRootNode();
    return (root && root.getElementById && root.getElementById(id)) || document.getElementById(id);
  };
  // Rendered words of an element through shadow roots and slots (innerText stops at both).
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  // Rendered, visible, and not hidden from assistive technology as a duplicate (a floating
  // label's twin at opacity 0; opacity itself is no test, as menus fade their items in).
  const shown = (el) => el.getAttribute("aria-hidden") !== "true" &&
    (getComputedStyle(el).display === "contents" || (el.checkVisibility
      ? el.checkVisibility({ visibilityProperty: true }) : el.getClientRects().length > 0));
  const flat = (n) => {
    if (n.nodeType === 3) return n.nodeValue;
    if (n.nodeType !== 1 || ["SCRIPT", "STYLE", "TEMPLATE"].includes(n.tagName) || !shown(n)) return "";
    if (n.tagName === "INPUT" || n.tagName === "TEXTAREA") {
      const typed = n.tagName === "TEXTAREA" || ["text", "search", "email", "url", "tel", "number"].includes(n.type);
      const field = typed && getComputedStyle(n).opacity !== "0";
      return field ? ` ${n.value} ` : "";
    }
    const children = n.shadowRoot ? [...n.shadowRoot.childNodes]
      : n.tagName === "SLOT" && n.assignedNodes({ flatten: true }).length ? n.assignedNodes({ flatten: true })
        : [...n.childNodes];
    const block = getComputedStyle(n).display !== "inline" ? " " : "";
    return block + children.map(flat).join("") + block;
  };
  const text = (el) => (el ? squash(flat(el)) : "");
  return { up, kids, roots, all, within, holds, closest, byId, text };
}

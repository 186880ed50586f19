// This frame's fingerprint, and its comparison with the one taken before the action.
//
// One evaluate per frame and phase, after watch.js made sure the watcher runs, with
// elementAt (element_at.js) in scope. "watch" only touches the watcher; "baseline" waits
// until it has watched long enough to know what changes by itself; "before" snapshots the
// frame and opens an action window; "peek" compares with the snapshot and keeps the window
// open (the iframe fallback asks this); "after" compares and closes it. (x, y) is the
// action point in this frame's CSS pixels.
//
// The noise rule: during an action, mutations inside volatile regions (see watch.js) are
// noise, unless the action's own input events made them (a carousel's "next" arrow
// swaps the slide inside its click handler) or they are much larger than the region's
// own bursts. A volatile region the action was aimed at that changed, with nothing to
// tell whether the action did it, is reported as uncertain: the note then says
// "unknown", never "changed". Visible text changes the same way: a caused mutation that
// carries text, or (CSS :hover reveals, no mutation at all) a change in the text of the
// element under the point and its nearest ancestors, which stop below any region that
// ticks by itself. Open shadow roots count like the light DOM everywhere.
({ x, y, phase, quietMs, capMs, probe }) => {
  const w = window[Symbol.for("webfovea.watch")];
  const BURST_GAP = 250;
  const UNLEARN_MS = 2000;
  const now = () => performance.now();
  const point = x === null || y === null ? null : { x, y };
  const { keyOf, up, structural } = w;
  const elementOf = (key) => (typeof key === "string" ? w.sample.get(key) || null : key);

  const hash = (s) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16);
  };
  // Containment across shadow boundaries.
  const holds = (outer, inner) => {
    for (let n = inner; n; n = up(n)) if (n === outer) return true;
    return false;
  };
  const deepActive = () => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  const roots = () => [...w.roots].filter((r) => r.host.isConnected);
  const deepAll = (selector) => [document, ...roots()].flatMap((r) => [...r.querySelectorAll(selector)]);

  const inside = (el, p) => {
    if (!p || !el || !el.isConnected) return false;
    const r = el.getBoundingClientRect();
    return p.x >= r.left && p.x <= r.right && p.y >= r.top && p.y <= r.bottom;
  };
  // An action aimed at a volatile region or at the widget holding it (a carousel's arrow
  // sits beside its track).
  const aimedAt = (el) => Boolean(el) && (inside(el, point) ||
    Boolean(up(el) && !structural(up(el)) && inside(up(el), point)));
  const label = (el) => {
    if (!el) return "<html>";
    const id = el.id ? `#${el.id}` : "";
    const words = structural(el) ? "" : el.innerText || el.textContent || "";
    const text = words.replace(/\s+/g, " ").trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id}>${text ? ` "${text}"` : ""}`;
  };

  // Mutations of the action window that are not noise, short labels, whether any carries
  // text, and the volatile regions aimed at whose change could not be attributed.
  const caused = () => {
    const found = [];
    const noise = new Map();
    let ignored = 0;
    for (const [key, m] of w.caused) {
      if (typeof key !== "string" && !key.isConnected) continue; // charged to its parent too
      if (typeof key === "string" && !m.old && ![...m.nodes].some((n) => n.isConnected)) continue;
      // The window left everything it touched here as it was (pdf.js takes its text layer's
      // .endOfContent out and puts it back on every pointerup): nothing to see.
      if ([...m.touched].every((n) => w.unchanged(n))) continue;
      const v = typeof key === "string" ? (w.volatile.has(key) ? key : null) : w.volatileKey(key);
      if (!v) {
        found.push([elementOf(key), m]);
        continue;
      }
      const sum = noise.get(v) || { weight: 0, text: false, input: false, strict: false, own: true };
      noise.set(v, { weight: sum.weight + m.weight, text: sum.text || m.text,
        input: sum.input || w.inputKeys.has(key), strict: sum.strict || w.strictKeys.has(key),
        own: sum.own && m.own });
    }
    const span = now() - w.snap.at;
    const uncertain = [];
    for (const [v, m] of noise) {
      const s = w.stats.get(v);
      const limit = s.max * (1 + span / Math.max(s.gap, BURST_GAP)) + 2;
      // Changed by the input handlers themselves (a window closed by its bubble listener),
      // anywhere; by a window a page timer may have shared (hover), only where it aimed.
      if (m.strict || (m.input && aimedAt(elementOf(v))) || m.weight > limit) {
        found.push([elementOf(v), m]);
        continue;
      }
      ignored += m.weight;
      // Made wholly by the page's own timers and frames (an autoplay's next slide, also one
      // that began just after the click): its own schedule, not the action's doing.
      if (aimedAt(elementOf(v)) && !m.own) uncertain.push(label(elementOf(v)));
    }
    found.sort((a, b) => b[1].weight - a[1].weight);
    return {
      found: found.slice(0, 3).map((f) => label(f[0])), count: found.length, ignored, uncertain,
      text: found.some((f) => f[1].text),
    };
  };

  // The element under the point and up to three ancestors: where a CSS :hover reveal
  // shows its words. It stops below an ancestor holding a region that ticks by itself.
  // The next siblings count too (`#bar:hover + #tip`), for when the climb stops at <body>.
  const holdsNoise = (el) => [...w.volatile].some((v) => {
    const n = elementOf(v);
    return n && n.isConnected && holds(el, n) && !aimedAt(n);
  });
  const scopeAt = () => {
    let scope = point && elementAt(point);
    if (!scope || holdsNoise(scope)) return [];
    for (let i = 0; i < 3 && up(scope) && !structural(up(scope)) && !holdsNoise(up(scope)); i++) {
      scope = up(scope);
    }
    const out = [scope];
    for (let s = scope.nextElementSibling; s && out.length < 4; s = s.nextElementSibling) {
      if (!holdsNoise(s)) out.push(s);
    }
    return out;
  };
  // Rendered text, through open shadow roots (innerText stops at a shadow host) and the
  // light DOM their slots show. An element that is not rendered shows no text.
  const shown = (el) => el.getClientRects().length > 0 || getComputedStyle(el).display === "contents";
  const flatText = (node, budget) => {
    if (budget.n-- <= 0) return "";
    if (node.nodeType === 3) return node.nodeValue;
    if (node.nodeType !== 1 && node.nodeType !== 11) return "";
    if (node.nodeType === 1) {
      if (!shown(node) || ["SCRIPT", "STYLE", "TEMPLATE"].includes(node.tagName)) return "";
      if (node.tagName === "SLOT") return node.assignedNodes({ flatten: true }).map((n) => flatText(n, budget)).join("");
      if (!node.shadowRoot && !roots().some((r) => holds(node, r.host))) return node.innerText ?? node.textContent;
    }
    const kids = node.nodeType === 1 && node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
    return [...kids].map((n) => flatText(n, budget)).join(" ");
  };
  const scopeText = () => (w.scope || [])
    .filter((el) => el.isConnected)
    .map((el) => flatText(el, { n: 5000 }))
    .join("\u0001");
  const fields = () => deepAll("input, textarea, select")
    .map((e) => (e.type === "checkbox" || e.type === "radio" ? String(e.checked)
      : e.tagName === "SELECT" ? [...e.options].map((o) => (o.selected ? "1" : "0")).join("") + e.value
        : String(e.value)))
    .join("\u0001");
  // The focused field, by identity only (typing into a contenteditable is no focus
  // change). Only fields count: a click focuses any button or link it lands on, whether
  // or not that did anything, and focus moving into a frame is what any click there does.
  const focus = () => {
    const a = deepActive();
    if (!a || structural(a)) return "";
    const typed = a.tagName === "INPUT" && !["button", "submit", "reset", "image", "checkbox", "radio", "file", "range", "color"].includes(a.type);
    const role = a.getAttribute("role");
    if (!(typed || a.tagName === "TEXTAREA" || a.tagName === "SELECT" || a.isContentEditable ||
          role === "textbox" || role === "combobox" || role === "searchbox")) return "";
    const name = a.getAttribute("name") ? ` name=${a.getAttribute("name")}` : "";
    return `<${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ""}${name}>`;
  };
  // The selection the user sees: the caret or selected range in the focused field, and
  // selected page text (ctrl+a, a double-click on a word). A collapsed page caret is not
  // shown, so it does not count.
  const selection = () => {
    const a = deepActive();
    let field = "";
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA") && typeof a.selectionStart === "number") {
      field = `${a.selectionStart}:${a.selectionEnd}`;
    }
    const s = document.getSelection();
    const text = s && !s.isCollapsed ? s.toString() : "";
    return hash(`${field}|${text}`);
  };
  // Scrollable ancestors of the element under the point (inner scroll containers); the
  // window's own scroll is recorded separately.
  const scrollersAt = () => {
    const out = [];
    if (!point) return out;
    for (let n = elementAt(point); n && out.length < 4; n = up(n)) {
      if (structural(n)) break;
      const s = getComputedStyle(n);
      const ys = n.scrollHeight > n.clientHeight && /(auto|scroll)/.test(s.overflowY);
      const xs = n.scrollWidth > n.clientWidth && /(auto|scroll)/.test(s.overflowX);
      if (ys || xs) out.push(n);
    }
    return out;
  };
  // A container gone or hidden since (a menu closed by the pick) reads 0: it did not scroll.
  const offsets = () => w.scrollers.map((n) => (n.isConnected && n.getClientRects().length > 0
    ? [Math.round(n.scrollTop), Math.round(n.scrollLeft)] : null));

  const state = () => {
    const titleEl = document.querySelector("title");
    return {
      url: location.href,
      title: document.title,
      titleVolatile: Boolean(titleEl && w.volatileKey(titleEl)),
      nodes: document.getElementsByTagName("*").length,
      // The DOM's text, for the trajectory only: innerText would lay out and serialize the
      // whole page (about 10 ms on 10,000 nodes, twice a step) for a size nobody compares.
      textLength: document.body ? document.body.textContent.length : 0,
      textHash: hash(scopeText()),
      scrollX: Math.round(window.scrollX),
      scrollY: Math.round(window.scrollY),
      containers: offsets(),
      fields: hash(fields()),
      focus: focus(),
      selection: selection(),
    };
  };

  const compare = (before, now_) => {
    const c = {};
    if (now_.url !== before.url) c.url = now_.url;
    if (now_.title !== before.title && !now_.titleVolatile) c.title = now_.title;
    const content = caused();
    if (content.count) c.content = content.found;
    if (content.text || now_.textHash !== before.textHash) c.text = true;
    if (now_.scrollX !== before.scrollX || now_.scrollY !== before.scrollY) {
      c.scroll = [now_.scrollX - before.scrollX, now_.scrollY - before.scrollY];
    }
    const moved = now_.containers.findIndex((o, i) => {
      const b = before.containers[i];
      return o !== null && b !== null && (o[0] !== b[0] || o[1] !== b[1]);
    });
    if (moved !== -1) {
      const o = now_.containers[moved];
      const b = before.containers[moved];
      c.container = [o[1] - b[1], o[0] - b[0], label(w.scrollers[moved])];
    }
    if (now_.fields !== before.fields) c.fields = true;
    if (now_.focus !== before.focus && now_.focus !== "") c.focus = now_.focus;
    if (now_.selection !== before.selection && now_.focus === before.focus) c.selection = true;
    return { changes: c, ignored: content.ignored, uncertain: content.uncertain };
  };

  const summary = (extra) => ({ id: w.id, ...extra });

  if (phase === "watch") {
    w.inAction = false; // the page is being shown to the model: no action is running
    w.flush();
    return summary({});
  }
  // A region that changed by itself once, just now, may be a clock about to tick again.
  const waitingAt = (t) => [...w.pending].some((r) => t - w.stats.get(r).last < quietMs);
  if (phase === "baseline") {
    // Resolve once every region that changed once by itself has either changed again
    // (volatile) or stayed quiet for quietMs, so a one-second clock is known.
    w.inAction = false;
    return new Promise((resolve) => {
      const tick = () => {
        w.flush();
        const t = now();
        if ((t - w.since >= quietMs && !waitingAt(t)) || t - w.since >= capMs) resolve(summary({}));
        else w.setTimeout(tick, 50);
      };
      tick();
    });
  }
  const prune = () => {
    const t = now();
    const gone = (k) => typeof k !== "string" && !k.isConnected;
    for (const r of w.pending) if (gone(r) || t - w.stats.get(r).last > 10000) w.pending.delete(r);
    for (const r of w.volatile) if (gone(r)) w.volatile.delete(r);
    // A region that has not changed by itself for a good while was a one-off (a chart
    // rendered, then re-rendered at its final size, while the page loaded): it is learned
    // afresh. A clock, ticker or carousel keeps changing well within this.
    for (const r of w.volatile) {
      const s = w.stats.get(r);
      if (t - s.self > Math.max(3 * s.gap, UNLEARN_MS)) {
        w.volatile.delete(r);
        w.stats.delete(r);
      }
    }
  };

  const open = () => {
    w.inAction = false;
    w.flush();
    prune();
    w.scrollers = scrollersAt();
    w.scope = scopeAt();
    const t = now();
    const waiting = waitingAt(t);
    // The element under the point changes by itself (a canvas that redraws itself).
    const target = point && elementAt(point);
    const volatileAt = Boolean(target && w.volatileKey(target));
    w.snap = { ...state(), at: t, age: Math.round(t - w.since), waiting, volatileAt };
    w.caused = new Map();
    w.inputKeys = new Set();
    w.strictKeys = new Set();
    w.born = new WeakSet();
    w.deltas = new Map();
    w.was = new WeakMap();
    w.dirty = new WeakSet();
    w.frames = new Set();
    w.streams = new Map();
    w.reactUntil = -Infinity;
    w.loopWork = -Infinity;
    w.timers = new Map();
    w.requests = new Map();
    w.animBase = new WeakSet(document.getAnimations());
    w.actionSeq = w.changeSeq;
    w.mayScroll = false;
    w.inAction = true;
    w.track = true;
    return summary({ snap: w.snap });
  };
  if (phase === "before") {
    // probe: a frame watched too briefly to know its noise answers so, and opens no window:
    // the harness waits for its baseline first. A window opened meanwhile would hide what
    // the page changes by itself during the wait (learn() counts no burst inside an action
    // window as the page's own), so a one-second sparkline that ticked then stayed unknown.
    if (probe) {
      w.flush();
      if (now() - w.since < quietMs || waitingAt(now())) return summary({ young: true });
    }
    // The top frame lets the page's overdue timers run first: after a busy moment our call
    // can arrive before a clock's tick that was due earlier, which would then land inside
    // the action window. (Only a visible top frame: a hidden one's timers may be throttled.)
    if (window !== window.top || document.visibilityState === "hidden") return open();
    return new Promise((resolve) => w.setTimeout(() => resolve(open()), 0));
  }
  w.flush();
  if (!w.snap || !w.inAction) return summary({ fresh: true, state: state() });
  const current = state();
  const result = compare(w.snap, current);
  if (phase === "after") {
    w.inAction = false;
    w.track = false;
  }
  return summary({ state: current, snapAge: w.snap.age, ...result });
}

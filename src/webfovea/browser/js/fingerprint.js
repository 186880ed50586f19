// This frame's fingerprint, and its comparison with the one taken before the action.
//
// One evaluate per frame and phase. "watch" only starts the watcher below; "baseline"
// waits until it has watched long enough to know what changes by itself; "before"
// snapshots the frame and opens an action window; "peek" compares with the snapshot and
// keeps the window open (the iframe fallback asks this); "after" compares and closes it.
// (x, y) is the action point in this frame's CSS pixels, or null.
//
// Why a watcher and not two fingerprints: ticking clocks and rotating carousels change
// the DOM with no action at all. A MutationObserver, installed on first use, learns
// between actions (while the model thinks) which regions change by themselves: a region
// that changed in two separate bursts is volatile. During an action, mutations inside
// volatile regions are noise, unless the action point is inside that region or the
// change is much larger than the region's own bursts. A one-off late render does not
// make a region volatile, so a change the action really caused is not hidden: hiding
// one makes the model abandon an action that worked, which costs more than a false
// "took effect". Visible text changes the same way: a caused mutation that carries text,
// or (CSS :hover reveals, no mutation at all) a change in the text of the element under
// the point and its nearest ancestors, which stop below any region that ticks by itself.
({ x, y, phase, quietMs, capMs }) => {
  const KEY = Symbol.for("webfovea.watch");
  const BURST_GAP = 250; // ms without mutation that ends a burst
  const BURST_MAX = 1000; // a continuous animation still counts one burst per second
  const IGNORED = new Set(["SCRIPT", "STYLE", "LINK", "META", "NOSCRIPT", "TEMPLATE"]);
  const now = () => performance.now();
  const point = x === null || y === null ? null : { x, y };

  const hash = (s) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16);
  };

  const structural = (el) => el === document.documentElement || el === document.body || el === document.head;
  // The element a mutation is charged to. Attribute changes are charged to the parent,
  // so a carousel moving its "active" class along its slides is one region; a node added
  // straight to <body> (a tooltip, a dialog) is its own region.
  const regionOf = (rec) => {
    const t = rec.target;
    if (rec.type === "childList" && structural(t)) {
      const added = Array.from(rec.addedNodes).find((n) => n.nodeType === 1 && !IGNORED.has(n.tagName));
      if (added) return added;
    }
    const el = rec.type === "childList" ? t : t.parentElement || t.parentNode;
    if (!el || el.nodeType !== 1) return document.documentElement;
    return el;
  };
  // Rendered nodes added or removed; removing a node born in the same action window
  // undoes its addition (a tooltip the pointer passed over on its way), so it weighs nothing.
  const counts = (n) => (n.nodeType === 1 ? !IGNORED.has(n.tagName) : n.nodeType === 3 && n.nodeValue.trim());
  const weightOf = (rec, born) => {
    if (rec.type !== "childList") return 1;
    let w = 0;
    for (const n of rec.addedNodes) if (counts(n)) w += 1;
    for (const n of rec.removedNodes) if (counts(n) && !(born && born.has(n))) w += 1;
    return w;
  };
  // Whether a mutation adds, removes, edits or (by attribute: class, hidden, style) may
  // show or hide words.
  const textual = (rec, born) => {
    const words = (n) => Boolean(n.textContent && n.textContent.trim());
    if (rec.type === "characterData") return true;
    if (rec.type === "attributes") return words(rec.target);
    return Array.from(rec.addedNodes).some(words) ||
      Array.from(rec.removedNodes).some((n) => !born.has(n) && words(n));
  };
  const learn = (w, region, weight, t) => {
    if (structural(region)) return; // a page that churns <body> itself gets no noise allowance
    let s = w.stats.get(region);
    if (!s) {
      s = { bursts: 0, start: -Infinity, last: -Infinity, weight: 0, max: 0, gap: Infinity };
      w.stats.set(region, s);
    }
    if (t - s.last > BURST_GAP || t - s.start > BURST_MAX) {
      if (s.bursts) s.gap = Math.min(s.gap, t - s.start);
      s.bursts += 1;
      s.start = t;
      s.weight = 0;
      if (s.bursts === 1) w.pending.add(region);
      else {
        w.pending.delete(region);
        w.volatile.add(region);
      }
    }
    s.last = t;
    s.weight += weight;
    s.max = Math.max(s.max, s.weight);
  };

  const take = (w, records) => {
    const t = now();
    for (const rec of records) {
      if (w.inAction && rec.type === "childList") for (const n of rec.addedNodes) w.born.add(n);
      const weight = weightOf(rec, w.inAction ? w.born : null);
      if (!weight) continue;
      const region = regionOf(rec);
      if (!w.inAction) {
        learn(w, region, weight, t);
        continue;
      }
      const seen = w.caused.get(region) || { weight: 0, text: false };
      w.caused.set(region, { weight: seen.weight + weight, text: seen.text || textual(rec, w.born) });
    }
  };

  const install = () => {
    const w = {
      id: Math.random().toString(36).slice(2), since: now(), stats: new WeakMap(),
      volatile: new Set(), pending: new Set(), inAction: false, caused: new Map(), born: new WeakSet(),
      snap: null, scrollers: [], scope: null,
    };
    w.observer = new MutationObserver((records) => take(w, records));
    w.observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    Object.defineProperty(window, KEY, { value: w, configurable: true });
    return w;
  };
  const w = window[KEY] || install();
  const flush = () => take(w, w.observer.takeRecords());

  const inside = (el, p) => {
    if (!p) return false;
    const r = el.getBoundingClientRect();
    return p.x >= r.left && p.x <= r.right && p.y >= r.top && p.y <= r.bottom;
  };
  // An action aimed at a volatile region or at the widget holding it (a carousel's arrow
  // sits beside its track) may have caused that region's change.
  const aimedAt = (el) => inside(el, point) ||
    Boolean(el.parentElement && !structural(el.parentElement) && inside(el.parentElement, point));
  const volatileAncestor = (el) => {
    for (let n = el; n; n = n.parentElement) if (w.volatile.has(n)) return n;
    return null;
  };
  const label = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const words = structural(el) ? "" : el.innerText || el.textContent || "";
    const text = words.replace(/\s+/g, " ").trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id}>${text ? ` "${text}"` : ""}`;
  };

  // Mutations of the action window that are not noise: short labels, and whether any
  // of them carries text.
  const caused = () => {
    const found = [];
    const noise = new Map();
    let ignored = 0;
    for (const [region, m] of w.caused) {
      if (!region.isConnected) continue; // its removal is charged to a connected parent
      const v = volatileAncestor(region);
      if (!v) {
        found.push([region, m]);
        continue;
      }
      const sum = noise.get(v) || { weight: 0, text: false };
      noise.set(v, { weight: sum.weight + m.weight, text: sum.text || m.text });
    }
    const span = now() - w.snap.at;
    for (const [v, m] of noise) {
      const s = w.stats.get(v);
      const limit = s.max * (1 + span / Math.max(s.gap, BURST_GAP)) + 2;
      if (aimedAt(v) || m.weight > limit) found.push([v, m]);
      else ignored += m.weight;
    }
    found.sort((a, b) => b[1].weight - a[1].weight);
    return {
      found: found.slice(0, 3).map((f) => label(f[0])), count: found.length, ignored,
      text: found.some((f) => f[1].text),
    };
  };

  // The element under the point and up to three ancestors: where a CSS :hover reveal
  // shows its words. It stops below an ancestor holding a region that ticks by itself.
  // The next siblings count too (`#bar:hover + #tip`), for when the climb stops at <body>.
  const holdsNoise = (el) => [...w.volatile].some((v) => el.contains(v) && !aimedAt(v));
  const scopeAt = () => {
    let scope = point && document.elementFromPoint(point.x, point.y);
    if (!scope || holdsNoise(scope)) return [];
    for (let i = 0; i < 3 && scope.parentElement && !structural(scope.parentElement) &&
         !holdsNoise(scope.parentElement); i++) {
      scope = scope.parentElement;
    }
    const out = [scope];
    for (let s = scope.nextElementSibling; s && out.length < 4; s = s.nextElementSibling) {
      if (!holdsNoise(s)) out.push(s);
    }
    return out;
  };
  // An element that is not rendered has no text on screen (its innerText would be its
  // textContent, so a tooltip shown by :hover would read the same before and after).
  const scopeText = () => (w.scope || [])
    .filter((el) => el.isConnected && el.getClientRects().length > 0)
    .map((el) => (el.innerText === undefined ? el.textContent : el.innerText))
    .join("\u0001");
  const fields = () => Array.from(document.querySelectorAll("input, textarea, select"))
    .map((e) => (e.type === "checkbox" || e.type === "radio" ? String(e.checked) : String(e.value)))
    .join("\u0001");
  // The focused field, by identity only (typing into a contenteditable is no focus
  // change). Only fields count: a click focuses any button or link it lands on, whether
  // or not that did anything, and focus moving into a frame is what any click there does.
  const focus = () => {
    const a = document.activeElement;
    if (!a || structural(a)) return "";
    const typed = a.tagName === "INPUT" && !["button", "submit", "reset", "image", "checkbox", "radio", "file", "range", "color"].includes(a.type);
    const role = a.getAttribute("role");
    if (!(typed || a.tagName === "TEXTAREA" || a.tagName === "SELECT" || a.isContentEditable ||
          role === "textbox" || role === "combobox" || role === "searchbox")) return "";
    const name = a.getAttribute("name") ? ` name=${a.getAttribute("name")}` : "";
    return `<${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ""}${name}>`;
  };
  // Scrollable ancestors of the element under the point (inner scroll containers); the
  // window's own scroll is recorded separately.
  const scrollersAt = () => {
    const out = [];
    if (!point) return out;
    for (let n = document.elementFromPoint(point.x, point.y); n && out.length < 4; n = n.parentElement) {
      if (structural(n)) break;
      const s = getComputedStyle(n);
      const ys = n.scrollHeight > n.clientHeight && /(auto|scroll)/.test(s.overflowY);
      const xs = n.scrollWidth > n.clientWidth && /(auto|scroll)/.test(s.overflowX);
      if (ys || xs) out.push(n);
    }
    return out;
  };
  const offsets = () => w.scrollers.map((n) => [Math.round(n.scrollTop), Math.round(n.scrollLeft)]);

  const state = () => {
    const titleEl = document.querySelector("title");
    return {
      url: location.href,
      title: document.title,
      titleVolatile: Boolean(titleEl && volatileAncestor(titleEl)),
      nodes: document.getElementsByTagName("*").length,
      textLength: document.body ? (document.body.innerText || "").length : 0,
      textHash: hash(scopeText()),
      scrollX: Math.round(window.scrollX),
      scrollY: Math.round(window.scrollY),
      containers: offsets(),
      fields: hash(fields()),
      focus: focus(),
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
    const moved = now_.containers.findIndex((o, i) => o[0] !== before.containers[i][0] || o[1] !== before.containers[i][1]);
    if (moved !== -1) {
      const o = now_.containers[moved];
      const b = before.containers[moved];
      c.container = [o[1] - b[1], o[0] - b[0]];
    }
    if (now_.fields !== before.fields) c.fields = true;
    if (now_.focus !== before.focus && now_.focus !== "") c.focus = now_.focus;
    return { changes: c, ignored: content.ignored };
  };

  const summary = (extra) => ({ id: w.id, ...extra });

  if (phase === "watch") {
    w.inAction = false; // the page is being shown to the model: no action is running
    flush();
    return summary({});
  }
  if (phase === "baseline") {
    // Resolve once every region that changed once by itself has either changed again
    // (volatile) or stayed quiet for quietMs, so a one-second clock is known.
    w.inAction = false;
    return new Promise((resolve) => {
      const tick = () => {
        flush();
        const t = now();
        const waiting = [...w.pending].some((r) => t - w.stats.get(r).last < quietMs);
        if ((t - w.since >= quietMs && !waiting) || t - w.since >= capMs) resolve(summary({}));
        else setTimeout(tick, 50);
      };
      tick();
    });
  }
  const prune = () => {
    const t = now();
    for (const r of w.pending) if (!r.isConnected || t - w.stats.get(r).last > 10000) w.pending.delete(r);
    for (const r of w.volatile) if (!r.isConnected) w.volatile.delete(r);
  };

  if (phase === "before") {
    w.inAction = false;
    flush();
    prune();
    w.scrollers = scrollersAt();
    w.scope = scopeAt();
    w.snap = { ...state(), at: now(), age: Math.round(now() - w.since) };
    w.caused = new Map();
    w.born = new WeakSet();
    w.inAction = true;
    return summary({ snap: w.snap });
  }
  flush();
  if (!w.snap || !w.inAction) return summary({ fresh: true, state: state() });
  const current = state();
  const result = compare(w.snap, current);
  if (phase === "after") w.inAction = false;
  return summary({ state: current, snapAge: w.snap.age, ...result });
}

// The page-side watcher: installed from document start in every frame (a context init
// script), and by the fingerprint and settle scripts where it is missing. Idempotent.
//
// It does two jobs with one MutationObserver (on the document and on every open shadow
// root):
// 1. Noise: it learns which regions change by themselves (clocks, tickers, carousels,
//    toasts). A region is volatile once it changed in two separate bursts while no
//    action ran, or in three evenly spaced bursts counting those during actions (a
//    countdown started by the task's first action is noise a second or two later, but
//    a status line that changed once at load and once per action is not). Children
//    added to or removed from <html>/<body> are charged to a signature (tag, id without
//    digits, classes), so a stack of toasts is one region while a new dialog is not.
//    What follows the agent's own actions (their input handlers, and the timers, requests,
//    socket replies and animation frames they started) teaches nothing: a chart redrawn
//    after every hover is not a region that changes by itself.
// 2. Settling: during an action window it records which regions the action's input
//    events changed synchronously, and which short timers (setTimeout up to 1 s),
//    requests (fetch, XHR), socket exchanges (WebSocket, EventSource) and animation-frame
//    loops the action started, so settle.js can wait for exactly those.
// 3. Net effect: per action window it keeps what each touched node was like before its
//    first mutation, so fingerprint.js can tell a window that left the DOM as it was (a
//    node taken out and put back, a class toggled off and on) from a change.
//
// The fingerprint (fingerprint.js) and settle (settle.js) scripts read this state.
(() => {
  const KEY = Symbol.for("webfovea.watch");
  if (window[KEY]) return;
  const BURST_GAP = 250; // ms without mutation that ends a burst
  const BURST_MAX = 1000; // a continuous animation still counts one burst per second
  const SHORT_TIMER = 1000; // longest setTimeout an action's settle waits for
  const TIMER_DEPTH = 3; // a timer chain the action started is followed this deep
  const FRAME_INTERVAL = 50; // a setInterval this fast is a script animation (jQuery 1.x: 13 ms)
  const IGNORED = new Set(["SCRIPT", "STYLE", "LINK", "META", "NOSCRIPT", "TEMPLATE"]);
  // Never rendered while scripts run: what changes inside them is no change of the page.
  const UNSHOWN = "noscript, template";
  // ms after a timer, request, socket reply or animation frame the action started during
  // which what changes is its reaction (an input event's own handlers are w.input)
  const REACTION = 250;
  const INPUT_EVENTS = ["pointerdown", "pointerup", "mousedown", "mouseup", "click", "dblclick",
    "contextmenu", "keydown", "keypress", "keyup", "beforeinput", "input", "change", "wheel"];
  // Hover handlers (mouseenter) run after these have bubbled: their window ends with the task.
  const MOVE_EVENTS = ["pointerout", "pointerover", "pointermove", "mouseout", "mouseover", "mousemove"];
  const now = () => performance.now();

  const structural = (el) => el === document.documentElement || el === document.body || el === document.head;
  // The parent across a shadow boundary (a shadow root's parent is its host).
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  // The key a region's statistics are kept under: the element itself, or for a direct
  // child of <html>/<body> a signature shared by look-alike siblings (toast-17, toast-18).
  const keyOf = (el, parent = el && el.parentElement) => {
    if (!el || el.nodeType !== 1 || structural(el)) return null;
    if (!parent || !structural(parent)) return el;
    const id = el.id ? `#${el.id.replace(/\d+/g, "")}` : "";
    const classes = [...el.classList].map((c) => c.replace(/\d+/g, "")).sort().join(".");
    return `${parent.tagName}>${el.tagName}${id}${classes ? `.${classes}` : ""}`;
  };
  const counts = (n) => (n.nodeType === 1 ? !IGNORED.has(n.tagName) : n.nodeType === 3 && n.nodeValue.trim());

  const w = {
    id: Math.random().toString(36).slice(2), since: now(), stats: new Map(), sample: new Map(),
    volatile: new Set(), pending: new Set(), roots: new Set(), inAction: false, input: false,
    caused: new Map(), inputKeys: new Set(), strictKeys: new Set(), windowKeys: new Set(),
    born: new WeakSet(), was: new WeakMap(), dirty: new WeakSet(), snap: null, scrollers: [],
    scope: null, changeSeq: 0, timers: new Map(), intervals: new Map(), requests: new Map(), animBase: new WeakSet(),
    track: document.readyState === "loading", timerDepth: 0, timerFn: null, drawing: new Set(), keyOf, up, structural,
    reactUntil: -Infinity, streams: new Map(), frames: new Set(), loopWork: -Infinity, work: 0, deltas: new Map(),
    actionSeq: 0, mayScroll: false,
  };
  // Something the action did just happened: what changes in the next moment is its reaction.
  const react = () => {
    if (w.inAction) w.reactUntil = now() + REACTION;
  };
  w.loaded = () => document.readyState !== "loading";
  // The watched time (since) counts from the document's last readiness change: nothing is
  // learned while it loads, so a one-second clock started by its parser-time script or its
  // load handler is first seen a second after that, not a second after the watcher started
  // (under load the parser can run well after document start).
  document.addEventListener("readystatechange", () => { w.since = now(); }, true);
  w.volatileKey = (el) => {
    for (let n = el; n; n = up(n)) {
      const k = keyOf(n);
      if (k !== null && w.volatile.has(k)) return k;
    }
    return null;
  };

  // The element a mutation is charged to. Attribute changes are charged to the parent,
  // so a carousel moving its "active" class along its slides is one region.
  const regionOf = (rec) => {
    const t = rec.target;
    if (rec.type === "childList" && t.nodeType === 1 && structural(t)) {
      const moved = [...rec.addedNodes, ...rec.removedNodes].find((n) => n.nodeType === 1 && !IGNORED.has(n.tagName));
      return moved ? keyOf(moved, t) : null; // a removed node has no parent any more
    }
    let el = rec.type === "childList" || rec.drawn ? t : up(t);
    if (el && el.nodeType === 11) el = el.host; // the shadow root itself changed
    if (rec.type !== "childList" && el && structural(el) && t.nodeType === 1) el = t;
    return el && el.nodeType === 1 ? keyOf(el) : null;
  };
  // Whether a stylesheet rule reads a data-* attribute (a selector or attr()): only then can
  // changing it change what is shown. Script bookkeeping (MiniWoB marks every clicked
  // element data-tampered) is no content change. A sheet that cannot be read (another
  // origin) may read any attribute; answers are kept a second, sheets change rarely.
  const styledAttrs = new Map();
  const styled = (name, node) => {
    const known = styledAttrs.get(name);
    if (known && now() - known.at < 1000) return known.styled;
    const root = node.getRootNode();
    const sheets = [...document.styleSheets, ...(document.adoptedStyleSheets || [])];
    if (root !== document) sheets.push(...(root.styleSheets || []), ...(root.adoptedStyleSheets || []));
    const reads = (sheet) => {
      try {
        return [...sheet.cssRules].some((r) => r.cssText.toLowerCase().includes(name));
      } catch (e) {
        return true;
      }
    };
    const answer = sheets.some(reads);
    styledAttrs.set(name, { at: now(), styled: answer });
    return answer;
  };
  // Rendered nodes added or removed; removing a node born in the same action window
  // undoes its addition (a tooltip the pointer passed over on its way), so it weighs nothing.
  const weightOf = (rec) => {
    if (rec.type === "attributes" && rec.attributeName && rec.attributeName.startsWith("data-")) {
      return styled(rec.attributeName, rec.target) ? 1 : 0;
    }
    if (rec.type !== "childList") return 1;
    let n = 0;
    for (const a of rec.addedNodes) if (counts(a)) n += 1;
    for (const r of rec.removedNodes) if (counts(r) && !(w.inAction && w.born.has(r))) n += 1;
    return n;
  };
  // Whether a mutation adds, removes, edits or (by attribute: class, hidden, style) may
  // show or hide words.
  const textual = (rec) => {
    const words = (n) => Boolean(n.textContent && n.textContent.trim());
    if (rec.type === "characterData") return true;
    if (rec.type === "attributes") return words(rec.target);
    return [...rec.addedNodes].some(words) || [...rec.removedNodes].some((n) => !w.born.has(n) && words(n));
  };
  // A mutation that leaves what it touched as it was: text or an attribute set to the value
  // it had, or children replaced by identical ones (an app re-rendering from unchanged
  // state). Nothing shown changed, so it is no effect of the action. Subtrees holding
  // state their markup does not carry (a canvas's drawing, a field's value, a frame, a
  // shadow root) are never taken as identical.
  const STATEFUL = "canvas, iframe, frame, object, embed, video, audio, input, textarea, select";
  const plain = (n) => n.nodeType === 3 || (n.nodeType === 1 && !n.shadowRoot &&
    !n.matches(STATEFUL) && !n.querySelector(STATEFUL));
  const neutral = (rec) => {
    if (rec.drawn) return false;
    if (rec.type === "characterData") return rec.oldValue === rec.target.nodeValue;
    if (rec.type === "attributes") return rec.oldValue === rec.target.getAttribute(rec.attributeName);
    const added = rec.addedNodes;
    const removed = rec.removedNodes;
    if (!added.length || added.length !== removed.length) return false;
    for (let i = 0; i < added.length; i++) {
      if (!plain(removed[i]) || !removed[i].isEqualNode(added[i])) return false;
    }
    return true;
  };
  // The net effect of an action window. Per node a mutation touched: its attributes and
  // text as they were before their first mutation, and its children as they were before
  // its first childList mutation (rebuilt by undoing the batch's records on it). A node
  // removed in the window keeps a serialisation of what it was, so one put back altered
  // is a change; one altered while out of the page (w.dirty) always is.
  const sameAttr = (name, a, b) => a === b || ((name === "class" || name === "style") && !a && !b);
  const serial = (n) => (n.nodeType !== 1 ? n.nodeValue : plain(n) ? n.outerHTML : null);
  const rootOf = (n) => {
    let r = n;
    while (r.parentNode) r = r.parentNode;
    return r;
  };
  const kidsBefore = (target, records) => {
    const list = [...target.childNodes];
    for (let i = records.length - 1; i >= 0; i--) {
      const r = records[i];
      if (r.type !== "childList" || r.target !== target) continue;
      for (const a of r.addedNodes) {
        const k = list.indexOf(a);
        if (k === -1) return false;
        list.splice(k, 1);
      }
      const prev = r.previousSibling ? list.indexOf(r.previousSibling) : -1;
      if (r.previousSibling && prev === -1) return false;
      list.splice(prev + 1, 0, ...r.removedNodes);
    }
    return list;
  };
  const remember = (rec, records) => {
    const t = rec.target;
    let d = w.deltas.get(t);
    if (!d) {
      d = { attrs: new Map(), text: undefined, kids: null, drawn: false };
      w.deltas.set(t, d);
    }
    if (rec.drawn) {
      if (d.drawn === false) d.drawn = picture(t); // before its first drawing call runs
    }
    else if (rec.type === "attributes") {
      if (!d.attrs.has(rec.attributeName)) d.attrs.set(rec.attributeName, rec.oldValue);
    } else if (rec.type === "characterData") {
      if (d.text === undefined) d.text = rec.oldValue;
    } else {
      if (d.kids === null) d.kids = kidsBefore(t, records); // false: could not be rebuilt
      for (const n of rec.removedNodes) if (!w.born.has(n) && !w.was.has(n)) w.was.set(n, serial(n));
    }
  };
  // A canvas's picture, downsampled: a redraw that paints the same pixels is no change. A
  // canvas that cannot be read back (tainted by another origin's image) always changed.
  const scratch = document.createElement("canvas");
  scratch.width = 48;
  scratch.height = 48;
  const picture = (canvas) => {
    try {
      const ctx = scratch.getContext("2d", { willReadFrequently: true });
      ctx.clearRect(0, 0, 48, 48);
      ctx.drawImage(canvas, 0, 0, 48, 48);
      return hashOf(ctx.getImageData(0, 0, 48, 48).data);
    } catch (e) {
      return null;
    }
  };
  const hashOf = (data) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193);
    return h >>> 0;
  };
  const sameKid = (a, b) => {
    if (a !== b) return plain(a) && plain(b) && a.isEqualNode(b);
    if (!w.was.has(a)) return true; // never taken out: its own mutations are its own deltas
    return !w.dirty.has(a) && w.was.get(a) !== null && w.was.get(a) === serial(a);
  };
  // Whether the node is as it was before the window's first mutation of it.
  w.unchanged = (n) => {
    const d = w.deltas.get(n);
    if (!d) return true;
    if (d.drawn === null || d.kids === false) return false;
    if (d.drawn !== false && picture(n) !== d.drawn) return false;
    for (const [name, old] of d.attrs) if (!sameAttr(name, old, n.getAttribute(name))) return false;
    if (d.text !== undefined && d.text !== n.nodeValue) return false;
    if (!d.kids) return true;
    const was = d.kids.filter(counts);
    const is = [...n.childNodes].filter(counts);
    return was.length === is.length && was.every((k, i) => sameKid(k, is[i]));
  };
  // Never rendered while scripts run (<noscript>, <template>): what changes in there shows nothing.
  const unshown = (n) => {
    const el = n.nodeType === 1 ? n : n.parentElement;
    return Boolean(el && el.closest(UNSHOWN));
  };

  const regular = (gaps) => gaps.length >= 2 &&
    Math.max(gaps[0], gaps[1]) <= 1.6 * Math.min(gaps[0], gaps[1]);
  const learn = (key, weight, t) => {
    // The parser building the page is no noise, nor what the action's input handlers do,
    // nor what follows the action's own events, timers, replies and frames.
    // The page's own timers and frames are always what it does by itself.
    if (key === null || !w.loaded()) return;
    if (!w.own && (w.input || (w.inAction && t <= w.reactUntil))) return;
    let s = w.stats.get(key);
    if (!s) {
      s = { bursts: 0, outside: 0, start: -Infinity, last: -Infinity, self: -Infinity, weight: 0, max: 0, gap: Infinity, gaps: [] };
      w.stats.set(key, s);
    }
    const apart = t - s.last > BURST_GAP;
    if (apart || t - s.start > BURST_MAX) {
      if (s.bursts) {
        s.gap = Math.min(s.gap, t - s.start);
        s.gaps = [t - s.start, ...s.gaps].slice(0, 2);
      }
      s.bursts += 1;
      // Only a burst after a pause is a separate one: a chart's one-second entry animation
      // is one, an endless animation is learned by the even spacing of its seconds.
      if (!w.inAction && apart) s.outside += 1;
      s.start = t;
      s.weight = 0;
      if (s.outside >= 2 || (s.bursts >= 3 && regular(s.gaps))) {
        w.pending.delete(key);
        w.volatile.add(key);
      } else if (!w.inAction) w.pending.add(key); // changed by itself once: watch it
    }
    s.last = t;
    s.self = t; // changed by itself: inputs and reactions never reach here
    s.weight += weight;
    s.max = Math.max(s.max, s.weight);
  };

  const take = (records) => {
    const t = now();
    for (const rec of records) {
      if (rec.type === "childList") {
        for (const n of rec.addedNodes) {
          if (w.inAction) w.born.add(n);
          if (n.nodeType === 1) findRoots(n);
        }
      }
      // About a node already out of the page (glide-data-grid styles a probe it removes in
      // the same task): its removal, if it was there before, is recorded on its parent.
      if (!rec.drawn && !rec.target.isConnected) {
        if (w.inAction) w.dirty.add(rootOf(rec.target));
        continue;
      }
      if (unshown(rec.target)) continue;
      const weight = weightOf(rec);
      if (!weight) continue;
      const key = regionOf(rec);
      if (typeof key === "string") { // the latest rendered element of a signature names it
        const el = [...rec.addedNodes, ...rec.removedNodes, rec.target]
          .find((n) => n.nodeType === 1 && !structural(n) && !IGNORED.has(n.tagName));
        if (el) w.sample.set(key, el);
      }
      // A region that redraws itself is live even when a redraw shows the same words (a
      // "3 minutes ago" re-rendered every second): learned as noise all the same. As an
      // effect, a redraw that shows nothing new is none.
      learn(key, weight, t);
      if (neutral(rec)) continue;
      w.work += 1;
      const el = typeof key === "string" ? null : key;
      if (!(key !== null && (w.volatile.has(key) || (el && w.volatileKey(el))))) w.changeSeq += 1;
      if (!w.inAction) continue;
      const where = key === null ? document.documentElement : key;
      const m = w.caused.get(where) || { weight: 0, text: false, nodes: new Set(), old: 0, touched: new Set(), own: true };
      m.own = m.own && w.own; // all of it the page's own timers and frames so far
      remember(rec, records);
      m.touched.add(rec.target);
      m.weight += weight;
      m.text = m.text || textual(rec);
      // A signature region counts only if the window leaves a trace: an element of it still
      // on the page, or one removed that was there before (a tooltip passed over is none).
      if (rec.type !== "childList" || !structural(rec.target)) m.nodes.add(rec.target);
      for (const n of rec.addedNodes) if (n.nodeType === 1) m.nodes.add(n);
      for (const n of rec.removedNodes) if (n.nodeType === 1 && !w.born.has(n)) m.old += 1;
      w.caused.set(where, m);
      if (w.input && !w.own) {
        w.inputKeys.add(where);
        w.windowKeys.add(where);
      }
    }
  };
  w.flush = () => take(w.observer.takeRecords());

  const OPTIONS = { subtree: true, childList: true, characterData: true, attributes: true,
    characterDataOldValue: true, attributeOldValue: true };
  w.observer = new MutationObserver(take);
  w.observer.observe(document, OPTIONS);
  const observeRoot = (root) => {
    if (w.roots.has(root)) return;
    w.roots.add(root);
    w.observer.observe(root, OPTIONS);
    findRoots(root);
  };
  // Open shadow roots already in a subtree (declarative shadow DOM, components that
  // rendered before the watcher came).
  function findRoots(node) {
    if (node.shadowRoot) observeRoot(node.shadowRoot);
    if (!node.firstElementChild) return;
    for (const el of node.querySelectorAll("*")) if (el.shadowRoot) observeRoot(el.shadowRoot);
  }
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function attachShadow(init) {
    const root = attach.call(this, init);
    if (init && init.mode === "open") observeRoot(root);
    return root;
  };
  if (document.documentElement) findRoots(document.documentElement);

  // Which regions the action's own input events changed synchronously: their handlers
  // (and the microtasks they queued) run between the capture listener and the bubble one.
  // A window closed by its bubble listener held nothing but the handlers' own work: its
  // regions are the action's effect wherever they are (w.strictKeys). One ended by the
  // timer fallback (a handler stopped propagation; hover events, whose window ends with
  // their task) may also hold a page timer that ran meanwhile: only w.inputKeys.
  // What the browser does right after an input event is the action's too: the text a key
  // inserts into a contenteditable lands between beforeinput and input, outside both
  // events' handlers (typed at a steady pace, it would otherwise be learned as a region
  // that changes by itself, and an editor's third `type` would be noise).
  const inputEnd = (bubbled) => () => {
    if (!w.input) return;
    w.flush();
    if (bubbled) for (const k of w.windowKeys) w.strictKeys.add(k);
    w.input = false;
    react();
  };
  const fallbackEnd = inputEnd(false);
  // A key or a wheel may start a smooth scroll that the compositor runs: the window's
  // offset moves a frame or two later, so the settle gives such an action a second frame.
  const SCROLLING_INPUT = new Set(["keydown", "wheel"]);
  const inputStart = (e) => {
    if (!w.inAction) return;
    if (e && SCROLLING_INPUT.has(e.type)) w.mayScroll = true;
    w.flush();
    w.input = true;
    w.windowKeys = new Set();
    setT.call(window, fallbackEnd, 0);
  };
  for (const type of INPUT_EVENTS) {
    window.addEventListener(type, inputStart, true);
    window.addEventListener(type, inputEnd(true), false);
  }
  for (const type of MOVE_EVENTS) window.addEventListener(type, inputStart, true);

  // Canvas drawing is no mutation: a 2D context's drawing calls are charged to their
  // canvas like one, so a sparkline redrawn every second is learned as noise while a
  // redraw made by the action's own hover or click handler is not.
  // A canvas that is not rendered (detached, display:none, hidden) shows nothing it draws.
  const rendered = (canvas) => canvas.isConnected && canvas.getClientRects().length > 0 &&
    getComputedStyle(canvas).visibility !== "hidden";
  const drew = (canvas) => {
    if (!canvas || canvas.nodeType !== 1 || w.drawing.has(canvas)) return;
    w.drawing.add(canvas); // one charge per canvas and task
    setT.call(window, () => w.drawing.delete(canvas), 0);
    if (!rendered(canvas)) return;
    take([{ type: "attributes", target: canvas, addedNodes: [], removedNodes: [], drawn: true }]);
  };
  const proto = window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype;
  for (const name of ["clearRect", "fillRect", "strokeRect", "fill", "stroke", "fillText", "strokeText", "drawImage", "putImageData"]) {
    const original = proto && proto[name];
    if (!original) continue;
    proto[name] = function draw(...args) {
      drew(this.canvas);
      return original.apply(this, args);
    };
  }

  // Short timers and requests started while settling is tracked (an action, or the
  // document loading): a timer fired by a tracked timer is tracked too, a few levels deep,
  // so a typeahead's 300 ms debounce and the request it sends are waited for. A timer
  // scheduled from an untracked timer or interval (the page's own clock) is not, nor one
  // that schedules its own callback again (a setTimeout loop).
  const setT = window.setTimeout;
  const clearT = window.clearTimeout;
  const setI = window.setInterval;
  w.setTimeout = (fn, ms) => setT.call(window, fn, ms); // the harness's own timers: never tracked
  const within = (depth, fn, self) => (...a) => {
    const outer = [w.timerDepth, w.timerFn];
    [w.timerDepth, w.timerFn] = [depth, self];
    try {
      return fn(...a);
    } finally {
      [w.timerDepth, w.timerFn] = outer;
    }
  };
  // A timer the page scheduled on its own (not from an input handler or from what follows
  // the action: an autoplay's next slide, a ticker's next step) runs as the page's own work,
  // like its own animation frames: what it changes is learned as self-driven and is never
  // the work of an input handler, even when it comes due inside a hover's input window.
  const byAction = () => !w.own && (w.input || (w.inAction && now() <= w.reactUntil));
  // The transitions and animations it starts during an action are the page's own too:
  // settle does not wait for them (w.animBase), so what its transitionend handlers do next
  // is not held in the action's window either.
  const animations = () => [document, ...w.roots].flatMap((r) => r.getAnimations());
  const own = (fn) => function ownTimer(...a) {
    w.flush();
    const outer = w.own;
    const base = w.inAction ? new Set(animations()) : null;
    w.own = true;
    try {
      return fn.apply(this, a);
    } finally {
      w.flush();
      w.own = outer;
      if (base && w.inAction) for (const anim of animations()) if (!base.has(anim)) w.animBase.add(anim);
    }
  };
  // So are the handlers of a transition or animation ending that the action did not just
  // start (Swiper tidies its slides on transitionend, 300 ms after its own timer moved
  // them): own while the event propagates, its regions then never uncertain.
  let ending = 0;
  const endStart = () => {
    if (byAction() || ending) return;
    w.flush();
    ending = w.own ? 2 : 1;
    w.own = true;
    setT.call(window, endStop, 0);
  };
  const endStop = () => {
    if (!ending) return;
    w.flush();
    w.own = ending === 2;
    ending = 0;
  };
  for (const type of ["transitionend", "animationend"]) {
    window.addEventListener(type, endStart, true);
    window.addEventListener(type, endStop, false);
  }
  window.setTimeout = function setTimeout(fn, delay, ...args) {
    if (typeof fn !== "function") return setT.call(window, fn, delay, ...args);
    const depth = w.timerDepth;
    const tracked = w.track && (Number(delay) || 0) <= SHORT_TIMER && depth < TIMER_DEPTH &&
      fn !== w.timerFn;
    const run = within(tracked ? depth + 1 : TIMER_DEPTH, fn, fn);
    if (!tracked) return setT.call(window, byAction() ? run : own(run), delay, ...args);
    const id = setT.call(window, (...a) => {
      w.timers.delete(id);
      react();
      return run(...a);
    }, delay, ...args);
    w.timers.set(id, now() + (Number(delay) || 0));
    return id;
  };
  window.clearTimeout = function clearTimeout(id) {
    w.timers.delete(id);
    return clearT.call(window, id);
  };
  // A fast interval the action started is a script animation (a slideDown driven by a
  // 13 ms interval): waited for until the script clears it, for at most SHORT_TIMER.
  const clearI = window.clearInterval;
  window.setInterval = function setInterval(fn, delay, ...args) {
    const animation = w.track && (Number(delay) || 0) <= FRAME_INTERVAL && w.timerDepth < TIMER_DEPTH;
    let run = typeof fn === "function" ? within(TIMER_DEPTH, fn, fn) : fn;
    if (typeof fn === "function" && !animation && !byAction()) run = own(run);
    const id = setI.call(window, run, delay, ...args);
    if (animation) w.intervals.set(id, now() + SHORT_TIMER);
    return id;
  };
  window.clearInterval = function clearInterval(id) {
    w.intervals.delete(id);
    return clearI.call(window, id);
  };
  // A new tab the action opens (window.open, a link with a target) arrives at the browser
  // a moment later: settle waits for it to be followed.
  w.popup = false;
  const open_ = window.open;
  window.open = function open(...args) {
    if (w.track) w.popup = true;
    return open_.apply(this, args);
  };
  window.addEventListener("click", (e) => {
    const link = w.track && e.target instanceof Element && e.target.closest("a[target], area[target]");
    if (link && !["_self", "_parent", "_top"].includes(link.target) && link.href) w.popup = true;
  }, true);

  // A request started while tracked; the returned function ends it. Each window has its
  // own map, so a long poll from an earlier window never holds a later one.
  const started = () => {
    if (!w.track) return null;
    const token = {};
    const map = w.requests;
    map.set(token, now());
    return () => {
      map.delete(token);
      react();
    };
  };
  if (window.fetch) {
    const fetch_ = window.fetch;
    window.fetch = function fetch(...args) {
      const done = started();
      const p = fetch_.apply(this, args);
      if (done) p.then(done, done);
      return p;
    };
  }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function send_(...args) {
    const done = started();
    if (done) this.addEventListener("loadend", done, { once: true });
    return send.apply(this, args);
  };

  // Animation-frame loops the action started (Chart.js fades a hidden dataset out frame by
  // frame): a frame requested in the action window outside the page's own timers and
  // loops is tracked, and so is every frame a tracked frame requests, so settle.js waits
  // while such a loop keeps changing the page (w.loopWork). A loop that ran before the
  // action is the page's own (a canvas that redraws all the time): never tracked.
  const raf = window.requestAnimationFrame;
  const caf = window.cancelAnimationFrame;
  w.frame = (fn) => raf.call(window, fn); // the harness's own frames: never tracked
  // A script's scroll call during the action (a "back to top" button) may be smooth too.
  for (const [target, names] of [[window, ["scroll", "scrollTo", "scrollBy"]],
    [window.Element && Element.prototype, ["scroll", "scrollTo", "scrollBy", "scrollIntoView"]]]) {
    for (const name of names) {
      const original = target && target[name];
      if (typeof original !== "function") continue;
      target[name] = function scrolled(...args) {
        if (w.inAction) w.mayScroll = true;
        return original.apply(this, args);
      };
    }
  }
  w.inFrame = false;
  w.own = false;
  window.requestAnimationFrame = function requestAnimationFrame(fn) {
    if (typeof fn !== "function") return raf.call(window, fn);
    const depth = w.timerDepth;
    if (w.own || !(w.inAction && w.track && depth < TIMER_DEPTH)) {
      // The page's own loop: what it draws is never the work of an input handler, even
      // when its frame runs inside a hover's input window.
      const run = within(TIMER_DEPTH, fn, fn);
      return raf.call(window, (ts) => {
        w.flush();
        w.own = true;
        try {
          return run(ts);
        } finally {
          w.flush();
          w.own = false;
        }
      });
    }
    if (!w.inFrame) w.loopWork = now(); // a new loop: it gets a moment to show it draws
    const frames = w.frames;
    const run = within(depth, fn, fn);
    const id = raf.call(window, (ts) => {
      frames.delete(id);
      react();
      const work = w.work;
      const outer = w.inFrame;
      w.inFrame = true;
      try {
        return run(ts);
      } finally {
        w.inFrame = outer;
        w.flush();
        if (w.work !== work) w.loopWork = now();
      }
    });
    frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) {
    w.frames.delete(id);
    return caf.call(window, id);
  };

  // Socket exchanges the action started: a message it sent on a WebSocket, or a socket or
  // event stream it opened, and the replies that follow (Streamlit's reruns arrive this
  // way): settle.js waits for a first reply, then until the stream is quiet a moment. Our
  // listeners are added when the stream is made, so they run before the page's own.
  const listen = EventTarget.prototype.addEventListener;
  const heard = new WeakMap();
  const hear = (s, type) => {
    const types = heard.get(s) || new Set();
    heard.set(s, types);
    if (types.has(type)) return;
    types.add(type);
    listen.call(s, type, () => {
      const e = w.streams.get(s);
      if (!e) return;
      e.last = now();
      e.awaiting = false;
      react();
    });
  };
  const expect = (s) => {
    if (!w.track) return;
    w.streams.set(s, { last: now(), awaiting: true });
  };
  const made = (Original) => new Proxy(Original, {
    construct(target, args, newTarget) {
      const s = Reflect.construct(target, args, newTarget);
      hear(s, "message");
      expect(s);
      return s;
    },
  });
  if (window.WebSocket) {
    const sendWs = WebSocket.prototype.send;
    WebSocket.prototype.send = function send(...args) {
      hear(this, "message"); // a socket made before the watcher came
      expect(this);
      return sendWs.apply(this, args);
    };
    window.WebSocket = made(window.WebSocket);
  }
  if (window.EventSource) {
    // Named server-sent events fire only their own type: heard once the page listens.
    const proto_ = EventSource.prototype;
    proto_.addEventListener = function addEventListener(type, ...rest) {
      hear(this, String(type));
      return listen.call(this, type, ...rest);
    };
    window.EventSource = made(window.EventSource);
  }

  Object.defineProperty(window, KEY, { value: w, configurable: true });
})();

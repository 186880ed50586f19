// Resolve once this frame is settled: nothing in flight that the action (or the loading
// document) started, and no mutation outside the regions known to change by themselves
// from now until animation frames have been rendered: quiet checks in a row, one now and
// one after each of the next frames' rendering (with its resize and intersection
// observers). Two rendered frames, as ever, after an action that changed something or
// that may have started a smooth scroll (a key, a wheel, a script's scroll call, a page
// whose window scrolls smoothly: the compositor moves it a frame or two later), and for a
// loading document; one after an action that has changed nothing so far (an inert click).
// In flight means: the document still parsing, a
// short setTimeout, a fast interval (a script animation), a request, a socket exchange (a
// message sent and the replies that follow, until the socket is quiet a moment) or an
// animation-frame loop that keeps changing the page, when the action started it (see
// watch.js); a finite CSS transition, CSS animation or Web Animation that was not running
// before the action (infinite ones never end, so they are ignored). No fixed quiet window:
// a static page settles in one or two frames; a window that is still scrolling is not
// settled. Resolves { quiet: false } when capMs passes first.
({ capMs }) => new Promise((resolve) => {
  const w = window[Symbol.for("webfovea.watch")];
  const start = performance.now();
  const REQUEST_GRACE = 2000; // a request older than this is a long poll, not a reaction
  const STREAM_REPLY = 3000; // ms a socket the action wrote to (or opened) has to answer
  // ms without a message that ends the replies (Streamlit says "running" at once and sends
  // the script's output when it has run)
  const STREAM_QUIET = 500;
  const LOOP_IDLE = 250; // ms a tracked frame loop may change nothing before it is let be
  const held = new Set();
  const running = (a) => {
    if (a.playState !== "running" || w.animBase.has(a)) return false;
    const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
    return Number.isFinite(end);
  };
  // Where the window shows the document: a smooth scroll (keyboard, an anchor under
  // scroll-behavior: smooth) moves it frame after frame, and an image taken before it
  // stops shows a place the page is about to leave. The window only: a container that
  // scrolls by itself (a ticker) must not hold every step.
  const where = () => {
    const v = window.visualViewport;
    return v ? `${v.pageLeft},${v.pageTop},${v.scale}` : `${window.scrollX},${window.scrollY}`;
  };
  let at = where();
  const animating = () => [document, ...w.roots].some((r) => r.getAnimations().some(running));
  const busy = (seq) => {
    const t = performance.now();
    const reasons = [];
    if (document.readyState === "loading") reasons.push("parsing");
    if (w.timers.size) reasons.push("timer");
    for (const [id, until] of w.intervals) if (t >= until) w.intervals.delete(id);
    if (w.intervals.size) reasons.push("interval");
    if ([...w.requests.values()].some((s) => t - s < REQUEST_GRACE)) reasons.push("request");
    if (animating()) reasons.push("animation");
    for (const [s, e] of w.streams) if (s.readyState >= 2) w.streams.delete(s); // closing or closed
    if ([...w.streams.values()].some((e) => t - e.last < (e.awaiting ? STREAM_REPLY : STREAM_QUIET))) {
      reasons.push("socket");
    }
    if (w.frames.size && t - w.loopWork < LOOP_IDLE) reasons.push("frame");
    if (w.changeSeq !== seq) reasons.push("mutation");
    const here = where();
    if (here !== at) reasons.push("scroll");
    at = here;
    for (const r of reasons) held.add(r);
    return reasons.length > 0;
  };
  let quiet = 0;
  let seq = w.changeSeq;
  const finish = (ok) => {
    if (!w.inAction) w.track = false; // the document's own loading window ends here
    channel.port1.close();
    resolve({ quiet: ok, ms: Math.round(performance.now() - start), held: [...held], popup: w.popup });
    w.popup = false;
  };
  // Once the next animation frame is rendered: a message posted from its animation-frame
  // callback is a task, and tasks run after the frame's rendering (style, layout, resize
  // and intersection observers, paint), so what those change is seen by this very check.
  // A timer instead where this frame renders none (display:none, throttled).
  const channel = new MessageChannel();
  const nextFrame = (fn) => {
    let done = false;
    const once = () => { if (!done) { done = true; fn(); } };
    channel.port1.onmessage = once;
    w.frame(() => channel.port2.postMessage(null));
    w.setTimeout(once, 60);
  };
  // Whether one rendered frame is enough: the action has changed nothing and can have
  // started no smooth scroll of the window.
  const inert = () => w.inAction && w.changeSeq === w.actionSeq && !w.mayScroll &&
    getComputedStyle(document.documentElement).scrollBehavior !== "smooth";
  const tick = () => {
    w.flush();
    quiet = busy(seq) ? 0 : quiet + 1;
    seq = w.changeSeq;
    if (quiet >= (inert() ? 2 : 3)) return finish(true);
    if (performance.now() - start >= capMs) return finish(false);
    nextFrame(tick);
  };
  tick();
})

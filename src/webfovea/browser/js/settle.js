// Resolve once this frame is settled: nothing in flight that the action (or the loading
// document) started, and two animation frames in a row without a mutation outside the
// regions known to change by themselves. In flight means: the document still parsing, a
// short setTimeout, a fast interval (a script animation) or a request the action started
// (see watch.js), a finite CSS
// transition, CSS animation or Web Animation that was not running before the action
// (infinite ones never end, so they are ignored). No fixed quiet window: a static page
// settles in two frames. Resolves { quiet: false } when capMs passes first.
({ capMs }) => new Promise((resolve) => {
  const w = window[Symbol.for("webfovea.watch")];
  const start = performance.now();
  const REQUEST_GRACE = 2000; // a request older than this is a long poll, not a reaction
  const held = new Set();
  const running = (a) => {
    if (a.playState !== "running" || w.animBase.has(a)) return false;
    const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
    return Number.isFinite(end);
  };
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
    if (w.changeSeq !== seq) reasons.push("mutation");
    for (const r of reasons) held.add(r);
    return reasons.length > 0;
  };
  let quiet = 0;
  let seq = w.changeSeq;
  const finish = (ok) => {
    if (!w.inAction) w.track = false; // the document's own loading window ends here
    resolve({ quiet: ok, ms: Math.round(performance.now() - start), held: [...held], popup: w.popup });
    w.popup = false;
  };
  // Animation frames, or a timer where this frame renders none (display:none, throttled).
  const nextFrame = (fn) => {
    let done = false;
    const once = () => { if (!done) { done = true; fn(); } };
    requestAnimationFrame(once);
    w.setTimeout(once, 60);
  };
  const tick = () => {
    w.flush();
    quiet = busy(seq) ? 0 : quiet + 1;
    seq = w.changeSeq;
    if (quiet >= 2) return finish(true);
    if (performance.now() - start >= capMs) return finish(false);
    nextFrame(tick);
  };
  nextFrame(tick);
})

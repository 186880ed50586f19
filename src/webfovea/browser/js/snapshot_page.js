// Site snapshots, in every frame before the page's own scripts. Math.random is seeded (the
// same seed while recording and replaying, so random-driven pages and random request ids
// repeat), and what a snapshot cannot replay is reported to the harness: WebSockets, WebRTC
// and service workers carry traffic no recorded response can stand in for. While replaying
// they are refused, so nothing leaves the browser through them, and the wall clock (Date)
// is shifted: a document starts at the time its recording saw when it started (recorded
// through options.clockBinding, served back on replay as the document's Server-Timing
// entry CLOCK), other documents run on from the recording's start (options.shiftMs).
// Only Date: timers stay real, because the harness's own page-side watcher and settle wait
// on them (Playwright's clock.install fakes timers too, and a step's settle then never ended).
(options) => {
  const CLOCK = "webfovea-clock";
  if (options.clockBinding) {
    const started = Date.now();
    try {
      window[options.clockBinding](started, location.href);
    } catch (e) { /* no binding in a frame torn down at once: its clock is not needed */ }
  }
  const recordedStart = () => {
    const [navigation] = performance.getEntriesByType("navigation");
    const entry = navigation && navigation.serverTiming.find((t) => t.name === CLOCK);
    return entry ? Number(entry.description) : NaN;
  };
  const recorded = options.replay ? recordedStart() : NaN;
  if (options.replay && (options.shiftMs || !Number.isNaN(recorded))) {
    const RealDate = Date;
    const realNow = RealDate.now.bind(RealDate);
    const shift = Number.isNaN(recorded) ? options.shiftMs : recorded - realNow();
    const ShiftedDate = function Date(...args) {
      if (!new.target) return new RealDate(realNow() + shift).toString();
      return args.length ? new RealDate(...args) : new RealDate(realNow() + shift);
    };
    ShiftedDate.prototype = RealDate.prototype;
    ShiftedDate.now = () => realNow() + shift;
    ShiftedDate.parse = RealDate.parse;
    ShiftedDate.UTC = RealDate.UTC;
    window.Date = ShiftedDate;
  }
  let state = options.seed >>> 0;
  Math.random = function random() {  // mulberry32: small, fast, good enough for page scripts
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const report = (kind, url) => {
    try {
      window[options.binding](kind, String(url || ""), location.href);
    } catch (e) { /* the binding is missing in a frame torn down mid-call: nothing to report */ }
  };
  const refusal = (what) => new DOMException(`${what} cannot be replayed from a site snapshot`,
                                             "NotSupportedError");
  const wrap = (name, kind, urlOf) => {
    const Original = window[name];
    if (typeof Original !== "function") return;
    const Wrapped = function (...args) {
      report(kind, urlOf(args));
      if (options.replay) throw refusal(name);
      return new Original(...args);
    };
    Wrapped.prototype = Original.prototype;
    Object.setPrototypeOf(Wrapped, Original);
    window[name] = Wrapped;
  };
  wrap("WebSocket", "websocket", (args) => args[0]);
  const servers = (args) => ((args[0] && args[0].iceServers) || [])
    .map((s) => [].concat(s.urls || s.url || [])).flat().join(" ");
  wrap("RTCPeerConnection", "webrtc", servers);
  wrap("webkitRTCPeerConnection", "webrtc", servers);
  const container = navigator.serviceWorker;
  if (container && container.register) {
    const register = container.register.bind(container);
    container.register = (url, ...rest) => {
      report("service_worker", new URL(url, location.href).href);
      return options.replay ? Promise.reject(refusal("A service worker")) : register(url, ...rest);
    };
  }
}

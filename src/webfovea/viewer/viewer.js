// webfovea trajectory viewer: draws a bench index, one task's steps, two runs side by side or
// an index of runs from the JSON embedded in the page. Everything recorded from a page or a
// model is untrusted, so it only ever reaches the DOM as text (textContent, attribute values)
// — never as markup.
(() => {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const app = document.getElementById("app");

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key === "cls") node.className = value;
      else node.setAttribute(key, String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === "") continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const fmt = {
    secs: (s) => (s === null || s === undefined ? "—" : `${Number(s).toFixed(1)} s`),
    int: (n) => Number(n || 0).toLocaleString("en-US"),
    text: (s) => (s === null || s === undefined || s === "" ? "—" : String(s)),
    cost: (c) => (c === null || c === undefined ? "—" : `$${Number(c).toFixed(4)}`),
    pct: (p) => `${(100 * p).toFixed(0)}%`,
  };

  function badge(text, tone) {
    return el("span", { cls: `badge ${tone || ""}`, text });
  }

  function statusTone(status) {
    return status === "finished" ? "good" : status === "running" ? "" : "bad";
  }

  function verdictTone(verdict) {
    return verdict === "correct" ? "good" : verdict === "wrong" ? "bad" : verdict === "undecided" ? "warn" : "";
  }

  function outcomeTone(outcome) {
    if (outcome === "changed" || outcome === "answer") return "good";
    if (outcome === "no_change" || outcome === "unknown") return "warn";
    return "bad";
  }

  function facts(pairs) {
    const dl = el("dl", { cls: "facts" });
    for (const [label, value] of pairs) {
      if (value === null || value === undefined) continue;
      dl.append(el("dt", { text: label }), el("dd", {}, value));
    }
    return dl;
  }

  function tokens(u) {
    return `${fmt.int(u.input_tokens)} in / ${fmt.int(u.output_tokens)} out`;
  }

  // --- charts: inline SVG drawn from the numbers, text as text nodes ----------------------

  // A success rate with its Wilson 95 % interval, which (unlike p ± standard error) stays honest at 0/n and n/n.
  // `caption` is for a chart whose title names the interval; `long` says it itself.
  function rate(correct, n) {
    const p = n ? correct / n : 0;
    const z = 1.959964;
    const d = 1 + (z * z) / (n || 1);
    const centre = (p + (z * z) / (2 * (n || 1))) / d;
    const half = n ? (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d : 0;
    const low = n ? Math.max(0, centre - half) : 0, high = n ? Math.min(1, centre + half) : 0;
    const range = `${(100 * low).toFixed(0)}–${fmt.pct(high)}`;
    return { correct, n, p, low, high, caption: `${fmt.pct(p)} (${range}) ${correct}/${n}`,
      long: `${fmt.pct(p)} (95% CI ${range}) ${correct}/${n}` };
  }

  // The width of a chart's text as the page draws it (the charts' 12 px in the page's font), so the columns
  // are laid out around their longest label and caption instead of clipping them at the chart's edge.
  const measure = (() => {
    const context = document.createElement("canvas").getContext("2d");
    return (text) => {
      context.font = `12px ${getComputedStyle(document.body).fontFamily}`;
      return context.measureText(String(text)).width;
    };
  })();

  // A label cut to `room` pixels, with an ellipsis when it was cut (the whole label is its tooltip).
  function fitted(label, room) {
    let shown = String(label);
    while (shown.length > 1 && measure(shown) > room) shown = `${shown.slice(0, -2)}…`;
    return shown;
  }

  // Horizontal bars: one row per [label, value in 0..max, caption, [low, high] whisker or null].
  function barChart(title, rows, { max = 1, plot = 190, whiskers = false } = {}) {
    const rowH = 22;
    const pad = 8;
    const maxLabel = 220;
    const left = Math.min(maxLabel, Math.max(40, ...rows.map(([label]) => measure(label)))) + 2 * pad;
    const right = Math.max(...rows.map(([, , caption]) => measure(caption))) + 2 * pad;
    const width = Math.ceil(left + plot + right);
    const height = rows.length * rowH + 24;
    const chart = svg("svg", { class: "chart", width, height, viewBox: `0 0 ${width} ${height}`,
      role: "img", "aria-label": title });
    chart.append(svg("title", {}, title));
    rows.forEach(([label, value, caption, range], i) => {
      const y = 8 + i * rowH;
      const w = max ? (plot * value) / max : 0;
      const shown = fitted(label, left - 2 * pad);
      const text = svg("text", { x: left - pad, y: y + 14, "text-anchor": "end", class: "label" }, shown);
      chart.append(shown === String(label) ? text : svg("g", {}, svg("title", {}, String(label)), text),
      svg("rect", { x: left, y: y + 3, width: Math.max(0, w), height: rowH - 8, class: "bar" }),
      svg("text", { x: left + plot + pad, y: y + 14, class: "value" }, caption));
      if (whiskers && range) {
        const [lo, hi] = range.map((v) => (plot * Math.min(max, Math.max(0, v))) / max);
        const cy = y + 3 + (rowH - 8) / 2;
        chart.append(svg("line", { x1: left + lo, x2: left + hi, y1: cy, y2: cy, class: "whisker" }),
          svg("line", { x1: left + lo, x2: left + lo, y1: cy - 5, y2: cy + 5, class: "whisker" }),
          svg("line", { x1: left + hi, x2: left + hi, y1: cy - 5, y2: cy + 5, class: "whisker" }));
      }
    });
    const axisY = height - 14;
    chart.append(svg("line", { x1: left, x2: left + plot, y1: axisY, y2: axisY, class: "axis" }));
    return chart;
  }

  function successChart(title, groups) {
    const rows = [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([name, g]) => {
      const r = rate(g.correct, g.n);
      return [name, r.p, r.caption, [r.low, r.high]];
    });
    return el("figure", {}, el("figcaption", { text: title }),
      rows.length ? barChart(title, rows, { whiskers: true }) : el("p", { cls: "muted", text: "no scored task" }));
  }

  // Equal bins of a round width (1, 2 or 5 times a power of ten) starting at a multiple of it, at most
  // about 8; edges shown with the decimals that width needs, so no two edges read the same ("4–4").
  function bins(values) {
    const lo = Math.min(...values), hi = Math.max(...values);
    const rough = (hi - lo) / 8 || Math.abs(lo) / 10 || 1;
    const power = 10 ** Math.floor(Math.log10(rough));
    const step = [1, 2, 5, 10].map((m) => m * power).find((w) => w >= rough * (1 - 1e-9));
    const start = Math.floor(lo / step + 1e-9) * step;
    const index = (v) => Math.floor((v - start) / step + 1e-9);
    const counts = new Array(index(hi) + 1).fill(0);
    for (const v of values) counts[index(v)] += 1;
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const edge = (i) => (start + i * step).toFixed(decimals);
    return counts.map((n, i) => [`${edge(i)}–${edge(i + 1)}`, n]);
  }

  function histogram(title, values, unit) {
    const xs = values.filter((v) => v !== null && v !== undefined && !Number.isNaN(v));
    if (!xs.length) return el("figure", {}, el("figcaption", { text: title }), el("p", { cls: "muted", text: "no data" }));
    const rows = bins(xs).map(([range, n]) => [`${range}${unit}`, n, String(n)]);
    return el("figure", {}, el("figcaption", { text: title }),
      barChart(title, rows, { max: Math.max(...rows.map(([, n]) => n)) }));
  }

  // --- the marks drawn over a screenshot, in the sent image's own pixels -----------------

  function arrowHead(x1, y1, x2, y2, size) {
    const angle = Math.atan2(y2 - y1, x2 - x1);
    const pts = [0, 2.5, -2.5].map((turn, i) => {
      const a = angle + Math.PI + (i === 0 ? 0 : turn / 6);
      const r = i === 0 ? 0 : size;
      return `${x2 + r * Math.cos(a)},${y2 + r * Math.sin(a)}`;
    });
    return svg("polygon", { class: "head", points: pts.join(" ") });
  }

  function overlay(step) {
    const [w, h] = step.sent_size;
    const layer = svg("svg", { viewBox: `0 0 ${w} ${h}`, preserveAspectRatio: "none",
      "aria-hidden": "true" });
    for (const [x, y, bw, bh] of step.diff || []) {
      layer.append(svg("rect", { class: "diff", x, y, width: bw, height: bh }));
    }
    layer.append(...stepLayers(step, Math.max(w, h) * 0.012));
    const marks = step.marks;
    if (!marks || !w || !h) return layer;
    const r = Math.max(w, h) * 0.012;
    marks.landed.forEach(([x, y], i) => {
      const [mx, my] = marks.points[i] || [x, y];
      layer.append(svg("line", { class: "landed-line", x1: mx, y1: my, x2: x, y2: y }),
        svg("circle", { class: "landed", cx: x, cy: y, r: r * 1.3 }));
    });
    if (marks.points.length === 2) {
      const [[x1, y1], [x2, y2]] = marks.points;
      layer.append(svg("line", { class: "path", x1, y1, x2, y2 }), arrowHead(x1, y1, x2, y2, r));
    }
    if (marks.direction) {
      const [x, y] = marks.points[0];
      const len = h * 0.12;
      const [dx, dy] = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[marks.direction];
      const x2 = x + dx * len;
      const y2 = y + dy * len;
      layer.append(svg("line", { class: "path", x1: x, y1: y, x2, y2 }), arrowHead(x, y, x2, y2, r));
    }
    for (const [x, y] of marks.points) {
      layer.append(svg("circle", { class: "ring", cx: x, cy: y, r }),
        svg("circle", { class: "dot", cx: x, cy: y, r: r * 0.18 }));
    }
    return layer;
  }

  // The layers drawn apart from the image as sent, each switched by its own toggle
  // (layerToggles): the elements the step numbered, and where its point forms were placed.
  function stepLayers(step, r) {
    const layers = step.layers;
    if (!layers) return [];
    const marks = svg("g", { class: "layer layer-marks" });
    for (const m of layers.elements) {
      const [x, y, bw, bh] = m.box;
      marks.append(svg("rect", { class: "mark-box", x, y, width: bw, height: bh, "data-number": m.number },
        svg("title", {}, `${m.number}: ${m.role} '${m.name}'${m.framed ? " (in a frame)" : ""}`)),
      svg("text", { class: "mark-number", x: x + 2, y: y + r * 1.4 }, String(m.number)));
    }
    const placed = svg("g", { class: "layer layer-placed" });
    for (const p of layers.placed) {
      if (!p.point) continue;
      const [x, y] = p.point;
      const d = r * 0.9;
      placed.append(svg("polygon", { class: "placed", points: `${x},${y - d} ${x + d},${y} ${x},${y + d} ${x - d},${y}`,
        "data-form": p.form }, svg("title", {}, `${p.form}='${p.given}'`)),
      svg("text", { class: "placed-label", x: x + d * 1.3, y: y - d * 0.6 }, `${p.form}: ${p.given}`));
    }
    return [marks, placed];
  }

  // One switch per layer for the whole page (shown when some step has that layer).
  function layerToggles(steps) {
    const has = (key) => steps.some((s) => s.layers && s.layers[key].some((x) => key !== "placed" || x.point));
    const toggle = (key, cls, text) => {
      if (!has(key)) return null;
      const box = el("input", { type: "checkbox", id: `toggle-${cls}`, checked: "checked" });
      box.addEventListener("change", () => document.body.classList.toggle(`hide-${cls}`, !box.checked));
      return el("label", { for: `toggle-${cls}` }, box, ` ${text}`);
    };
    const parts = [toggle("elements", "marks", "element marks (the numbered elements each step recorded)"),
      toggle("placed", "placed", "placed points (the grounder's for target=, the mark's centre for mark=)")]
      .filter((p) => p !== null);
    return parts.length ? el("p", { cls: "layer-toggles" }, el("strong", { text: "Layers: " }), ...parts) : null;
  }

  // The full-size view: the image at its own pixels (scrollable), marks included.
  const zoom = {
    box: null,
    open(src, step, alt) {
      this.close();
      const img = el("img", { src, alt, width: step.sent_size[0], height: step.sent_size[1] });
      const shot = el("div", { cls: "shot full" }, img, overlay(step));
      const closeButton = el("button", { type: "button", cls: "close", text: "close (Esc)" });
      this.box = el("div", { cls: "zoom", role: "dialog", "aria-label": alt }, closeButton, shot);
      this.box.addEventListener("click", (e) => { if (e.target === this.box || e.target === closeButton) this.close(); });
      document.body.append(this.box);
      closeButton.focus();
    },
    close() {
      if (this.box) this.box.remove();
      this.box = null;
    },
  };

  // Where a recorded image would be when its file is missing or does not decode: said in
  // words (the file's name and why), the rest of the page as usual.
  function imageProblem(text) {
    return el("p", { cls: "image-problem", role: "img", "aria-label": text, text });
  }

  function screenshot(src, step, alt) {
    const img = el("img", { src, alt, loading: "lazy", width: step.sent_size[0],
      height: step.sent_size[1] });
    const shot = el("div", { cls: "shot zoomable", title: "click for full size" }, img, overlay(step));
    shot.addEventListener("click", () => zoom.open(src, step, alt));
    return shot;
  }

  // --- one task ---------------------------------------------------------------------------

  // The other findings, one line per distinct piece of evidence with the steps it recurred at.
  function otherFindings(d) {
    const lines = new Map();
    for (const f of d.findings) {
      if (f.step === d.step && f.evidence === d.evidence) continue;
      const key = `${f.stage}\u0000${f.evidence}`;
      if (!lines.has(key)) lines.set(key, { ...f, steps: [] });
      if (f.step !== null) lines.get(key).steps.push(f.step);
    }
    return [...lines.values()].map((f) => el("li", {},
      `${f.stage}${f.steps.length ? ` (step ${f.steps.join(", ")})` : ""}${f.strong ? "" : " [weak]"}: `,
      f.evidence));
  }

  function diagnosisBox(d) {
    if (!d) return null;
    const where = d.step === null ? "the task as a whole"
      : el("a", { href: `#step-${d.step}`, text: `step ${d.step}` });
    const rest = otherFindings(d);
    return el("section", { cls: "diagnosis" },
      el("strong", { text: `Diagnosis: ${d.stage}` }), " (", where, ") — ", d.evidence,
      rest.length ? el("ul", {}, rest) : null);
  }

  // The diagnosis again, inside the step it blames.
  function blame(d, step) {
    if (!d) return null;
    const here = d.findings.filter((f) => f.step === step);
    if (d.step !== step && !here.length) return null;
    const lines = here.length ? here : [{ stage: d.stage, evidence: d.evidence, strong: true }];
    return el("div", { cls: `blame${d.step === step ? " first" : ""}` },
      el("strong", { text: d.step === step ? `Diagnosis blames this step: ${d.stage}` : "Also found here" }),
      el("ul", {}, lines.map((f) => el("li", {}, `${f.stage}${f.strong ? "" : " [weak]"}: `, f.evidence))));
  }

  function taskHeader(t, back) {
    return [
      back ? el("p", {}, el("a", { href: back, text: "← all tasks" })) : null,
      el("h1", { text: `Task ${t.id}` }),
      el("p", { cls: "mono", text: t.instruction }),
      facts([
        ["status", badge(t.status, statusTone(t.status))],
        ["verdict", badge(t.verdict, verdictTone(t.verdict))],
        ["entry URL", t.url],
        ["model", fmt.text(t.model)],
        ["steps", String(t.steps)],
        ["time", fmt.secs(t.elapsed)],
        ["tokens", `${tokens(t.usage)} · ${t.usage.calls} calls · ${t.usage.retries} retries`],
        ["cost", t.cost === null || t.cost === undefined ? null : fmt.cost(t.cost)],
        ["by role", byRole(t.usage.by_role)],
        ["requests", t.requests],
        ["error", t.error],
      ]),
      el("p", { cls: "keys", text: "Keys: j / → next step, k / ← previous, r raw reply, " +
        "Home / End first / last, Esc closes the full-size view. Red ring: the point the model " +
        "gave, drawn on the image it was sent; dashed orange ring: where the harness acted, when " +
        "that differs; blue dashed boxes: what changed on screen since the previous step; amber " +
        "boxes: the elements a step numbered; green diamonds: where a target= or mark= was placed " +
        "(both drawn over the image, not in it: switch them off under Layers). " +
        "Click a screenshot for full size; the address follows the step, so it can be linked." }),
    ];
  }

  // usage.by_role (planner, grounder, verifier): shown only when a run had more than one role.
  function byRole(roles) {
    const names = Object.keys(roles || {});
    if (names.length < 2) return null;
    return names.map((r) => `${r}: ${tokens(roles[r])} · ${roles[r].calls} calls` +
      (roles[r].cost === null || roles[r].cost === undefined ? "" : ` · ${fmt.cost(roles[r].cost)}`)).join("; ");
  }

  function pointForms(forms) {
    if (!forms || !forms.length) return null;
    return forms.map((f) => {
      const g = f.grounder;
      const where = f.point ? `(${f.point.map((v) => Math.round(v)).join(", ")})` : "not placed";
      const said = g ? ` · grounder replied ${JSON.stringify(g.raw)} in ${fmt.secs(g.seconds)}` +
        (g.error ? ` · ${g.error}` : "") : "";
      return `${f.form}='${f.given}' → ${where}${said}`;
    }).join("; ");
  }

  function answerSection(t, checks) {
    const info = facts([
      ["answer", el("strong", { text: fmt.text(t.answer) })],
      ["reference", fmt.text(t.reference)],
      ["matcher", t.matcher],
      ["page", fmt.text(t.answer_url)],
      ["at", t.evidence_at ? new Date(t.evidence_at * 1000).toISOString() : "—"],
    ]);
    const shot = t.evidence
      ? el("div", { cls: "shot" }, el("img", { src: t.evidence, alt: "evidence screenshot" }))
      : t.evidence_problem ? imageProblem(`Evidence screenshot — ${t.evidence_problem}`)
      : el("p", { cls: "muted", text: "No evidence screenshot (the task gave no answer)." });
    return el("section", { id: "answer" }, el("h2", { text: "Answer and evidence" }),
      el("div", { cls: "answer" }, shot, el("div", {}, info, checksSection(checks))));
  }

  // --- a trustworthy answer: grounding, the verifier, the evidence judge ------------------

  const GROUNDING_WORDS = { grounded: "grounded", partly_grounded: "partly grounded",
    ungrounded: "ungrounded", not_checked: "not checked" };
  const groundingWord = (s) => GROUNDING_WORDS[s] || fmt.text(s);
  const groundingTone = (s) => (s === "grounded" ? "good" : s === "not_checked" ? "" : s === "ungrounded" ? "bad" : "warn");
  const verifierTone = (v) => (v === "accepted" || v === "accept" ? "good" : v === "disputed" ? "warn" : "bad");
  const categoryTone = (c) => (c === "correct" || c === "supported" ? "good" : c === "stale_reference" ? "warn" : c ? "bad" : "");

  function seenAt(w) {
    return `step ${w.step}${w.url ? ` at ${w.url}` : ""}${w.frame ? ` in frame ${w.frame}` : ""}` +
      (w.place ? `, document ${w.place}` : "") +
      (w.source === "read_text" ? " (read_text)" : w.source === "ocr" ? " (evidence screenshot, OCR)" : "");
  }

  function groundingBox(g) {
    const status = g ? g.status : "not_checked";
    const parts = (g ? g.parts : []).map((p) => el("li", { cls: `part ${p.state}` },
      el("code", { text: p.text }), ` ${p.kind}: `,
      p.state === "missing" ? el("span", { cls: "refused", text: "not found" })
        : `${p.state}${p.where.length ? ` — ${p.where.map(seenAt).join("; ")}` : ""}${p.how ? ` (${p.how})` : ""}`));
    return el("div", { cls: "grounding", "data-grounding": status },
      el("strong", { text: "Grounding: " }), badge(groundingWord(status), groundingTone(status)),
      g && g.page !== "ok" ? [" ", badge(`page: ${g.page}`, "bad"), g.page_reason ? ` ${g.page_reason}` : ""] : null,
      g && g.before_action ? [" ", badge("answered before any action", "warn")] : null,
      g && g.challenged ? [" ", badge("challenged once", "warn")] : null,
      g && g.note ? el("div", { cls: "muted", text: g.note }) : null,
      parts.length ? el("ul", {}, parts) : null);
  }

  function verifierBox(v, calls) {
    if (!v) return null;
    const rows = calls.map((c) => el("tr", { cls: "verifier-call" },
      el("td", { cls: "num", text: String(c.step) }), el("td", { text: c.answer }),
      el("td", {}, badge(c.verdict, verifierTone(c.verdict))), el("td", { text: fmt.text(c.reason) }),
      el("td", { cls: "num", text: tokens(c.usage) }), el("td", { cls: "num", text: fmt.cost(c.cost) })));
    return el("div", { cls: "verifier", "data-verdict": v.verdict },
      el("strong", { text: "Verifier: " }), badge(v.verdict, verifierTone(v.verdict)),
      ` ${fmt.text(v.model)} · ${v.calls} call${v.calls === 1 ? "" : "s"} · ${v.rejections} rejection${v.rejections === 1 ? "" : "s"}` +
        ` · ${tokens(v.usage)}${v.cost === null || v.cost === undefined ? "" : ` · ${fmt.cost(v.cost)}`}`,
      v.reason ? el("div", {}, el("strong", { text: "reason: " }), v.reason) : null,
      rows.length ? el("table", { cls: "calls-table" }, el("thead", {}, el("tr", {},
        ["step", "answer", "verdict", "reason", "tokens", "cost"].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows)) : null);
  }

  function judgeBox(e) {
    if (!e) return null;
    return el("div", { cls: "judge", "data-category": e.category || "" },
      el("strong", { text: "Evidence judge: " }), badge(e.verdict.replace("_", " "), categoryTone(e.verdict)),
      e.category ? [" category ", badge(e.category, categoryTone(e.category))] : null,
      e.judge ? ` (${e.judge})` : "", e.reason ? el("div", {}, el("strong", { text: "reason: " }), e.reason) : null);
  }

  function checksSection(c) {
    if (!c) return null;
    return el("div", { cls: "checks" }, groundingBox(c.grounding),
      verifierBox(c.verifier, c.verifier_calls), judgeBox(c.evidence_judge),
      documentsBox(c.documents || []));
  }

  // The documents the task met (result.json ``documents``): opened, saved or refused.
  function documentsBox(docs) {
    if (!docs.length) return null;
    const items = docs.map((d) => el("li", { cls: "document" },
      badge(d.kind || d.content_type, d.shown ? "good" : "bad"), " ",
      d.path ? el("a", { href: d.path, text: d.url }) : d.url,
      el("div", { cls: "muted", text: d.note })));
    return el("div", { cls: "documents" }, el("strong", { text: "Documents" }), el("ul", {}, items));
  }

  // What the model was sent at this step: the new prompt text and the screenshots, linked.
  function sentSection(s) {
    const sent = s.sent;
    if (!sent) return null;
    const images = sent.images.map((img) => el("li", {},
      img.href ? el("a", { href: img.href, text: img.label }) : img.label,
      img.size ? ` (${img.size[0]}×${img.size[1]} sent)` : ""));
    const earlier = sent.turns > 1 ? `; before it, ${sent.turns - 1} earlier turns (the earlier steps' prompts and replies)` : "";
    return el("details", { cls: "sent" }, el("summary", { text: `Sent to the model (${images.length} screenshot${images.length === 1 ? "" : "s"})` }),
      el("div", { cls: "muted", text: `system text ${fmt.int(sent.system_chars)} characters${earlier}` }),
      el("strong", { text: "Screenshots attached (oldest first)" }), el("ul", {}, images),
      el("strong", { text: "This step's prompt" }), el("pre", { text: fmt.text(sent.text) }));
  }

  // The site's XHR and fetch requests sent during this step (network.jsonl): method, URL,
  // status and post data; the response body folded.
  function requestsSection(s) {
    const reqs = s.requests || [];
    if (!reqs.length) return null;
    const items = reqs.map((r) => el("li", { cls: "request" },
      el("code", { text: `${r.method} ${r.url}` }), " ",
      badge(r.status === null ? r.failure || "failed" : String(r.status),
        r.status !== null && r.status < 400 ? "good" : "bad"),
      el("span", { cls: "muted", text: ` ${r.type}${r.sent_at ? `, ${r.sent_at}` : ""}` }),
      r.frame ? el("div", { cls: "muted mono", text: `from the frame ${r.frame}` }) : null,
      r.post !== null ? el("pre", { cls: "post", text: r.post }) : null,
      r.body !== null ? el("details", { cls: "body" },
        el("summary", { text: `response body (${fmt.text(r.content_type)}, ${fmt.int(r.body_size ?? r.body.length)} bytes` +
          `${r.body_truncated ? ", cut at the record's cap" : ""})` }),
        el("pre", { text: r.body }),
        r.shown_cut ? el("div", { cls: "muted", text: "cut for this page: the whole text is in network.jsonl" }) : null)
        : null));
    return el("details", { cls: "requests", open: true },
      el("summary", { text: `Requests (${reqs.length})` }), el("ol", {}, items));
  }

  // A native dialect's calls of one turn, in order: each with its outcome and note; the
  // calls after a refusal are marked as not executed.
  function callsSection(s) {
    if (!s.calls || s.calls.length < 2) return null;
    const items = s.calls.map((c, i) => el("li", { cls: "call", "data-call": i + 1 },
      c.action_source ? el("code", { text: c.action_source })
        : el("span", { cls: "refused", text: c.error || "no action" }),
      " ", badge(c.executed ? c.outcome : "not executed", c.executed ? outcomeTone(c.outcome) : "warn"),
      c.guardrail ? el("span", { cls: "refused", text: ` refused by ${c.guardrail}` }) : null,
      el("div", { cls: "muted", text: c.note })));
    return el("div", { cls: "calls" }, el("strong", { text: `Batch of ${s.calls.length} calls` }),
      el("ol", {}, items));
  }

  function stepCard(s, diagnosis) {
    const action = s.action_source
      ? el("code", { text: s.action_source })
      : el("span", { cls: "refused", text: "no action (the reply did not parse)" });
    const side = el("div", {},
      el("h3", {}, el("a", { href: `#step-${s.step}`, cls: "anchor", text: `Step ${s.step}` }),
        badge(s.outcome, outcomeTone(s.outcome))),
      el("div", { cls: "muted mono", text: s.url }),
      blame(diagnosis, s.step),
      facts([
        ["action", action],
        ["point forms", pointForms(s.point_forms)],
        ["landed", s.page_points.length ? s.page_points.map(([x, y]) => `(${x}, ${y})`).join(" → ") +
          " page px" : null],
        ["guardrail", s.guardrail ? el("span", { cls: "refused", text: `refused by ${s.guardrail}` })
          : null],
        ["frame", s.frame],
        ["changed", s.diff ? `${s.diff.length} region${s.diff.length === 1 ? "" : "s"} since the previous step` : null],
        ["timing", `model ${fmt.secs(s.model_seconds)} · harness ${fmt.secs(s.harness_seconds)}`],
        ["tokens", tokens(s.usage) + (s.usage.retries ? ` · ${s.usage.retries} retries` : "")],
      ]),
      el("div", { cls: "note" }, el("strong", { text: "Note: " }), s.note || "—"),
      callsSection(s),
      s.parse_error ? el("pre", { cls: "refused", text: s.parse_error }) : null,
      el("div", {}, el("strong", { text: "Thought" }), el("pre", { text: s.thought || "—" })),
      s.stripped.length ? el("details", {}, el("summary", { text: `Stripped (${s.stripped.length})` }),
        s.stripped.map((x) => el("pre", { text: x }))) : null,
      sentSection(s),
      requestsSection(s),
      el("details", { cls: "raw" }, el("summary", { text: "Raw reply" }),
        el("pre", { text: s.raw_reply })),
      Object.keys(s.details).length ? el("details", {}, el("summary", { text: "Details" }),
        el("pre", { text: JSON.stringify(s.details, null, 2) })) : null);
    const shot = s.screenshot ? screenshot(s.screenshot, s, `screenshot sent at step ${s.step}`)
      : s.screenshot_problem ? imageProblem(`Screenshot of step ${s.step} — ${s.screenshot_problem}`)
      : el("p", { cls: "muted", text: "no screenshot" });
    return el("article", { cls: "step", id: `step-${s.step}`, "data-step": s.step }, shot, side);
  }

  // The current step: highlighted in the timeline, named in the address (#step-N).
  function stepper(cards, links) {
    let current = -1;
    const mark = (i) => {
      current = i;
      cards.forEach((c, j) => c.classList.toggle("current", j === i));
      links.forEach((a, j) => a.classList.toggle("current", j === i));
      const hash = `#${cards[i].id}`;
      if (location.hash !== hash) history.replaceState(null, "", hash);
    };
    const go = (i) => {
      if (!cards.length) return;
      mark(Math.max(0, Math.min(cards.length - 1, i)));
      cards[current].scrollIntoView({ block: "start" });
    };
    // Scrolling by hand moves the current step too: the card nearest the top of the view.
    let ticking = false;
    window.addEventListener("scroll", () => {
      if (ticking || !cards.length) return;
      ticking = true;
      requestAnimationFrame(() => {
        ticking = false;
        const line = 90;
        let best = -1;
        cards.forEach((c, j) => { if (c.getBoundingClientRect().top <= line) best = j; });
        // At the end of the page the last cards cannot reach the top: keep a current step
        // that is in view (the one a key or link chose).
        const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 4;
        const top = current >= 0 ? cards[current].getBoundingClientRect().top : -1;
        if (atEnd && top >= 0 && top < window.innerHeight) return;
        if (best >= 0 && best !== current) mark(best);
      });
    }, { passive: true });
    const fromHash = () => {
      const wanted = cards.findIndex((c) => `#${c.id}` === location.hash);
      if (wanted >= 0) go(wanted);
    };
    window.addEventListener("hashchange", fromHash);
    fromHash();
    return { go, get current() { return current; } };
  }

  function keyboard(cards, step) {
    const keys = {
      j: () => step.go(step.current + 1), ArrowRight: () => step.go(step.current + 1),
      k: () => step.go(step.current - 1), ArrowLeft: () => step.go(step.current - 1),
      Home: () => step.go(0), End: () => step.go(cards.length - 1),
      r: () => {
        if (step.current >= 0) { const d = cards[step.current].querySelector("details.raw"); d.open = !d.open; }
      },
      Escape: () => zoom.close(),
    };
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || !keys[e.key]) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      e.preventDefault();
      if (zoom.box && e.key !== "Escape") zoom.close();
      keys[e.key]();
    });
  }

  function timeline(steps) {
    const links = steps.map((s) =>
      el("a", { href: `#step-${s.step}`, cls: `badge ${outcomeTone(s.outcome)}`,
        title: `${s.outcome}: ${s.action_source || "no action"}`, text: String(s.step) }));
    const nav = el("nav", { cls: "timeline", "aria-label": "steps" }, el("span", { cls: "muted", text: "steps" }), links);
    return [nav, links];
  }

  function renderTask(d) {
    const cards = d.steps.map((s) => stepCard(s, d.diagnosis));
    const [nav, links] = timeline(d.steps);
    const parts = [...taskHeader(d.task, d.back), diagnosisBox(d.diagnosis), answerSection(d.task, d.checks),
      el("h2", { text: `Steps (${d.steps.length})` }), layerToggles(d.steps), nav, ...cards];
    app.classList.add("task-page");
    app.append(...parts.filter((p) => p !== null));
    keyboard(cards, stepper(cards, links));
  }

  // --- a bench run: the index ---------------------------------------------------------------

  function choice(label, values) {
    const select = el("select", { "aria-label": label },
      el("option", { value: "", text: `all ${label}` }),
      values.map((v) => el("option", { value: v, text: v })));
    return [el("label", {}, `${label}: `, select), select];
  }

  function atLeast(label) {
    const input = el("input", { type: "number", min: "0", step: "any", "aria-label": label, size: "6" });
    return [el("label", {}, `${label} ≥ `, input), input];
  }

  // Sortable columns: [heading, value of a row for sorting, cell]
  const COLUMNS = [
    ["task", (t) => t.id, (t) => el("td", {}, el("a", { href: t.href, text: t.id }))],
    ["status", (t) => t.status, (t) => el("td", {}, badge(t.status, statusTone(t.status)))],
    ["verdict", (t) => t.verdict, (t) => el("td", {}, badge(t.verdict, verdictTone(t.verdict)))],
    ["outcome", (t) => t.bucket, (t) => el("td", { text: t.bucket })],
    ["site", (t) => t.site, (t) => el("td", { text: fmt.text(t.site) })],
    ["steps", (t) => t.steps, (t) => el("td", { cls: "num", text: String(t.steps) })],
    ["time", (t) => t.elapsed, (t) => el("td", { cls: "num", text: fmt.secs(t.elapsed) })],
    ["tokens", (t) => t.input_tokens + t.output_tokens,
      (t) => el("td", { cls: "num", text: `${fmt.int(t.input_tokens)} / ${fmt.int(t.output_tokens)}` })],
    ["cost", (t) => (t.cost === null ? -1 : t.cost), (t) => el("td", { cls: "num", text: fmt.cost(t.cost) })],
    ["stage", (t) => t.stage || "", (t) => el("td", { text: fmt.text(t.stage) })],
    ["grounding", (t) => t.grounding, (t) => el("td", {}, badge(groundingWord(t.grounding), groundingTone(t.grounding)))],
    ["evidence", (t) => t.evidence_category || "", (t) => el("td", {}, t.evidence_category
      ? badge(t.evidence_category, categoryTone(t.evidence_category)) : "—")],
    ["answer", (t) => t.answer || "", (t) => el("td", { text: fmt.text(t.answer) })],
    ["reference", (t) => t.reference || "", (t) => el("td", { text: fmt.text(t.reference) })],
    ["tags", (t) => t.tags.join(","), (t) => el("td", { text: t.tags.join(", ") })],
  ];
  const NUMERIC = new Set(["steps", "time", "tokens", "cost"]);

  function compare(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), "en", { numeric: true });
  }

  function sortableTable(tasks, columns, numeric) {
    const rows = tasks.map((t) => el("tr", { "data-id": t.id, "data-status": t.status, "data-verdict": t.verdict },
      columns.map(([, , cell]) => cell(t))));
    const body = el("tbody", {}, rows);
    let sorted = { column: -1, dir: 1 };
    const heads = columns.map(([name], i) => {
      const button = el("button", { type: "button", text: name });
      const th = el("th", { cls: numeric.has(name) ? "num" : "", "aria-sort": "none" }, button);
      button.addEventListener("click", () => {
        sorted = { column: i, dir: sorted.column === i ? -sorted.dir : 1 };
        const key = columns[i][1];
        const order = tasks.map((t, j) => j).sort((x, y) =>
          sorted.dir * compare(key(tasks[x]), key(tasks[y])) || x - y);
        body.append(...order.map((j) => rows[j]));
        heads.forEach((h, j) => h.setAttribute("aria-sort", j !== i ? "none" : sorted.dir > 0 ? "ascending" : "descending"));
      });
      return th;
    });
    return [el("table", { cls: "index" }, el("thead", {}, el("tr", {}, heads)), body), rows];
  }

  function groupRates(tasks, keysOf) {
    const groups = new Map();
    for (const t of tasks) {
      if (t.verdict === "unscored") continue;
      for (const key of keysOf(t)) {
        if (!groups.has(key)) groups.set(key, { correct: 0, n: 0 });
        const g = groups.get(key);
        g.n += 1;
        g.correct += t.verdict === "correct" ? 1 : 0;
      }
    }
    return groups;
  }

  function benchCharts(d) {
    const buckets = new Map();
    for (const t of d.tasks) buckets.set(t.bucket, (buckets.get(t.bucket) || 0) + 1);
    const bucketRows = [...buckets.entries()].sort((a, b) => b[1] - a[1])
      .map(([name, n]) => [name, n, `${n} (${fmt.pct(n / d.tasks.length)})`]);
    const costs = d.tasks.map((t) => t.cost);
    return el("section", { cls: "charts" },
      successChart("Success by site (95% interval)", groupRates(d.tasks, (t) => (t.site ? [t.site] : []))),
      successChart("Success by tag (95% interval)", groupRates(d.tasks, (t) => t.tags)),
      el("figure", {}, el("figcaption", { text: "Outcomes" }),
        barChart("Outcomes", bucketRows, { max: Math.max(1, ...buckets.values()) })),
      histogram("Time per task", d.tasks.map((t) => t.elapsed), " s"),
      costs.some((c) => c !== null)
        ? histogram("Cost per task ($)", costs, "")
        : histogram("Tokens per task (thousands)", d.tasks.map((t) => (t.input_tokens + t.output_tokens) / 1000), ""));
  }

  // A step linked through the index, as #<task>/step-N (or #<task>; a trial #<task>/<trial>),
  // opens that task's page at the step: the run's index is the one address to share.
  function followTaskLink(tasks) {
    let hash;
    try { hash = decodeURIComponent(location.hash.slice(1)); } catch { return false; }
    const wanted = hash.match(/^(.+?)(?:\/step-(\d+))?$/);
    const task = wanted && tasks.find((t) => t.link === wanted[1]);
    if (!task) return false;
    location.replace(task.href + (wanted[2] ? `#step-${wanted[2]}` : ""));
    return true;
  }

  function renderBench(d) {
    if (followTaskLink(d.tasks)) return;
    const unique = (xs) => [...new Set(xs)].sort();
    const selects = [
      ["statuses", (t) => [t.status]], ["verdicts", (t) => [t.verdict]], ["outcomes", (t) => [t.bucket]],
      ["sites", (t) => (t.site ? [t.site] : [])], ["tags", (t) => t.tags],
      ["stages", (t) => (t.stage ? [t.stage] : [])], ["grounding", (t) => [groundingWord(t.grounding)]],
      ["evidence", (t) => (t.evidence_category ? [t.evidence_category] : [])],
    ].map(([label, values]) => [...choice(label, unique(d.tasks.flatMap(values))), values]);
    const minimums = [
      ["steps", (t) => t.steps], ["time (s)", (t) => t.elapsed],
      ["tokens", (t) => t.input_tokens + t.output_tokens], ["cost ($)", (t) => t.cost ?? 0],
    ].map(([label, value]) => [...atLeast(label), value]);
    const search = el("input", { type: "search", "aria-label": "search", placeholder: "id, answer, instruction…" });
    const shown = el("span", { cls: "muted", role: "status" });
    const [table, rows] = sortableTable(d.tasks, COLUMNS, NUMERIC);
    const apply = () => {
      const needle = search.value.trim().toLowerCase();
      let count = 0;
      rows.forEach((row, i) => {
        const t = d.tasks[i];
        const ok = selects.every(([, s, values]) => !s.value || values(t).includes(s.value)) &&
          minimums.every(([, input, value]) => input.value === "" || value(t) >= Number(input.value)) &&
          (!needle || [t.id, t.answer, t.reference, t.instruction].some((x) => String(x ?? "").toLowerCase().includes(needle)));
        row.hidden = !ok;
        count += ok ? 1 : 0;
      });
      shown.textContent = `${count} of ${rows.length} tasks shown`;
    };
    selects.forEach(([, s]) => s.addEventListener("change", apply));
    minimums.forEach(([, input]) => input.addEventListener("input", apply));
    search.addEventListener("input", apply);
    const scored = d.tasks.filter((t) => t.verdict !== "unscored");
    const solved = scored.filter((t) => t.verdict === "correct").length;
    const finished = d.tasks.filter((t) => t.status === "finished").length;
    const stages = d.stages.filter(([, n]) => n).map(([name, n]) => `${name} ${n}`);
    const costs = d.tasks.map((t) => t.cost).filter((c) => c !== null);
    const inTokens = d.tasks.reduce((a, t) => a + t.input_tokens, 0);
    const outTokens = d.tasks.reduce((a, t) => a + t.output_tokens, 0);
    app.append(el("h1", { text: `Bench run ${d.name}` }),
      ...d.summary.map((line, i) => el("p", { cls: "summary" }, i ? line : el("strong", { text: line }))),
      el("p", { cls: "headline", text: `${d.tasks.length} tasks · ${finished} finished · ${solved} scored correct` +
        ` · tokens ${fmt.int(inTokens)} in / ${fmt.int(outTokens)} out` +
        (costs.length ? ` · cost ${fmt.cost(costs.reduce((a, c) => a + c, 0))}` : "") }),
      el("p", { text: `Failures by the stage that broke first: ${stages.join(" · ") || "none"}` }),
      benchCharts(d),
      el("div", { cls: "filters" }, selects.map(([label]) => label), minimums.map(([label]) => label),
        el("label", {}, "search: ", search), shown),
      table, disagreements(d.tasks));
    apply();
  }

  // Answers the reference did not match, side by side with the evidence judge's word: where
  // the judge says the evidence supports the answer, the reference may be stale.
  function disagreements(tasks) {
    const listed = tasks.filter((t) => t.disagreement);
    const rows = listed.map((t) => {
      const g = t.disagreement;
      return el("tr", { cls: "disagreement", "data-id": t.id, "data-category": g.category || "" },
        el("td", {}, el("a", { href: t.href, text: t.id })),
        el("td", {}, el("strong", { text: fmt.text(g.answer) })), el("td", { text: fmt.text(g.reference) }),
        el("td", {}, g.category ? badge(g.category === "stale_reference" ? "reference may be stale" : g.category,
          categoryTone(g.category)) : el("span", { cls: "muted", text: "not judged" })),
        el("td", { text: fmt.text(g.reason) }),
        el("td", {}, g.evidence ? el("a", { href: g.evidence, cls: "shot thumb" },
          el("img", { src: g.evidence, alt: `evidence screenshot of ${t.id}`, loading: "lazy" }))
          : el("span", { cls: "muted", text: g.evidence_problem || "no screenshot" })));
    });
    return el("section", { id: "disagreements" },
      el("h2", { text: `Disagreements with the reference (${listed.length})` }),
      el("p", { cls: "muted", text: "Finished answers the reference did not match. Where the evidence judge " +
        "(score --judge-evidence) found the answer supported, the reference may be stale." }),
      rows.length ? el("table", { cls: "review" }, el("thead", {}, el("tr", {},
        ["task", "answer", "reference", "evidence judge", "reason", "evidence"].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows)) : el("p", { cls: "muted", text: "none" }));
  }

  // --- two runs side by side ----------------------------------------------------------------

  const GROUPS = [
    ["fixed", "Fixed (wrong in A, right in B)", "good"],
    ["broken", "Broken (right in A, wrong in B)", "bad"],
    ["both_wrong", "Both wrong", "warn"],
    ["both_right", "Both right", ""],
    ["unpaired", "Not scored in both", ""],
  ];

  function side(run, t) {
    if (!t) return el("td", { cls: "muted", text: "not in this run" });
    return el("td", { cls: "side" },
      el("div", {}, el("a", { href: t.href, text: "task page" }), " ", badge(t.status, statusTone(t.status)),
        " ", badge(t.verdict, verdictTone(t.verdict)), ` · ${t.steps} steps · ${fmt.secs(t.elapsed)}`),
      el("div", {}, el("strong", { text: "answer: " }), fmt.text(t.answer)),
      t.evidence ? el("div", { cls: "shot thumb" }, el("img", { src: t.evidence, alt: `final screenshot of ${run}`, loading: "lazy" }))
        : el("p", { cls: "muted", text: t.evidence_problem || "no final screenshot" }));
  }

  function renderPair(d) {
    const counts = new Map(GROUPS.map(([g]) => [g, 0]));
    for (const t of d.tasks) counts.set(t.group, counts.get(t.group) + 1);
    const [label, select] = choice("groups", GROUPS.map(([g]) => g).filter((g) => counts.get(g)));
    const sections = GROUPS.filter(([g]) => counts.get(g)).map(([g, title, tone]) => {
      const rows = d.tasks.filter((t) => t.group === g).map((t) => el("tr", { "data-id": t.id },
        el("td", {}, el("strong", { text: t.id }), el("div", { cls: "muted", text: fmt.text(t.reference) ? `reference: ${t.reference}` : "" })),
        side("A", t.a), side("B", t.b)));
      return el("section", { cls: `group ${tone}`, "data-group": g },
        el("h2", {}, badge(`${counts.get(g)}`, tone), ` ${title}`),
        el("table", { cls: "pair" }, el("thead", {}, el("tr", {}, el("th", { text: "task" }),
          el("th", { text: `A: ${d.a.name}` }), el("th", { text: `B: ${d.b.name}` }))), el("tbody", {}, rows)));
    });
    select.addEventListener("change", () => sections.forEach((s) => { s.hidden = !!select.value && s.dataset.group !== select.value; }));
    const line = (run) => `${run.name}: ${fmt.text(run.model)} · success ${run.scored ? `${fmt.pct(run.correct / run.scored)} (${run.correct}/${run.scored})` : "n/a"}`;
    app.append(el("h1", { text: "Two runs side by side" }),
      el("p", {}, el("a", { href: d.a.href, text: "A" }), ` ${line(d.a)}`),
      el("p", {}, el("a", { href: d.b.href, text: "B" }), ` ${line(d.b)}`),
      el("p", { text: `${d.tasks.length} tasks in both · ` + GROUPS.filter(([g]) => counts.get(g)).map(([g]) => `${g.replace("_", " ")} ${counts.get(g)}`).join(" · ") }),
      el("div", { cls: "filters" }, label), ...sections);
  }

  // --- an index of runs ---------------------------------------------------------------------

  function renderFolder(d) {
    const runs = d.runs.map((r) => ({ ...r, id: r.name }));
    const columns = [
      ["run", (r) => r.name, (r) => el("td", {}, el("a", { href: r.href, text: r.name }))],
      ["kind", (r) => r.kind, (r) => el("td", { text: r.kind })],
      ["model", (r) => r.model, (r) => el("td", { text: fmt.text(r.model) })],
      ["date", (r) => r.date, (r) => el("td", { text: fmt.text(r.date) })],
      ["tasks", (r) => r.tasks, (r) => el("td", { cls: "num", text: String(r.tasks) })],
      ["success", (r) => (r.scored ? r.correct / r.scored : -1), (r) => el("td", { cls: "num",
        text: r.scored ? rate(r.correct, r.scored).long : "—" })],
      ["cost", (r) => (r.cost === null ? -1 : r.cost), (r) => el("td", { cls: "num", text: fmt.cost(r.cost) })],
      ["tokens", (r) => r.input_tokens + r.output_tokens, (r) => el("td", { cls: "num", text: `${fmt.int(r.input_tokens)} / ${fmt.int(r.output_tokens)}` })],
    ];
    const [table] = sortableTable(runs, columns, new Set(["tasks", "success", "cost", "tokens"]));
    app.append(el("h1", { text: `Runs in ${d.name}` }), el("p", { cls: "muted", text: `${d.runs.length} runs` }), table);
  }

  const renderers = { bench: renderBench, task: renderTask, pair: renderPair, folder: renderFolder };
  renderers[data.kind](data);
})();

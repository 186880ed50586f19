// webfovea trajectory viewer: draws a bench table or one task's steps from the JSON
// embedded in the page. Everything recorded from a page or a model is untrusted, so it only
// ever reaches the DOM as text (textContent, attribute values) — never as markup.
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

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    return node;
  }

  const fmt = {
    secs: (s) => (s === null || s === undefined ? "—" : `${Number(s).toFixed(1)} s`),
    int: (n) => Number(n || 0).toLocaleString("en-US"),
    text: (s) => (s === null || s === undefined || s === "" ? "—" : String(s)),
  };

  function badge(text, tone) {
    return el("span", { cls: `badge ${tone || ""}`, text });
  }

  function statusTone(status) {
    return status === "finished" ? "good" : status === "running" ? "" : "bad";
  }

  function verdictTone(verdict) {
    return verdict === "correct" ? "good" : verdict === "wrong" ? "bad" : "";
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

  function screenshot(src, step, alt) {
    const img = el("img", { src, alt, loading: "lazy", width: step.sent_size[0],
      height: step.sent_size[1] });
    return el("div", { cls: "shot" }, img, overlay(step));
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
    const where = d.step === null ? "the task as a whole" : `step ${d.step}`;
    const rest = otherFindings(d);
    return el("section", { cls: "diagnosis" },
      el("strong", { text: `Diagnosis: ${d.stage}` }), ` (${where}) — `, d.evidence,
      rest.length ? el("ul", {}, rest) : null);
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
        ["tokens", `${fmt.int(t.usage.input_tokens)} in / ${fmt.int(t.usage.output_tokens)} out` +
          ` · ${t.usage.calls} calls · ${t.usage.retries} retries`],
        ["error", t.error],
      ]),
      el("p", { cls: "keys", text: "Keys: j / → next step, k / ← previous, r raw reply, " +
        "Home / End first / last. Red ring: the point the model gave, drawn on the image it " +
        "was sent; dashed orange ring: where the harness acted, when that differs." }),
    ];
  }

  function answerSection(t) {
    const info = facts([
      ["answer", el("strong", { text: fmt.text(t.answer) })],
      ["reference", fmt.text(t.reference)],
      ["matcher", t.matcher],
      ["page", fmt.text(t.answer_url)],
      ["at", t.evidence_at ? new Date(t.evidence_at * 1000).toISOString() : "—"],
    ]);
    const shot = t.evidence
      ? el("div", { cls: "shot" }, el("img", { src: t.evidence, alt: "evidence screenshot" }))
      : el("p", { cls: "muted", text: "No evidence screenshot (the task gave no answer)." });
    return el("section", { id: "answer" }, el("h2", { text: "Answer and evidence" }),
      el("div", { cls: "answer" }, shot, info));
  }

  function stepCard(s) {
    const action = s.action_source
      ? el("code", { text: s.action_source })
      : el("span", { cls: "refused", text: "no action (the reply did not parse)" });
    const side = el("div", {},
      el("h3", {}, `Step ${s.step}`, badge(s.outcome, outcomeTone(s.outcome))),
      el("div", { cls: "muted mono", text: s.url }),
      facts([
        ["action", action],
        ["guardrail", s.guardrail ? el("span", { cls: "refused", text: `refused by ${s.guardrail}` })
          : null],
        ["frame", s.frame],
        ["timing", `model ${fmt.secs(s.model_seconds)} · harness ${fmt.secs(s.harness_seconds)}`],
        ["tokens", `${fmt.int(s.usage.input_tokens)} in / ${fmt.int(s.usage.output_tokens)} out` +
          (s.usage.retries ? ` · ${s.usage.retries} retries` : "")],
      ]),
      el("div", { cls: "note" }, el("strong", { text: "Note: " }), s.note || "—"),
      s.parse_error ? el("pre", { cls: "refused", text: s.parse_error }) : null,
      el("div", {}, el("strong", { text: "Thought" }), el("pre", { text: s.thought || "—" })),
      s.stripped.length ? el("details", {}, el("summary", { text: `Stripped (${s.stripped.length})` }),
        s.stripped.map((x) => el("pre", { text: x }))) : null,
      el("details", { cls: "raw" }, el("summary", { text: "Raw reply" }),
        el("pre", { text: s.raw_reply })),
      Object.keys(s.details).length ? el("details", {}, el("summary", { text: "Details" }),
        el("pre", { text: JSON.stringify(s.details, null, 2) })) : null);
    const shot = s.screenshot ? screenshot(s.screenshot, s, `screenshot sent at step ${s.step}`)
      : el("p", { cls: "muted", text: "no screenshot" });
    return el("article", { cls: "step", id: `step-${s.step}`, "data-step": s.step }, shot, side);
  }

  function keyboard(cards) {
    let current = -1;
    const go = (i) => {
      if (!cards.length) return;
      current = Math.max(0, Math.min(cards.length - 1, i));
      cards.forEach((c, j) => c.classList.toggle("current", j === current));
      cards[current].scrollIntoView({ block: "start" });
    };
    const keys = {
      j: () => go(current + 1), ArrowRight: () => go(current + 1),
      k: () => go(current - 1), ArrowLeft: () => go(current - 1),
      Home: () => go(0), End: () => go(cards.length - 1),
      r: () => { if (current >= 0) { const d = cards[current].querySelector("details.raw"); d.open = !d.open; } },
    };
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || !keys[e.key]) return;
      e.preventDefault();
      keys[e.key]();
    });
    const wanted = cards.findIndex((c) => `#${c.id}` === location.hash);
    if (wanted >= 0) go(wanted);
  }

  function timeline(steps) {
    return el("nav", { cls: "timeline", "aria-label": "steps" }, steps.map((s) =>
      el("a", { href: `#step-${s.step}`, cls: `badge ${outcomeTone(s.outcome)}`,
        title: `${s.outcome}: ${s.action_source || "no action"}`, text: String(s.step) })));
  }

  function renderTask(d) {
    const cards = d.steps.map(stepCard);
    const parts = [...taskHeader(d.task, d.back), diagnosisBox(d.diagnosis), answerSection(d.task),
      el("h2", { text: `Steps (${d.steps.length})` }), timeline(d.steps), ...cards];
    app.append(...parts.filter((p) => p !== null));
    keyboard(cards);
  }

  // --- a bench run ------------------------------------------------------------------------

  function choice(label, values) {
    const select = el("select", { "aria-label": label },
      el("option", { value: "", text: `all ${label}` }),
      values.map((v) => el("option", { value: v, text: v })));
    return [el("label", {}, `${label}: `, select), select];
  }

  function benchRow(t) {
    const tokens = `${fmt.int(t.input_tokens)} / ${fmt.int(t.output_tokens)}`;
    return el("tr", { "data-status": t.status, "data-verdict": t.verdict },
      el("td", {}, el("a", { href: t.href, text: t.id })),
      el("td", {}, badge(t.status, statusTone(t.status))),
      el("td", {}, badge(t.verdict, verdictTone(t.verdict))),
      el("td", { cls: "num", text: String(t.steps) }),
      el("td", { cls: "num", text: tokens }),
      el("td", { cls: "num", text: fmt.secs(t.elapsed) }),
      el("td", { text: fmt.text(t.stage) }),
      el("td", { text: fmt.text(t.answer) }),
      el("td", { text: fmt.text(t.reference) }),
      el("td", { text: t.tags.join(", ") }));
  }

  function renderBench(d) {
    const unique = (xs) => [...new Set(xs)].sort();
    const [statusLabel, status] = choice("statuses", unique(d.tasks.map((t) => t.status)));
    const [verdictLabel, verdict] = choice("verdicts", unique(d.tasks.map((t) => t.verdict)));
    const [tagLabel, tag] = choice("tags", unique(d.tasks.flatMap((t) => t.tags)));
    const [stageLabel, stage] = choice("stages", unique(d.tasks.map((t) => t.stage).filter(Boolean)));
    const shown = el("span", { cls: "muted" });
    const rows = d.tasks.map(benchRow);
    const head = ["task", "status", "verdict", "steps", "tokens in / out", "time", "stage",
      "answer", "reference", "tags"];
    const table = el("table", {}, el("thead", {}, el("tr", {}, head.map((h, i) =>
      el("th", { cls: i >= 3 && i <= 5 ? "num" : "", text: h })))), el("tbody", {}, rows));
    const apply = () => {
      let count = 0;
      rows.forEach((row, i) => {
        const t = d.tasks[i];
        const ok = (!status.value || t.status === status.value) &&
          (!verdict.value || t.verdict === verdict.value) &&
          (!tag.value || t.tags.includes(tag.value)) && (!stage.value || t.stage === stage.value);
        row.hidden = !ok;
        count += ok ? 1 : 0;
      });
      shown.textContent = `${count} of ${rows.length} tasks shown`;
    };
    [status, verdict, tag, stage].forEach((s) => s.addEventListener("change", apply));
    const solved = d.tasks.filter((t) => t.verdict === "correct").length;
    const finished = d.tasks.filter((t) => t.status === "finished").length;
    const stages = d.stages.filter(([, n]) => n).map(([name, n]) => `${name} ${n}`);
    app.append(el("h1", { text: `Bench run ${d.name}` }),
      ...d.summary.map((line) => el("p", { cls: "summary", text: line })),
      el("p", { text: `${d.tasks.length} tasks · ${finished} finished · ${solved} scored correct` }),
      el("p", { text: `Failures by the stage that broke first: ${stages.join(" · ") || "none"}` }),
      el("div", { cls: "filters" }, statusLabel, verdictLabel, tagLabel, stageLabel, shown), table);
    apply();
  }

  if (data.kind === "bench") renderBench(data);
  else renderTask(data);
})();

"""``webfovea view``: a static HTML report of a task or a bench run.

The page needs no server and no network: the stylesheet and the script are inlined, the
recorded data travels as JSON inside the page and is drawn by ``viewer.js`` with text-only DOM
calls, and a Content-Security-Policy admits only those two inline blocks (by hash) and local
images. Screenshots are linked relative to the page (the run directory's own ``screens/``), or
embedded as data URIs with ``embed=True`` for a single file that travels alone.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..actions.registry import REGISTRY
from ..rundir import outcomes
from ..rundir.images import RunImages, Unreadable
from ..rundir.outcomes import BUCKETS, Rate
from ..rundir.store import RunDir, TaskRun, load_run, load_task
from ..rundir.trajectory import StepRecord
from ..tools.diagnose import STAGES, TaskDiagnosis, diagnose_task
from .answers_view import answer_checks, disagreement, evidence_category, grounding_status
from .layers import layers
from .pages import add_diffs, add_sent, cost, inside, row_extras
from .requests import add_requests

TASK_PAGE = "view.html"  # in each task directory
BENCH_PAGE = "report.html"  # a bench run's index: the report, linking every task's page
_SLOTS = re.compile(r"@(CSP|TITLE|CSS|DATA|JS)@")
_LANDED_TOLERANCE = 2.0  # sent-image pixels between the asked and the actual point


def write_report(run_dir: Path, *, embed: bool = False, keep_current: bool = False,
                 images: RunImages | None = None) -> Path:
    """Write the report for a task or bench run directory; returns the page to open.
    ``keep_current``: a bench run's task pages written after everything they show (by
    :func:`write_task_page`, as each task ended) are kept; only the others and the index are
    written. An image that is missing or does not decode is said so on the page where it
    would be, and warned about through ``images`` (default: one line on stderr)."""
    run = load_run(run_dir)
    images = images or RunImages()
    if run.kind == "task":
        return _write_task(run.tasks[0], back=None, embed=embed, images=images)
    index = run.root / BENCH_PAGE
    for task in run.tasks:
        if not (keep_current and _current(task)):
            _write_task(task, back=_back(index, task.dir), embed=embed, images=images)
    return _write(index, f"webfovea · bench {run.root.name}", _bench_data(run, images))


def write_task_page(task_dir: Path, run_dir: Path, *, trial: int | None = None) -> Path:
    """The page of one task (or trial) of the bench run at ``run_dir``. The bench writes
    each as its task ends: the page can be read while the run goes on, and the run's end
    has only the index left to write (its screenshot diffs cost ~50 ms a task)."""
    task = load_task(task_dir, trial=trial)
    return _write_task(task, back=_back(run_dir / BENCH_PAGE, task.dir), embed=False,
                       images=RunImages())


def _back(index: Path, task_dir: Path) -> str:
    return quote(Path(os.path.relpath(index, task_dir)).as_posix())


def _current(task: TaskRun) -> bool:
    """Whether the task's page was written after every file of the task's directory (a
    rescore rewrites score.json, a rerun everything)."""
    page = task.dir / TASK_PAGE
    if not page.is_file():
        return False
    written = page.stat().st_mtime_ns
    return all(f.stat().st_mtime_ns <= written for f in task.dir.iterdir()
               if f.is_file() and f.name != TASK_PAGE)


def _write_task(task: TaskRun, *, back: str | None, embed: bool, images: RunImages) -> Path:
    page = task.dir / TASK_PAGE
    return _write(page, f"webfovea · task {task.label}",
                  task_data(task, back=back, embed=embed, images=images))


def _write(page: Path, title: str, data: dict[str, Any]) -> Path:
    page.write_text(render(title, data), encoding="utf-8")
    return page


def render(title: str, data: dict[str, Any]) -> str:
    """The page: template + inline CSS/JS + the data, in one pass (inserted text is not
    scanned again, so a recorded '@JS@' stays text)."""
    css, js = _asset("viewer.css"), _asset("viewer.js")
    csp = ("default-src 'none'; img-src 'self' data: file:; "
           f"style-src '{_sha256(css)}'; script-src '{_sha256(js)}'")
    slots = {"CSP": csp, "TITLE": html.escape(title), "CSS": css, "DATA": _script_json(data),
             "JS": js}
    return _SLOTS.sub(lambda m: slots[m.group(1)], _asset("template.html"))


def _asset(name: str) -> str:
    return resources.files("webfovea.viewer").joinpath(name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def _script_json(data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element: every <, > and & is a \\u escape."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def task_data(task: TaskRun, *, back: str | None = None, embed: bool = False,
              images: RunImages | None = None) -> dict[str, Any]:
    r = task.result
    images = images or RunImages()
    diagnosis = diagnose_task(task) if task.failed else None
    steps = [s.model_dump(mode="json") for s in task.steps]
    add_diffs(task, steps, images)  # first: it decodes each screenshot, the rest reuse the verdict
    for record, data in zip(task.steps, steps, strict=True):
        _step_json(task.dir, record, data, embed, images)
    add_sent(task, steps)
    evidence, evidence_problem = _image(task.dir, r.evidence, embed, images)
    requests = add_requests(task, steps)
    return {
        "kind": "task",
        "back": back,
        "task": {
            "id": task.label, "instruction": r.task, "url": r.url, "status": r.status,
            "verdict": task.verdict, "matcher": task.matcher, "answer": r.answer,
            "reference": task.reference, "answer_url": r.answer_url,
            "evidence": evidence, "evidence_problem": evidence_problem,
            "evidence_at": r.evidence_at,
            "steps": r.steps, "elapsed": r.elapsed, "usage": r.usage.model_dump(),
            "error": r.error, "model": r.model, "cost": cost(r.usage), "requests": requests,
        },
        "diagnosis": _diagnosis_json(diagnosis),
        "checks": answer_checks(task),
        "steps": steps,
    }


def _diagnosis_json(d: TaskDiagnosis | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"stage": d.stage, "step": d.step, "evidence": d.evidence,
            "findings": [{"stage": f.stage, "step": f.step, "evidence": f.evidence,
                          "strong": f.strong} for f in d.findings]}


def _step_json(task_dir: Path, s: StepRecord, data: dict[str, Any], embed: bool,
               images: RunImages) -> None:
    """The step's record as the page draws it: the screenshot's src (or what is wrong with
    it), the model's points and the layers over the image."""
    data["screenshot"], data["screenshot_problem"] = _image(task_dir, s.screenshot, embed, images)
    data["marks"] = marks(s)
    data["layers"] = layers(s)  # element marks and placed points, drawn over the image


def marks(s: StepRecord) -> dict[str, Any] | None:
    """Where to draw on the sent screenshot: the model's points (the red ring), the point
    actually acted on when it differs, and a scroll direction. All in sent-image pixels."""
    spec = REGISTRY.get(str((s.action or {}).get("name")))
    if s.action is None or spec is None or 0 in (*s.model_size, *s.page_size, *s.sent_size):
        return None
    (sw, sh), (mw, mh), (pw, ph) = s.sent_size, s.model_size, s.page_size
    names = [a.name for a in spec.args if a.kind == "point"]
    if not names:
        return None
    # A point form (target=, mark=) drew its point from the grounder or the mark.
    given = {f["arg"]: f["point"] for f in s.point_forms if f.get("point")}
    values = [s.action.get(n) or given.get(n) for n in names]
    if any(v is None for v in values):
        return None  # a form that was never placed: nothing to draw
    points = [(v[0] * sw / mw, v[1] * sh / mh) for v in values if v is not None]
    landed = [(x * sw / pw, y * sh / ph) for x, y in s.page_points]
    moved = any(abs(a - b) > _LANDED_TOLERANCE
                for p, q in zip(points, landed, strict=False) for a, b in zip(p, q, strict=True))
    return {"points": [[round(x, 1), round(y, 1)] for x, y in points],
            "landed": [[round(x, 1), round(y, 1)] for x, y in landed] if moved else [],
            "direction": s.action.get("direction") if spec.scrolls else None}


def _image(task_dir: Path, rel: str | None, embed: bool, images: RunImages
           ) -> tuple[str | None, str | None]:
    """A src for a recorded image (relative URL or data URI) and None; or no src and what
    the page says instead: the image is missing or unreadable. No src and nothing said when
    none was recorded, or the record points outside the task's directory (an edited record
    must not pull in other files)."""
    if not rel or not inside(task_dir, rel):
        return None, None
    if embed:
        png = images.read(task_dir / rel)
        if isinstance(png, bytes):
            return "data:image/png;base64," + base64.b64encode(png).decode(), None
        return None, said(png, rel)
    problem = images.check(task_dir / rel)
    return (quote(Path(rel).as_posix()), None) if problem is None else (None, said(problem, rel))


def said(problem: Unreadable, rel: str) -> str:
    """What the page says where the image would be: what is wrong, and which file."""
    return f"{problem.shown()}: {rel}"



def _task_href(task: TaskRun, root: Path) -> str:
    return quote((task.dir / TASK_PAGE).relative_to(root).as_posix())


def _evidence_href(task: TaskRun, root: Path, images: RunImages
                   ) -> tuple[str | None, str | None]:
    """The evidence screenshot relative to the index (linked, never copied), or what the
    page says instead (as :func:`_image`)."""
    rel = task.result.evidence
    if not rel or not inside(task.dir, rel):
        return None, None
    problem = images.check(task.dir / rel)
    if problem is not None:
        return None, said(problem, rel)
    return quote((task.dir / rel).relative_to(root).as_posix()), None


def _task_link(task: TaskRun, root: Path) -> str:
    """The task's name in an index address (``#<link>/step-N``): its directory under
    ``tasks/``, so a trial reads ``t-1/2``."""
    return task.dir.relative_to(root / "tasks").as_posix()


def _bench_data(run: RunDir, images: RunImages) -> dict[str, Any]:
    rows = []
    stages = Counter[str]()
    for t in run.tasks:
        r = t.result
        stage = diagnose_task(t).stage if t.failed else None
        stages.update([stage] if stage else [])
        rows.append({
            "id": t.label, "href": _task_href(t, run.root), "link": _task_link(t, run.root),
            "status": r.status,
            "verdict": t.verdict, "steps": r.steps, "input_tokens": r.usage.input_tokens,
            "output_tokens": r.usage.output_tokens, "elapsed": r.elapsed, "tags": list(t.tags),
            "stage": stage, "answer": r.answer, "reference": t.reference, **row_extras(t),
            "grounding": grounding_status(t), "evidence_category": evidence_category(t),
            "disagreement": disagreement(t, *_evidence_href(t, run.root, images)),
        })
    model = next((t.result.model for t in run.tasks if t.result.model), "")
    return {"kind": "bench", "name": run.root.name, "model": model, "tasks": rows,
            "summary": _summary(run),
            "stages": [[s, stages[s]] for s in STAGES]}


def _summary(run: RunDir) -> list[str]:
    """The report's headline: the success rate and the outcome buckets, as ``score`` counts."""
    scored = [t for t in run.tasks if t.verdict != "unscored"]
    rate = Rate(sum(t.verdict == "correct" for t in scored), len(scored))
    counts = Counter(outcomes.bucket(t.result.status, t.score.correct if t.score else None,
                                     t.result.answer) for t in run.tasks)
    models = sorted({t.result.model for t in run.tasks if t.result.model})
    return [f"success {rate.explained()}",
            "outcomes: " + " · ".join(f"{b} {counts[b]}" for b in BUCKETS if counts[b]),
            f"model: {', '.join(models) or 'unknown'}"]

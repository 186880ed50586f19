"""The viewer's pages that span runs: ``webfovea view RUN_A RUN_B`` (two runs side by side on
the tasks they share, grouped as ``compare`` groups them) and ``webfovea view FOLDER`` (an index
of every run under a folder). Each links to the runs' own pages, written alongside."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from ..core.errors import ConfigError
from ..rundir.images import RunImages
from ..rundir.store import RunDir, TaskRun, load_run
from .pages import cost
from .report import BENCH_PAGE, TASK_PAGE, render, said, write_report

Group = Literal["fixed", "broken", "both_right", "both_wrong", "unpaired"]
PAIR_NAME = "pair.html"
FOLDER_NAME = "index.html"


def write_pair(run_a: Path, run_b: Path) -> Path:
    """The side-by-side page, written in RUN_B as ``pair.html``; both runs' pages too."""
    a, b = load_run(run_a), load_run(run_b)
    images = RunImages()  # shared: an image both pages show is warned about once
    data = pair_data(a, b, b.root, images)
    for run in (a, b):
        write_report(run.root, images=images)
    page = b.root / PAIR_NAME
    page.write_text(render(f"webfovea · {a.root.name} vs {b.root.name}", data), encoding="utf-8")
    return page


def write_folder(folder: Path) -> Path:
    """The index of every run under ``folder`` (``index.html``), and each run's own page."""
    runs = runs_under(folder)
    if not runs:
        raise ConfigError(f"{folder} holds no run directory (nothing with result.json or tasks/)")
    images = RunImages()
    for run in runs:
        write_report(run.root, images=images)
    page = folder / FOLDER_NAME
    page.write_text(render(f"webfovea · runs in {folder.resolve().name}",
                           folder_data(folder, runs)), encoding="utf-8")
    return page


def href(target: Path, page_dir: Path) -> str:
    """A link from a page in ``page_dir`` to ``target``, relative so the folder can move."""
    return quote(Path(os.path.relpath(target, page_dir)).as_posix())


def _run_summary(run: RunDir, page_dir: Path) -> dict[str, Any]:
    scored = [t for t in run.tasks if t.verdict != "unscored"]
    costs = [c for t in run.tasks if (c := cost(t.result.usage)) is not None]
    started = min((t.result.started_at for t in run.tasks), default=None)
    return {
        "name": run.root.name, "kind": run.kind,
        "href": href(run.root / (BENCH_PAGE if run.kind == "bench" else TASK_PAGE), page_dir),
        "model": next((t.result.model for t in run.tasks if t.result.model), ""),
        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else None,
        "tasks": len(run.tasks), "scored": len(scored),
        "correct": sum(t.verdict == "correct" for t in scored),
        "cost": sum(costs) if costs else None,
        "input_tokens": sum(t.result.usage.input_tokens for t in run.tasks),
        "output_tokens": sum(t.result.usage.output_tokens for t in run.tasks),
    }


def group(a: TaskRun, b: TaskRun) -> Group:
    if "unscored" in (a.verdict, b.verdict):
        return "unpaired"
    right = (a.verdict == "correct", b.verdict == "correct")
    return {(False, True): "fixed", (True, False): "broken", (True, True): "both_right",
            (False, False): "both_wrong"}[right]  # type: ignore[return-value]


def _side(task: TaskRun, page_dir: Path, images: RunImages) -> dict[str, Any]:
    r = task.result
    evidence = task.dir / r.evidence if r.evidence else None
    problem = images.check(evidence) if evidence else None
    return {"status": r.status, "verdict": task.verdict, "answer": r.answer, "steps": r.steps,
            "elapsed": r.elapsed, "href": href(task.dir / TASK_PAGE, page_dir),
            "evidence": href(evidence, page_dir) if evidence and problem is None else None,
            "evidence_problem": said(problem, r.evidence) if problem and r.evidence else None}


def pair_data(a: RunDir, b: RunDir, page_dir: Path, images: RunImages | None = None
              ) -> dict[str, Any]:
    """Two runs on the tasks they share, grouped as ``compare`` groups them."""
    in_b = {t.label: t for t in b.tasks}
    shared = [(t, in_b[t.label]) for t in a.tasks if t.label in in_b]
    if not shared:
        raise ConfigError(f"{a.root} and {b.root} share no task: nothing to put side by side")
    images = images or RunImages()
    tasks = [{"id": ta.label, "group": group(ta, tb), "reference": ta.reference or tb.reference,
              "a": _side(ta, page_dir, images), "b": _side(tb, page_dir, images)}
             for ta, tb in shared]
    return {"kind": "pair", "a": _run_summary(a, page_dir),
            "b": _run_summary(b, page_dir), "tasks": tasks}


def is_run(path: Path) -> bool:
    """A task run (``result.json``) or a bench run (``tasks/``), as ``load_run`` reads them."""
    return (path / "result.json").is_file() or (path / "tasks").is_dir()


def runs_under(folder: Path) -> list[RunDir]:
    """Every run directory (a task run or a bench run) directly or deeper under ``folder``,
    not descending into a run."""
    found: list[RunDir] = []
    for entry in sorted(p for p in folder.iterdir() if p.is_dir()):
        if is_run(entry):
            found.append(load_run(entry))
        else:
            found.extend(runs_under(entry))
    return found


def folder_data(folder: Path, runs: list[RunDir]) -> dict[str, Any]:
    return {"kind": "folder", "name": folder.resolve().name,
            "runs": [_run_summary(run, folder) for run in runs]}

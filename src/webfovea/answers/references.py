"""References that carry their evidence (``webfovea references RUN_DIR --out TASKS.jsonl``).

From a finished bench run, a new task file: every task line as the run read it, and for each
reference the evidence of where and when it was seen — the answer page's URL, the time, the
evidence screenshot's SHA-256 and a copy of it next to the new file (``TASKS.evidence/``).
A reference the run's answer matched gets the run's evidence; ``--accept ID,...`` takes the
run's answer as the new reference with its evidence; ``--unreachable ID,...`` marks tasks
whose site cannot be reached (``score`` reports success on the reachable ones). Answers that
disagree with their reference are listed side by side with their evidence. An evidence
screenshot that is missing or does not decode is named on stderr, and the task's line is
written as for a task without evidence.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..rundir.images import RunImages
from ..rundir.store import TaskRun, load_run


@dataclass(frozen=True)
class Disagreement:
    id: str
    reference: str | None
    answer: str | None
    evidence: str | None  # the copied screenshot, relative to the task file
    url: str | None


@dataclass(frozen=True)
class Written:
    lines: int
    accepted: list[str]
    disagreements: list[Disagreement]


def write_references(run_dir: Path, out: Path, *, accept: frozenset[str] = frozenset(),
                     unreachable: frozenset[str] = frozenset()) -> Written:
    runs = [r for r in load_run(run_dir).tasks if r.task is not None]
    if not runs:
        raise ConfigError(f"{run_dir} holds no bench task (task.json): run `webfovea bench` first")
    ids = {r.id for r in runs}
    unknown = sorted((accept | unreachable) - ids)
    if unknown:
        raise ConfigError(f"--accept/--unreachable: no task {', '.join(unknown)} in {run_dir}")
    shots = out.with_name(out.name + ".evidence")
    lines, disagreements, accepted = [], [], []
    images = RunImages()
    for run in _first_trials(runs):
        evidence = _evidence(run, run_dir, shots, out.parent, images)
        line = _line(run)
        if run.id in accept and run.result.status == "finished" and evidence:
            line["answer"], line["reference_evidence"] = run.result.answer, evidence
            accepted.append(run.id)
        elif run.verdict == "correct":  # without its evidence (unreadable), still no disagreement
            if evidence:
                line["reference_evidence"] = evidence
        elif run.result.status == "finished" and run.reference is not None:
            disagreements.append(Disagreement(run.id, run.reference, run.result.answer,
                                              evidence.get("screenshot") if evidence else None,
                                              run.result.answer_url))
        if run.id in unreachable or "unreachable" in run.tags:
            line["unreachable"] = True
        lines.append(line)
    out.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    return Written(len(lines), accepted, disagreements)


def _first_trials(runs: list[TaskRun]) -> list[TaskRun]:
    seen: dict[str, TaskRun] = {}
    for run in runs:
        seen.setdefault(run.id, run)
    return list(seen.values())


def _line(run: TaskRun) -> dict[str, Any]:
    assert run.task is not None
    task = run.task
    line: dict[str, Any] = {"id": task.id, "instruction": task.instruction, "url": task.url}
    if task.answer is not None:
        line["answer"] = task.answer
    line["answer_type"] = task.answer_type
    tags = [t for t in task.tags if t != "unreachable"]
    if tags:
        line["tags"] = tags
    return line


def _evidence(run: TaskRun, run_dir: Path, shots: Path, base: Path, images: RunImages
              ) -> dict[str, Any] | None:
    """Where and when the run's answer was seen, its screenshot copied beside the file."""
    result = run.result
    source = run.dir / (result.evidence or "evidence.png")
    if result.status != "finished" or not (result.evidence or source.is_file()):
        return None  # no answer, or none recorded with its screenshot
    data = images.read(source)
    if not isinstance(data, bytes):
        return None
    digest = hashlib.sha256(data).hexdigest()
    shots.mkdir(parents=True, exist_ok=True)
    copy = shots / f"{digest[:16]}.png"
    if not copy.exists():
        copy.write_bytes(data)
    at = result.evidence_at or source.stat().st_mtime
    return {"url": result.answer_url, "seen_at": dt.datetime.fromtimestamp(at, dt.timezone.utc)
            .isoformat(timespec="seconds"), "screenshot": str(copy.relative_to(base)),
            "sha256": digest, "run": str(run_dir), "task_dir": str(run.dir.relative_to(run_dir)),
            "grounding": result.grounding.status if result.grounding else None}

"""Reading run directories for view, replay and diagnose: one task, or a bench run of many.

A task directory is DESIGN's run directory (``result.json``, ``steps.jsonl``, ``screens/``,
``evidence.png``). A bench run holds one per task under ``tasks/<id>/``; only those per-task
files are read here, never the bench's SQLite store, so every tool works on both kinds alike.
Two optional per-task files add what a bench knows and a single run does not: ``task.json``
(the task line: reference ``answer``, ``tags``) and ``score.json`` (``correct``, ``matcher``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import ConfigError
from ..trajectory import ResultRecord, StepRecord

RunKind = Literal["task", "bench"]
Verdict = Literal["correct", "wrong", "unscored"]
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class TaskRun:
    """One task's recorded run, with the bench's knowledge of it when there is any."""

    dir: Path
    result: ResultRecord
    steps: list[StepRecord]
    reference: str | None = None
    tags: tuple[str, ...] = ()
    verdict: Verdict = "unscored"
    matcher: str | None = None
    evidence_text: str | None = None  # the page's text when the answer was given, if recorded

    @property
    def id(self) -> str:
        return self.result.task_id or self.dir.name

    @property
    def failed(self) -> bool:
        """Ended without an answer, or answered and was scored wrong."""
        return self.result.status != "finished" or self.verdict == "wrong"


@dataclass(frozen=True)
class RunDir:
    root: Path
    kind: RunKind
    tasks: list[TaskRun]


def load_run(path: Path) -> RunDir:
    """The task directory or bench run at ``path``; ConfigError saying what is missing."""
    if (path / "result.json").is_file():
        return RunDir(path, "task", [load_task(path)])
    tasks_dir = path / "tasks"
    if tasks_dir.is_dir():
        dirs = sorted(d for d in tasks_dir.iterdir() if (d / "result.json").is_file())
        return RunDir(path, "bench", [load_task(d) for d in dirs])
    raise ConfigError(f"{path} is not a run directory: it has neither result.json (one task) "
                      "nor tasks/ (a bench run)")


def load_task(task_dir: Path) -> TaskRun:
    result = _model(ResultRecord, task_dir / "result.json",
                    (task_dir / "result.json").read_text(encoding="utf-8"))
    meta = _json_file(task_dir / "task.json")
    score = _json_file(task_dir / "score.json")
    evidence_text = task_dir / "evidence.txt"
    return TaskRun(
        dir=task_dir, result=result, steps=read_steps(task_dir),
        reference=_optional_str(meta.get("answer")),
        tags=tuple(str(t) for t in meta.get("tags") or ()),
        verdict=_verdict(score.get("correct")), matcher=_optional_str(score.get("matcher")),
        evidence_text=(evidence_text.read_text(encoding="utf-8", errors="replace")
                       if evidence_text.is_file() else None),
    )


def read_steps(task_dir: Path) -> list[StepRecord]:
    """``steps.jsonl``; a bad line is named by file and line number. A last line cut short
    (no newline: the process died while appending it) is left out."""
    path = task_dir / "steps.jsonl"
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines.pop()
    return [_model(StepRecord, path, line, number)
            for number, line in enumerate(lines, start=1) if line.strip()]


def _model(cls: type[M], path: Path, text: str, line: int | None = None) -> M:
    try:
        return cls.model_validate_json(text)
    except ValidationError as e:
        where = f"{path} line {line}" if line is not None else str(path)
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "record"
        raise ConfigError(f"{where} is not a valid {cls.__name__}: {field}: {first['msg']}") from e


def _json_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path} is not valid JSON: {e}") from e
    if not isinstance(value, dict):
        raise ConfigError(f"{path} must hold a JSON object")
    return value


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def _verdict(correct: object) -> Verdict:
    if correct is None:
        return "unscored"
    return "correct" if correct is True else "wrong"

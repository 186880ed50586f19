"""The run directory (the contract in docs/contracts.md): the one module that writes and reads it.

A task directory holds ``result.json`` (rewritten atomically after every step),
``steps.jsonl`` (one record appended per step), ``screens/NNN.png`` and ``evidence.png``.
A bench run holds one task directory per task under ``tasks/<id>/`` — with trials, one per
trial under ``tasks/<id>/<trial>/`` — and the bench adds two files to each: ``task.json``
(the task line, reference included) and ``score.json`` (the verdict). ``runner``, ``score``,
``view``, ``replay`` and ``diagnose`` all go through here; none reads the bench's SQLite
store, so every tool works on a single task and a bench run alike.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError

from ..core.errors import ConfigError
from ..core.task import OPTIONAL_FIELDS, Task
from ..core.text import well_formed
from .trajectory import ResultRecord, StepRecord, VerifierCall

RESULT, STEPS, TASK, SCORE = "result.json", "steps.jsonl", "task.json", "score.json"
VERIFIER = "verifier.jsonl"  # one line per verifier call, when a verifier ran
RunKind = Literal["task", "bench"]
Verdict = Literal["correct", "wrong", "undecided", "unscored"]
M = TypeVar("M", bound=BaseModel)


class EvidenceRecord(BaseModel):
    """What the evidence judge (``score --judge-evidence``) said about the answer."""

    verdict: Literal["supported", "not_supported", "cannot_tell", "error"]
    reason: str = ""
    judge: str = ""
    category: str | None = None  # webfovea.rundir.outcomes.evidence_category of the task


class ScoreRecord(BaseModel):
    """``score.json``: how the bench scored the task's answer."""

    verdict: Verdict
    correct: bool | None  # None: the task has no reference answer
    matcher: str  # who decided: a typed rule, "judge", "status" or "none"
    reference: str | None
    detail: str = ""
    rule: str = ""  # the typed rule that decided (or left it undecided for the judge)
    judge: str | None = None  # the judge's model spec, when one was asked
    evidence: EvidenceRecord | None = None  # the evidence judge's verdict, when one was asked


# -- writing --------------------------------------------------------------------------------


class TrajectoryWriter:
    """Writes one task's run directory as the task goes."""

    def __init__(self, out: Path) -> None:
        self.out = out
        (out / "screens").mkdir(parents=True, exist_ok=True)
        self.steps_path = out / STEPS
        self.steps_path.write_text("")
        (out / VERIFIER).unlink(missing_ok=True)

    def screen_path(self, step: int) -> str:
        return f"screens/{step:03d}.png"

    def write_screen(self, step: int, png: bytes) -> str:
        rel = self.screen_path(step)
        (self.out / rel).write_bytes(png)
        return rel

    def write_evidence(self, png: bytes) -> str:
        (self.out / "evidence.png").write_bytes(png)
        return "evidence.png"

    def write_evidence_text(self, text: str) -> str:
        (self.out / "evidence.txt").write_text(text, encoding="utf-8")
        return "evidence.txt"

    def append_step(self, record: StepRecord) -> None:
        with self.steps_path.open("a", encoding="utf-8") as fh:
            fh.write(record_json(record) + "\n")

    def append_verifier(self, call: VerifierCall) -> None:
        with (self.out / VERIFIER).open("a", encoding="utf-8") as fh:
            fh.write(record_json(call) + "\n")

    def write_result(self, result: ResultRecord) -> None:
        write_result(self.out, result)


def write_result(task_dir: Path, result: ResultRecord) -> None:
    task_dir.mkdir(parents=True, exist_ok=True)
    _atomic_write(task_dir / RESULT, record_json(result, indent=2))


def write_task(task_dir: Path, task: Task) -> None:
    """``task.json``: the task line as the task file gave it (the task file's fields; those
    only some files give, such as WebRetriever's ``task_idx``, when set)."""
    line = {f.name: getattr(task, f.name) for f in fields(Task)  # not a bench's trial number
            if f.name not in OPTIONAL_FIELDS or getattr(task, f.name) is not None}
    _atomic_write(task_dir / TASK, json.dumps(line, ensure_ascii=False, indent=2))


def write_score(task_dir: Path, score: ScoreRecord) -> None:
    _atomic_write(task_dir / SCORE, score.model_dump_json(indent=2))


def record_json(record: BaseModel, *, indent: int | None = None) -> str:
    """The record as JSON. Page text can hold a lone UTF-16 surrogate (a label cut
    mid-emoji) that no UTF-8 file can: such text is written with U+FFFD in its place."""
    try:
        return record.model_dump_json(indent=indent)
    except PydanticSerializationError:
        data = _well_formed(record.model_dump(mode="json"))
        return json.dumps(data, ensure_ascii=False, indent=indent)


def _well_formed(value: Any) -> Any:
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, dict):
        return {_well_formed(k): _well_formed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_well_formed(v) for v in value]
    return value


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# -- reading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskRun:
    """One task's (or one trial's) recorded run, with the bench's knowledge of it if any."""

    dir: Path
    result: ResultRecord
    steps: list[StepRecord]
    task: Task | None = None  # task.json, when a bench wrote it
    score: ScoreRecord | None = None  # score.json, when a bench scored it
    trial: int | None = None  # the trial number, when the bench ran several
    evidence_text: str | None = None  # the page's text when the answer was given, if recorded

    @property
    def id(self) -> str:
        return self.result.task_id or (self.task.id if self.task else self.dir.name)

    @property
    def label(self) -> str:
        """The id, with the trial when there are several: ``t-1 #2``."""
        return self.id if self.trial is None else f"{self.id} #{self.trial}"

    @property
    def reference(self) -> str | None:
        if self.score is not None:
            return self.score.reference
        return self.task.answer if self.task else None

    @property
    def tags(self) -> tuple[str, ...]:
        return self.task.tags if self.task else ()

    @property
    def verdict(self) -> Verdict:
        return self.score.verdict if self.score else "unscored"

    @property
    def matcher(self) -> str | None:
        return self.score.matcher if self.score else None

    @property
    def failed(self) -> bool:
        """Ended without an answer, or answered and was scored wrong (or left undecided)."""
        return self.result.status != "finished" or self.verdict in ("wrong", "undecided")


@dataclass(frozen=True)
class RunDir:
    root: Path
    kind: RunKind
    tasks: list[TaskRun]  # one per task and trial, in directory order

    @property
    def trials(self) -> bool:
        return any(t.trial is not None for t in self.tasks)


def load_run(path: Path) -> RunDir:
    """The task directory or bench run at ``path``; ConfigError saying what is missing."""
    if (path / RESULT).is_file():
        return RunDir(path, "task", [load_task(path)])
    tasks_dir = path / "tasks"
    if tasks_dir.is_dir():
        return RunDir(path, "bench", [run for d in sorted(tasks_dir.iterdir()) if d.is_dir()
                                      for run in _task_or_trials(d)])
    raise ConfigError(f"{path} is not a run directory: it has neither {RESULT} (one task) "
                      "nor tasks/ (a bench run)")


def trial_dir(task_dir: Path, trial: int | None) -> Path:
    """Where a trial of a task runs: the task's own directory when there are no trials."""
    return task_dir if trial is None else task_dir / str(trial)


def _task_or_trials(task_dir: Path) -> list[TaskRun]:
    if (task_dir / RESULT).is_file():
        return [load_task(task_dir)]
    trials = sorted((int(d.name), d) for d in task_dir.iterdir()
                    if d.name.isdigit() and (d / RESULT).is_file())
    return [load_task(d, trial=n) for n, d in trials]


def load_task(task_dir: Path, *, trial: int | None = None) -> TaskRun:
    meta = _json_file(task_dir / TASK)
    score = task_dir / SCORE
    evidence_text = task_dir / "evidence.txt"
    return TaskRun(
        dir=task_dir, result=read_result(task_dir), steps=read_steps(task_dir),
        task=_task(task_dir / TASK, meta) if meta else None,
        score=_model(ScoreRecord, score, score.read_text(encoding="utf-8"))
        if score.is_file() else None,
        trial=trial,
        evidence_text=(evidence_text.read_text(encoding="utf-8", errors="replace")
                       if evidence_text.is_file() else None),
    )


def read_result(task_dir: Path) -> ResultRecord:
    path = task_dir / RESULT
    return _model(ResultRecord, path, path.read_text(encoding="utf-8"))


def read_score(task_dir: Path) -> ScoreRecord | None:
    path = task_dir / SCORE
    return _model(ScoreRecord, path, path.read_text(encoding="utf-8")) if path.is_file() else None


def read_verifier(task_dir: Path) -> list[VerifierCall]:
    """``verifier.jsonl``: the verifier's calls, none when no verifier ran."""
    path = task_dir / VERIFIER
    if not path.is_file():
        return []
    return [_model(VerifierCall, path, line, number) for number, line in
            enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if line.strip()]


def read_steps(task_dir: Path) -> list[StepRecord]:
    """``steps.jsonl``; a bad line is named by file and line number. A last line cut short
    (no newline: the process died while appending it) is left out."""
    path = task_dir / STEPS
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines.pop()
    return [_model(StepRecord, path, line, number)
            for number, line in enumerate(lines, start=1) if line.strip()]


def _task(path: Path, meta: dict[str, Any]) -> Task:
    try:
        return Task(instruction=str(meta["instruction"]), url=str(meta["url"]),
                    id=str(meta.get("id", path.parent.name)),
                    answer=None if meta.get("answer") is None else str(meta["answer"]),
                    answer_type=meta.get("answer_type", "auto"),
                    tags=tuple(str(t) for t in meta.get("tags") or ()),
                    **{name: meta[name] for name in OPTIONAL_FIELDS if meta.get(name) is not None})
    except KeyError as e:
        raise ConfigError(f"{path} is not a valid task line: it has no {e.args[0]!r}") from e


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

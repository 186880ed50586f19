"""One bench run: settings fixed for the run's life, the tasks still to do, an executor,
and every finished task scored and written to the store as it ends."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import platform
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

from rich.console import Console

from ..core.errors import ConfigError
from ..core.task import Task
from ..models.loader import load_model
from ..rundir.outcomes import evidence_category
from ..rundir.store import (
    RESULT,
    ScoreRecord,
    read_score,
    read_steps,
    trial_dir,
    write_score,
    write_task,
)
from ..rundir.store import Verdict as RunVerdict
from ..rundir.trajectory import ResultRecord
from ..viewer.report import write_task_page
from .execute import Job
from .judge import Judge
from .pool import run_local
from .progress import BenchProgress
from .ray_pool import run_ray
from .scorer import Verdict, score
from .store import Store, TaskRow
from .tasks import Split, TaskFile, pick

Executor = Literal["local", "ray"]
# Settings that may change when a run is resumed: where things run, not what is measured.
FREE_SETTINGS = frozenset({"base_url", "cdp_url", "headed", "judge_base_url", "no_preflight",
                           "host_resolver_rules", "grounder_api_key_env"})


def resolve_settings(recorded: dict[str, Any] | None, *, given: dict[str, Any],
                     defaults: dict[str, Any]) -> dict[str, Any]:
    """The run's settings: the given ones over the defaults for a new run. A resumed run
    keeps its recorded settings, and giving a different value is an error, except for
    FREE_SETTINGS (where things run, not what is measured), which the given ones update."""
    if recorded is None:
        return {**defaults, **given}
    clashes = [f"--{k.replace('_', '-')} was {recorded.get(k)!r}, now {v!r}"
               for k, v in given.items() if k not in FREE_SETTINGS and recorded.get(k) != v]
    if clashes:
        raise ConfigError("a resumed run keeps its settings: " + "; ".join(clashes))
    return {**defaults, **recorded, **{k: v for k, v in given.items() if k in FREE_SETTINGS}}


@dataclass(frozen=True)
class Trial(Task):
    """One run of a task: ``bench --trials N`` runs each task as trials 1..N."""

    trial: int = 1

    @classmethod
    def of(cls, task: Task, trial: int) -> Trial:
        return cls(**{f.name: getattr(task, f.name) for f in fields(Task)}, trial=trial)


def trial_of(task: Task) -> int:
    return task.trial if isinstance(task, Trial) else 1


def plan(store: Store, task_file: TaskFile, *, split: Split | None, part: str | None,
         trials: int = 1) -> tuple[list[Task], list[Trial]]:
    """(the run's tasks, the trials still to do); records new tasks and the file's bad
    lines."""
    for problem in task_file.problems:
        store.event(None, "bad_line", f"{task_file.path} {problem}")
    selected = pick(task_file.tasks, split=split, part=part)
    if not selected:
        raise ConfigError(f"no task to run in {task_file.path}"
                          + (f" ({len(task_file.problems)} bad lines)" if task_file.problems
                             else ""))
    store.add_tasks(selected, trials=trials)
    by_id = {t.id: t for t in selected}
    return selected, [Trial.of(by_id[task_id], n) for task_id, n in
                      store.unfinished(list(by_id), trials=trials)]


def versions() -> dict[str, Any]:
    """What produced the numbers: package versions, Python, platform, source commit."""
    found: dict[str, Any] = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("webfovea", "playwright", "dateparser", "openai", "anthropic", "ray"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            found[package] = importlib.metadata.version(package)
    found["git"] = _git_commit()
    return found


def _git_commit() -> str | None:
    source = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "-C", str(source), "rev-parse", "HEAD"], text=True,
                              capture_output=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(source), "status", "--porcelain", "--", "."],
                               text=True, capture_output=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


@dataclass(frozen=True)
class Launch:
    """How this invocation runs its tasks (free to change between resumes)."""

    executor: Executor
    workers: int
    ray_address: str | None
    command: str
    invocation: dict[str, Any]


class Recorder:
    """The executors' hooks: scores each finished task and writes it to the store."""

    def __init__(self, store: Store, run_id: int, run_dir: Path, progress: BenchProgress,
                 judge: Judge | None, found_versions: dict[str, Any], trials: int) -> None:
        self.store, self.run_id, self.run_dir = store, run_id, run_dir
        self.progress, self.judge, self.versions = progress, judge, found_versions
        self.trials = trials

    def task_dir(self, task: Task) -> Path:
        return task_dir(self.run_dir, self.store.task_dir(task.id), trial_of(task), self.trials)

    def started(self, task: Task, worker: str) -> None:
        self.store.mark_running(task.id, trial_of(task), run_id=self.run_id, worker=worker)
        self.progress.started(task.id)

    async def finished(self, task: Task, result: ResultRecord, *, worker: str,
                       browser_replaced: bool) -> None:
        verdict = await score(reference=task.answer, answer=result.answer,
                              answer_type=task.answer_type, status=result.status,
                              question=task.instruction, judge=self.judge)
        out = self.task_dir(task)
        write_task(out, task)
        write_verdict(out, task.answer, verdict, self.judge)
        steps = read_steps(out)
        self.store.finish(task.id, trial_of(task), run_id=self.run_id, result=result, verdict=verdict,
                          steps=steps, worker=worker, browser_replaced=browser_replaced)
        trial = trial_of(task) if self.trials > 1 else None
        problem = await asyncio.to_thread(_write_page, out, self.run_dir, trial)
        if problem is not None:
            self.store.event(self.run_id, "page_failed", problem, task.id)
        self.progress.finished(task.id, status=result.status, correct=verdict.correct,
                               matcher=verdict.matcher, decision=verdict.decision, steps=result.steps,
                               elapsed=result.elapsed, usage=result.usage)

    def browser_event(self, kind: str, detail: str, *, worker: str, task_id: str | None) -> None:
        if kind == "browser_started":
            if "chromium" not in self.versions:
                self.versions["chromium"] = detail.split("Chromium ")[-1]
                self.store.update_versions(self.run_id, self.versions)
            return
        self.store.event(self.run_id, kind, f"{worker}: {detail}", task_id)


def _write_page(out: Path, run_dir: Path, trial: int | None) -> str | None:
    """The task's page (in a thread: its screenshot diffs would hold up the other workers);
    what went wrong, if anything. A failure costs nothing stored: the page only shows the
    task's files, and the run's end writes it again."""
    try:
        write_task_page(out, run_dir, trial=trial)
    except Exception as e:  # any bug in a view must not end the run
        return f"the task's page could not be written: {type(e).__name__}: {e}"
    return None


def task_dir(run_dir: Path, name: str, trial: int, trials: int) -> Path:
    """``tasks/<id>/``, or ``tasks/<id>/<trial>/`` when the run has several trials."""
    return trial_dir(run_dir / "tasks" / name, trial if trials > 1 else None)


def write_verdict(task_dir: Path, reference: str | None, verdict: Verdict,
                  judge: Judge | None, *, keep_evidence: bool = False) -> None:
    """The task directory's ``score.json`` (the run directory, docs/contracts.md) for ``verdict``.
    ``keep_evidence`` (a rescore of the same answers): the evidence judge's verdict stays,
    its category follows the new verdict."""
    word: RunVerdict = verdict.decision
    old = read_score(task_dir) if keep_evidence else None
    evidence = old.evidence if old else None
    if evidence is not None:
        evidence = evidence.model_copy(update={
            "category": evidence_category(verdict.correct, evidence.verdict)})
    write_score(task_dir, ScoreRecord(
        verdict=word, correct=verdict.correct, matcher=verdict.matcher, reference=reference,
        detail=verdict.detail, rule=verdict.rule, judge=judge.name if judge and verdict.matcher == "judge"
        else None, evidence=evidence))


async def run(store: Store, run_dir: Path, todo: Sequence[Task], *, total: int, job: Job,
              launch: Launch, judge_spec: str | None, judge_base_url: str | None,
              console: Console, trials: int = 1) -> int:
    """Run ``todo``; returns the invocation's run id. Interruptions leave the store resumable."""
    found = versions()
    run_id = store.begin_run(executor=launch.executor, workers=launch.workers,
                             command=launch.command, invocation=launch.invocation,
                             versions=found)
    judge = Judge(load_model(judge_spec, base_url=judge_base_url)) if judge_spec else None
    progress = BenchProgress(total=total, done=total - len(todo), console=console,
                             workers=launch.workers)
    recorder = Recorder(store, run_id, run_dir, progress, judge, found, trials)
    state = "interrupted"
    try:
        with progress:
            if launch.executor == "ray":
                await run_ray(todo, job, workers=launch.workers, address=launch.ray_address,
                              task_dir=recorder.task_dir, hooks=recorder)
            else:
                await run_local(todo, job, workers=launch.workers, task_dir=recorder.task_dir,
                                hooks=recorder)
        state = "completed"
    finally:
        store.end_run(run_id, state)
        if judge is not None:
            await judge.aclose()
    return run_id


@dataclass(frozen=True)
class Rescored:
    """One verdict scored again: what it was and what it is now."""

    task_id: str
    trial: int
    before: str  # correct, wrong, undecided, unscored
    after: str
    verdict: Verdict

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def line(self) -> str:
        return (f"{self.task_id}{'' if self.trial == 1 else f' #{self.trial}'}: {self.before} → "
                f"{self.after} ({self.verdict.matcher}: {self.verdict.detail})")


async def rescore(store: Store, run_dir: Path, *, judge: Judge | None) -> list[Rescored]:
    """Score every finished task again with today's matchers (and the judge, if given),
    in the store and in each task directory's ``task.json`` and ``score.json``."""
    done = []
    trials = int((store.get_meta("settings") or {}).get("trials") or 1)
    for row in store.rows():
        if row.state != "done":
            continue
        verdict = await score(reference=row.reference, answer=row.answer,
                              answer_type=row.answer_type, status=row.status or "",
                              question=row.instruction, judge=judge)
        store.set_verdict(row.task_id, row.trial, verdict)
        out = task_dir(run_dir, row.dir, row.trial, trials)
        if (out / RESULT).is_file():
            write_task(out, row.task)
            write_verdict(out, row.reference, verdict, judge, keep_evidence=True)
        done.append(Rescored(row.task_id, row.trial, _decision(row), verdict.decision, verdict))
    return done


def _decision(row: TaskRow) -> str:
    """The recorded decision; a store from before three verdicts has only ``correct``."""
    if row.decision:
        return row.decision
    return "unscored" if row.correct is None else "correct" if row.correct else "wrong"

"""``webfovea export RUN --format webretriever --out DIR``: a bench run as the reference
runner writes its output, so the benchmark's own tools (NavEval) read it unchanged.

Per task ``DIR/<task_idx>_<task_id>/``: ``trajectory/<n>.png`` (step n's screenshot as sent,
n from 0, and nothing else: NavEval takes the directory's last entry as the final screenshot),
``trajectory_visual/<n>.png`` (the action drawn on it), ``result.json`` and ``capture.json``;
and ``DIR/logs/summary.json``. Status: ``SUCCESS`` when the task ended with a non-empty
answer, ``FAIL`` for every other ending. A task without ``task_idx`` (a task file that is
not WebRetriever's) is numbered after the largest ``task_idx`` of the run, in run order.
A screenshot that is gone or unreadable is a warning naming the file, and the step keeps its
number with a grey stand-in that says so.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ...rundir.images import RunImages
from ...rundir.network import known_secrets
from ...rundir.store import RESULT, TASK, TaskRun, load_run, load_task
from ...rundir.trajectory import StepRecord
from ..examples import REDACTED, typed_secrets
from .capture import network_of, to_capture
from .grammar import CALL_USER, export_action
from .visual import placeholder, visual

SUCCESS, FAIL = "SUCCESS", "FAIL"
_DEFAULT_SCREEN = (1280, 720)  # a stand-in's size when the step recorded none


@dataclass(frozen=True)
class ExportedTask:
    folder: str
    task_idx: int
    task_id: str
    status: str
    answer: str | None
    steps: int
    requests: int
    # What NavEval takes for the final screenshot here: the last name os.listdir gives,
    # in the order the file system keeps (ext4: a hash of the name; tmpfs: newest first).
    naveval_last: str | None


@dataclass(frozen=True)
class Exported:
    out: Path
    tasks: tuple[ExportedTask, ...]
    warnings: tuple[str, ...]

    @property
    def success(self) -> int:
        return sum(t.status == SUCCESS for t in self.tasks)

    def not_final_last(self) -> list[ExportedTask]:
        """Tasks whose trajectory/ lists another step's screenshot last on this file system:
        NavEval would show its judge that one as the final screenshot."""
        return [t for t in self.tasks
                if t.steps and t.naveval_last != f"{t.steps - 1}.png"]


def export_webretriever(run_dirs: list[Path], out: Path, *, navigation: bool = False
                        ) -> Exported:
    """``navigation``: the reference runner's statuses for Protocols I and II (below)."""
    warnings: list[str] = []
    runs = [(task, _meta(task)) for run_dir in run_dirs for task in _tasks(run_dir, warnings)]
    if not runs:
        raise ConfigError(f"{', '.join(map(str, run_dirs))}: no task to export"
                          + "".join(f"\n  {w}" for w in warnings))
    secrets = known_secrets()
    done: list[ExportedTask] = []
    used: set[str] = set()
    for (task, meta), idx in zip(runs, _indices(meta for _, meta in runs), strict=True):
        done.append(_task(task, meta, idx, _folder(task, idx, used, warnings), out, secrets,
                          warnings, navigation=navigation))
    _summary(out, run_dirs, done, warnings)
    return Exported(out, tuple(done), tuple(warnings))


def _tasks(run_dir: Path, warnings: list[str]) -> list[TaskRun]:
    """The run's tasks (and trials); one whose records cannot be read is a warning."""
    tasks_dir = run_dir / "tasks"
    if (run_dir / RESULT).is_file() or not tasks_dir.is_dir():
        return load_run(run_dir).tasks  # one task, or not a run: load_run says so
    found: list[TaskRun] = []
    for d in sorted(p for p in tasks_dir.iterdir() if p.is_dir()):
        trials = [(None, d)] if (d / RESULT).is_file() else sorted(
            (int(t.name), t) for t in d.iterdir() if t.name.isdigit() and (t / RESULT).is_file())
        for trial, where in trials:
            try:
                found.append(load_task(where, trial=trial))
            except ConfigError as e:
                warnings.append(f"{where}: {e}; not exported")
    return found


def status_of(answer: str | None, *, ended: str = "", last_action: str = "",
              navigation: bool = False) -> str:
    """SUCCESS for an ending with a non-empty answer; FAIL for any other (no answer,
    ``finished()`` alone, ``call_user()``, the step or time limit, an error). With
    ``navigation`` (Protocols I and II, where NavEval judges the navigation and skips FAIL),
    as the reference runner writes them: ``finished()`` alone is SUCCESS too, and a task
    that ended on ``call_user()`` is FAIL_CALL_USER."""
    if answer is not None and answer.strip():
        return SUCCESS
    if navigation and ended == "finished":
        return SUCCESS
    if navigation and last_action == CALL_USER:
        return "FAIL_CALL_USER"
    return FAIL


def _meta(task: TaskRun) -> dict[str, Any]:
    """``task.json`` as written (``task_idx``, ``keytra``, ``reference_length`` included
    when the task file had them); {} when absent or unreadable."""
    for where in (task.dir, task.dir.parent):
        path = where / TASK
        if path.is_file():
            try:
                value = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError):
                return {}
            return value if isinstance(value, dict) else {}
    return {}


def _indices(metas: Iterator[dict[str, Any]]) -> list[int]:
    """Each task's ``task_idx``; one without gets the next number after the largest given."""
    given = [m.get("task_idx") if isinstance(m.get("task_idx"), int) else None for m in metas]
    following = max((i for i in given if i is not None), default=-1) + 1
    out = []
    for idx in given:
        if idx is None:
            idx, following = following, following + 1
        out.append(idx)
    return out


def _folder(task: TaskRun, idx: int, used: set[str], warnings: list[str]) -> str:
    """``<task_idx>_<task_id>`` (the run's directory name: the id made safe for a path by
    the bench), ``_t<trial>`` added for a trial; a task met again in another run exported
    gets ``_<n>`` added, and a warning, rather than replace the first."""
    name = task.dir.name if task.trial is None else task.dir.parent.name
    folder = f"{idx}_{name}" + ("" if task.trial is None else f"_t{task.trial}")
    chosen, n = folder, 2
    while chosen in used:
        chosen, n = f"{folder}_{n}", n + 1
    if chosen != folder:
        warnings.append(f"{task.dir}: {folder} is already exported from another run; "
                        f"this one is {chosen}")
    used.add(chosen)
    return chosen


def _task(task: TaskRun, meta: dict[str, Any], idx: int, folder: str, out: Path,
          keys: tuple[str, ...], warnings: list[str], *, navigation: bool) -> ExportedTask:
    secrets = (*typed_secrets(task), *keys)
    task_id = task.result.task_id or task.id
    where = out / folder
    if where.exists():
        shutil.rmtree(where)  # a stale trajectory/<n>.png or filtered_requests.json misleads
    (where / "trajectory").mkdir(parents=True)
    (where / "trajectory_visual").mkdir()
    actions = [_redact(export_action(s), secrets) for s in task.steps]
    for n, (step, action) in enumerate(zip(task.steps, actions, strict=True)):
        _images(task, step, n, action, where, warnings)
    records, bad = network_of(task.dir)
    warnings.extend(bad)
    end = task.result.started_at + task.result.elapsed
    capture = to_capture(records, at=end, secrets=secrets)
    _write(where / "capture.json", capture)
    status = status_of(task.result.answer, ended=task.result.status,
                       last_action=actions[-1] if actions else "", navigation=navigation)
    result = _result(task, meta, idx, status, actions, secrets)
    _write(where / "result.json", result)
    listed = os.listdir(where / "trajectory")
    return ExportedTask(folder, idx, task_id, status, result["agent_answer"], len(task.steps),
                        capture["total_requests"], listed[-1] if listed else None)


def _result(task: TaskRun, meta: dict[str, Any], idx: int, status: str, actions: list[str],
            secrets: tuple[str, ...]) -> dict[str, Any]:
    r = task.result
    answer = _redact(r.answer, secrets) if r.answer and r.answer.strip() else None
    viewport = next((s.page_size for s in reversed(task.steps) if all(s.page_size)), None)
    return {
        "task_idx": idx, "task_id": r.task_id or task.id, "task": r.task,
        "key_points": meta.get("keytra") or "", "website": str(meta.get("url") or r.url),
        "status": status, "reference_length": meta.get("reference_length"),
        "predict_length": len(actions), "final_result_response": answer or "",
        "agent_answer": answer, "actions": actions,
        "thoughts": [_redact(s.thought, secrets) for s in task.steps],
        "history_resps": [_redact(s.raw_reply, secrets) for s in task.steps],
        "urls": [s.url for s in task.steps],
        # webfovea's own, which the reference runner does not write: the viewport the points
        # are in (the screenshots are as sent, downsampled), and how the task ended here.
        "viewport": list(viewport) if viewport else None,
        "webfovea_status": r.status, "error": r.error,
    }


def _images(task: TaskRun, step: StepRecord, n: int, action: str, where: Path,
            warnings: list[str]) -> None:
    png, problem = _screenshot(task, step)
    if png is None:
        warnings.append(f"{task.dir / (step.screenshot or f'(step {step.step})')}: {problem}; "
                        f"trajectory/{n}.png is a stand-in")
        size = step.sent_size if all(step.sent_size) else _DEFAULT_SCREEN
        png = placeholder(size, f"step {step.step}: screenshot {problem}")
        drawn = png
    else:
        drawn = visual(png, _sent_points(step, action), action)
    (where / "trajectory" / f"{n}.png").write_bytes(png)
    (where / "trajectory_visual" / f"{n}.png").write_bytes(drawn)


def _screenshot(task: TaskRun, step: StepRecord) -> tuple[bytes | None, str]:
    """The step's screenshot as sent, or why there is none (the run readers' one image
    reader, which says missing or unreadable and why; the caller names the file)."""
    if not step.screenshot:
        return None, "not recorded"
    found = RunImages(warn=_silent).read(task.dir / step.screenshot)
    return (found, "") if isinstance(found, bytes) else (None, found.shown())


def _silent(line: str) -> None:
    """The export words its own warning (the file and its stand-in) for each bad image."""


def _sent_points(step: StepRecord, action: str) -> list[tuple[float, float]]:
    """The action's page points in the sent image's pixels, for drawing."""
    (sw, sh), (pw, ph) = step.sent_size, step.page_size
    found = [(float(x), float(y)) for x, y in re.findall(r"\((-?\d+),(-?\d+)\)", action)]
    if not (sw and sh and pw and ph):
        return found
    return [(x * sw / pw, y * sh / ph) for x, y in found]


def _redact(text: str | None, secrets: tuple[str, ...]) -> str:
    out = text or ""
    for secret in secrets:
        out = out.replace(secret, REDACTED)
    return out


def _write(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=4), encoding="utf-8")


def _summary(out: Path, run_dirs: list[Path], done: list[ExportedTask],
             warnings: list[str]) -> None:
    (out / "logs").mkdir(parents=True, exist_ok=True)
    _write(out / "logs" / "summary.json", {
        "exported_from": [str(p) for p in run_dirs],
        "exported_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "total": len(done), "completed": len(done),
        "success": sum(t.status == SUCCESS for t in done),
        "failed": sum(t.status != SUCCESS for t in done),
        "requests": sum(t.requests for t in done),
        "tasks": [{"task_idx": t.task_idx, "task_id": t.task_id, "folder": t.folder,
                   "status": t.status, "agent_answer": t.answer, "steps": t.steps,
                   "requests": t.requests, "naveval_last_screenshot": t.naveval_last}
                  for t in done],
        "warnings": warnings})

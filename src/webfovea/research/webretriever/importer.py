"""``webfovea import-trajectory --from webretriever DIR --out OUT``: the reference runner's
output (or any participant's in its layout) as a bench-shaped run, ``OUT/tasks/<task_id>/``,
that ``view``, ``diagnose`` and ``score`` read.

A task folder holds ``result.json`` (``actions`` in UI-TARS grammar with points in screen
pixels, ``thoughts``, ``history_resps``, ``urls``, ``status``, ``agent_answer``,
``final_result_response``), ``trajectory/<n>.png`` (the screenshot step n was decided on) and
``capture.json`` (its XHR/fetch requests, which become ``network.jsonl``; a folder without
one has no requests). The answer is ``agent_answer``, else ``final_result_response`` when the
task ended ``SUCCESS`` (the UI-TARS runner puts its last thought there whatever the ending).
One bad folder is a warning; the others are read.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ...actions.registry import Point
from ...browser.capture import png_size
from ...core.errors import ConfigError
from ...rundir.network import NETWORK
from ..trajectories.record import Foreign, ForeignStep, write
from .capture import from_capture
from .grammar import CALL_USER, read_action

SOURCE = "webretriever"
RESULT = "result.json"
_PNG = re.compile(r"^(\d+)\.png$")
_LIMITS = ("FAIL_MAX_OP", "FAIL_MAX_STEPS")  # the runner's own step budget ended the task
CALLED = "the agent asked for a person (call_user())"


@dataclass(frozen=True)
class ImportedTask:
    task_id: str
    status: str  # ours
    source_status: str  # the reference runner's
    steps: int
    requests: int | None  # None: the folder had no capture.json


@dataclass(frozen=True)
class Imported:
    tasks: tuple[ImportedTask, ...]
    warnings: tuple[str, ...]


def task_folders(path: Path) -> list[Path]:
    """``path`` itself when it is one task's folder, else its task folders."""
    if (path / RESULT).is_file():
        return [path]
    if not path.is_dir():
        raise ConfigError(f"{path} is not a directory")
    found = sorted((d for d in path.iterdir() if (d / RESULT).is_file()), key=_order)
    if not found:
        raise ConfigError(f"{path} holds no reference-runner output: neither {RESULT} nor "
                          f"task folders <task_idx>_<task_id>/{RESULT}")
    return found


def _order(folder: Path) -> tuple[int, str]:
    head = folder.name.split("_", 1)[0]
    return (int(head) if head.isdigit() else 1 << 62, folder.name)


def import_webretriever(path: Path, out: Path) -> Imported:
    done: list[ImportedTask] = []
    warnings: list[str] = []
    seen: dict[str, Path] = {}
    for folder in task_folders(path):
        try:
            task = _import_task(folder, out / "tasks", warnings)
        except ConfigError as e:
            warnings.append(f"{folder}: {e}; not imported")
            continue
        if task.task_id in seen:
            warnings.append(f"{folder} and {seen[task.task_id]} both hold task "
                            f"{task.task_id!r}: {folder.name} is the one imported")
            done = [t for t in done if t.task_id != task.task_id]
        seen[task.task_id] = folder
        done.append(task)
    if not done:
        raise ConfigError("no task could be imported:\n  " + "\n  ".join(warnings))
    return Imported(tuple(done), tuple(warnings))


def _import_task(folder: Path, tasks: Path, warnings: list[str]) -> ImportedTask:
    data = _json(folder / RESULT)
    if not isinstance(data, dict):
        raise ConfigError(f"{RESULT} is not a JSON object")
    task_id = str(data.get("task_id") or folder.name.split("_", 1)[-1])
    if not task_id or "/" in task_id or task_id in (".", ".."):
        raise ConfigError(f"task_id {task_id!r} cannot name a directory")
    foreign = _foreign(folder, data, warnings)
    where = tasks / task_id
    if where.exists():
        shutil.rmtree(where)  # an earlier import's network.jsonl or score.json is not this one's
    result = write(foreign, where)
    _write_task(where, data, task_id)
    return ImportedTask(task_id, result.status, str(data.get("status", "")), result.steps,
                        _network(folder, where, warnings))


def _foreign(folder: Path, data: dict[str, Any], warnings: list[str]) -> Foreign:
    actions = _strings(data.get("actions"))
    thoughts, replies = _strings(data.get("thoughts")), _strings(data.get("history_resps"))
    urls = _strings(data.get("urls"))
    shots = _screenshots(folder, warnings)
    status = str(data.get("status") or "")
    foreign = Foreign(SOURCE, task=str(data.get("task") or ""),
                      url=str(data.get("website") or (urls[0] if urls else "")),
                      config={"webretriever_status": status})
    space = _space(data, shots)
    for n, text in enumerate(actions):
        step = ForeignStep({"action": text}, shots.get(n), _at(thoughts, n), url=_at(urls, n),
                           reply=_at(replies, n) or f"Action: {text}", space=space)
        centre = Point(space[0] / 2, space[1] / 2) if space else Point(0, 0)
        read = read_action(text, centre=centre)
        if read.call_user:
            step.outside = "the reference agent's call_user(): it asks for a person"
        elif read.action is None:
            step.error = read.error
        else:
            step.action = read.action
        foreign.steps.append(step)
    foreign.last_screenshot = shots.get(len(actions))
    last = foreign.steps[-1] if foreign.steps else None
    if foreign.last_screenshot is None and last and last.action and last.action.spec.ends_task:
        foreign.last_screenshot = last.screenshot  # the page as the agent answered: evidence
    _ending(foreign, data, status, called=bool(actions) and actions[-1].strip() == CALL_USER)
    return foreign


def _ending(foreign: Foreign, data: dict[str, Any], status: str, *, called: bool) -> None:
    answer = data.get("agent_answer")
    if not (isinstance(answer, str) and answer.strip()) and status == "SUCCESS":
        answer = data.get("final_result_response")
    if isinstance(answer, str) and answer.strip():
        foreign.answer = answer
    elif status == "SUCCESS":
        foreign.ended = "finished"  # finished() with no content: navigation only
    elif status == "FAIL_CALL_USER" or called:
        foreign.ended, foreign.gave_up = "gave_up", CALLED
    elif status in _LIMITS:
        foreign.ended, foreign.gave_up = "step_limit", f"the reference runner's {status}"
    else:
        error = data.get("error")
        why = f"the reference runner ended it {status}" if status else \
            "the reference runner wrote no status"
        foreign.ended, foreign.gave_up = "gave_up", why + (f": {error}" if error else "")


def _space(data: dict[str, Any], shots: dict[int, bytes]) -> tuple[int, int] | None:
    """The pixels the actions' points are in: the viewport a webfovea export names, else the
    screen the reference runner captured (its screenshots are the viewport at scale 1)."""
    viewport = data.get("viewport")
    if isinstance(viewport, list) and len(viewport) == 2 and all(
            isinstance(v, int) and v > 0 for v in viewport):
        return viewport[0], viewport[1]
    first = next(iter(shots.values()), None)
    if first is None:
        return None
    size = png_size(first)
    return size.width, size.height


def _screenshots(folder: Path, warnings: list[str]) -> dict[int, bytes]:
    shots: dict[int, bytes] = {}
    where = folder / "trajectory"
    for path in sorted(where.iterdir()) if where.is_dir() else []:
        match = _PNG.match(path.name)
        if not match:
            continue
        png = path.read_bytes()
        try:
            png_size(png)
            with Image.open(io.BytesIO(png)) as image:
                image.load()
        except (OSError, ValueError, SyntaxError):
            warnings.append(f"{path}: not a readable PNG; its step has no screenshot")
            continue
        shots[int(match.group(1))] = png
    return shots


def _network(folder: Path, where: Path, warnings: list[str]) -> int | None:
    path = folder / "capture.json"
    if not path.is_file():
        return None
    try:
        records, problem = from_capture(_json(path))
    except ConfigError as e:
        warnings.append(f"{path}: {e}; no requests imported")
        return 0
    if problem:
        warnings.append(f"{path}: {problem}")
    with (where / NETWORK).open("w", encoding="utf-8") as f:
        for record in records:
            f.write(record.line() + "\n")
    return len(records)


def _write_task(where: Path, data: dict[str, Any], task_id: str) -> None:
    """``task.json`` as the bench writes a WebRetriever task's (no reference: the runner's
    output holds none; ``score --task FILE`` brings it)."""
    line: dict[str, Any] = {"id": task_id, "instruction": str(data.get("task") or ""),
                            "url": str(data.get("website") or ""), "answer": None,
                            "answer_type": "auto", "tags": ["webretriever"]}
    idx = data.get("task_idx", data.get("task_index"))
    for key, value in (("task_idx", idx), ("keytra", data.get("key_points") or None),
                       ("reference_length", data.get("reference_length"))):
        if value is not None:
            line[key] = value
    (where / "task.json").write_text(json.dumps(line, ensure_ascii=False, indent=2), "utf-8")


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path.name} cannot be read ({e})") from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path.name} is not JSON: {e}") from None


def _strings(value: Any) -> list[str]:
    return [v if isinstance(v, str) else "" if v is None else str(v)
            for v in value] if isinstance(value, list) else []


def _at(items: list[str], n: int) -> str:
    return items[n] if n < len(items) else ""

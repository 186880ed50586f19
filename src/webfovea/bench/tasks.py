"""Task files (the JSON Lines contract of docs/contracts.md, WebRetriever's field names too) and splits.

A bad line never stops the others: it becomes a :class:`LineProblem` naming its line
number (in a task file that is one JSON array, the element's index, from 0) and the reason.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from ..console.inputs import web_url
from ..core.errors import ConfigError
from ..core.task import AnswerType, Task
from .formats import (
    TASK_FORMATS,
    WEBVOYAGER_ANSWERS,
    TaskFormat,
    array_format,
    array_records,
    to_ours,
    webvoyager_answers,
)

ANSWER_TYPES: tuple[AnswerType, ...] = ("auto", "text", "number", "date")
UNREACHABLE = "unreachable"  # the tag of a task marked unreachable (``"unreachable": true``)
# Our name first, then WebRetriever's.
FIELDS = {"id": ("id", "task_id"), "instruction": ("instruction", "task"),
          "url": ("url", "website")}


@dataclass(frozen=True)
class LineProblem:
    line: int  # the line number from 1; in an array: the element's index from 0 (jq's .[i])
    reason: str
    kind: Literal["line", "element"] = "line"

    def __str__(self) -> str:
        return f"{self.kind} {self.line}: {self.reason}"


@dataclass(frozen=True)
class TaskFile:
    path: Path
    tasks: tuple[Task, ...]
    problems: tuple[LineProblem, ...]
    sha256: str


def read_tasks(path: Path, *, fmt: TaskFormat = "auto", references: Path | None = None
               ) -> TaskFile:
    """Every good task of the file, and a problem for every bad line (an array's element
    counts as a line). ``fmt``: a published benchmark's shape (webfovea.bench.formats), else
    guessed per line; ``references``: WebVoyager's answers file (default: beside the file)."""
    if fmt not in TASK_FORMATS:
        raise ConfigError(f"--format must be one of {', '.join(TASK_FORMATS)}, got {fmt!r}")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read the task file {path}: {e.strerror or e}") from e
    tasks: list[Task] = []
    problems: list[LineProblem] = []
    first_line: dict[str, int] = {}
    # utf-8-sig: a byte-order mark (Windows editors) must not spoil the first task.
    text = raw.decode("utf-8-sig", errors="replace")
    answers = webvoyager_answers(references or path.with_name(WEBVOYAGER_ANSWERS))
    array = array_records(text)
    shape = array_format(array, fmt) if array is not None else None
    if array is not None and shape is None:
        raise ConfigError(f"{path} is one JSON array; task files are JSON Lines, one task object "
                          f"per line (convert it with: jq -c '.[]' {path}), or the array of "
                          "Online-Mind2Web or WebRetriever (--format online-mind2web, "
                          "--format webretriever)")
    # An array's elements are numbered as jq numbers them (.[0] first); lines from 1.
    kind: Literal["line", "element"] = "element" if array is not None else "line"
    numbered = (enumerate((json.dumps(r) for r in array), start=0) if array is not None
                else enumerate(text.splitlines(), start=1))
    for number, line in numbered:
        if not line.strip():
            continue
        try:
            task = parse_line(line, fmt=shape or fmt, answers=answers)
        except ValueError as e:
            problems.append(LineProblem(number, str(e), kind))
            continue
        if task.id in first_line:
            problems.append(LineProblem(number, f"duplicate id {task.id!r} "
                                                f"(first on {kind} {first_line[task.id]})",
                                        kind))
            continue
        first_line[task.id] = number
        tasks.append(task)
    return TaskFile(path, tuple(tasks), tuple(problems), hashlib.sha256(raw).hexdigest())


def parse_line(line: str, *, fmt: TaskFormat = "auto",
               answers: Mapping[tuple[str, int], str] | None = None) -> Task:
    """One task line; ValueError with the reason when it is not a valid task."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not valid JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(record, dict):
        raise ValueError(f"a task must be a JSON object, got {type(record).__name__}")
    return task_from_record(to_ours(record, fmt, answers or {}))


def task_from_record(record: dict[str, Any]) -> Task:
    task_id = _field(record, "id")
    if isinstance(task_id, (int, float)) and not isinstance(task_id, bool):
        task_id = str(task_id)
    if not isinstance(task_id, str) or not task_id.strip():
        raise ValueError("`id` (or `task_id`) must be a non-empty string or number")
    instruction = _field(record, "instruction")
    if not isinstance(instruction, str) or not instruction.strip():
        raise ValueError("`instruction` (or `task`) must be a non-empty string")
    tags = _tags(record.get("tags", []))
    if record.get("unreachable") is True and UNREACHABLE not in tags:
        tags = (*tags, UNREACHABLE)  # webfovea references --unreachable: left out of success
    return Task(instruction=instruction.strip(), url=_url(_field(record, "url")),
                id=task_id.strip(), answer=_answer(record.get("answer")),
                answer_type=_answer_type(record.get("answer_type", "auto")), tags=tags,
                task_idx=_whole(record, "task_idx", least=0),
                keytra=_keytra(record.get("keytra")),
                reference_length=_whole(record, "reference_length", least=1))


def _field(record: dict[str, Any], name: str) -> Any:
    for key in FIELDS[name]:
        if key in record:
            return record[key]
    return None


def _url(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("`url` (or `website`) must be a non-empty string")
    try:  # WebRetriever lists some sites as bare host names: they get https://
        return web_url(value, flag="`url`")
    except ConfigError as e:
        raise ValueError(str(e)) from None


def _answer(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError("`answer` must be a string, a number or a list of them")
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return "; ".join(str(v) for v in value)  # the list matcher splits on ";"
    raise ValueError("`answer` must be a string, a number or a list of them")


def _whole(record: dict[str, Any], name: str, *, least: int) -> int | None:
    """An optional whole-number field (WebRetriever's ``task_idx``, ``reference_length``)."""
    value = record.get(name)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"`{name}` must be a whole number of at least {least}, got {value!r}")
    return value


def _keytra(value: Any) -> str | None:
    """Protocol II's operational documentation: text, or none (null or empty)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise ValueError(f"`keytra` must be text, got {type(value).__name__}")
    return value.strip()


def _answer_type(value: Any) -> AnswerType:
    if value not in ANSWER_TYPES:
        raise ValueError(f"`answer_type` must be one of {', '.join(ANSWER_TYPES)}, got {value!r}")
    return cast(AnswerType, value)


def _tags(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ValueError("`tags` must be a list of strings")
    return tuple(value)


# -- splits -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """Named parts with weights, e.g. ``dev:70,holdout:30``."""

    parts: tuple[tuple[str, float], ...]

    @classmethod
    def parse(cls, spec: str) -> Split:
        parts: list[tuple[str, float]] = []
        for item in spec.split(","):
            name, _, weight = item.strip().partition(":")
            try:
                value = float(weight)
            except ValueError:
                value = -1.0
            if not re.fullmatch(r"[\w-]+", name) or value <= 0:
                raise ConfigError(f"--split must look like dev:70,holdout:30 (names with positive "
                                  f"weights), got {spec!r}")
            parts.append((name, value))
        if len({name for name, _ in parts}) != len(parts):
            raise ConfigError(f"--split names must be distinct, got {spec!r}")
        return cls(tuple(parts))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.parts)

    def part_of(self, task_id: str) -> str:
        """The part a task belongs to: a function of its id alone, so adding tasks to the
        file never moves an existing task between parts (a holdout task stays held out)."""
        point = stable_fraction(task_id) * sum(w for _, w in self.parts)
        for name, weight in self.parts:
            if point < weight:
                return name
            point -= weight
        return self.parts[-1][0]

    def select(self, tasks: Iterable[Task], part: str) -> list[Task]:
        if part not in self.names:
            raise ConfigError(f"--part must be one of {', '.join(self.names)}, got {part!r}")
        return [t for t in tasks if self.part_of(t.id) == part]


def stable_fraction(task_id: str) -> float:
    """A number in [0, 1) from SHA-256 of the id: the same on every machine and Python."""
    digest = hashlib.sha256(task_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def task_dir_name(task_id: str) -> str:
    """A safe directory name for a task id (ids with other characters get a hash suffix)."""
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", task_id) and ".." not in task_id:
        return task_id
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", task_id).strip("-.")[:40] or "task"
    return f"{slug}-{hashlib.sha256(task_id.encode('utf-8')).hexdigest()[:10]}"


def pick(tasks: Sequence[Task], *, split: Split | None, part: str | None) -> list[Task]:
    if split is None:
        if part is not None:
            raise ConfigError("--part needs --split")
        return list(tasks)
    if part is None:
        raise ConfigError(f"--split needs --part (one of {', '.join(split.names)})")
    return split.select(tasks, part)

"""The published task files of live-web benchmarks, read as our task records.

* **WebVoyager** (``data/WebVoyager_data.jsonl``): JSON Lines of ``web_name``, ``id``
  (``"Allrecipes--0"``), ``ques``, ``web``; its reference answers are a separate JSON file
  (``reference_answer.json``: ``{web_name: {"answers": [{"id": 0, "type": "golden" |
  "possible", "ans": ...}]}}``), keyed by site name and the number after ``--``.
* **Online-Mind2Web**: one JSON array of ``task_id``, ``confirmed_task``, ``website``,
  ``reference_length`` (kept, for ``--step-budget``), ``level``; no reference answers (score
  it by evidence).
* **AssistantBench** (``assistant_bench_v1.0_dev.jsonl``, ``…_test.jsonl`` on Hugging Face):
  JSON Lines of ``id``, ``set``, ``task``, ``answer`` (null in the test split, scored on the
  project's leaderboard), ``gold_url``, ``explanation``, ``metadata``, ``difficulty``; some
  copies call the reference ``gold_answer``. The tasks name no start page, so they start at a
  search engine (:data:`ASSISTANTBENCH_START`) unless a line gives ``url`` or ``start_url``.
* **WebRetriever** (``data/example_tasks.json``, ``evaluation/protocol3_sample_8.json`` of the
  reference agent): one JSON array of ``task_idx``, ``task_id``, ``website`` (some without a
  scheme), ``task``, and optionally ``answer`` (Protocol III; often several lines), ``keytra``
  (Protocol II's operational documentation) and ``reference_length``. Online-Mind2Web's
  array also has ``task_id`` and ``website``; ``task_idx`` and ``task`` tell them apart.

Shapes are told apart by their field names; ``--format`` overrides the guess.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from ..core.errors import ConfigError

TaskFormat = Literal["auto", "jsonl", "webvoyager", "online-mind2web", "assistantbench",
                     "webretriever"]
TASK_FORMATS: tuple[TaskFormat, ...] = ("auto", "jsonl", "webvoyager", "online-mind2web",
                                        "assistantbench", "webretriever")
# The formats published as one JSON array rather than JSON Lines.
ARRAY_FORMATS: frozenset[TaskFormat] = frozenset({"online-mind2web", "webretriever"})
ASSISTANTBENCH_START = "https://duckduckgo.com/"
WEBVOYAGER_ANSWERS = "reference_answer.json"  # looked for next to the task file
ASSISTANTBENCH_FIELDS = frozenset({"gold_url", "gold_answer"})
WEBRETRIEVER_OPTIONAL = ("task_idx", "keytra", "reference_length")  # kept on the Task


def detect(record: Mapping[str, Any]) -> TaskFormat:
    """The format a record's fields say it comes from."""
    if {"ques", "web"} <= record.keys():
        return "webvoyager"
    if "confirmed_task" in record:
        return "online-mind2web"
    if {"task_idx", "task"} <= record.keys():
        return "webretriever"
    # ``task`` and ``answer`` are also WebRetriever's names in our own JSON Lines, so the
    # fields only AssistantBench has tell it apart.
    if "task" in record and not ASSISTANTBENCH_FIELDS.isdisjoint(record.keys()):
        return "assistantbench"
    return "jsonl"


def to_ours(record: dict[str, Any], fmt: TaskFormat,
            answers: Mapping[tuple[str, int], str]) -> dict[str, Any]:
    """The record with our field names (``id``, ``instruction``, ``url``, ``answer``, ``tags``)."""
    if fmt == "auto":
        fmt = detect(record)
    if fmt == "webvoyager":
        site, number = _webvoyager_key(record.get("id"), record.get("web_name"))
        answer = answers.get((site, number)) if number is not None else None
        return {"id": record.get("id"), "instruction": record.get("ques"),
                "url": record.get("web"), "answer": answer,
                "tags": ["webvoyager", *([site] if site else [])]}
    if fmt == "online-mind2web":
        level = record.get("level")
        return {"id": record.get("task_id"), "instruction": record.get("confirmed_task"),
                "url": record.get("website"), "reference_length": record.get("reference_length"),
                "tags": ["online-mind2web", *([str(level)] if level else [])]}
    if fmt == "webretriever":
        return {"id": record.get("task_id"), "instruction": record.get("task"),
                "url": record.get("website"), "answer": record.get("answer"),
                "tags": ["webretriever"],
                **{name: record[name] for name in WEBRETRIEVER_OPTIONAL if name in record}}
    if fmt == "assistantbench":
        difficulty = record.get("difficulty")
        return {"id": record.get("id"), "instruction": record.get("task"),
                "url": record.get("url") or record.get("start_url") or ASSISTANTBENCH_START,
                "answer": _first_given(record, "answer", "gold_answer"),
                "tags": ["assistantbench", *([str(difficulty)] if difficulty else [])]}
    return record


def _first_given(record: Mapping[str, Any], *names: str) -> Any:
    """The first of the fields that holds a value; None when all are null or empty."""
    for name in names:
        value = record.get(name)
        if value is not None and value != "":
            return value
    return None


def _webvoyager_key(task_id: object, web_name: object) -> tuple[str, int | None]:
    site, _, number = str(task_id or "").rpartition("--")
    site = str(web_name or site)
    return site, int(number) if number.isdigit() else None


def webvoyager_answers(path: Path | None) -> dict[tuple[str, int], str]:
    """``reference_answer.json`` as (site, number) → answer; {} when there is none."""
    if path is None or not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"cannot read the reference answers {path}: {e}") from e
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: WebVoyager reference answers are one JSON object by site")
    out: dict[tuple[str, int], str] = {}
    for site, entry in data.items():
        for item in (entry or {}).get("answers", []) if isinstance(entry, dict) else []:
            if isinstance(item, dict) and isinstance(item.get("id"), int) and item.get("ans"):
                out[(site, item["id"])] = str(item["ans"])
    return out


def array_format(records: list[Any], fmt: TaskFormat) -> TaskFormat | None:
    """The published format of a task file that is one JSON array: ``fmt`` when it names one,
    else what the first object's fields say; None when the array is no published shape."""
    if fmt in ARRAY_FORMATS:
        return fmt
    first = next((r for r in records if isinstance(r, dict)), None)
    if fmt != "auto" or first is None:
        return None
    found = detect(first)
    return found if found in ARRAY_FORMATS else None


def array_records(text: str) -> list[Any] | None:
    """The records of a task file that is one JSON array (Online-Mind2Web, WebRetriever);
    None otherwise."""
    if not text.lstrip().startswith("["):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None  # a line that merely starts with "[": reported as a bad line
    return value if isinstance(value, list) else None

"""Task files (the contract's fields and WebRetriever's) with broken lines, and the split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_bench_support import write_tasks
from webfovea.bench.tasks import Split, pick, read_tasks, stable_fraction, task_dir_name
from webfovea.core.errors import ConfigError
from webfovea.core.task import Task

GOOD = {"id": "a", "instruction": "Find the population", "url": "https://example.org/",
        "answer": "1,234", "answer_type": "number", "tags": ["table"]}


def test_good_and_bad_lines_each_get_their_line_number(tmp_path: Path) -> None:
    path = write_tasks(tmp_path / "tasks.jsonl", [
        GOOD,
        '{"id": "b", "instruction": "x", "url": "https://example.org/"',  # 2: cut short
        "",  # blank lines are skipped, not errors
        {"task_id": 7, "task": "WebRetriever style", "website": "www.example.com/stats"},  # 4
        ["not", "an", "object"],  # 5
        {"id": "c", "instruction": "no url"},  # 6
        {"id": "d", "instruction": "x", "url": "ftp://example.org/"},  # 7
        {"id": "e", "instruction": "x", "url": "https://e.org/", "answer_type": "money"},  # 8
        {"id": "a", "instruction": "again", "url": "https://example.org/"},  # 9
        {"id": "f", "instruction": "x", "url": "https://f.org/", "tags": "t"},  # 10
        {"id": "", "instruction": "x", "url": "https://g.org/"},  # 11
        {"id": "h", "instruction": "list answer", "url": "https://h.org/",
         "answer": ["Paris", "London"]},  # 12
    ])
    loaded = read_tasks(path)
    assert [t.id for t in loaded.tasks] == ["a", "7", "h"]
    assert loaded.tasks[0] == Task(instruction="Find the population", url="https://example.org/",
                                   id="a", answer="1,234", answer_type="number", tags=("table",))
    webretriever = loaded.tasks[1]
    assert (webretriever.instruction, webretriever.url) == ("WebRetriever style",
                                                            "https://www.example.com/stats")
    assert loaded.tasks[2].answer == "Paris; London"
    reasons = {p.line: p.reason for p in loaded.problems}
    assert sorted(reasons) == [2, 5, 6, 7, 8, 9, 10, 11]
    assert "not valid JSON" in reasons[2]
    assert "JSON object" in reasons[5]
    assert "`url`" in reasons[6]
    assert "ftp://" in reasons[7]
    assert "answer_type" in reasons[8] and "money" in reasons[8]
    assert reasons[9] == "duplicate id 'a' (first on line 1)"
    assert "`tags`" in reasons[10]
    assert "`id`" in reasons[11]
    assert str(loaded.problems[0]).startswith("line 2: ")


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the task file"):
        read_tasks(tmp_path / "missing.jsonl")


def test_split_is_a_function_of_the_id_alone() -> None:
    split = Split.parse("dev:70,holdout:30")
    ids = [f"task-{i}" for i in range(1000)]
    parts = {i: split.part_of(i) for i in ids}
    # The same id lands in the same part on every call, and adding tasks moves nobody.
    assert {i: split.part_of(i) for i in ids[:100]} == {i: parts[i] for i in ids[:100]}
    dev = sum(p == "dev" for p in parts.values())
    assert 650 < dev < 750  # about 70 %
    # Pinned values: a change of hash or arithmetic would silently reshuffle every split.
    # (the first 8 bytes of SHA-256, big-endian, over 2**64)
    assert stable_fraction("task-0") == pytest.approx(0.3750202511, abs=1e-9)
    assert [parts[f"task-{i}"] for i in range(6)] == ["dev"] * 5 + ["holdout"]


def test_pick_selects_one_part(tmp_path: Path) -> None:
    tasks = [Task(instruction="x", url="https://e.org/", id=f"t{i}") for i in range(50)]
    split = Split.parse("dev:70,holdout:30")
    dev = pick(tasks, split=split, part="dev")
    holdout = pick(tasks, split=split, part="holdout")
    assert sorted(t.id for t in dev + holdout) == sorted(t.id for t in tasks)
    assert not {t.id for t in dev} & {t.id for t in holdout}
    assert pick(tasks, split=None, part=None) == tasks


@pytest.mark.parametrize("spec", ["dev", "dev:70,dev:30", "dev:-1", "dev:x", ":70", ""])
def test_bad_split_specs(spec: str) -> None:
    with pytest.raises(ConfigError, match="--split"):
        Split.parse(spec)


def test_part_must_name_a_part() -> None:
    split = Split.parse("dev:70,holdout:30")
    with pytest.raises(ConfigError, match="--part must be one of dev, holdout"):
        pick([], split=split, part="test")
    with pytest.raises(ConfigError, match="--split needs --part"):
        pick([], split=split, part=None)


def test_task_dir_names_are_safe_and_distinct() -> None:
    assert task_dir_name("q-12.a") == "q-12.a"
    odd = ["../etc", "a/b", "a b", "a\\b", "ü"]
    names = [task_dir_name(i) for i in odd]
    assert len(set(names)) == len(odd)
    assert all("/" not in n and "\\" not in n and not n.startswith(".") for n in names)
    assert json.dumps(names).isascii()

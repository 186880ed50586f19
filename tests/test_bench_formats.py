"""Issue 23 item 5: the published task files of WebVoyager, Online-Mind2Web and AssistantBench,
read by shape (``--format`` overrides) and run by ``bench`` on the offline suite.

The small files in tests/data/formats follow each benchmark's own published fields; their
questions are offline-suite tasks, so the oracle can play them. The AssistantBench lines are
shaped as the dataset publishes them (AssistantBench/AssistantBench on Hugging Face: ``id``,
``set``, ``task``, ``answer``, ``gold_url``, ``explanation``, ``metadata``, ``difficulty``; the
test split's ``answer`` is null), so they name no start page (issue 29 item 1).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from webfovea.bench.formats import ASSISTANTBENCH_START
from webfovea.bench.tasks import parse_line, read_tasks
from webfovea.core.errors import ConfigError
from webfovea.suite.server import SuiteServer

DATA = Path(__file__).parent / "data" / "formats"
WEBVOYAGER = DATA / "webvoyager" / "tasks.jsonl"
MIND2WEB = DATA / "online-mind2web.json"
ASSISTANT = DATA / "assistantbench.jsonl"


def test_webvoyager_lines_take_their_references_from_the_answers_file() -> None:
    found = read_tasks(WEBVOYAGER)
    assert not found.problems
    first, second = found.tasks
    assert (first.id, first.url, first.answer) == ("Fovea Statistics--0", "http://stats.fovea.test/",
                                                   "92536")
    assert first.instruction.startswith("On the Fovea Statistics Office website")
    assert second.answer is None  # no reference: scored by evidence
    assert "webvoyager" in first.tags and "Fovea Statistics" in first.tags


def test_an_online_mind2web_array_is_read_and_has_no_reference() -> None:
    (task,) = read_tasks(MIND2WEB).tasks
    assert (task.id, task.url, task.answer) == ("b7e1f0c2a4d94e6f8a1c3d5e7f9a0b2c",
                                                "http://rankings.fovea.test/", None)
    assert task.tags == ("online-mind2web", "easy")
    assert task.reference_length == 4  # kept: bench --step-budget reference_length


def test_published_assistantbench_lines_carry_their_answer() -> None:
    found = read_tasks(ASSISTANT)
    assert not found.problems, found.problems
    dev, test = found.tasks
    assert (dev.answer, dev.url) == ("27", ASSISTANTBENCH_START)
    assert dev.instruction.startswith("How many stories does the Fovea Daily archive")
    assert dev.tags == ("assistantbench", "Easy")
    assert (test.answer, test.tags) == (None, ("assistantbench", "Medium"))  # scored elsewhere


def test_a_copy_naming_the_reference_gold_answer_is_read_too() -> None:
    line = {"id": "a1", "task": "How many?", "gold_answer": "27", "difficulty": "Hard",
            "url": "http://news.fovea.test/"}
    task = parse_line(json.dumps(line))
    assert (task.answer, task.url, task.tags) == ("27", "http://news.fovea.test/",
                                                  ("assistantbench", "Hard"))


def test_our_own_lines_with_webretriever_names_are_not_taken_for_assistantbench() -> None:
    # `task` and `answer` are WebRetriever's names too; without AssistantBench's own fields
    # the line is ours, and its url is kept.
    task = parse_line(json.dumps({"task_id": "w1", "task": "How many?", "answer": "3",
                                  "website": "http://news.fovea.test/"}))
    assert (task.answer, task.url, task.tags) == ("3", "http://news.fovea.test/", ())


def test_format_overrides_the_guess_and_a_plain_array_is_still_refused(tmp_path: Path) -> None:
    # Read as our JSON Lines, a published line has no start page: each is a bad line.
    forced = read_tasks(ASSISTANT, fmt="jsonl")
    assert not forced.tasks and [p.line for p in forced.problems] == [1, 2]
    assert all("`url`" in p.reason for p in forced.problems)
    array = tmp_path / "array.json"
    array.write_text(json.dumps([{"id": "a", "instruction": "x", "url": "http://a.test/"}]))
    with pytest.raises(ConfigError, match="one JSON array"):
        read_tasks(array)
    with pytest.raises(ConfigError, match="--format must be one of"):
        read_tasks(ASSISTANT, fmt="webarena")  # type: ignore[arg-type]


def _started_at(task_file: Path, url: str, tmp_path: Path) -> Path:
    """The published lines with a start page on the offline suite (a line may give ``url``):
    AssistantBench's own start, a search engine, is out of reach offline."""
    lines = [json.loads(line) for line in task_file.read_text().splitlines() if line.strip()]
    copy = tmp_path / task_file.name
    copy.write_text("".join(json.dumps({**line, "url": url}) + "\n" for line in lines))
    return copy


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=0) as server:
        yield server


# Each reader is tested above on its published lines; through a whole bench, AssistantBench
# (format named, its reference in `answer`) runs by default and the guessed formats are slow.
@pytest.mark.parametrize(("task_file", "fmt", "scored"),
                         [pytest.param(WEBVOYAGER, "auto", 1, marks=pytest.mark.slow),
                          pytest.param(MIND2WEB, "auto", 0, marks=pytest.mark.slow),
                          (ASSISTANT, "assistantbench", 1)],
                         ids=["webvoyager", "online-mind2web", "assistantbench"])
def test_each_format_runs_in_a_bench(suite: SuiteServer, tmp_path: Path, task_file: Path,
                                     fmt: str, scored: int) -> None:
    if task_file == ASSISTANT:
        task_file = _started_at(ASSISTANT, "http://news.fovea.test/", tmp_path)
    out = tmp_path / "run"
    bench = subprocess.run(
        [sys.executable, "-m", "webfovea", "bench", str(task_file), "--format", fmt,
         "--out", str(out),
         "--model", "oracle", "--host-resolver-rules", ",".join(suite.host_rules())],
        capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert bench.returncode == 0, bench.stdout + bench.stderr
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, timeout=120)
    lines = json.loads(score.stdout)["lines"]
    assert lines and all(ln["status"] == "finished" for ln in lines), lines
    assert all(ln["correct"] is (None if ln["reference"] is None else True) for ln in lines)
    assert sum(ln["correct"] is True for ln in lines) == scored  # a reference is read and judged

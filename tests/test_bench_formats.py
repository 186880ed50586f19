"""Issue 23 item 5: the published task files of WebVoyager, Online-Mind2Web and AssistantBench,
read by shape (``--format`` overrides) and run by ``bench`` on the offline suite.

The small files in tests/data/formats follow each benchmark's own published fields; their
questions are offline-suite tasks, so the oracle can play them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from webfovea.bench.tasks import read_tasks
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


def test_assistantbench_lines_carry_their_gold_answer() -> None:
    (task,) = read_tasks(ASSISTANT).tasks
    assert (task.answer, task.url) == ("27", "http://news.fovea.test/")
    assert task.tags == ("assistantbench", "Easy")


def test_format_overrides_the_guess_and_a_plain_array_is_still_refused(tmp_path: Path) -> None:
    # Read as our JSON Lines, the line is a WebRetriever task: gold_answer is not a field.
    (forced,) = read_tasks(ASSISTANT, fmt="jsonl").tasks
    assert (forced.answer, forced.tags) == (None, ())
    array = tmp_path / "array.json"
    array.write_text(json.dumps([{"id": "a", "instruction": "x", "url": "http://a.test/"}]))
    with pytest.raises(ConfigError, match="one JSON array"):
        read_tasks(array)
    with pytest.raises(ConfigError, match="--format must be one of"):
        read_tasks(ASSISTANT, fmt="webarena")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=0) as server:
        yield server


@pytest.mark.parametrize("task_file", [WEBVOYAGER, MIND2WEB, ASSISTANT],
                         ids=["webvoyager", "online-mind2web", "assistantbench"])
def test_each_format_runs_in_a_bench(suite: SuiteServer, tmp_path: Path, task_file: Path) -> None:
    out = tmp_path / "run"
    bench = subprocess.run(
        [sys.executable, "-m", "webfovea", "bench", str(task_file), "--out", str(out),
         "--model", "oracle", "--host-resolver-rules", ",".join(suite.host_rules())],
        capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert bench.returncode == 0, bench.stdout + bench.stderr
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, timeout=120)
    lines = json.loads(score.stdout)["lines"]
    assert lines and all(ln["status"] == "finished" for ln in lines), lines
    assert all(ln["correct"] is (None if ln["reference"] is None else True) for ln in lines)

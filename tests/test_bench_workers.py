"""benchmarks/bench_workers.py --demo: the replayed demo model advances, so tasks finish.

Runs the benchmark script itself (a bench process per worker count, the demo's local
page and the fake OpenAI-protocol server replaying the demo's replies): the quick sample
of the throughput benchmark, two tasks. With the blocks layout the bare Playwright loop
runs after the harness (the same tasks and steps, each step waiting on the same fake model
server), and the share printed is computed from both runs' numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_workers.py"
DEMO_STEPS = 3  # select, fill, finished: src/webfovea/demo/replies.txt


@pytest.mark.parametrize("history", ["blocks", "rolling"])
def test_demo_tasks_finish_with_the_right_answer(tmp_path: Path, history: str) -> None:
    numbers = tmp_path / "numbers.json"
    bare = history == "blocks"  # one layout is enough for the bare loop
    printed = subprocess.run(
        [sys.executable, str(SCRIPT), "--demo", "2", "--workers", "2", "--latency", "0.2",
         "--out", str(tmp_path), *([] if bare else ["--no-bare-loop"]),
         "--json", str(numbers), "--bench-args", f"--history {history} --max-steps 10"],
        check=True, timeout=300, env={**os.environ, "OPENAI_API_KEY": "test-key"},
        capture_output=True, text=True).stdout
    [row] = json.loads(numbers.read_text())
    if bare:
        check_bare_loop(row, printed)
    else:
        assert "bare_loop" not in row and "bare Playwright loop" not in printed, row
    assert (row["tasks"], row["correct"]) == (2, 2), row
    assert row["steps"] == 2 * DEMO_STEPS, row  # each task took the demo's three steps
    assert 0 < row["share_of_ceiling"] <= 1.1, row  # the cores' time the run kept busy
    # Each task waited on the model three times; no worker finishes faster than its waits.
    assert DEMO_STEPS * 0.2 <= row["model_s_per_task"] < DEMO_STEPS * 0.2 + 1.5, row
    assert row["wait_bound_per_hour"] == pytest.approx(2 * 3600 / row["model_s_per_task"]), row
    assert row["tasks_per_hour"] < row["wait_bound_per_hour"], row


def check_bare_loop(row: dict[str, Any], printed: str) -> None:
    """The bare loop ran the harness's tasks and steps for real, and the share is theirs."""
    loop = row["bare_loop"]
    assert (loop["tasks"], loop["steps"]) == (2, 2 * DEMO_STEPS), loop
    # Each task waited on the fake model (0.2 s a reply) once per step; two workers in parallel.
    assert loop["wall_s"] >= DEMO_STEPS * 0.2, loop
    assert loop["cpu_s_per_task"] > 0, loop  # its own browsers were sampled
    assert loop["tasks_per_hour"] == pytest.approx(3600 * 2 / loop["wall_s"]), loop
    share = row["tasks_per_hour"] / loop["tasks_per_hour"]
    assert row["share_of_bare_loop"] == pytest.approx(share), row
    line = next(x for x in printed.splitlines() if "bare Playwright loop" in x)
    assert "2 workers" in line and f"harness {share:.0%} of it" in line, line

"""benchmarks/bench_workers.py --demo: the replayed demo model advances, so tasks finish.

Runs the benchmark script itself (a bench process per worker count, the demo's local
page and the fake OpenAI-protocol server replaying the demo's replies): the quick sample
of the throughput benchmark, two tasks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_workers.py"
DEMO_STEPS = 3  # select, fill, finished: src/webfovea/demo/replies.txt


@pytest.mark.parametrize("history", ["blocks", "rolling"])
def test_demo_tasks_finish_with_the_right_answer(tmp_path: Path, history: str) -> None:
    numbers = tmp_path / "numbers.json"
    subprocess.run(
        [sys.executable, str(SCRIPT), "--demo", "2", "--workers", "2", "--latency", "0.2",
         "--out", str(tmp_path),
         "--json", str(numbers), "--bench-args", f"--history {history} --max-steps 10"],
        check=True, timeout=300, env={**os.environ, "OPENAI_API_KEY": "test-key"})
    [row] = json.loads(numbers.read_text())
    assert (row["tasks"], row["correct"]) == (2, 2), row
    assert row["steps"] == 2 * DEMO_STEPS, row  # each task took the demo's three steps
    assert 0 < row["share_of_ceiling"] <= 1.1, row  # the cores' time the run kept busy
    # Each task waited on the model three times; no worker finishes faster than its waits.
    assert DEMO_STEPS * 0.2 <= row["model_s_per_task"] < DEMO_STEPS * 0.2 + 1.5, row
    assert row["wait_bound_per_hour"] == pytest.approx(2 * 3600 / row["model_s_per_task"]), row
    assert row["tasks_per_hour"] < row["wait_bound_per_hour"], row

"""The harness_error path, provoked for real: a model reply holding a lone UTF-16 surrogate
(valid JSON: ``"\\ud800"``; real servers send it when a token boundary splits an emoji)
could not be written to the run directory. The task ends as ``harness_error``, the bench
goes on with the next task and its report counts it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from webfovea.testing.fake_provider import FakeProvider, FakeRequest
from webfovea.testing.local_server import LocalServer

ENV = {**os.environ, "OPENAI_API_KEY": "sk-test"}


def _reply(request: FakeRequest) -> str:
    if "broken" in request.turns[0].text:
        return "Thought: half an emoji \ud83d here.\nAction: finished(content='ok')"
    return "Thought: done.\nAction: finished(content='ok')"


def test_a_harness_error_ends_one_task_and_the_bench_goes_on(pages: LocalServer,
                                                              tmp_path: Path) -> None:
    url = pages.url("roundtrip/form.html")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": i, "instruction": f"{i} task", "url": url,
                                         "answer": "ok"}) + "\n" for i in ("broken", "fine")))
    out = tmp_path / "bench"
    with FakeProvider(_reply) as fp:
        bench = subprocess.run([sys.executable, "-m", "webfovea", "bench", str(tasks), "--out",
                                str(out), "--workers", "1", "--max-steps", "3", "--model",
                                "openai:fake-vlm", "--base-url", fp.base_url],
                               capture_output=True, text=True, env=ENV, timeout=240)
    assert bench.returncode == 0, bench.stderr
    broken = json.loads((out / "tasks/broken/result.json").read_text())
    assert broken["status"] == "harness_error" and "surrogate" in broken["error"]
    assert json.loads((out / "tasks/fine/result.json").read_text())["status"] == "finished"
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, env=ENV, check=True)
    buckets = json.loads(score.stdout)["buckets"]
    assert (buckets["harness_error"], buckets["correct"]) == (1, 1)

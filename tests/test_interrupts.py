"""Real signals to a real `python -m webfovea` subprocess: no run is left saying "running"."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from webfovea.testing.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.testing.local_server import LocalServer

WAIT = "Thought: nothing to do yet.\nAction: wait()"
LOST = ("Traceback", "Task exception was never retrieved", "client has been closed",
        "BrokenPipeError", "Exception ignored")
ENV = {**os.environ, "OPENAI_API_KEY": "sk-test"}


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "webfovea", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)


def _until(condition: object, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not callable(condition) or not condition():
        assert time.monotonic() < deadline, "the subprocess never got that far"
        time.sleep(0.1)


def _steps(out: Path) -> list[dict[str, object]]:
    path = out / "steps.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.is_file() else []


@pytest.mark.parametrize(("sig", "code", "name"), [(signal.SIGINT, 130, "SIGINT"),
                                                   (signal.SIGTERM, 143, "SIGTERM")])
def test_a_stopped_run_says_interrupted(pages: LocalServer, tmp_path: Path, sig: int, code: int,
                                        name: str) -> None:
    out = tmp_path / "run"
    with FakeProvider(ScriptedPolicy([WAIT] * 200), delay_seconds=0.5) as fp:
        proc = _start("run", "--url", pages.url("roundtrip/form.html"), "--task", "wait",
                      "--model", "openai:fake-vlm", "--base-url", fp.base_url, "--out", str(out))
        _until(lambda: len(_steps(out)) >= 2 and len(fp.requests) >= 3)  # mid model call
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == code, stderr
    assert not any(word in stderr for word in LOST), stderr
    message = stderr.strip().splitlines()[-1]
    assert message.startswith(f"webfovea: interrupted by {name}") and str(out) in message
    result = json.loads((out / "result.json").read_text())
    assert result["status"] == "interrupted" and result["steps"] >= 2
    steps = _steps(out)  # the partial run is intact: every recorded step and its screenshot
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert all((out / str(s["screenshot"])).is_file() for s in steps)


def test_a_stopped_bench_resumes_cleanly(pages: LocalServer, tmp_path: Path) -> None:
    url = pages.url("roundtrip/form.html")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": f"t{i}", "instruction": "wait", "url": url,
                                         "answer": "ok"}) + "\n" for i in range(4)))
    out = tmp_path / "bench"
    with FakeProvider(lambda request: WAIT, delay_seconds=0.5) as fp:
        proc = _start("bench", str(tasks), "--out", str(out), "--workers", "2", "--max-steps",
                      "50", "--model", "openai:fake-vlm", "--base-url", fp.base_url)
        _until(lambda: len(fp.requests) >= 4)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert not any(word in stderr for word in LOST), stderr
    assert "interrupted by SIGINT; continue with --resume" in stderr.strip().splitlines()[-1]
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT state FROM runs").fetchall() == [("interrupted",)]
        assert db.execute("SELECT COUNT(*) FROM tasks WHERE state = 'done'").fetchone() == (0,)
    stopped = [json.loads(p.read_text())["status"] for p in out.glob("tasks/*/result.json")]
    assert stopped and set(stopped) == {"interrupted"}

    done = "Thought: done.\nAction: finished(content='ok')"
    with FakeProvider(lambda request: done) as fp:
        proc = _start("bench", str(tasks), "--out", str(out), "--resume", "--base-url",
                      fp.base_url)
        _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM tasks WHERE correct = 1").fetchone() == (4,)


def test_a_closed_stdout_is_no_error(tmp_path: Path) -> None:
    """`webfovea ... | head`: the reader goes away before the output is written."""
    proc = subprocess.Popen([sys.executable, "-m", "webfovea", "bench", "--help"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert not any(word in stderr for word in LOST), stderr
    assert proc.returncode in (0, 141)  # 141 = 128 + SIGPIPE when the write came too late

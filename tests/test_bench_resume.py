"""kill -9 of a running bench, then --resume: nothing finished is redone, nothing is lost
or recorded twice. The bench runs as its own process (``python -m webfovea``)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import PAGES, TaskPolicy, descendants, finish, kill, run_cli, write_tasks
from webfovea.bench.store import Store
from webfovea.testing import FakeProvider, LocalServer

TASKS = 5


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer(PAGES) as server:
        yield server


def _states(db: Path) -> dict[str, str]:
    if not db.is_file():
        return {}
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return dict(conn.execute("SELECT task_id, state FROM tasks").fetchall())
    except sqlite3.OperationalError:
        return {}  # the schema is not there yet


def _kill_mid_run(proc: subprocess.Popen[bytes], db: Path) -> dict[str, str]:
    """Wait until two tasks are done and another is running, then SIGKILL the bench."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        states = _states(db)
        done = [t for t, s in states.items() if s == "done"]
        if len(done) >= 2 and "running" in states.values():
            leftovers = descendants(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            time.sleep(0.5)
            kill(leftovers)  # the orphaned driver and browser, not part of the test
            return states
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.05)
    raise AssertionError("the bench never reached two finished tasks")


def test_kill_9_then_resume(site: LocalServer, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"k{i}", "instruction": f"task {i}", "url": site.url("index.html"),
         "answer": "1234567" if i % 2 else "987654"} for i in range(TASKS)])
    policy = TaskPolicy({f"task {i}": [finish("1,234,567" if i % 2 else "987,654")]
                         for i in range(TASKS)})
    out = tmp_path / "run"
    with FakeProvider(policy, delay_seconds=0.3) as fp:
        proc = subprocess.Popen(
            [sys.executable, "-m", "webfovea", "bench", str(tasks), "--out", str(out),
             "--model", "openai:agent", "--base-url", fp.base_url, "--viewport", "800x600",
             "--max-steps", "4", "--time-limit", "60"],
            env={**os.environ, "OPENAI_API_KEY": "test-key"}, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, start_new_session=True)
        at_kill = _kill_mid_run(proc, out / "results.sqlite")
        before = {r.task_id: r for r in Store.open_existing(out).rows()}
        done_before = {t for t, r in before.items() if r.state == "done"}
        in_flight = {t for t, r in before.items() if r.state == "running"}
        assert len(done_before) >= 2 and in_flight, at_kill
        asked_before = dict(policy.seen)
        assert run_cli(["score", str(out), "--format", "json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["buckets"]["pending"] == TASKS - len(done_before)

        # The base URL and every other setting come from the run itself.
        assert run_cli(["bench", str(tasks), "--out", str(out), "--resume"]) == 0
    assert f"{len(done_before)} of {TASKS} tasks already done" in capsys.readouterr().err

    store = Store.open_existing(out)
    after = {r.task_id: r for r in store.rows()}
    assert all(r.state == "done" and (r.status, r.correct) == ("finished", True)
               for r in after.values())
    for task_id in done_before:  # not redone: same record, no new model calls
        assert after[task_id].finished_at == before[task_id].finished_at
        assert (after[task_id].run_id, after[task_id].attempts) == (1, 1)
        assert policy.seen[f"task {task_id[1:]}"] == asked_before[f"task {task_id[1:]}"]
    for task_id in in_flight:  # redone from scratch in the resumed invocation
        assert (after[task_id].run_id, after[task_id].attempts) == (2, 2)
    for row in after.values():  # every step recorded exactly once, store and directory agree
        folder = out / "tasks" / row.dir
        lines = (folder / "steps.jsonl").read_text().splitlines()
        assert [json.loads(line)["step"] for line in lines] == list(range(1, row.steps + 1))
        assert store.step_count(row.task_id) == row.steps
        assert len(list((folder / "screens").iterdir())) == row.steps
    db = sqlite3.connect(out / "results.sqlite")
    assert db.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == \
        sum(r.steps for r in after.values())
    assert [r["state"] for r in store.runs()] == ["killed", "completed"]
    assert store.runs()[1]["resumed"] == 1

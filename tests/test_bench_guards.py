"""A bench run directory is guarded: one process at a time, a damaged store is a clear
error, a resume takes the same task file, a refused command leaves nothing behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider

ENV = {**os.environ, "OPENAI_API_KEY": "sk-test"}
DONE = "Thought: done.\nAction: finished(content='ok')"
WAIT = "Thought: wait.\nAction: wait()"


def _tasks(path: Path, url: str, ids: list[str]) -> Path:
    path.write_text("".join(json.dumps({"id": i, "instruction": "say ok", "url": url,
                                        "answer": "ok"}) + "\n" for i in ids))
    return path


def _bench(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", "bench", *args],
                          capture_output=True, text=True, timeout=timeout, env=ENV)


def _finished_run(pages: LocalServer, tmp_path: Path, ids: list[str]) -> tuple[Path, Path]:
    tasks = _tasks(tmp_path / "tasks.jsonl", pages.url("roundtrip/form.html"), ids)
    out = tmp_path / "run"
    with FakeProvider(lambda request: DONE) as fp:
        proc = _bench(str(tasks), "--out", str(out), "--model", "openai:m", "--base-url",
                      fp.base_url)
    assert proc.returncode == 0, proc.stderr
    return tasks, out


def test_a_second_bench_on_a_busy_run_directory_is_refused(pages: LocalServer,
                                                          tmp_path: Path) -> None:
    tasks = _tasks(tmp_path / "tasks.jsonl", pages.url("roundtrip/form.html"), ["a", "b"])
    out = tmp_path / "run"
    with FakeProvider(lambda request: WAIT, delay_seconds=0.5) as fp:
        first = subprocess.Popen([sys.executable, "-m", "webfovea", "bench", str(tasks), "--out",
                                  str(out), "--model", "openai:m", "--base-url", fp.base_url,
                                  "--max-steps", "200"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=ENV)
        deadline = time.monotonic() + 90
        while len(fp.requests) < 2:
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.1)
        second = _bench(str(tasks), "--out", str(out), "--resume", "--base-url", fp.base_url)
        assert second.returncode == 2, second.stderr
        assert f"in use by another bench (pid {first.pid} on {socket.gethostname()}" \
            in second.stderr and second.stderr.count("\n") == 1
        first.send_signal(signal.SIGKILL)  # dies holding the lock: the lock file stays behind
        first.communicate(timeout=30)
    assert (out / "bench.lock").is_file()
    with FakeProvider(lambda request: DONE) as fp:
        third = _bench(str(tasks), "--out", str(out), "--resume", "--base-url", fp.base_url)
    assert third.returncode == 0, third.stderr  # a dead holder's lock is no lock


def test_a_damaged_store_is_a_clear_error_and_touches_nothing(pages: LocalServer,
                                                              tmp_path: Path) -> None:
    tasks, out = _finished_run(pages, tmp_path, ["a"])
    result = out / "tasks" / "a" / "result.json"
    kept = result.read_bytes()
    db = out / "results.sqlite"
    for content, words in [(b"", "is empty"), (b"garbage " * 200, "is not a readable results "
                                                                 "store")]:
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        db.write_bytes(content)
        for command in (["bench", str(tasks), "--out", str(out), "--resume"],
                        ["score", str(out)], ["bench", str(tasks), "--out", str(out)]):
            proc = subprocess.run([sys.executable, "-m", "webfovea", *command],
                                  capture_output=True, text=True, timeout=120, env=ENV)
            assert proc.returncode == 2, proc.stderr
            assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
            expected = "already holds a bench run" if "--resume" not in command and \
                command[0] == "bench" else words
            assert expected in proc.stderr, proc.stderr
        assert result.read_bytes() == kept and db.read_bytes() == content


def test_resume_with_another_task_file_is_refused_unless_forced(pages: LocalServer,
                                                                tmp_path: Path) -> None:
    tasks, out = _finished_run(pages, tmp_path, ["a"])
    other = _tasks(tmp_path / "other.jsonl", pages.url("roundtrip/form.html"), ["a", "b"])
    with FakeProvider(lambda request: DONE) as fp:
        refused = _bench(str(other), "--out", str(out), "--resume", "--base-url", fp.base_url)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
        for words in ("differs from the one this run was started with", "1 new task(s): b",
                      f"file {tasks} then, {other} now", "add --force"):
            assert words in refused.stderr, refused.stderr
        forced = _bench(str(other), "--out", str(out), "--resume", "--force", "--base-url",
                        fp.base_url)
    assert forced.returncode == 0, forced.stderr
    assert (out / "tasks" / "b" / "result.json").is_file()


def test_a_refused_part_leaves_nothing_that_blocks_the_retry(pages: LocalServer,
                                                             tmp_path: Path) -> None:
    tasks = _tasks(tmp_path / "tasks.jsonl", pages.url("roundtrip/form.html"),
                   [f"t{i}" for i in range(6)])
    out = tmp_path / "run"
    with FakeProvider(lambda request: DONE) as fp:
        common = [str(tasks), "--out", str(out), "--model", "openai:m", "--base-url",
                  fp.base_url, "--split", "dev:50,test:50"]
        refused = _bench(*common, "--part", "nope")
        assert refused.returncode == 2 and "--part must be one of dev, test" in refused.stderr
        assert not (out / "results.sqlite").exists()
        retry = _bench(*common, "--part", "dev")
    assert retry.returncode == 0, retry.stderr


def test_workers_sharing_one_suite_lane_are_refused_with_an_oracle_and_warned_otherwise(
        tmp_path: Path) -> None:
    """Issue 46: two browsers on one suite lane overwrite each other's layout reports. With
    an oracle (which acts on them) the bench refuses before any browser starts; with another
    model it warns and goes on (here to the empty task file, its own refusal)."""
    lane = "MAP *.fovea.test 127.0.0.1:8931"
    tasks = _tasks(tmp_path / "tasks.jsonl", "http://stats.fovea.test/", ["a", "b"])
    started = time.monotonic()
    oracle = _bench(str(tasks), "--out", str(tmp_path / "oracle"), "--model", "oracle",
                    "--host-resolver-rules", lane, "--workers", "2")
    grounder = _bench(str(tasks), "--out", str(tmp_path / "grounder"), "--model", "openai:m",
                      "--base-url", "http://127.0.0.1:9/v1", "--grounder", "oracle:grounder",
                      "--host-resolver-rules", lane, "--host-resolver-rules", lane,
                      "--workers", "2")
    assert time.monotonic() - started < 30  # refused before any browser launched
    for proc, roles in ((oracle, "(--model)"), (grounder, "(--grounder)")):
        assert proc.returncode == 2, proc.stderr
        assert "2 of the 2 workers would browse the same suite lane (http://127.0.0.1:8931)" \
            in proc.stderr and f"the oracle {roles} acts on those reports" in proc.stderr
        assert "`webfovea suite run`" in proc.stderr and "--workers 1" in proc.stderr
        assert "Traceback" not in proc.stderr
    assert not (tmp_path / "oracle" / "results.sqlite").exists()
    empty = tmp_path / "empty.jsonl"  # the runs below stop at it, after the lanes' check
    empty.write_text("")
    own_lanes = _bench(str(empty), "--out", str(tmp_path / "own"), "--model", "oracle",
                       "--host-resolver-rules", lane, "--host-resolver-rules",
                       lane.replace("8931", "8932"), "--workers", "2")
    assert own_lanes.returncode == 2 and "no task to run" in own_lanes.stderr
    assert "suite lane" not in own_lanes.stderr  # one lane each: no complaint
    other = _bench(str(empty), "--out", str(tmp_path / "other"), "--model", "openai:m",
                   "--base-url", "http://127.0.0.1:9/v1", "--host-resolver-rules", lane,
                   "--workers", "3")
    assert other.stderr.startswith("webfovea: warning: 3 of the 3 workers would browse the "
                                   "same suite lane"), other.stderr
    assert "only an oracle reads them" in other.stderr and "no task to run" in other.stderr

"""Real signals to a real `python -m webfovea` subprocess: no run is left saying "running"."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy

WAIT = "Thought: nothing to do yet.\nAction: wait()"
LOST = ("Traceback", "Task exception was never retrieved", "client has been closed",
        "BrokenPipeError", "Exception ignored")
ENV = {**os.environ, "OPENAI_API_KEY": "sk-test"}


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "webfovea", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)


def _catches(pid: int, sig: int) -> bool:
    """Whether process ``pid`` has a handler for ``sig`` (Linux: the SigCgt mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(mask, 16) >> (sig - 1) & 1)


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


def test_a_stopped_bench_keeps_the_pages_of_the_tasks_that_ended(pages: LocalServer,
                                                                 tmp_path: Path) -> None:
    url = pages.url("roundtrip/form.html")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": name, "instruction": name, "url": url,
                                         "answer": "ok"}) + "\n" for name in ("ends", "waits")))
    out = tmp_path / "bench"
    ends = "Thought: done.\nAction: finished(content='ok')"
    with FakeProvider(lambda r: ends if "ends" in r.turns[0].text else WAIT) as fp:
        proc = _start("bench", str(tasks), "--out", str(out), "--workers", "1", "--max-steps",
                      "50", "--model", "openai:fake-vlm", "--base-url", fp.base_url)
        _until(lambda: sum("waits" in r.turns[0].text for r in fp.requests) >= 2)
        _stopped(proc)
    page = (out / "tasks" / "ends" / "view.html").read_text()
    assert '"answer": "ok"' in page and '"verdict": "correct"' in page
    assert "../../report.html" in page  # the link back to the index the run's end writes
    assert not (out / "tasks" / "waits" / "view.html").exists()
    assert not (out / "report.html").exists()


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


COMMAND = Path(sys.executable).parent / "webfovea"  # the console script, as a user starts it


@pytest.mark.parametrize(("how", "sig", "delay"), [
    ("module", signal.SIGINT, 0.0), ("module", signal.SIGINT, 0.05),
    ("module", signal.SIGINT, 0.2), ("module", signal.SIGINT, 0.5),
    ("module", signal.SIGTERM, 0.05), ("script", signal.SIGINT, 0.05)])
def test_a_stop_while_the_command_is_still_importing(pages: LocalServer, tmp_path: Path,
                                                     how: str, sig: int, delay: float) -> None:
    """From the moment the entry point runs (its SIGTERM handler shows in /proc: Python has
    none of its own), the package's imports take a second or more; a stop at any moment of
    them is one line and 128 + the signal, like a stop later on. (Before that moment Python
    itself is starting: a signal there kills it, which a shell shows as the same code.)"""
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "webfovea"] if how == "module" else [str(COMMAND)]
    with FakeProvider(ScriptedPolicy([WAIT] * 50), delay_seconds=0.5) as fp:
        proc = subprocess.Popen([*argv, "run", "--url", pages.url("roundtrip/form.html"),
                                 "--task", "wait", "--model", "openai:fake-vlm", "--base-url",
                                 fp.base_url, "--out", str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        _until(lambda: proc.poll() is not None or _catches(proc.pid, signal.SIGTERM), 30)
        time.sleep(delay)
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    name = signal.Signals(sig).name
    assert proc.returncode == 128 + sig, stderr
    assert not any(word in stderr for word in LOST), stderr
    assert stderr.strip().splitlines()[-1].startswith(f"webfovea: interrupted by {name}")
    assert not (out / "result.json").is_file() or json.loads(
        (out / "result.json").read_text())["status"] == "interrupted"


def test_importing_the_package_loads_nothing_heavy() -> None:
    """``import webfovea`` is what stands between a process's start and the command's
    signal handlers: its public names load on first use."""
    probe = ("import sys, webfovea; before = set(sys.modules); webfovea.ResultRecord; "
             "print(sorted(m for m in ('pydantic', 'playwright', 'PIL', 'typing') "
             "if m in before), 'pydantic' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True).stdout.split()
    assert shown == ["[]", "True"]


def _store(out: Path) -> tuple[list[str], dict[str, str]]:
    """The invocations' states and each task's state in a bench run directory's store."""
    with sqlite3.connect(out / "results.sqlite") as db:
        runs = [s for (s,) in db.execute("SELECT state FROM runs ORDER BY run_id")]
        return runs, dict(db.execute("SELECT task_id, state FROM tasks").fetchall())


def _stopped(proc: subprocess.Popen[str], sig: int = signal.SIGINT) -> str:
    """Signal ``proc``; its last stderr line, once it exited as a stop must (one line, no
    traceback, 128 + the signal)."""
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=90)
    assert proc.returncode == 128 + sig, stderr
    assert not any(word in stderr for word in LOST), stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith(f"webfovea: interrupted by {signal.Signals(sig).name}"), stderr
    return last


def _task_statuses(out: Path) -> dict[str, str]:
    return {p.parent.name: json.loads(p.read_text())["status"]
            for p in out.glob("tasks/*/result.json")}


def _resume_hint(line: str) -> list[str]:
    """The command a stopped bench-like run says continues it (``webfovea ... --resume``)."""
    hint = line.split("continue with --resume (", 1)[1].rstrip(")")
    words = shlex.split(hint)
    assert words[0] == "webfovea" and words[-1] == "--resume", line
    return words[1:]


def test_a_stopped_suite_run_resumes_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    reply = [WAIT]
    with FakeProvider(lambda request: reply[0], delay_seconds=0.5) as fp:
        proc = _start("suite", "run", "--out", str(out), "--limit", "2", "--workers", "1",
                      "--max-steps", "50", "--model", "openai:fake-vlm", "--base-url",
                      fp.base_url)
        _until(lambda: len(fp.requests) >= 2)
        line = _stopped(proc)
        runs, tasks = _store(out)
        assert runs == ["interrupted"] and "running" not in tasks.values()
        assert "interrupted" in tasks.values() and "done" not in tasks.values()
        assert set(_task_statuses(out).values()) == {"interrupted"}

        reply[0] = "Thought: done.\nAction: finished(content='ok')"
        proc = _start(*_resume_hint(line))  # the hint's own words continue the run
        _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    runs, tasks = _store(out)
    assert runs == ["interrupted", "completed"] and set(tasks.values()) == {"done"}
    assert set(_task_statuses(out).values()) == {"finished"}


def test_a_stopped_demo_resumes_as_a_suite_run(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    proc = _start("demo", "--tasks", "2", "--out", str(out))
    _until(lambda: any(out.glob("tasks/*/steps.jsonl")))
    line = _stopped(proc)
    runs, tasks = _store(out)
    assert runs == ["interrupted"] and "running" not in tasks.values()
    assert "interrupted" in _task_statuses(out).values()
    assert "running" not in _task_statuses(out).values()

    proc = _start(*_resume_hint(line))
    _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    assert set(_store(out)[1].values()) == {"done"}


def test_a_stopped_scripted_demo_says_interrupted(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    proc = _start("demo", "--scripted", "--out", str(out))
    _until(lambda: (out / "result.json").is_file())  # the task has started
    line = _stopped(proc)
    assert str(out) in line
    assert json.loads((out / "result.json").read_text())["status"] == "interrupted"


def test_a_stopped_miniwob_run_leaves_no_episode_running(tmp_path: Path) -> None:
    out = tmp_path / "miniwob"
    with FakeProvider(lambda request: WAIT, delay_seconds=0.5) as fp:
        proc = _start("miniwob", "--tasks", "click-button", "--episodes", "3", "--out",
                      str(out), "--model", "openai:fake-vlm", "--base-url", fp.base_url)
        _until(lambda: len(fp.requests) >= 2)
        line = _stopped(proc, signal.SIGTERM)
    assert str(out) in line
    runs, tasks = _store(out)
    assert runs == ["interrupted"] and "running" not in tasks.values()
    statuses = _task_statuses(out)  # episodes run one after another: the last one was stopped
    last = max(statuses)
    assert statuses[last] == "interrupted" and tasks[last] == "interrupted"
    assert all(s not in ("running", "interrupted") for t, s in statuses.items() if t != last)
    assert json.loads((out / "miniwob.json").read_text())["settings"]["episodes"] == 3

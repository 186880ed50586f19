"""The pre-flight keeps the exit-code contract (issue 21, items 1 and 2).

An endpoint that cannot be reached is retried under the model calls' retry policy and then
exits 3, for ``run`` and ``bench``, for ``openai:`` and ``anthropic:``; a wrong URL shape
stays exit 2. An endpoint that serves completions but lists no models is never refused;
every refusal the user can skip names ``--no-preflight``. The commands run in subprocesses
against real local servers; retries stay short through ``--time-limit`` (the retries of a
task's model calls end within it, the pre-flight's too).
"""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import closed_port_url, finish, write_tasks
from webfovea.core.errors import ConfigError
from webfovea.dialects.loopback.fake_provider import ScriptedPolicy
from webfovea.models.preflight import preflight
from webfovea.rundir.store import load_run
from webfovea.testing import FakeProvider, LocalServer

KEYS = {"OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-ant-test"}
# A task the fake model completes on tests/pages/roundtrip/form.html.
REPLIES = ["Thought: fill the search.\nAction: fill(start_box='(450,128)', content='millet\\n')",
           "Thought: the results page shows it.\nAction: read_text(label='Results for')",
           finish("Results for: millet")]
UNREACHABLE_HINT = "is the server running, and is --base-url right?"


def _webfovea(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **KEYS})


def _run(pages: LocalServer, model: str, base_url: str, out: Path,
         *extra: str) -> subprocess.CompletedProcess[str]:
    return _webfovea("run", "--url", pages.url("roundtrip/form.html"), "--task", "t",
                     "--model", model, "--base-url", base_url, "--out", str(out),
                     *extra)


def _attempts(stderr: str) -> int:
    found = re.search(r"cannot reach \S+ after (\d+) attempt", stderr)
    assert found, stderr
    return int(found.group(1))


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers on them."""
    held: list[socket.socket] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        stop = threading.Event()

        def accept() -> None:
            while not stop.is_set():
                try:
                    held.append(listener.accept()[0])
                except OSError:
                    return

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        yield listener.getsockname()[1]
        stop.set()
        listener.shutdown(socket.SHUT_RDWR)
    for connection in held:
        connection.close()
    thread.join(timeout=5)


# -- item 1: an unreachable endpoint exits 3 after retries ----------------------------------------

@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_refused_endpoint_is_retried_then_run_exits_3(pages: LocalServer, tmp_path: Path,
                                                        kind: str) -> None:
    url = closed_port_url().rstrip("/") + ("/v1" if kind == "openai" else "")
    proc = _run(pages, f"{kind}:m", url, tmp_path / "run", "--time-limit", "4")
    assert proc.returncode == 3, proc.stderr
    assert UNREACHABLE_HINT in proc.stderr and "ConnectError" in proc.stderr
    assert _attempts(proc.stderr) >= 2  # the first refusal waits U(0, 1 s) and tries again
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    # Issue 29 item 3: --out records the ending as any other (the run directory's reader reads
    # it), and no browser started: no step, no screenshot.
    (task,) = load_run(tmp_path / "run").tasks
    assert (task.result.status, task.result.steps, task.steps) == ("model_error", 0, [])
    assert task.result.error and "cannot reach" in task.result.error
    assert task.result.error in proc.stderr  # the message the command printed
    assert task.result.task == "t" and task.result.url == pages.url("roundtrip/form.html")
    assert task.result.model == f"{kind}:m" and task.result.config["time_limit"] == 4
    assert list((tmp_path / "run" / "screens").iterdir()) == []


def test_without_out_a_refused_pre_flight_leaves_no_run_directory(pages: LocalServer,
                                                                  tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "webfovea", "run", "--url", pages.url("roundtrip/form.html"),
         "--task", "t", "--model", "openai:m", "--base-url", closed_port_url() + "v1",
         "--time-limit", "2"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, **KEYS})
    assert proc.returncode == 3, proc.stderr
    assert list(tmp_path.iterdir()) == []  # no runs/<time> made for a run that never started


def test_a_host_that_does_not_resolve_exits_3(pages: LocalServer, tmp_path: Path) -> None:
    proc = _run(pages, "openai:m", "http://webfovea-probe.invalid/v1", tmp_path / "run",
                "--time-limit", "3")
    assert proc.returncode == 3, proc.stderr
    assert "cannot reach http://webfovea-probe.invalid/v1" in proc.stderr
    assert UNREACHABLE_HINT in proc.stderr


def test_an_endpoint_that_never_answers_exits_3(pages: LocalServer, tmp_path: Path,
                                                silent_port: int) -> None:
    proc = _run(pages, "openai:m", f"http://127.0.0.1:{silent_port}/v1", tmp_path / "run",
                "--time-limit", "3")
    assert proc.returncode == 3, proc.stderr
    assert "no answer within" in proc.stderr and UNREACHABLE_HINT in proc.stderr


def test_a_server_still_starting_is_waited_for(pages: LocalServer, tmp_path: Path) -> None:
    """The endpoint drops the first connection (a server not up yet), then serves: the
    pre-flight retries and the run completes."""
    with socket.socket() as early:
        early.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        early.bind(("127.0.0.1", 0))
        early.listen(1)
        port = early.getsockname()[1]
        run = subprocess.Popen(
            [sys.executable, "-m", "webfovea", "run", "--url", pages.url("roundtrip/form.html"),
             "--task", "t", "--model", "openai:m", "--base-url", f"http://127.0.0.1:{port}/v1",
             "--out", str(tmp_path / "run"), "--time-limit", "60"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **KEYS})
        early.accept()[0].close()  # the pre-flight's first attempt: dropped unanswered
    with FakeProvider(ScriptedPolicy(REPLIES), port=port):
        stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 0, stderr
    assert "status: finished" in stdout


def test_a_wrong_url_shape_stays_a_usage_error_naming_the_flag(tmp_path: Path) -> None:
    with FakeProvider(ScriptedPolicy([])) as fp:
        proc = _webfovea("run", "--url", "http://127.0.0.1:9/", "--task", "t", "--model",
                         "openai:m", "--base-url", f"{fp.base_url}/v1", "--out", str(tmp_path))
    assert proc.returncode == 2 and "has /v1 twice" in proc.stderr, proc.stderr
    assert "--no-preflight" in proc.stderr


def test_bench_against_a_refused_endpoint_ends_its_tasks_as_model_error_and_exits_3(
        pages: LocalServer, tmp_path: Path) -> None:
    page = pages.url("roundtrip/form.html")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "a", "instruction": "first", "url": page, "answer": "1"},
        {"id": "b", "instruction": "second", "url": page, "answer": "2"}])
    proc = _webfovea("bench", str(tasks), "--out", str(tmp_path / "run"), "--model",
                     "openai:m", "--base-url", closed_port_url() + "v1", "--workers", "2",
                     # Room for a task's own retries to give up before its time does, on a
                     # loaded machine too (6 attempts: at most 31 s of waits, 15 s on average).
                     "--time-limit", "40", "--viewport", "800x600", "--max-steps", "2",
                     timeout=300)
    assert proc.returncode == 3, proc.stderr
    assert "pre-flight: cannot reach" in proc.stderr and "tasks run anyway" in proc.stderr
    assert "no task could use the model" in proc.stderr
    with sqlite3.connect(tmp_path / "run" / "results.sqlite") as db:
        statuses = dict(db.execute("SELECT task_id, status FROM tasks").fetchall())
    assert statuses == {"a": "model_error", "b": "model_error"}
    for task in ("a", "b"):
        result = json.loads((tmp_path / "run" / "tasks" / task / "result.json").read_text())
        assert result["status"] == "model_error" and "could not be reached" in result["error"]
    assert (tmp_path / "run" / "report.html").is_file()


# -- item 2: a server without a model listing is not refused --------------------------------------

@pytest.mark.parametrize(("kind", "status"), [("openai", 404), ("anthropic", 405)])
def test_a_server_without_a_model_listing_runs(pages: LocalServer, tmp_path: Path, kind: str,
                                               status: int) -> None:
    with FakeProvider(ScriptedPolicy(REPLIES), listing=status) as fp:
        url = fp.base_url if kind == "openai" else fp.anthropic_base_url
        proc = _run(pages, f"{kind}:m", url, tmp_path / "run")
    assert proc.returncode == 0, proc.stderr
    assert f"answered HTTP {status}, so the model name 'm' could not be checked" in proc.stderr


@pytest.fixture
def fp() -> Iterator[FakeProvider]:
    with FakeProvider(ScriptedPolicy([]), models=["served-a"]) as provider:
        yield provider


async def test_every_refusal_names_the_flag_that_skips_it(fp: FakeProvider) -> None:
    root = fp.anthropic_base_url
    refusals = [("openai:served-a", root), ("openai:served-a", f"{root}/v1/v1"),
                ("anthropic:served-a", f"{root}/v1"), ("openai:other", fp.base_url)]
    for spec, url in refusals:
        with pytest.raises(ConfigError, match="--no-preflight skips this check"):
            await preflight(spec, url)
    with (FakeProvider(ScriptedPolicy([]), listing=401) as locked,
          pytest.raises(ConfigError, match=r"rejected the API key.*--no-preflight")):
        await preflight("openai:served-a", locked.base_url)

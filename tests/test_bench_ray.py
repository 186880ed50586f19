"""The Ray executor on a local Ray with 2 CPUs: the same tasks on Ray actors, one browser
per actor reused across tasks (fresh context each), results flowing back into the run's
store and task directories; a browser killed mid-task is named and replaced."""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import (
    PAGES,
    WAIT,
    TaskPolicy,
    browser_pids,
    closed_port_url,
    finish,
    kill,
    provider,
    run_cli,
    write_tasks,
)
from webfovea.bench.store import Store
from webfovea.rundir.events import event_of
from webfovea.testing import LocalServer

pytestmark = [pytest.mark.ray, pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="the ray extra is not installed: pip install 'webfovea[ray]'")]

# Ray on Linux replaces 127.0.0.1 with the machine's network address and, since 2.5x,
# wants an auth token: the tests keep every Ray service on loopback, without tokens.
# (Read by Ray when it is imported and started, which happens inside the tests.)
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled"}


@pytest.fixture(autouse=True)
def _loopback_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in RAY_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer(PAGES) as server:
        yield server


def test_ray_executor_on_a_local_ray(site: LocalServer, tmp_path: Path,
                                    caplog: pytest.LogCaptureFixture) -> None:
    page = site.url("index.html")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "r-correct", "instruction": "springfield", "url": page, "answer": "1234567"},
        {"id": "r-date", "instruction": "census", "url": page, "answer": "2024-03-16"},
        {"id": "r-wrong", "instruction": "shelbyville", "url": page, "answer": "987654"},
        {"id": "r-dead", "instruction": "dead", "url": closed_port_url(), "answer": "1"},
    ])
    policy = TaskPolicy({"springfield": [finish("1,234,567")], "census": [finish("16 March 2024")],
                         "shelbyville": [finish("980,000")], "dead": [finish("1")]})
    out = tmp_path / "run"
    caplog.set_level(logging.INFO, logger="webfovea.agent")
    # Each answer takes a second: long enough for the driver to see the step being asked.
    with provider(policy, delay=1.0) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(out), "--executor", "ray",
                        "--workers", "2", "--model", "openai:agent", "--base-url", fp.base_url,
                        "--viewport", "800x600", "--max-steps", "3", "--time-limit", "60"])
    assert code == 0
    # The actors' step events reach this process (the progress panel's current step).
    seen = {(e.task_id, e.step) for e in map(event_of, caplog.records)
            if e is not None and e.kind in ("step_started", "step_done")}
    assert {("r-correct", 1), ("r-date", 1), ("r-wrong", 1)} <= seen, seen
    store = Store.open_existing(out)
    rows = {r.task_id: r for r in store.rows()}
    assert {t: (r.status, r.correct) for t, r in rows.items()} == {
        "r-correct": ("finished", True), "r-date": ("finished", True),
        "r-wrong": ("finished", False), "r-dead": ("unreachable", False)}
    for row in rows.values():
        # Ran in Ray worker processes, not here; their directories came back whole.
        assert row.worker is not None and row.worker.startswith("ray:")
        assert not row.worker.endswith(f":{os.getpid()}")
        folder = out / "tasks" / row.dir
        assert (folder / "result.json").is_file()
        assert len(list((folder / "screens").glob("*.png"))) == row.steps == \
            store.step_count(row.task_id)
    assert (out / "tasks" / "r-correct" / "evidence.png").is_file()
    (invocation,) = store.runs()
    assert invocation["executor"] == "ray" and invocation["state"] == "completed"
    assert {"ray", "chromium"} <= set(invocation["versions"])
    assert len({row.worker for row in rows.values()}) <= 2  # one actor per worker slot


def test_ray_actor_reuses_its_browser_and_replaces_a_killed_one(site: LocalServer,
                                                                tmp_path: Path) -> None:
    storage = site.url("storage.html")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "first", "instruction": "visit", "url": storage, "answer": "x"},
        {"id": "victim", "instruction": "the browser dies", "url": site.url("index.html"),
         "answer": "1"},
        {"id": "after", "instruction": "visit", "url": storage, "answer": "x"},
    ])
    # Ray's workers are this process's descendants, and so is the test session's shared
    # browser: only the ones started after this line belong to the run.
    others = set(browser_pids(os.getpid()))
    killed: list[int] = []
    browsers: list[set[int]] = []

    def on_request(instruction: str, step: int) -> None:
        alive = set(browser_pids(os.getpid())) - others
        browsers.append(alive)
        if instruction == "the browser dies" and step == 1 and not killed:
            killed.extend(alive)
            kill(killed)

    policy = TaskPolicy({"visit": [finish("x")], "the browser dies": [WAIT, WAIT, finish("1")]},
                        on_request=on_request)
    out = tmp_path / "run"
    with provider(policy) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(out), "--executor", "ray",
                        "--workers", "1", "--model", "openai:agent", "--base-url", fp.base_url,
                        "--viewport", "800x600", "--max-steps", "4", "--time-limit", "60"])
    assert code == 0 and len(killed) == 1
    store = Store.open_existing(out)
    rows = {r.task_id: r for r in store.rows()}
    assert rows["victim"].status == "browser_error" and rows["victim"].browser_replaced
    assert [rows[t].status for t in ("first", "after")] == ["finished"] * 2
    for task_id in ("first", "after"):
        assert "storage: fresh" in (out / "tasks" / task_id / "evidence.txt").read_text()
    assert len({r.worker for r in rows.values()}) == 1  # one actor ran every task
    # One browser before the kill, its replacement after: two in all, never one per task.
    assert len(set().union(*browsers)) == 2
    (replaced,) = store.events("browser_replaced")
    assert replaced["task_id"] == "victim"


@pytest.fixture
def ray_cluster() -> Iterator[str]:
    """An existing Ray cluster: a head node started with `ray start --block` (ended by pid)."""
    import signal
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ray_cli = str(Path(sys.executable).with_name("ray"))
    head = subprocess.Popen([ray_cli, "start", "--head", "--block", f"--port={port}",
                             "--num-cpus=2", "--include-dashboard=false",
                             "--disable-usage-stats"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, **RAY_ENV}, start_new_session=True)
    address = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert head.poll() is None and time.monotonic() < deadline, "ray start failed"
        time.sleep(0.2)
    yield address
    # The head and its daemons share the session started for it: end exactly those.
    os.killpg(head.pid, signal.SIGKILL)
    head.wait()


@pytest.mark.slow  # a cluster of its own (a head started apart); the local Ray test is the sample
def test_ray_executor_on_an_existing_cluster(site: LocalServer, tmp_path: Path,
                                             ray_cluster: str) -> None:
    page = site.url("index.html")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"c{i}", "instruction": f"cluster {i}", "url": page, "answer": "987654"}
        for i in range(2)])
    policy = TaskPolicy({f"cluster {i}": [finish("987,654")] for i in range(2)})
    with provider(policy) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"), "--executor", "ray",
                        "--ray-address", ray_cluster, "--workers", "2", "--model", "openai:agent",
                        "--base-url", fp.base_url, "--viewport", "800x600", "--time-limit", "60"])
    assert code == 0
    store = Store.open_existing(tmp_path / "run")
    assert [(r.status, r.correct) for r in store.rows()] == [("finished", True)] * 2
    assert store.runs()[0]["invocation"]["ray_address"] == ray_cluster

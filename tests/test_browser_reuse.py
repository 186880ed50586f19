"""One browser per local worker, reused task after task, with a fresh context per task;
with ``--cdp-url A,B`` each worker attaches to its own remote browser.

The page under test leaves a cookie, localStorage and sessionStorage behind and says on
the next visit whether it found any: every task must find none, though all ran in the
same browser (two Chromium processes seen for four tasks on two workers, none replaced).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import PAGES, TaskPolicy, browser_pids, finish, provider, run_cli, write_tasks
from webfovea.bench.store import Store
from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.testing import LocalServer

FAST = ["--viewport", "800x600", "--max-steps", "3", "--time-limit", "60"]


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer(PAGES) as server:
        yield server


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")  # the OpenAI client wants one to exist


def test_a_reused_browser_leaks_nothing_between_tasks(site: LocalServer, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"s{i}", "instruction": "visit", "url": site.url("storage.html"), "answer": "x"}
        for i in range(4)])
    seen_browsers: set[int] = set()
    others = set(browser_pids(os.getpid()))  # e.g. the test session's shared browser

    def note_browsers(instruction: str, step: int) -> None:
        seen_browsers.update(set(browser_pids(os.getpid())) - others)

    with provider(TaskPolicy({"visit": [finish("x")]}, on_request=note_browsers)) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"), "--workers", "2",
                        "--model", "openai:agent", "--base-url", fp.base_url, *FAST])
    assert code == 0
    store = Store.open_existing(tmp_path / "run")
    assert [r.status for r in store.rows()] == ["finished"] * 4
    for i in range(4):
        evidence = (tmp_path / "run" / "tasks" / f"s{i}" / "evidence.txt").read_text()
        assert "storage: fresh" in evidence, evidence
    # Two workers, two browsers for four tasks: started once each, never replaced.
    assert len(seen_browsers) == 2
    assert len({r.worker for r in store.rows()}) == 2
    assert not store.events("browser_replaced") and not any(r.browser_replaced
                                                             for r in store.rows())


@contextlib.contextmanager
def devtools_browser(tmp_path: Path) -> Iterator[str]:
    """A Chromium started on its own with a DevTools endpoint, as a remote browser would be."""
    profile = tempfile.mkdtemp(prefix="webfovea-cdp-", dir=tmp_path)
    proc = subprocess.Popen([find_chromium() or "chromium", "--headless=new",
                             "--remote-debugging-port=0", f"--user-data-dir={profile}",
                             *launch_args(), "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = Path(profile) / "DevToolsActivePort"
    try:
        deadline = time.monotonic() + 30
        while not port_file.is_file() or not port_file.read_text().strip():
            assert time.monotonic() < deadline, "remote Chromium did not start"
            time.sleep(0.05)
        time.sleep(0.05)
        yield f"http://127.0.0.1:{port_file.read_text().split()[0]}"
    finally:
        proc.kill()
        proc.wait()


def test_each_worker_attaches_to_its_own_remote_browser(site: LocalServer,
                                                        tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"r{i}", "instruction": "visit", "url": site.url("storage.html"), "answer": "x"}
        for i in range(2)])
    with devtools_browser(tmp_path) as first, devtools_browser(tmp_path) as second:
        used: set[str] = set()

        def note_endpoint(instruction: str, step: int) -> None:
            for endpoint in (first, second):  # whose browser shows the task's page right now
                with urllib.request.urlopen(f"{endpoint}/json/list", timeout=10) as reply:
                    if any("storage.html" in t.get("url", "") for t in json.load(reply)):
                        used.add(endpoint)

        before = set(browser_pids(os.getpid()))
        with provider(TaskPolicy({"visit": [finish("x")]}, on_request=note_endpoint)) as fp:
            code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"), "--workers",
                            "2", "--model", "openai:agent", "--base-url", fp.base_url,
                            "--cdp-url", f"{first},{second}", *FAST])
            assert set(browser_pids(os.getpid())) == before  # nothing launched locally
    assert code == 0 and used == {first, second}
    store = Store.open_existing(tmp_path / "run")
    assert [r.status for r in store.rows()] == ["finished"] * 2
    for i in range(2):
        assert "storage: fresh" in (tmp_path / "run" / "tasks" / f"r{i}" / "evidence.txt").read_text()

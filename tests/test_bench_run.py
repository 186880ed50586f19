"""``webfovea bench`` / ``score`` end to end: real Chromium on local pages, the model a real
OpenAI-protocol HTTP server whose replies depend on the task.

One run of several tasks with 2 workers covers the statuses and scores; further small
runs cover a page that hangs the renderer, a browser killed mid-task, and remote
browsers through --cdp-url.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from test_bench_support import (
    PAGES,
    RAISE,
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
from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.testing import FakeProvider, FakeRequest, LocalServer

FAST = ["--viewport", "800x600", "--max-steps", "3"]
pytestmark = pytest.mark.usefixtures("openai_key")  # every test here talks to the fake provider


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer(PAGES) as server:
        yield server


# -- one run of several tasks with 2 workers ------------------------------------------------------

EXPECTED = {  # id: (status, bucket, correct, matcher)
    "t-correct": ("finished", "correct", True, "integer"),
    "t-wrong": ("finished", "wrong_answer", False, "integer"),
    "t-date": ("finished", "correct", True, "date"),
    "t-city": ("finished", "wrong_answer", False, "text"),  # undecided: maybe an acronym
    "t-empty": (None, "no_answer", False, "status"),
    "t-steps": ("step_limit", "step_limit", False, "status"),
    "t-unreachable": ("unreachable", "unreachable", False, "status"),
    "t-model": ("model_error", "model_error", False, "status"),
    "9": ("finished", "unscored", None, "none"),
}


@dataclass
class Run:
    out: Path
    code: int
    policy: TaskPolicy
    provider: FakeProvider
    seconds: float


@pytest.fixture(scope="module")
def main_run(site: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    page = site.url("index.html")
    tmp = tmp_path_factory.mktemp("bench")
    tasks = write_tasks(tmp / "tasks.jsonl", [
        {"id": "t-correct", "instruction": "population of Springfield", "url": page,
         "answer": "1234567"},
        {"id": "t-wrong", "instruction": "population, misread", "url": page, "answer": "1234567"},
        {"id": "t-date", "instruction": "census date", "url": page, "answer": "2024-03-15"},
        {"id": "t-city", "instruction": "which city", "url": page, "answer": "New York City"},
        {"id": "t-empty", "instruction": "say nothing", "url": page, "answer": "1"},
        {"id": "t-steps", "instruction": "never finish", "url": page, "answer": "1"},
        {"id": "t-unreachable", "instruction": "dead site", "url": closed_port_url(),
         "answer": "1"},
        {"id": "t-model", "instruction": "model breaks", "url": page, "answer": "1"},
        '{"id": "t-broken", "instruction": ',
        {"task_id": 9, "task": "no reference answer", "website": page},
    ])
    policy = TaskPolicy({
        "population of Springfield": [finish("1,234,567")],
        "population, misread": [finish("987,654")],
        "census date": [finish("3/15/2024")],
        "which city": [finish("NYC")],
        "say nothing": [finish("")],
        "never finish": [WAIT],
        "dead site": [finish("1")],
        "model breaks": [RAISE],
        "no reference answer": [finish("Springfield")],
    })
    with provider(policy) as fp:
        start = time.monotonic()
        code = run_cli(["bench", str(tasks), "--out", str(tmp / "run"), "--workers", "2",
                        "--model", "openai:agent", "--base-url", fp.base_url,
                        "--time-limit", "30", "--price-input", "2", "--price-output", "10",
                        *FAST])
        yield Run(tmp / "run", code, policy, fp, time.monotonic() - start)


def test_statuses_and_scores(main_run: Run) -> None:
    assert main_run.code == 0
    store = Store.open_existing(main_run.out)
    rows = {r.task_id: r for r in store.rows()}
    assert set(rows) == set(EXPECTED)
    from webfovea.bench.report import bucket

    for task_id, (status, bucket_name, correct, matcher) in EXPECTED.items():
        row = rows[task_id]
        got = (row.status if status else None, bucket(row), row.correct, row.matcher)
        assert got == (status, bucket_name, correct, matcher), (task_id, row.verdict, row.error)
    assert rows["t-empty"].status in ("finished", "gave_up")
    assert "1234567 is 1234567" in (rows["t-correct"].verdict or "")
    assert (rows["t-city"].decision, rows["t-wrong"].decision) == ("undecided", "wrong")
    assert all(r.state == "done" and r.attempts == 1 for r in rows.values())
    assert {r.task_id for r in rows.values() if r.worker == "local-1"} and \
        {r.task_id for r in rows.values() if r.worker == "local-2"}


def test_each_task_has_its_run_directory_and_its_steps_in_the_store(main_run: Run) -> None:
    store = Store.open_existing(main_run.out)
    for row in store.rows():
        folder = main_run.out / "tasks" / row.dir
        result = json.loads((folder / "result.json").read_text())
        assert result["status"] == row.status
        lines = (folder / "steps.jsonl").read_text().splitlines() if row.steps else []
        assert len(lines) == row.steps == store.step_count(row.task_id)
        for step in range(1, row.steps + 1):
            assert (folder / "screens" / f"{step:03d}.png").is_file()
    assert (main_run.out / "tasks" / "t-correct" / "evidence.png").is_file()
    db = sqlite3.connect(main_run.out / "results.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    actions = [r[0] for r in db.execute("SELECT action FROM steps WHERE task_id = 't-steps'")]
    assert actions == ["wait", "wait", "wait"]


def test_bad_line_is_reported_and_the_rest_ran(main_run: Run) -> None:
    store = Store.open_existing(main_run.out)
    bad = store.events("bad_line")
    assert len(bad) == 1 and "line 9: not valid JSON" in bad[0]["detail"]


def test_run_records_settings_versions_and_model(main_run: Run) -> None:
    store = Store.open_existing(main_run.out)
    settings = store.get_meta("settings")
    assert settings["model"] == "openai:agent"
    assert (settings["max_steps"], settings["time_limit"], settings["viewport"]) == \
        (3, 30.0, "800x600")
    (invocation,) = store.runs()
    assert invocation["state"] == "completed" and invocation["workers"] == 2
    assert invocation["invocation"]["base_url"] == main_run.provider.base_url
    versions = invocation["versions"]
    assert {"webfovea", "playwright", "python", "dateparser", "chromium"} <= set(versions)
    assert versions["chromium"][0].isdigit()


def test_score_json_has_rate_stderr_buckets_and_cost(main_run: Run,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run_cli(["score", str(main_run.out), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["success"]["correct"] == 2 and report["success"]["n"] == 8
    assert report["success"]["stderr"] == pytest.approx(math.sqrt(0.25 * 0.75 / 8))
    assert report["success_reachable"]["n"] == 7
    assert report["buckets"] == {"correct": 2, "wrong_answer": 2, "no_answer": 1,
                                 "step_limit": 1, "unreachable": 1, "model_error": 1,
                                 "unscored": 1}
    tokens_in = sum(line["input_tokens"] for line in report["lines"])
    tokens_out = sum(line["output_tokens"] for line in report["lines"])
    assert tokens_in > 0
    assert report["cost_total"] == pytest.approx((tokens_in * 2 + tokens_out * 10) / 1e6)
    assert report["settings"]["model"] == "openai:agent"


def test_score_csv_and_table(main_run: Run, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run_cli(["score", str(main_run.out), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["id"] for r in rows] == list(EXPECTED)
    assert rows[0]["bucket"] == "correct" and rows[0]["matcher"] == "integer"
    assert run_cli(["score", str(main_run.out)]) == 0
    table = capsys.readouterr().out
    assert "success: 25.0% ± 15.3 (2/8)" in table
    assert "step_limit" in table and "cost: $" in table
    html = (main_run.out / "report.html").read_text()
    assert "tasks/t-correct/view.html" in html and "25.0% ± 15.3" in html


def test_rescoring_with_a_judge_is_recorded(main_run: Run, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(main_run.out, copy)

    def judge(request: FakeRequest) -> str:
        return "YES" if "Candidate answer: NYC" in request.turns[0].text else "NO"

    with FakeProvider(judge) as fp:
        assert run_cli(["score", str(copy), "--judge", "openai:judge", "--judge-base-url",
                        fp.base_url, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["judge"] == "openai:judge"
    city = next(line for line in report["lines"] if line["id"] == "t-city")
    assert (city["correct"], city["matcher"]) == (True, "judge")
    assert report["success"]["correct"] == 3
    assert report["judged"] == 1 and report["undecided"] == 0
    # What a typed rule decided was not put to the judge.
    wrong = next(line for line in report["lines"] if line["id"] == "t-wrong")
    assert (wrong["correct"], wrong["matcher"], wrong["decision"]) == (False, "integer", "wrong")


def test_resume_keeps_settings_and_redoes_nothing(main_run: Run, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(main_run.out, copy)
    tasks = main_run.out.parent / "tasks.jsonl"
    assert run_cli(["bench", str(tasks), "--out", str(copy), "--resume", "--max-steps",
                    "5"]) == 2
    assert "--max-steps was 3, now 5" in capsys.readouterr().err
    assert run_cli(["bench", str(tasks), "--out", str(copy)]) == 2
    assert "already holds a bench run" in capsys.readouterr().err
    seen = sum(main_run.policy.seen.values())
    assert run_cli(["bench", str(tasks), "--out", str(copy), "--resume",
                    "--base-url", main_run.provider.base_url]) == 0
    assert "9 of 9 tasks already done" in capsys.readouterr().err
    assert sum(main_run.policy.seen.values()) == seen
    assert [r["state"] for r in Store.open_existing(copy).runs()] == ["completed", "completed"]


def test_the_runs_end_keeps_the_task_pages_written_as_the_tasks_ended(main_run: Run,
                                                                     tmp_path: Path) -> None:
    import asyncio
    import shutil

    from webfovea.bench.runner import rescore
    from webfovea.viewer.report import write_report

    copy = tmp_path / "run"
    shutil.copytree(main_run.out, copy)  # times kept: each page is newer than its task's files
    written = {p.parent.name: p.stat().st_mtime_ns for p in copy.glob("tasks/*/view.html")}
    assert len(written) == len(EXPECTED)
    (copy / "tasks" / "t-city" / "view.html").unlink()
    write_report(copy, keep_current=True)
    again = {p.parent.name: p.stat().st_mtime_ns for p in copy.glob("tasks/*/view.html")}
    assert {k for k in again if again[k] != written[k]} == {"t-city"}

    store = Store.open_existing(copy)
    try:
        asyncio.run(rescore(store, copy, judge=None))  # every score.json rewritten
    finally:
        store.close()
    write_report(copy, keep_current=True)
    assert all(p.stat().st_mtime_ns > again[p.parent.name] for p in copy.glob("tasks/*/view.html"))


# -- a page that hangs the renderer ---------------------------------------------------------------


def test_a_hanging_page_gets_time_limit_and_the_run_goes_on(site: LocalServer,
                                                            tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "hang", "instruction": "hangs", "url": site.url("hang.html"), "answer": "1"},
        {"id": "after", "instruction": "after the hang", "url": site.url("index.html"),
         "answer": "987654"},
    ])
    policy = TaskPolicy({"hangs": [finish("1")], "after the hang": [finish("987,654")]})
    with provider(policy) as fp:
        start = time.monotonic()
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"),
                        "--model", "openai:agent", "--base-url", fp.base_url,
                        "--time-limit", "3", *FAST])
        seconds = time.monotonic() - start
    assert code == 0
    rows = {r.task_id: r for r in Store.open_existing(tmp_path / "run").rows()}
    assert rows["hang"].status == "time_limit"
    # Either the task's own limit ends it (a busy page's calls were cancelled) or, when even
    # cancelling hangs, the bench's hard limit does; both say which limit it was.
    assert re.search(r"time limit of 3 s|hard limit of 5 s", rows["hang"].error or "")
    assert (rows["after"].status, rows["after"].correct) == ("finished", True)
    assert seconds < 25


# -- a browser killed mid-task --------------------------------------------------------------------


def test_a_killed_browser_is_named_and_replaced(site: LocalServer, tmp_path: Path) -> None:
    page = site.url("index.html")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "victim", "instruction": "the browser dies", "url": page, "answer": "1234567"},
        {"id": "next-1", "instruction": "first after", "url": page, "answer": "1234567"},
        {"id": "next-2", "instruction": "second after", "url": page, "answer": "2024-03-16"},
    ])
    before = set(browser_pids(os.getpid()))
    killed: list[int] = []

    def kill_browser(instruction: str, step: int) -> None:
        # Runs inside the model call of the victim's second step: the browser dies mid-task.
        if instruction == "the browser dies" and step == 1 and not killed:
            killed.extend(set(browser_pids(os.getpid())) - before)
            kill(killed)

    policy = TaskPolicy({"the browser dies": [WAIT, WAIT, finish("1,234,567")],
                         "first after": [finish("1,234,567")],
                         "second after": [finish("March 16, 2024")]}, on_request=kill_browser)
    with provider(policy) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"),
                        "--model", "openai:agent", "--base-url", fp.base_url,
                        "--time-limit", "30", *FAST])
    assert code == 0 and len(killed) == 1
    store = Store.open_existing(tmp_path / "run")
    rows = {r.task_id: r for r in store.rows()}
    assert rows["victim"].status == "browser_error" and rows["victim"].browser_replaced
    # The first step completed; the browser died during the second step's model call.
    assert 1 <= rows["victim"].steps <= 2
    assert "closed" in (rows["victim"].error or "")
    assert [(rows[t].status, rows[t].correct) for t in ("next-1", "next-2")] == \
        [("finished", True), ("finished", True)]
    (replaced,) = store.events("browser_replaced")
    assert replaced["task_id"] == "victim" and "replaced after victim" in replaced["detail"]
    assert store.runs()[0]["browser_replacements"] == 1


# -- one host-resolver lane per worker ------------------------------------------------------------


def test_each_worker_gets_its_own_host_resolver_rules(site: LocalServer, tmp_path: Path) -> None:
    # The offline suite's way: one server lane per worker, the same host names in each.
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"h{i}", "instruction": "lanes", "url": "http://bench.fovea.test/index.html",
         "answer": "1234567"} for i in range(4)])
    with LocalServer(PAGES / "lane-b") as lane_b, \
            provider(TaskPolicy({"lanes": [WAIT, finish("1,234,567")]})) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"), "--workers", "2",
                        "--model", "openai:agent", "--base-url", fp.base_url,
                        "--host-resolver-rules", f"MAP bench.fovea.test 127.0.0.1:{site.port}",
                        "--host-resolver-rules", f"MAP bench.fovea.test 127.0.0.1:{lane_b.port}",
                        "--time-limit", "30", *FAST])
    assert code == 0
    store = Store.open_existing(tmp_path / "run")
    seen = {}
    for row in store.rows():
        assert (row.status, row.correct) == ("finished", True), row.error
        text = (tmp_path / "run" / "tasks" / row.dir / "evidence.txt").read_text()
        seen.setdefault(row.worker, set()).add("Lane B" if "Lane B" in text else "Lane A")
    assert seen == {"local-1": {"Lane A"}, "local-2": {"Lane B"}}


# -- a browser that will not start ---------------------------------------------------------------


def test_a_browser_that_will_not_start_fails_each_task_by_name(
        site: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFOVEA_CHROMIUM", "/bin/false")  # "Chromium" exits at once
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"b{i}", "instruction": "anything", "url": site.url("index.html"), "answer": "1"}
        for i in range(2)])
    with provider(TaskPolicy({"anything": [finish("1")]})) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"), "--model",
                        "openai:agent", "--base-url", fp.base_url, *FAST])
    assert code == 0
    store = Store.open_existing(tmp_path / "run")
    assert [(r.status, r.error is not None and "could not start Chromium" in r.error)
            for r in store.rows()] == [("browser_error", True)] * 2
    assert len(store.events("browser_start_failed")) == 2


# -- remote browsers ------------------------------------------------------------------------------


@pytest.fixture
def remote_chromium() -> Iterator[str]:
    """A Chromium started on its own with a DevTools endpoint, as a remote browser would be."""
    profile = tempfile.mkdtemp(prefix="webfovea-cdp-")
    proc = subprocess.Popen([find_chromium() or "chromium", "--headless=new",
                             "--remote-debugging-port=0", f"--user-data-dir={profile}",
                             *launch_args(), "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = Path(profile) / "DevToolsActivePort"
    deadline = time.monotonic() + 20
    while not port_file.is_file() or not port_file.read_text().strip():
        assert time.monotonic() < deadline, "remote Chromium did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port_file.read_text().split()[0]}"
    proc.kill()
    proc.wait()


def test_workers_use_a_remote_browser_through_cdp(site: LocalServer, tmp_path: Path,
                                                  remote_chromium: str) -> None:
    page = site.url("index.html")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": f"r{i}", "instruction": f"remote {i}", "url": page, "answer": "987654"}
        for i in range(3)])
    policy = TaskPolicy({f"remote {i}": [finish("987,654")] for i in range(3)})
    before = set(browser_pids(os.getpid()))
    with provider(policy) as fp:
        code = run_cli(["bench", str(tasks), "--out", str(tmp_path / "run"), "--workers", "2",
                        "--model", "openai:agent", "--base-url", fp.base_url,
                        "--cdp-url", remote_chromium, "--time-limit", "30", *FAST])
        assert set(browser_pids(os.getpid())) == before  # nothing launched locally
    assert code == 0
    store = Store.open_existing(tmp_path / "run")
    assert [(r.status, r.correct) for r in store.rows()] == [("finished", True)] * 3
    assert store.runs()[0]["invocation"]["cdp_url"] == remote_chromium

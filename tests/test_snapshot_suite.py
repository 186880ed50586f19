"""Record offline-suite tasks with the oracle, stop the suite, replay: the same answers.

The replay's suite server is a fresh one on other ports: it carries only the oracle's
layout channel (relayed by the harness), and the test checks it was asked for no page.
Tasks: a canvas chart in a cross-origin iframe, an autocomplete that fetches as you
type, and a news page with a ticking clock and a carousel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.suite.catalog import tasks
from webfovea.suite.server import CONTROL, SuiteServer

TASKS = ("energy-value", "forms-cheapest", "news-featured-tram")


def _bench(server: SuiteServer, task_file: Path, out: Path, *flags: str) -> dict[str, dict]:
    argv = [sys.executable, "-m", "webfovea", "bench", str(task_file), "--out", str(out),
            "--model", "oracle", "--workers", "2", *flags]
    for lane in server.lanes:
        argv += ["--host-resolver-rules", ",".join(server.host_rules(lane=lane))]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=900,
                          env=os.environ.copy())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {t: json.loads((out / "tasks" / t / "result.json").read_text()) for t in TASKS}


def _suite() -> SuiteServer:
    server = SuiteServer(seed=0).start()
    server.add_lane()
    return server


# Six oracle runs over suite sites: slow (make test-all). test_snapshot.py's record/replay
# tests are the quick sample; benchmarks/snapshot_suite.py runs the whole suite.
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_recorded_suite_bench_replays_with_the_same_answers_and_no_site_request(
        tmp_path: Path) -> None:
    task_file = tmp_path / "tasks.jsonl"
    chosen = [t for t in tasks(0) if t.id in TASKS]
    task_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in chosen), "utf-8")
    snaps = tmp_path / "snaps"
    recording = _suite()
    try:
        recorded = _bench(recording, task_file, tmp_path / "rec", "--record-sites", str(snaps))
    finally:
        recording.close()
    answers = {t.id: t.answer for t in chosen}
    assert all(r["status"] == "finished" for r in recorded.values()), recorded
    assert {t: r["answer"] for t, r in recorded.items()} == answers
    assert all((snaps / t / "manifest.json").is_file() for t in TASKS)

    channel = _suite()
    try:
        replayed = _bench(channel, task_file, tmp_path / "rep", "--replay-sites", str(snaps))
        asked = [f"{host}{path}" for host, path in channel.app.served
                 if not path.startswith(CONTROL)]
    finally:
        channel.close()
    assert asked == []
    assert {t: r["answer"] for t, r in replayed.items()} == answers
    for task_id, result in replayed.items():
        site = result["site"]
        assert site["mode"] == "replay" and site["unmatched"] == 0, (task_id, site)
        assert site["snapshot_id"] == recorded[task_id]["site"]["snapshot_id"]
        assert site["matched_exact"] + site["matched_rules"] > 0 and site["passthrough"] > 0
    dash = json.loads((snaps / "energy-value" / "manifest.json").read_text())["origins"]
    assert "http://dash.fovea.test" in dash  # the embedded dashboard's own origin

    proc = subprocess.run([sys.executable, "-m", "webfovea", "compare", str(tmp_path / "rec"),
                           str(tmp_path / "rep")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "replayed the same site snapshots on all 3 common tasks" in proc.stdout

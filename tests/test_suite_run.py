"""`webfovea suite run` with the oracle: the whole loop, measured without internet.

The oracle answers from what the page displays, so it is right only if the harness
really brought the page there; with provider-style resizing, full-size images make
its clicks land at 3/4 of their targets, as in the paper.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from as_seen import suite_images_after_moves
from webfovea.rundir.network import NETWORK, read_network
from webfovea.suite.catalog import tasks
from webfovea.suite.cli import choose

# One task per obstacle family, kept small for CI: native select + Enter + pagination,
# a canvas chart inside a cross-origin iframe, SVG hover, a long document, hidden text.
TASKS = "stats-production-cell,energy-value,charts-difference,filings-capacity"


def _suite_run(out: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, dict]]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "suite", "run", "--out", str(out),
                           "--only", TASKS, *args], capture_output=True, text=True, timeout=600,
                          env=os.environ.copy())
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, timeout=60)
    assert score.returncode == 0, score.stderr
    report = json.loads(score.stdout)
    return proc, {t["id"]: t for t in report["lines"]}


async def test_the_oracle_solves_suite_tasks_through_the_harness(tmp_path: Path) -> None:
    proc, by_id = _suite_run(tmp_path / "run")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert set(by_id) == set(TASKS.split(","))
    assert all(t["correct"] for t in by_id.values()), by_id
    checked = await suite_images_after_moves(tmp_path / "run")
    assert checked >= 1  # the long document is searched (filings-capacity)
    for task in (tmp_path / "run" / "tasks").iterdir():  # the site's requests, never the
        records = read_network(task).records  # suite's layout reports to its oracle
        assert (task / NETWORK).is_file() and all("/__fovea/" not in r.url for r in records)



# Two suite runs; test_roundtrip's provider-resize test is the quick sample of the same effect.
@pytest.mark.slow
def test_provider_resizing_breaks_only_a_harness_that_sends_full_size_images(
        tmp_path: Path) -> None:
    _, capped = _suite_run(tmp_path / "capped", "--oracle-provider-resize")
    assert all(t["correct"] for t in capped.values()), capped
    _, full = _suite_run(tmp_path / "full", "--oracle-provider-resize", "--image-cap", "none",
                         "--max-steps", "12")
    assert not any(t["correct"] for t in full.values()), full


def test_choose_spreads_a_limit_over_sites_and_names_unknown_ids() -> None:
    found = tasks(0)
    picked = choose(found, only=None, limit=6)
    assert len({t.site for t in picked}) == 6
    with pytest.raises(Exception, match="no suite task nope"):
        choose(found, only="nope", limit=None)


def test_list_and_export_commands(tmp_path: Path) -> None:
    listed = subprocess.run([sys.executable, "-m", "webfovea", "suite", "list", "--answers"],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.splitlines()) == len(tasks(0)) >= 40
    out = tmp_path / "suite.jsonl"
    exported = subprocess.run([sys.executable, "-m", "webfovea", "suite", "export", "--seed", "7",
                               "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [t["id"] for t in lines] == [t.id for t in tasks(7)]
    assert {"id", "instruction", "url", "answer", "answer_type", "tags"} == set(lines[0])
    assert all("plan" not in t for t in lines)  # the plan is the oracle's, never in the file


def test_serve_prints_the_host_rules_and_serves(tmp_path: Path) -> None:
    import time
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "webfovea", "suite", "serve", "--lanes", "2"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(5)]
        rules = [line for line in lines if "--host-resolver-rules" in line]
        assert len(rules) == 2
        port = rules[0].split("127.0.0.1:")[1].split('"')[0].split(",")[0]
        deadline = time.monotonic() + 10
        while True:
            try:
                info = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/__fovea/info"))
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert info["seed"] == 0 and "stats" in info["sites"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)

"""Issue 23 (d): evidence scoring and references with evidence, driven by a real bench run.

The oracle answers four offline-suite tasks; the task file holds two deliberately stale
references and one task without a reference. The evidence judge is a fake provider whose
policy really reads what it is sent: it says "supported" only when the answer stands in the
answer page's text. ``webfovea references --accept`` then makes the two run answers the new
references, and a second bench on that file scores them correct.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.suite.catalog import tasks
from webfovea.suite.server import SuiteServer

IDS = ("stats-production-cell", "filings-capacity", "rankings-position", "news-archive-count")
STALE = ("stats-production-cell", "filings-capacity")
NO_REFERENCE = "rankings-position"


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=0) as server:
        yield server


def _webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "test-key"}
    proc = subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def _bench(suite: SuiteServer, task_file: Path, out: Path) -> None:
    _webfovea("bench", str(task_file), "--out", str(out), "--model", "oracle",
              "--host-resolver-rules", ",".join(suite.host_rules()))


def evidence_judge(request: FakeRequest) -> str:
    text = request.turns[-1].text
    answer = re.search(r"^Answer: (.*)$", text, re.M)
    page = text.partition("Text of the answer page (excerpt):")[2]
    assert answer is not None and request.images, "the judge must get the answer and screenshots"
    if answer.group(1).strip() and answer.group(1).strip() in page.replace(",", ""):
        return "Evidence: supported\nReason: the answer page shows it."
    return "Evidence: not supported\nReason: the answer page does not show it."


def _task_file(path: Path) -> dict[str, dict]:
    lines = {t.id: t.to_json() for t in tasks(0) if t.id in IDS}
    for task_id in STALE:  # the site has moved on since these references were taken
        lines[task_id]["answer"] = str(int(lines[task_id]["answer"]) + 1000)
    del lines[NO_REFERENCE]["answer"]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines.values()), "utf-8")
    return lines


@pytest.mark.timeout(900)
def test_stale_references_are_told_apart_and_replaced_with_evidence(
        suite: SuiteServer, tmp_path: Path) -> None:
    given = _task_file(tmp_path / "tasks.jsonl")
    run = tmp_path / "run"
    _bench(suite, tmp_path / "tasks.jsonl", run)
    with FakeProvider(evidence_judge) as judge:
        out = _webfovea("score", str(run), "--judge-evidence", "openai:judge",
                        "--judge-evidence-base-url", judge.base_url, "--format", "json").stdout
        judged = len(judge.requests)
    report = json.loads(out)
    assert judged == 4
    assert report["evidence"] == {"correct": 1, "stale_reference": 2, "supported": 1}
    lines = {ln["id"]: ln for ln in report["lines"]}
    assert {t for t in IDS if lines[t]["evidence"] == "stale_reference"} == set(STALE)
    score = json.loads((run / "tasks" / STALE[0] / "score.json").read_text())
    assert (score["verdict"], score["evidence"]["verdict"], score["evidence"]["category"]) == \
        ("wrong", "supported", "stale_reference")
    table = _webfovea("score", str(run)).stdout
    assert "evidence (score --judge-evidence)" in table and "stale_reference" in table

    new = tmp_path / "refreshed.jsonl"
    printed = _webfovea("references", str(run), "--out", str(new),
                        "--accept", ",".join(STALE)).stdout
    assert "new references from the run: " + ", ".join(sorted(STALE)) in printed
    refreshed = {json.loads(x)["id"]: json.loads(x) for x in new.read_text().splitlines()}
    answers = {t: json.loads((run / "tasks" / t / "result.json").read_text())["answer"]
               for t in IDS}
    for task_id in STALE:
        line = refreshed[task_id]
        assert line["answer"] == answers[task_id] != given[task_id]["answer"]
        evidence = line["reference_evidence"]
        shot = new.parent / evidence["screenshot"]
        assert shot.is_file() and evidence["url"].startswith("http://")
        assert evidence["sha256"] == _sha256(shot) and evidence["grounding"] == "grounded"
    assert "reference_evidence" in refreshed["news-archive-count"]  # matched: its evidence
    assert "answer" not in refreshed[NO_REFERENCE]

    # The refreshed references hold: the two formerly stale tasks, run again, are correct.
    stale_only = tmp_path / "stale.jsonl"
    stale_only.write_text("".join(json.dumps(refreshed[t]) + "\n" for t in STALE), "utf-8")
    again = tmp_path / "again"
    _bench(suite, stale_only, again)
    rescored = json.loads(_webfovea("score", str(again), "--format", "json").stdout)
    assert rescored["success"]["correct"] == 2 and rescored["success"]["n"] == 2


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()

"""Issue 22: the oracle speaks openai-computer and gemini-computer through the fake provider's
Responses and generateContent routes, and answers the offline suite through them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.rundir.store import read_steps
from webfovea.suite.catalog import tasks

# A form with a fill (a batch in GA, type_text_at in legacy), a select and a result in a new
# tab; and a table read after a native select and a search submitted with Enter.
SAMPLE = "forms-cheapest,stats-production-cell"


def _suite(out: Path, *args: str, timeout: float = 900) -> dict[str, dict[str, object]]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "suite", "run", "--out", str(out),
                           "--model", "oracle", "--workers", "2", *args],
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, timeout=120)
    assert score.returncode == 0, score.stderr
    return {t["id"]: t for t in json.loads(score.stdout)["lines"]}


@pytest.mark.parametrize(("dialect", "version"), [("openai-computer", "ga"),
                                                  ("gemini-computer", "legacy")])
def test_the_oracle_answers_through_the_native_dialect(tmp_path: Path, dialect: str,
                                                       version: str) -> None:
    by_id = _suite(tmp_path, "--only", SAMPLE, "--dialect", dialect, "--dialect-version",
                   version)
    assert set(by_id) == set(SAMPLE.split(","))
    assert all(t["correct"] for t in by_id.values()), by_id
    steps = read_steps(next((tmp_path / "tasks").glob("forms-cheapest*")))
    calls = [c for s in steps for c in s.calls]
    assert calls and all(c["native"] for c in calls)  # every action came as a native call
    names = {c["native"].get("name") or c["native"]["action"]["type"] for c in calls
             if c["native"].get("type") != "function_call"}
    if dialect == "openai-computer":
        assert {"click", "keypress", "type"} <= names  # a fill as one batch of three
        assert any(len(s.calls) == 3 for s in steps)
    else:
        assert "type_text_at" in names


@pytest.mark.slow
@pytest.mark.parametrize(("dialect", "version"), [("openai-computer", "ga"),
                                                  ("openai-computer", "preview"),
                                                  ("gemini-computer", "new"),
                                                  ("gemini-computer", "legacy")])
def test_the_oracle_answers_the_whole_suite(tmp_path: Path, dialect: str, version: str) -> None:
    by_id = _suite(tmp_path, "--dialect", dialect, "--dialect-version", version, timeout=3000)
    assert len(by_id) == len(tasks(0)) == 42
    wrong = {i: t for i, t in by_id.items() if not t["correct"]}
    assert not wrong, wrong

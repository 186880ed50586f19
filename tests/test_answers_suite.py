"""Issue 23 (b): the honest reference policy's answers are all grounded: no false accusation.

The oracle answers only from text the pages displayed, so every answer of it must be found
by grounding (or derived from values it read), also values shown only on hover, values in the
cross-origin dashboard frame, text read with read_text, and computed totals. The quick
sample covers those kinds; the slow test runs the whole suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.suite.catalog import tasks

# A canvas chart in a cross-origin frame read by hover (energy-value), an SVG hover and a
# difference (charts-difference), a visually hidden value in thousands (filings-audit-fee), a
# sum of eight cells (stats-total-year), the CAPTCHA-gated archive (news-archive-count).
SAMPLE = "energy-value,charts-difference,filings-audit-fee,stats-total-year,news-archive-count"


def _grounding(out: Path, *only: str) -> dict[str, dict]:
    argv = [sys.executable, "-m", "webfovea", "suite", "run", "--out", str(out),
            "--grounding", "challenge", *(["--only", only[0]] if only else [])]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=3000,
                          env=os.environ.copy())
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = {d.name: json.loads((d / "result.json").read_text())
               for d in (out / "tasks").iterdir()}
    return results


def _accused(results: dict[str, dict]) -> dict[str, object]:
    return {t: (r["status"], r["grounding"]) for t, r in results.items()
            if r["status"] != "finished" or r["grounding"]["status"] != "grounded"
            or r["grounding"]["challenged"]}


def test_the_oracles_answers_are_grounded_on_a_sample(tmp_path: Path) -> None:
    results = _grounding(tmp_path / "run", SAMPLE)
    assert set(results) == set(SAMPLE.split(","))
    assert _accused(results) == {}
    frames = {w["frame"] for r in results.values() for p in r["grounding"]["parts"]
              for w in p["where"]}
    assert any(f and "dash.fovea.test" in f for f in frames), frames  # inside the dashboard frame
    states = {p["state"] for r in results.values() for p in r["grounding"]["parts"]}
    assert {"seen", "derived"} <= states  # the sums and differences follow from seen values


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_oracles_answers_are_grounded_on_the_whole_suite(tmp_path: Path) -> None:
    results = _grounding(tmp_path / "run")
    assert len(results) == len(tasks(0)) == 42
    assert _accused(results) == {}

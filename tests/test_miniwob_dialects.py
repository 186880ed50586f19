"""Issue 22: the miniwob-oracle speaks the native dialects through the fake provider's
renderers (webfovea.miniwob.dialect), and the MiniWoB CI subset passes through them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.rundir.store import read_steps

pytest.importorskip("webfovea.miniwob.assets")

CI_TASKS = ("click-button,enter-date,click-scroll-list,copy-paste,drag-box,use-autocomplete,"
            "highlight-text")


def _miniwob(out: Path, tasks: str, episodes: int, dialect: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "webfovea", "miniwob", "--tasks", tasks,
                           "--episodes", str(episodes), "--model", "miniwob-oracle",
                           "--dialect", dialect, "--out", str(out), "--time-limit-scale", "3"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    summary: dict[str, object] = json.loads((out / "miniwob.json").read_text())
    return summary


@pytest.mark.parametrize(("dialect", "drag"), [("openai-computer", "drag"),
                                               ("anthropic-computer", "left_click_drag")])
def test_the_miniwob_oracle_speaks_the_computer_tools(miniwob_html: Path, tmp_path: Path,
                                                      dialect: str, drag: str) -> None:
    # copy-paste: ctrl+a / ctrl+c / ctrl+v as the protocol's key actions; drag-box: a drag in
    # the protocol's own form (OpenAI's drag path, Claude's left_click_drag), never a tool of ours.
    summary = _miniwob(tmp_path, "copy-paste,drag-box", 1, dialect)
    overall = summary["overall"]
    assert isinstance(overall, dict) and overall["successes"] == 2, summary["tasks"]
    episode = next((tmp_path / "tasks").glob("drag-box.e000*"))
    natives = [c["native"] for s in read_steps(episode) for c in s.calls]
    assert any(drag in (n.get("action", {}).get("type"), n.get("input", {}).get("action"))
               for n in natives), natives


@pytest.mark.slow
@pytest.mark.parametrize("dialect", ["openai-computer", "anthropic-computer", "gemini-computer"])
def test_the_ci_subset_passes_in_the_native_dialects(miniwob_html: Path, tmp_path: Path,
                                                     dialect: str) -> None:
    summary = _miniwob(tmp_path, CI_TASKS, 2, dialect)
    overall = summary["overall"]
    # As tests/test_miniwob.py: under CI load a slow step can miss a task's own timer.
    assert isinstance(overall, dict) and overall["successes"] >= 12, summary["tasks"]

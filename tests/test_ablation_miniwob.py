"""--ablate on MiniWoB++ with the reference policy: a native <select> task fails when
select() only clicks the dropdown, and the run's settings say what was ablated."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("webfovea.miniwob.assets")


def _miniwob(out: Path, *args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "webfovea", "miniwob", "--tasks",
                           "click-scroll-list", "--model", "miniwob-oracle", "--out", str(out),
                           "--time-limit-scale", "3", *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    summary: dict[str, object] = json.loads((out / "miniwob.json").read_text())
    return summary


def test_select_off_fails_a_native_select_task(miniwob_html: Path, tmp_path: Path) -> None:
    full = _miniwob(tmp_path / "full")
    naive = _miniwob(tmp_path / "naive", "--ablate", "select", "--max-steps", "6")
    assert full["overall"]["successes"] == 1  # type: ignore[index]
    assert naive["overall"]["successes"] == 0  # type: ignore[index]
    settings = subprocess.run([sys.executable, "-m", "webfovea", "compare",
                               str(tmp_path / "full"), str(tmp_path / "naive")],
                              capture_output=True, text=True, timeout=60).stdout
    assert "(full)" in settings and "(-select)" in settings
    task = next((tmp_path / "naive" / "tasks").iterdir())
    assert json.loads((task / "result.json").read_text())["config"]["ablate"] == ["select"]

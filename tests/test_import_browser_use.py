"""`webfovea import-trajectory --from browser-use`: browser-use's own Agent (installed from
PyPI into a virtual environment of its own, since its pins clash with webfovea's) runs on a
local page with a scripted chat model and writes its AgentHistoryList with ``save_to_file``
(tests/browser_use_agent.py); the file is imported, viewed, diagnosed and scored.

The environment is made once and kept under ~/.cache/webfovea-test/ (or
$WEBFOVEA_BROWSER_USE_VENV), so a second run only runs the agent; making it takes a minute
or more (pip's own cache shortens it), hence ``slow``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.browser.chromium import find_chromium
from webfovea.browser.local_server import LocalServer
from webfovea.rundir.store import read_result, read_score, read_steps

BROWSER_USE = "browser-use==0.13.14"  # the version whose writer the importer was built on
AGENT = Path(__file__).parent / "browser_use_agent.py"


def _webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=120)


def _venv() -> Path:
    """A Python with ``BROWSER_USE`` installed, made when missing (a marker file says the
    install finished: a half-made environment is made again)."""
    root = Path(os.environ.get("WEBFOVEA_BROWSER_USE_VENV") or
                Path.home() / ".cache" / "webfovea-test" / BROWSER_USE.replace("==", "-"))
    python, marker = root / "bin" / "python", root / ".installed"
    if not marker.is_file():
        shutil.rmtree(root, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, timeout=120)
        done = subprocess.run([str(python), "-m", "pip", "install", "-q", BROWSER_USE],
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        marker.write_text(BROWSER_USE)
    return python


@pytest.fixture(scope="module")
def history(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The AgentHistoryList browser-use's Agent saved after its run on shop.html."""
    chromium = find_chromium()
    assert chromium, "no Chromium"
    where = tmp_path_factory.mktemp("browser-use")
    out = where / "history.json"
    env = {**os.environ, "TMPDIR": str(where),  # the agent's directory (its screenshots)
           "ANONYMIZED_TELEMETRY": "false", "BROWSER_USE_CLOUD_SYNC": "false"}
    done = subprocess.run([str(_venv()), str(AGENT), pages.url("viewer/shop.html"), str(out),
                           chromium], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return out


@pytest.mark.slow
def test_a_browser_use_history_is_imported_viewed_diagnosed_and_scored(
        history: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = _webfovea("import-trajectory", str(history), "--from", "browser-use", "--out",
                     str(out))
    assert done.returncode == 0, done.stderr
    steps, result = read_steps(out), read_result(out)
    # browser-use's own first navigation, the click on "Reveal total" (found by its index in
    # the agent's browser state), a click on blank space, search_page, done.
    assert [s.action["name"] if s.action else None for s in steps] == [
        "navigate", "click", "click", None, "finished"]
    assert steps[1].action["start_box"] == [1700, 840]  # type: ignore[index]
    # Both directions, through browser-use's click highlight left in each next screenshot.
    assert [s.outcome for s in steps] == ["unknown", "changed", "no_change", "unknown", "answer"]
    assert "search_page" in steps[3].note and steps[3].parse_error is None
    assert (out / steps[1].screenshot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (result.status, result.answer) == ("finished", "The total is 48,210.")
    assert (out / "evidence.png").read_bytes() == (out / steps[4].screenshot).read_bytes()
    assert result.task.startswith("What is the total on the shop page?")
    unscored = json.loads(_webfovea("diagnose", str(out), "--json").stdout)
    assert unscored["diagnosed"] == 0  # an answer, and nothing says it is wrong
    wrong = _webfovea("score", str(out), "--answer", "41,800")
    assert wrong.returncode == 0 and "wrong (integer)" in wrong.stdout, wrong.stderr
    diag = json.loads(_webfovea("diagnose", str(out), "--json").stdout)
    first = diag["failures"][0]
    assert (first["stage"], first["step"]) == ("execute", 3), first
    assert "interaction highlight" in first["evidence"]
    right = _webfovea("score", str(out), "--answer", "48,210", "--format", "json")
    assert json.loads(right.stdout)["verdict"] == "correct"
    assert read_score(out).reference == "48,210"  # type: ignore[union-attr]
    diag = json.loads(_webfovea("diagnose", str(out), "--all", "--json").stdout)
    assert diag["failures"][0]["stage"] == "correct"
    view = _webfovea("view", str(out))
    assert view.returncode == 0, view.stderr

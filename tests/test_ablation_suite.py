"""`webfovea ablation` on the offline suite with the oracle: the paper's three bugs come back
when their fixes are turned off (ratio: clicks at 3/4 of the target; enter: a search left
unsubmitted; select: a native <select> clicked, its list never in the screenshot), and the
table pairs each variant with the full harness."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from webfovea.core.ablations import ABLATIONS
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import StepRecord

TASK = "stats-production-cell"  # a native <select> twice, then a search submitted by Enter


def _ablation(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", "ablation", "suite", "--model",
                           "oracle", "--out", str(out), *args], capture_output=True, text=True,
                          timeout=1200)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ablation")
    done = _ablation(out, "--only", TASK, "--fixes", "ratio,enter,select", "--max-steps", "6")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "-ratio" in done.stdout and "Δ vs full" in done.stdout
    return out


def _steps(table: Path, variant: str) -> list[StepRecord]:
    return read_steps(table / variant / "tasks" / TASK)


def test_the_table_pairs_each_variant_with_the_full_harness(table: Path) -> None:
    data = json.loads((table / "ablation.json").read_text())
    lines = {x["variant"]: x for x in data["lines"]}
    assert list(lines) == ["full", "ratio", "select", "enter"]  # the registry's order
    assert lines["full"]["success"] == 1.0 and lines["full"]["difference"] == 0.0
    for fix in ("ratio", "enter", "select"):
        assert lines[fix]["success"] == 0.0 and lines[fix]["broken"] == [TASK]
        assert lines[fix]["difference"] == -1.0 and lines[fix]["scored"] == 1
    settings = subprocess.run([sys.executable, "-m", "webfovea", "compare", str(table / "full"),
                               str(table / "ratio")], capture_output=True, text=True, timeout=60)
    assert "(full)" in settings.stdout and "(-ratio)" in settings.stdout
    config = json.loads((table / "ratio" / "tasks" / TASK / "result.json").read_text())["config"]
    assert config["ablate"] == ["ratio"]


def test_ratio_off_clicks_at_three_quarters_of_the_target(table: Path) -> None:
    full, naive = _steps(table, "full")[0], _steps(table, "ratio")[0]
    assert full.action == naive.action  # the same click, from the same screenshot
    (x, y) = full.action["start_box"]  # type: ignore[index]
    assert tuple(full.sent_size) == (1440, 810) and tuple(full.page_size) == (1920, 1080)
    assert [list(p) for p in full.page_points] == [[round(x * 4 / 3), round(y * 4 / 3)]]
    assert [list(p) for p in naive.page_points] == [[round(x), round(y)]]  # 3/4 of the target's page point
    assert full.outcome == "changed" and naive.outcome == "no_change"


def test_enter_off_leaves_the_search_unsubmitted(table: Path) -> None:
    def after_fill(steps: list[StepRecord]) -> tuple[StepRecord, str]:
        i = next(i for i, s in enumerate(steps) if s.action and s.action["name"] == "fill")
        return steps[i], steps[i + 1].url

    fill, url = after_fill(_steps(table, "full"))
    assert fill.details["enter_pressed"] is True and "q=Barley" in url
    fill, url = after_fill(_steps(table, "enter"))
    assert str(fill.action["content"]).endswith("\n")  # type: ignore[index]
    assert fill.details["enter_pressed"] is False and "q=Barley" not in url


def _png(table: Path, variant: str, step: StepRecord) -> Image.Image:
    path = table / variant / "tasks" / TASK / step.screenshot
    return Image.open(io.BytesIO(path.read_bytes())).convert("RGB")


def test_select_off_leaves_the_native_select_closed_in_the_screenshot(table: Path) -> None:
    steps = _steps(table, "select")
    picks = [i for i, s in enumerate(steps) if s.action and s.action["name"] == "select"]
    assert len(picks) >= 2  # asked again and again: the option never got set
    first = steps[picks[0]]
    x, y = (round(v) for v in first.action["start_box"])  # type: ignore[index]
    # Below the dropdown, where its list would open: the same pixels after the click.
    box = (max(0, x - 80), y + 25, x + 160, min(first.sent_size[1], y + 260))  # no focus ring
    before, after = _png(table, "select", first), _png(table, "select", steps[picks[0] + 1])
    assert ImageChops.difference(before.crop(box), after.crop(box)).getbbox() is None
    assert "region=" not in steps[-1].url and "use select(" not in steps[picks[1]].note
    full = _steps(table, "full")
    assert any("region=Eastern" in s.url for s in full)


@pytest.mark.slow
def test_every_fix_on_the_ci_tasks(tmp_path: Path) -> None:
    """The whole table (every fix) on the suite's CI tasks: the full harness solves them all
    and no ablation does better than it."""
    tasks = "stats-production-cell,energy-value,charts-difference,filings-capacity"
    done = _ablation(tmp_path, "--only", tasks, "--workers", "2", "--max-steps", "20")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = {x["variant"]: x for x in json.loads((tmp_path / "ablation.json").read_text())["lines"]}
    assert list(lines) == ["full", *ABLATIONS]
    assert lines["full"]["success"] == 1.0
    assert all(x["fixed"] == [] for x in lines.values())
    assert lines["ratio"]["success"] < 1.0

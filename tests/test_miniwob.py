"""Issue 17: MiniWoB++ through the normal round trip (needs the `miniwob` extra)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.actions.registry import Action, Point
from webfovea.bench.store import Store
from webfovea.browser.capture import Screen, capture
from webfovea.browser.executor import Executor
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig, Size

pytest.importorskip("webfovea.miniwob.assets")
from webfovea.miniwob import assets
from webfovea.miniwob.cli import VIEWPORT, ZOOM
from webfovea.miniwob.page import TaskPage
from webfovea.miniwob.policies_apps import best_cell

# highlight-text: a text selection made by a drag, then read by the page.
CI_TASKS = ("click-button,enter-date,click-scroll-list,copy-paste,drag-box,use-autocomplete,"
            "highlight-text")


def test_the_reference_policy_solves_a_ci_subset_through_the_cli(miniwob_html: Path,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "webfovea", "miniwob", "--tasks", CI_TASKS,
                           "--episodes", "2", "--model", "miniwob-oracle", "--out", str(out),
                           "--time-limit-scale", "3"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads((out / "miniwob.json").read_text())
    assert set(summary["tasks"]) == set(CI_TASKS.split(","))
    # Under CI load a slow step can miss a task's own timer; the subset as a whole must pass.
    assert summary["overall"]["successes"] >= 12, summary["tasks"]
    assert summary["settings"]["time_limit_scale"] == 3
    store = Store.open_existing(out)  # the bench's own store: score/view/diagnose read it
    rows = store.rows()
    store.close()
    assert len(rows) == 14 and {r.task_id for r in rows} >= {"click-button.e000", "drag-box.e001"}
    episode = json.loads(next((out / "tasks").glob("enter-date.e000*/miniwob.json")).read_text())
    assert episode["seed"] == 0 and episode["raw"] in (1.0, -1.0, 0.0)
    assert (out / "report.html").is_file() or any(out.glob("*.html"))


def _image_point(screen: Screen, css_x: float, css_y: float) -> Point:
    """A point of the task page (CSS pixels) in pixels of the image the executor was given."""
    return Point(round(css_x * screen.sent.width / screen.page.width),
                 round(css_y * screen.sent.height / screen.page.height))


async def test_episodes_are_seeded_like_miniwob_and_no_op_clicks_are_no_change(
        miniwob_html: Path) -> None:
    # The runner's own window: the reward display and its ticking timer are on screen.
    config = BrowserConfig(viewport=Size.parse(VIEWPORT), device_scale_factor=ZOOM)
    with LocalServer(miniwob_html) as server:
        async with BrowserSession(config) as session:
            tabs = await session.new_tabs()
            await tabs.open(server.url(assets.task_path("click-button")))
            page = TaskPage(tabs)
            first = await page.start(7, 10_000)
            other = await page.start(8, 10_000)
            again = await page.start(7, 10_000)
            assert first.utterance == again.utterance != "" and not again.done
            assert other.utterance  # a different seed may, but need not, differ
            ex = Executor(tabs, AgentConfig(image_cap=None))
            notes = []
            # Empty space of the task area: MiniWoB's click logger marks the element under
            # it (data-tampered) and its visualizer would dot the click; neither is a change.
            for _ in range(3):
                screen = await capture(tabs.page, cap=None)
                notes.append(await ex.execute(Action("click", {"start_box": _image_point(
                    screen, 150, 205)}), screen))
            state = await page.state()
            # The other direction on the same page: a click on one of the task's buttons ends
            # the episode and redraws the task area.
            button = next(e for e in (await page.probe())["elements"] if e["tag"] == "button")
            screen = await capture(tabs.page, cap=None)
            pressed = await ex.execute(Action("click", {"start_box": _image_point(
                screen, button["x"] + button["w"] / 2, button["y"] + button["h"] / 2)}), screen)
            ended = await page.state()
            await tabs.close()
    assert not state.done
    assert [n.outcome for n in notes] == ["no_change"] * 3, [n.text for n in notes]
    assert ended.done and pressed.outcome == "changed", pressed.text


def test_the_tic_tac_toe_plan_wins_when_it_can_and_blocks_when_it_must() -> None:
    x, o, _ = 1, -1, 0
    assert best_cell((x, x, _,
                      o, o, _,
                      _, _, _)) == 2  # its own line first, though O threatens 5
    assert best_cell((o, _, _,
                      _, o, _,
                      x, _, _)) == 8  # else O completes the diagonal
    # From an empty board it takes a cell worth the most against the page's half-random O:
    # never an edge (corners and the centre both fork more often).
    assert best_cell((_,) * 9) in (0, 2, 4, 6, 8)

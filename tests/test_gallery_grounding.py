"""Issue 33 on the component gallery: a planner that only names targets and a grounder that
places them, as two fake servers over real HTTP, on real components (react-select, MUI
Select, Shoelace's <sl-select> in its shadow root, react-select inside a frame of another
origin). The planner never writes a coordinate; every click lands inside the element it
described (its box measured when the grounder was asked) and the component's own state
holds the choice. The grounder's own key (``--grounder-api-key-env``) reaches its server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Frame, FrameLocator, Page

from gallery_helpers import SMALL, Browsers, View, views
from grounding_helpers import Targets, clicks, grounded_run, inside
from webfovea.browser.local_server import LocalServer
from webfovea.console.options import RunFlags
from webfovea.core.errors import ConfigError


@dataclass(frozen=True)
class Case:
    page: str  # a gallery page's file name, with its query
    targets: Targets  # the planner's descriptions, in order, and the elements they mean
    key: str  # window.galleryState's entry (in the frame for a framed page)
    want: str
    coords: str  # the grounder's convention

    @property
    def id(self) -> str:
        return self.page.replace(".html", "").replace("?page=", "-")


def _framed(page: Page) -> FrameLocator:
    return page.frame_locator("#outer")


def _option(text: str) -> str:
    return f"[id*='-option-']:text-is('{text}')"


CASES = [
    Case("react_select.html", {
        "the 'Choose a country' dropdown": lambda p: p.locator("#single [class*='-control']"),
        "the option 'Croatia'": lambda p: p.locator(_option("Croatia")),
    }, "single", "Croatia", "norm1000"),
    Case("mui_select.html", {
        "the Country select": lambda p: p.locator("#country"),
        "the menu item 'Denmark'": lambda p: p.get_by_role("option", name="Denmark"),
    }, "country", "Denmark", "smart_resize"),
    Case("shoelace_select.html", {  # its combobox inside the component's shadow root
        "the 'Pick a country' select": lambda p: p.locator("#country"),
        "the option 'Bulgaria'": lambda p: p.locator("sl-option", has_text="Bulgaria"),
    }, "country", "Bulgaria", "norm1000"),
    Case("framed.html?page=react_select", {  # in a frame of another origin
        "the 'Choose a country' dropdown in the frame": lambda p: _framed(p).locator(
            "#single [class*='-control']"),
        "the option 'Cyprus' in the frame": lambda p: _framed(p).locator(_option("Cyprus")),
    }, "single", "Cyprus", "smart_resize"),
]


def _component(page: Page) -> Page | Frame:
    """Where the component lives: the framed page's frame, else the page."""
    if "framed.html" not in page.url:
        return page
    return next(f for f in page.frames if f.parent_frame and "/pages/" in f.url)


async def _state(page: Page, key: str) -> object:
    return await _component(page).evaluate("(k) => window.galleryState[k]", key)


async def _ready(page: Page) -> None:
    if "framed.html" in page.url:
        await page.frame_locator("#outer").locator("#stage").wait_for(state="attached")
    await _component(page).wait_for_function("window.galleryState !== undefined")


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_every_named_click_lands_on_the_described_component(
        case: Case, view: View, sized: Browsers, gallery: LocalServer, openai_key: None,
        tmp_path: Path) -> None:
    session = await sized.session(view)
    tabs = await session.new_tabs()
    try:
        await tabs.open(gallery.url(f"/pages/{case.page}"))
        await _ready(tabs.page)
        run = await grounded_run(session, tabs, case.targets, clicks(list(case.targets), case.want),
                                 tmp_path, coords=case.coords, viewport=view.viewport)
        assert await _state(tabs.page, case.key) == case.want
    finally:
        await tabs.close()
    placed = [s for s in run.steps if s.point_forms]
    assert len(placed) == len(case.targets) == len(run.boxes) == len(run.grounder)
    for step, (description, box) in zip(placed, run.boxes, strict=True):
        assert "start_box" not in (step.action or {}) and "start_box" not in step.raw_reply
        assert step.point_forms[0]["given"] == description
        assert step.note.startswith(f"The grounder put '{description}' at ("), step.note
        assert inside(step.page_points[0], box), (description, step.page_points, box)
    # What the planner said, as its last request carries its history: never a coordinate.
    said = [t.text for t in run.planner[-1].turns if t.role == "assistant"]
    assert len(said) == len(case.targets)
    assert not any(re.search(r"\d\s*,\s*\d|start_box|point", t) for t in said), said


async def test_the_grounder_sends_its_own_key(
        sized: Browsers, gallery: LocalServer, openai_key: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROUNDER_TEST_KEY", "grounder-secret")
    case = CASES[0]
    session = await sized.session(SMALL)
    tabs = await session.new_tabs()
    try:
        await tabs.open(gallery.url("/pages/react_select.html"))
        await _ready(tabs.page)
        run = await grounded_run(session, tabs, case.targets, clicks(list(case.targets), "ok"),
                                 tmp_path, coords="norm1000", viewport=SMALL.viewport,
                                 api_key="grounder-secret", key_env="GROUNDER_TEST_KEY")
        assert await _state(tabs.page, case.key) == case.want  # the server took that key
    finally:
        await tabs.close()
    assert [r.headers["authorization"] for r in run.grounder] == ["Bearer grounder-secret"] * 2
    assert run.planner[0].headers["authorization"] == "Bearer test-key"  # the planner's own


async def test_a_grounder_key_gone_at_run_time_is_a_note_naming_the_flag(
        sized: Browsers, gallery: LocalServer, openai_key: None, tmp_path: Path) -> None:
    session = await sized.session(SMALL)
    tabs = await session.new_tabs()
    try:
        await tabs.open(gallery.url("/pages/react_select.html"))
        run = await grounded_run(session, tabs, CASES[0].targets, clicks(["the option 'x'"], "x"),
                                 tmp_path, coords="norm1000", viewport=SMALL.viewport,
                                 key_env="GROUNDER_KEY_NOT_SET")
    finally:
        await tabs.close()
    assert run.grounder == [] and run.steps[0].page_points == []
    assert "--grounder-api-key-env GROUNDER_KEY_NOT_SET: the environment variable" in \
        run.steps[0].note


def test_a_missing_grounder_key_is_an_error_naming_the_flag(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("MY_GROUNDER_KEY", raising=False)
    with pytest.raises(ConfigError, match=r"--grounder-api-key-env MY_GROUNDER_KEY: the "
                                          r"environment variable MY_GROUNDER_KEY is not set"):
        RunFlags(model="oracle", grounder="openai:g", grounder_api_key_env="MY_GROUNDER_KEY",
                 grounder_base_url="http://127.0.0.1:9/v1").options()
    with pytest.raises(ConfigError, match=r"OPENAI_API_KEY is not set.*--grounder-api-key-env "
                                          r"NAME.*--grounder-base-url"):
        RunFlags(model="oracle", grounder="openai:g").options()
    monkeypatch.setenv("MY_GROUNDER_KEY", "k")
    grounder = RunFlags(model="oracle", grounder="openai:g",
                        grounder_api_key_env="MY_GROUNDER_KEY").options().agent.grounder
    assert grounder is not None and grounder.api_key_env == "MY_GROUNDER_KEY"
    # A local server needs no key: its endpoint alone is enough.
    assert RunFlags(model="oracle", grounder="openai:g",
                    grounder_base_url="http://127.0.0.1:9/v1").options().agent.grounder


def test_a_resumed_bench_may_read_the_grounders_key_from_another_variable() -> None:
    from webfovea.bench.runner import resolve_settings

    resumed = resolve_settings({"grounder": "openai:g", "grounder_api_key_env": "OLD_KEY"},
                               given={"grounder_api_key_env": "NEW_KEY"}, defaults={})
    assert resumed["grounder_api_key_env"] == "NEW_KEY"
    with pytest.raises(ConfigError, match="--grounder was 'openai:g'"):  # what is measured
        resolve_settings({"grounder": "openai:g"}, given={"grounder": "openai:h"}, defaults={})

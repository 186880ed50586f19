"""Issue 20 items 4 and 5 on real components: ``select`` on custom dropdowns (react-select
single and multi with portalled menus, MUI Select, Select2, Tom Select, Dash's
dcc.Dropdown) and ``scroll`` inside a short menu list, at 1920x1080 and at 1280x720 with
device scale factor 2.

For each control the four checks: the component's own state holds the choice, the note
says what the control now shows and a click beside it is "no detectable change", the
screenshot after the action shows the end state (pixels), and read_text reads it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gallery_helpers import SMALL, Browsers, View, act, at_rest, differing, shows_end_state, state, views
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import NO_CHANGE
from webfovea.browser.local_server import LocalServer
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps

sys.path.insert(0, str(Path(__file__).parent / "gallery" / "apps"))
from dash_dropdown import serve  # the gallery's Dash app (tests/gallery/apps)

BLANK = (900, 200)  # every gallery page: an empty area right of the component
STATUS = (40, 12, 600, 36)  # the status line the page writes from the component's events
MENU = (40, 125, 330, 300)  # below the controls, where their menus open


@dataclass(frozen=True)
class Case:
    page: str
    point: tuple[int, int]  # on the control, page CSS pixels
    option: str  # as the model writes it
    key: str  # window.galleryState's entry
    want: str  # the component's value afterwards

    @property
    def id(self) -> str:
        return f"{self.page}-{self.key}"


CASES = [
    Case("react_select", (150, 99), "Ireland", "single", "Ireland"),
    Case("react_select", (500, 99), "spain", "multi", "Spain"),  # normalised
    Case("mui_select", (150, 98), "switzerland", "country", "Switzerland"),
    Case("select2", (150, 94), "Quince", "fruit", "Quince"),
    Case("select2", (500, 94), "Green", "colours", "Green"),
    Case("tom_select", (150, 95), "Slovak", "country", "Slovakia"),  # substring
]


def url(gallery: LocalServer, page: str) -> str:
    return gallery.url(f"/pages/{page}.html")


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_select_chooses_in_a_custom_dropdown(case: Case, view: View, sized: Browsers,
                                                   gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, case.page)) as ex:
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "select", case.point, option=case.option)
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)  # the next step's image
        rest = await at_rest(ex)
        assert await state(ex, case.key) == case.want
        read, _ = await act(ex, "read_text", label=case.want)
        again, _ = await act(ex, "select", case.point, option=case.want)
    assert beside.outcome == "no_change" and NO_CHANGE in beside.text, beside.text
    assert note.outcome == "changed", note.text
    assert f"chose '{case.want}'" in note.text, note.text
    shows = note.text.split("the dropdown now shows '", 1)[1]  # Select2's chips read "× Green"
    assert shows.split("'")[0].endswith(case.want), note.text
    assert "scroll" not in note.text  # the menu closed: nothing under the point scrolled
    assert shows_end_state(before, after, rest, STATUS)
    assert differing(after, rest, MENU) < 0.002  # the menu is gone, not fading out
    assert read.outcome == "changed" and case.want in read.text, read.text
    assert again.outcome == "no_change", again.text  # it already shows it: nothing done


@pytest.mark.parametrize("page, point, key", [
    ("react_select", (150, 99), "single"), ("mui_select", (150, 98), "country"),
    ("select2", (150, 94), "fruit"), ("tom_select", (150, 95), "country")])
async def test_a_missing_option_lists_what_the_control_offered(
        page: str, point: tuple[int, int], key: str, sized: Browsers,
        gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, page)) as ex:
        note, _ = await act(ex, "select", point, option="Narnia")
        rest = await at_rest(ex)
        empty = await capture(ex.tabs.page, cap=ex.config.image_cap)
        assert await state(ex, key) == "none"
    assert note.outcome == "error" and "no option matches 'Narnia'" in note.text, note.text
    # What it saw: the open list (or, behind Select2 / Tom Select, the <select>'s options).
    assert "'Austria'" in note.text or "'Apple'" in note.text, note.text
    assert differing(empty, rest, MENU) < 0.002  # closed again, as it was


async def test_select_beside_any_dropdown_is_refused_honestly(sized: Browsers,
                                                              gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "react_select")) as ex:
        note, _ = await act(ex, "select", BLANK, option="Ireland")
    assert note.outcome == "error", note.text
    assert "there is no dropdown (<select>, combobox or list box) at that point" in note.text
    assert "<div#blank>" in note.text


async def test_multi_select_add_keeps_and_replace_says_what_it_could_not_drop(
        sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "react_select")) as ex:
        await act(ex, "select", (500, 99), option="Spain")
        added, _ = await act(ex, "select", (500, 99), option="Malta", mode="add")
        assert await state(ex, "multi") == "Spain, Malta"
        replaced, _ = await act(ex, "select", (500, 99), option="Italy")
        assert await state(ex, "multi") == "Spain, Malta, Italy"  # react-select only adds
    assert "the dropdown now shows 'Spain Malta'" in added.text, added.text
    assert "adds to its choices, so the others it shows stay chosen" in replaced.text, replaced.text


async def test_multi_select_replace_goes_through_the_select_behind_select2(
        sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "select2")) as ex:
        await act(ex, "select", (500, 94), option="Green")
        await act(ex, "select", (500, 94), option="Blue", mode="add")
        assert await state(ex, "colours") == "Green, Blue"
        note, _ = await act(ex, "select", (500, 94), option="Red")
        assert await state(ex, "colours") == "Red"
    assert "set its <select> to 'Red'" in note.text and "its <select> holds 'Red'" in note.text


# --- scroll: a short list box moves by its own size ---------------------------------------


async def _fully_shown(ex: Executor) -> set[str]:
    """The options wholly inside react-select's open menu list."""
    shown: list[str] = await ex.tabs.page.evaluate("""() => {
      const list = document.querySelector("[role=listbox]");
      const box = list.getBoundingClientRect();
      return [...list.querySelectorAll("[role=option]")].filter((o) => {
        const r = o.getBoundingClientRect();
        return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
      }).map((o) => o.textContent);
    }""")
    return set(shown)


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_every_option_of_a_short_menu_is_reachable_both_ways(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "react_select")) as ex:
        await act(ex, "click", (150, 99))  # opens the menu, 300 px tall
        everything: set[str] = set(await ex.tabs.page.evaluate(
            "[...document.querySelectorAll('[role=option]')].map((o) => o.textContent)"))
        down, notes = await _fully_shown(ex), []
        for _ in range(8):
            note, _ = await act(ex, "scroll", (150, 300), direction="down")
            notes.append(note)
            down |= await _fully_shown(ex)
        up = await _fully_shown(ex)
        for _ in range(8):
            note, _ = await act(ex, "scroll", (150, 300), direction="up")
            up |= await _fully_shown(ex)
        height = await ex.tabs.page.evaluate("document.querySelector('[role=listbox]').clientHeight")
        await act(ex, "scroll", (150, 300), direction="down")
        picked, _ = await act(ex, "click", (150, 300))  # an option: the menu closes
        assert await state(ex, "single") != "none"
        assert await ex.tabs.page.evaluate("window.scrollY") == 0  # the page never moved
    assert down == everything and up == everything
    first = notes[0].text
    assert f"the scroll container under the point scrolled (down {round(height * 0.6)} px, " \
           "<div#react-select-2-listbox>" in first, first
    assert any("that scroll container is now at its bottom" in n.text for n in notes)
    assert notes[-1].outcome == "no_change", notes[-1].text  # at its end: nothing moved
    assert picked.outcome == "changed" and "scrolled" not in picked.text, picked.text


# --- Dash: dcc.Dropdown, its choice echoed by a server callback -----------------------------


@pytest.fixture(scope="module")
def dash_app() -> Iterator[str]:
    with serve() as address:
        yield address


async def ready(ex: Executor) -> None:
    """The Dash app has rendered its dropdown and answered its first callback."""
    await ex.tabs.page.wait_for_selector("#country")
    await ex.tabs.page.wait_for_function("document.getElementById('out').textContent !== 'Starting'")


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_select_in_a_dash_dropdown_reaches_its_callback(
        view: View, sized: Browsers, dash_app: str) -> None:
    async with sized.open(view, dash_app) as ex:
        await ready(ex)
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "select", (150, 98), option="ireland")
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        echoed = await ex.tabs.page.inner_text("#out")
        read, _ = await act(ex, "read_text", label="You chose")
        for option in ("Spain", "Ireland"):  # the list opens with the choice in it, scrolled
            await act(ex, "select", (150, 98), option=option)
            assert await ex.tabs.page.inner_text("#out") == f"You chose {option}"
    assert beside.outcome == "no_change", beside.text
    assert note.outcome == "changed" and "the dropdown now shows 'Ireland'" in note.text, note.text
    assert echoed == "You chose Ireland"  # the server's answer was waited for
    assert shows_end_state(before, after, rest, STATUS)
    assert "You chose Ireland" in read.text, read.text


# --- end to end: a model answering in the image's pixels --------------------------------


DASH = Case("dash", (150, 98), "Ireland", "", "Ireland")
ONE_EACH = [CASES[0], CASES[2], CASES[3], CASES[5], DASH]  # react-select, MUI, Select2, Tom, Dash


# The quick sample runs react-select; the others are slow (each component's own checks run
# quick above, through the same executor).
@pytest.mark.parametrize("case", [pytest.param(c, id=c.page, marks=() if i == 0 else pytest.mark.slow)
                                  for i, c in enumerate(ONE_EACH)])
async def test_run_task_selects_through_the_whole_loop(
        case: Case, sized: Browsers, gallery: LocalServer, dash_app: str, openai_key: None,
        tmp_path: Path) -> None:
    scale = 1440 / SMALL.viewport.width  # the image the fake model receives is 1440x810
    x, y = (round(v * scale) for v in case.point)
    replies = [f"Thought: pick it.\nAction: select(start_box='({x},{y})', option='{case.option}')",
               f"Thought: done.\nAction: finished(content='{case.want}')"]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:fake", base_url=fp.base_url)
        entry = dash_app if case is DASH else url(gallery, case.page)
        result = await run_task(Task(f"choose {case.want}", entry), model=model,
                                session=await sized.session(SMALL),
                                config=AgentConfig(max_steps=3), out=tmp_path)
        await model.aclose()
    steps = read_steps(tmp_path)
    assert result.status == "finished", result.error
    assert steps[0].outcome == "changed", steps[0].note
    assert f"the dropdown now shows '{case.want}" in steps[0].note
    assert f"the dropdown now shows '{case.want}" in fp.requests[1].turns[-1].text

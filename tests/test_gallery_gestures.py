"""Issue 20 item 3 and the rest of item 6's gallery on real components: ``drag`` on a
SortableJS list (native HTML5 drag and drop) and a noUiSlider, ``scroll`` in an AG Grid,
and the date picker (flatpickr), virtualised grid (AG Grid), rich-text editor (Quill) and
CSS framework modal and dropdown menu (Bootstrap 5), at 1920x1080 and at 1280x720 with
device scale factor 2.

For each: the component's own state holds the change, the note says so and a no-op
beside it is "no detectable change", the screenshot after the action shows the end state
(pixels), and find_text / read_text are honest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gallery_helpers import (
    LARGE,
    SMALL,
    Browsers,
    View,
    act,
    at_rest,
    differing,
    shows_end_state,
    state,
    views,
)
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

BLANK = (900, 200)
STATUS = (40, 12, 600, 36)
LIST = (40, 70, 300, 200)  # sortable_list.html: four 44 px items, 6 px apart
ITEM_Y = {"Apple": 92, "Banana": 142, "Cherry": 192, "Date": 242}


# The visible height of the first scroll container above a point, as a test reads it.
SCROLLER_HEIGHT = """({ x, y }) => {
  for (let n = document.elementFromPoint(x, y); n; n = n.parentElement) {
    const s = getComputedStyle(n);
    if (n.scrollHeight > n.clientHeight && /(auto|scroll)/.test(s.overflowY)) return n.clientHeight;
  }
  return null;
}"""


def url(gallery: LocalServer, page: str) -> str:
    return gallery.url(f"/pages/{page}.html")


async def _centre(ex: Executor, selector: str) -> tuple[float, float]:
    box = await ex.tabs.page.locator(selector).first.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# --- drag: SortableJS's native drag and drop, noUiSlider ----------------------------------


@pytest.mark.parametrize("view", views(quick=LARGE))
@pytest.mark.parametrize("item, to, order, place", [
    ("Date", "Apple", ["Date", "Apple", "Banana", "Cherry"], "'Date' is now item 1 of 4 (before 'Apple')"),
    ("Apple", "Cherry", ["Banana", "Cherry", "Apple", "Date"], "'Apple' is now item 3 of 4"),
], ids=["up", "down"])
async def test_drag_puts_a_sortable_item_where_the_model_pointed(
        item: str, to: str, order: list[str], place: str, view: View, sized: Browsers,
        gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "sortable_list")) as ex:
        beside, _ = await act(ex, "drag", (850, 150), (1000, 250))  # across the empty area
        note, before = await act(ex, "drag", (150, ITEM_Y[item]), (150, ITEM_Y[to]))
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        assert await state(ex, "order") == order
        read, _ = await act(ex, "read_text", label="Order:")
    assert beside.outcome == "no_change" and NO_CHANGE in beside.text, beside.text
    assert note.outcome == "changed" and place in note.text, note.text
    assert shows_end_state(before, after, rest, LIST)  # the item has landed, not mid-slide
    assert ", ".join(order) in read.text, read.text


async def _handle(ex: Executor) -> tuple[float, float]:
    return await _centre(ex, ".noUi-handle")


async def _slider_x(ex: Executor, value: float) -> float:
    box = await ex.tabs.page.locator("#slider").bounding_box()
    assert box is not None
    return box["x"] + box["width"] * value / 100


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_drag_moves_a_slider_to_the_value_pointed_at(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "nouislider")) as ex:
        beside, _ = await act(ex, "click", BLANK)
        x, y = await _handle(ex)
        note, before = await act(ex, "drag", (x, y), (await _slider_x(ex, 80), y))
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        value = await state(ex, "value")
        library: Any = await ex.tabs.page.evaluate("Number(window.gallerySlider.get())")
        x, y = await _handle(ex)
        same, _ = await act(ex, "drag", (x, y), (x, y + 30))  # straight down: the value holds
    assert beside.outcome == "no_change", beside.text
    assert abs(value - 80) <= 1 and abs(library - 80) <= 1
    assert note.outcome == "changed" and "the slider now reads 80" in note.text, note.text
    assert "(was 20" in note.text
    assert shows_end_state(before, after, rest, (40, 110, 560, 50))
    assert "the slider still reads" in same.text, same.text


# --- AG Grid: sort by a header click, virtualised rows, cells ------------------------------


@pytest.mark.parametrize("view", views(quick=LARGE))
async def test_ag_grid_sorts_scrolls_and_is_read_honestly(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "ag_grid")) as ex:
        await ex.tabs.page.wait_for_selector(".ag-row")
        beside, _ = await act(ex, "click", BLANK)
        hidden, _ = await act(ex, "find_text", text="Row 1500")  # not rendered: virtualised
        header = await _centre(ex, ".ag-header-cell[col-id=score]")
        sort, before = await act(ex, "click", header)
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        sorted_by = await state(ex, "sorted")
        cell, _ = await act(ex, "read_text", label="Row 1001")  # score 0 sorts next to Row 0001
        height = await ex.tabs.page.evaluate(SCROLLER_HEIGHT, {"x": 300, "y": 300})
        scrolled, _ = await act(ex, "scroll", (300, 300), direction="down")
    assert beside.outcome == "no_change", beside.text
    assert hidden.outcome == "no_change" and "found no match for 'Row 1500'" in hidden.text
    assert sorted_by == "score asc"
    assert sort.outcome == "changed", sort.text
    assert shows_end_state(before, after, rest, (40, 120, 600, 300))
    assert "Row 1001 Oslo 0" in cell.text, cell.text
    assert scrolled.outcome == "changed", scrolled.text
    assert f"the scroll container under the point scrolled (down {round(height * 0.6)} px" in scrolled.text


# --- Quill and flatpickr: fill reads back what the component holds ------------------------


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_fill_in_quill_reads_back_the_editor(view: View, sized: Browsers,
                                                   gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "quill_editor")) as ex:
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "fill", (300, 200), content="Hello gallery world")
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        held = await state(ex, "text")
        found, _ = await act(ex, "find_text", text="gallery world")
    assert beside.outcome == "no_change", beside.text
    assert held == "Hello gallery world"
    assert note.outcome == "changed" and "the field now holds 'Hello gallery world'" in note.text
    assert shows_end_state(before, after, rest, (40, 112, 600, 60))
    assert found.outcome == "changed" and "match 1 of 1" in found.text, found.text


@pytest.mark.parametrize("view", views(quick=LARGE))
async def test_fill_in_flatpickr_sets_the_date(view: View, sized: Browsers,
                                               gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "flatpickr_date")) as ex:
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "fill", (150, 90), content="2024-03-15\n")
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        date = await state(ex, "date")
        picked = await ex.tabs.page.evaluate("window.galleryPicker.selectedDates[0].getDate()")
    assert beside.outcome == "no_change", beside.text
    assert date == "2024-03-15" and picked == 15
    assert note.outcome == "changed" and "the field now holds '2024-03-15'" in note.text, note.text
    assert shows_end_state(before, after, rest, STATUS)


# --- Bootstrap 5: a fading modal and a dropdown menu ---------------------------------------


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_bootstrap_modal_and_dropdown_menu(view: View, sized: Browsers,
                                                 gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "bootstrap_modal")) as ex:
        beside, _ = await act(ex, "click", BLANK)
        opened, before = await act(ex, "click", await _centre(ex, "#open"))
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        asked = await state(ex, "last")
        read, _ = await act(ex, "read_text", label="Really delete?")
        await act(ex, "click", await _centre(ex, "#cancel"))
        menu, _ = await act(ex, "click", await _centre(ex, "#menu"))
        chose, _ = await act(ex, "click", await _centre(ex, "[data-choice=Excel]"))
        last = await state(ex, "last")
    assert beside.outcome == "no_change", beside.text
    assert asked == "asked" and opened.outcome == "changed" and "Really delete" in opened.text
    # The modal has faded all the way in on the step's screenshot, backdrop included.
    assert shows_end_state(before, after, rest, (0, 0, 1280, 720))
    assert differing(after, rest, (0, 0, 1280, 720)) < 0.002
    assert "This removes the account for good" in read.text, read.text
    assert menu.outcome == "changed" and "Excel" in menu.text, menu.text
    assert last == "export Excel" and chose.outcome == "changed", chose.text


# --- end to end: a model answering in the image's pixels --------------------------------


E2E = [
    ("sortable_list", "drag", ((150, 242), (150, 92)), {}, "'Date' is now item 1 of 4"),
    ("nouislider", "drag", ((160, 139), (460, 139)), {}, "the slider now reads"),
    ("quill_editor", "fill", ((300, 200),), {"content": "Hi"}, "the field now holds 'Hi'"),
    ("flatpickr_date", "fill", ((150, 90),), {"content": "2024-03-15"}, "'2024-03-15'"),
    ("ag_grid", "click", ((540, 95),), {}, "took effect"),
    ("bootstrap_modal", "click", ((113, 89),), {}, "Really delete"),
]


# The quick sample runs SortableJS; the others are slow (each component's own checks run
# quick above, through the same executor).
@pytest.mark.parametrize("page, name, points, args, expect", [
    pytest.param(*e, id=e[0], marks=() if i == 0 else pytest.mark.slow) for i, e in enumerate(E2E)])
async def test_run_task_drives_each_component_through_the_whole_loop(
        page: str, name: str, points: tuple[tuple[int, int], ...], args: dict[str, str],
        expect: str, sized: Browsers, gallery: LocalServer, openai_key: None,
        tmp_path: Path) -> None:
    scale = 1440 / LARGE.viewport.width  # the 1440x810 image the fake model receives
    boxes = [f"{key}='({round(x * scale)},{round(y * scale)})'"
             for key, (x, y) in zip(("start_box", "end_box"), points, strict=False)]
    extra = [f"{k}='{v}'" for k, v in args.items()]
    replies = [f"Thought: act.\nAction: {name}({', '.join(boxes + extra)})",
               "Thought: done.\nAction: finished(content='done')"]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:fake", base_url=fp.base_url)
        result = await run_task(Task(f"use the {page}", url(gallery, page)), model=model,
                                session=await sized.session(LARGE),
                                config=AgentConfig(max_steps=3), out=tmp_path)
        await model.aclose()
    steps = read_steps(tmp_path)
    assert result.status == "finished", result.error
    assert steps[0].outcome == "changed" and expect in steps[0].note, steps[0].note
    assert expect in fp.requests[1].turns[-1].text

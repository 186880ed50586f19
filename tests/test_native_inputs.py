"""Issue 10 item 6: native date/time fields and multi-selects, wherever the model points."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from conftest import Opener
from webfovea.actions.native_values import NotAValue, to_input_value
from webfovea.actions.registry import Action, Point
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import Note
from webfovea.browser.local_server import LocalServer
from webfovea.dialects.text.parse import parse_reply


@pytest_asyncio.fixture(loop_scope="session")
async def widgets(opened: Opener, pages: LocalServer) -> AsyncIterator[Executor]:
    async with opened(pages.url("native/widgets.html")) as ex:
        yield ex


async def point_in(ex: Executor, element_id: str, fraction: float) -> tuple[float, float]:
    """A page point inside the element, ``fraction`` of its width from the left edge."""
    box = await ex.tabs.page.evaluate(
        "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; }", element_id)
    return box[0] + box[2] * fraction, box[1] + box[3] / 2


async def act(ex: Executor, reply_action: str, element_id: str, fraction: float = 0.5) -> Note:
    """Parse ``reply_action`` with its point replaced by one on the element, in image pixels."""
    screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
    x, y = await point_in(ex, element_id, fraction)
    scale = screen.sent.width / screen.page.width
    point = f"({x * scale:.1f},{y * scale:.1f})"
    action = parse_reply(f"Action: {reply_action.replace('(x,y)', point)}").action
    return await ex.execute(action, screen)


async def value(ex: Executor, element_id: str) -> str:
    return str(await ex.tabs.page.evaluate("(id) => document.getElementById(id).value", element_id))


@pytest.mark.parametrize("fraction", [0.1, 0.3, 0.5, 0.9])
@pytest.mark.parametrize("typed", ["04/11/2011", "2011-04-11", "April 11, 2011"])
async def test_a_date_field_takes_the_date_wherever_the_point_lands(
        widgets: Executor, typed: str, fraction: float) -> None:
    note = await act(widgets, f"fill(start_box='(x,y)', content='{typed}')", "date", fraction)
    assert await value(widgets, "date") == "2011-04-11"
    assert note.outcome == "changed", note.text
    assert "the date field now holds '2011-04-11'" in note.text
    assert "date=2011-04-11" in await widgets.tabs.page.inner_text("#summary")  # `change` fired


@pytest.mark.parametrize(("element_id", "typed", "stored"), [
    ("time", "7:09 AM", "07:09"), ("time", "19:09", "19:09"), ("time", "7:09pm", "19:09"),
    ("dt", "04/11/2011 7:09 PM", "2011-04-11T19:09"), ("dt", "2011-04-11T07:09", "2011-04-11T07:09"),
    ("month", "April 2011", "2011-04"), ("month", "2011-04", "2011-04"),
    ("week", "2011-W15", "2011-W15"), ("week", "week 15, 2011", "2011-W15"),
])
async def test_time_month_week_fields_take_common_formats(
        widgets: Executor, element_id: str, typed: str, stored: str) -> None:
    note = await act(widgets, f"fill(start_box='(x,y)', content='{typed}')", element_id, 0.7)
    assert await value(widgets, element_id) == stored
    assert f"now holds '{stored}'" in note.text and note.outcome == "changed", note.text


async def test_an_unreadable_date_fails_and_leaves_the_field_as_it_was(widgets: Executor) -> None:
    await act(widgets, "fill(start_box='(x,y)', content='2012-01-02')", "date")
    note = await act(widgets, "fill(start_box='(x,y)', content='next Tuesday')", "date")
    assert note.outcome == "error"
    assert "'next Tuesday' is not a date" in note.text and "'2012-01-02'" in note.text, note.text
    assert await value(widgets, "date") == "2012-01-02"


async def test_a_multi_select_adds_with_add_and_replaces_by_default(widgets: Executor) -> None:
    first = await act(widgets, "select(start_box='(x,y)', option='Olives')", "toppings")
    added = await act(widgets, "select(start_box='(x,y)', option='basil', mode='add')", "toppings")
    assert added.outcome == "changed", added.text
    assert "now selected: 'Olives', 'Basil'" in added.text
    assert "toppings=Olives+Basil" in await widgets.tabs.page.inner_text("#summary")
    replaced = await act(widgets, "select(start_box='(x,y)', option='Onions')", "toppings")
    assert "now selected: 'Onions'" in replaced.text
    assert "no longer selected: 'Olives', 'Basil'" in replaced.text, replaced.text
    assert first.outcome == "changed"


async def test_selecting_what_is_already_selected_is_no_change(widgets: Executor) -> None:
    await act(widgets, "select(start_box='(x,y)', option='Large')", "size")
    again = await act(widgets, "select(start_box='(x,y)', option='Large')", "size")
    assert again.outcome == "no_change", again.text
    assert "already selected" in again.text


async def test_add_on_a_single_dropdown_says_it_replaced(widgets: Executor) -> None:
    await act(widgets, "select(start_box='(x,y)', option='Small')", "size")
    note = await act(widgets, "select(start_box='(x,y)', option='Medium', mode='add')", "size")
    assert await value(widgets, "size") == "Medium"
    assert "holds one option at a time" in note.text, note.text


def test_select_mode_is_optional_checked_and_omitted_from_the_canonical_source() -> None:
    plain = parse_reply("Action: select(start_box='(1,2)', option='A')").action
    assert plain == Action("select", {"start_box": Point(1, 2), "option": "A", "mode": "replace"})
    assert plain.source() == "select(start_box='(1,2)', option='A')"
    added = parse_reply("Action: select(start_box='(1,2)', option='A', mode='ADD')").action
    assert added.source() == "select(start_box='(1,2)', option='A', mode='add')"
    with pytest.raises(Exception, match="`mode` must be 'replace' or 'add'"):
        parse_reply("Action: select(start_box='(1,2)', option='A', mode='toggle')")


def test_values_that_are_not_dates_are_refused() -> None:
    for kind, text in [("date", "13/13/2011"), ("time", "25:00"), ("week", "2011-W60"),
                       ("month", "sometime")]:
        with pytest.raises(NotAValue):
            to_input_value(kind, text)

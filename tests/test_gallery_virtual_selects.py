"""Issue 31 item 2 on real components: ``select`` in Ant Design's virtualised Select (only the
rows in view exist; its role=listbox is a 0x0 accessibility mirror of three options) and in
Radix UI's pointer-driven Select (portalled, item-aligned, chosen on pointerup, a list that
grows as it is scrolled), over 228 countries, at 1280x720 with device scale factor 2 and at
1920x1080 (slow).

The four checks each: the component's own state holds the choice, the note says what the
control now shows (and a click beside it is "no detectable change", asking again for what it
shows does nothing), the screenshot after the action shows the end state, read_text reads it;
a missing option is refused with the rows a user saw, never the mirror's.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gallery_helpers import SMALL, Browsers, View, act, at_rest, differing, shows_end_state, state, views
from webfovea.browser.capture import capture
from webfovea.browser.feedback import NO_CHANGE
from webfovea.browser.local_server import LocalServer

BLANK = (900, 200)  # every gallery page: an empty area right of the component
STATUS = (40, 12, 600, 36)  # the status line the page writes from the component's events
CONTROL = (150, 100)  # the select's box on both pages, page CSS pixels
MENU = (40, 125, 330, 300)  # below the control, where antd's list opens


@dataclass(frozen=True)
class Case:
    page: str
    far: str  # an option far down the list: not in the first rows shown
    back: str  # then one far up, from a list that opens at the first choice (Radix: it
    # grows as it is scrolled and so moved the option away from the first scroll to it)


CASES = [Case("antd_select", "Zimbabwe", "Portugal"),
         Case("radix_select", "Zimbabwe", "Portugal")]


def url(gallery: LocalServer, page: str) -> str:
    return gallery.url(f"/pages/{page}.html")


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("case", CASES, ids=[c.page for c in CASES])
async def test_select_reaches_an_option_out_of_view(case: Case, view: View, sized: Browsers,
                                                    gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, case.page)) as ex:
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "select", CONTROL, option=case.far)
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)  # the next step's image
        rest = await at_rest(ex)
        assert await state(ex, "country") == case.far
        read, _ = await act(ex, "read_text", label=f"Country: {case.far}")
        again, _ = await act(ex, "select", CONTROL, option=case.far)
        back, _ = await act(ex, "select", CONTROL, option=case.back.lower())
        assert await state(ex, "country") == case.back
    assert beside.outcome == "no_change" and NO_CHANGE in beside.text, beside.text
    assert note.outcome == "changed", note.text
    assert f"chose '{case.far}' (exact match) in its open list" in note.text, note.text
    assert f"the dropdown now shows '{case.far}'" in note.text, note.text
    assert shows_end_state(before, after, rest, STATUS)
    assert read.outcome == "changed" and f"Country: {case.far}" in read.text, read.text
    assert again.outcome == "no_change" and "already shows" in again.text, again.text
    assert back.outcome == "changed", back.text
    assert f"the dropdown now shows '{case.back}'" in back.text, back.text


async def test_a_missing_option_in_a_virtual_list_lists_the_rows_in_view(
        sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "antd_select")) as ex:
        shut = await capture(ex.tabs.page, cap=ex.config.image_cap)
        note, _ = await act(ex, "select", CONTROL, option="Narnia")
        rest = await at_rest(ex)
        assert await state(ex, "country") == "none"
    assert note.outcome == "error" and "no option matches 'Narnia'" in note.text, note.text
    # The rows a user saw, as the list shows them: not the mirror's lower-case values.
    assert "the open list showed: 'Afghanistan'; 'Albania'; 'Algeria'" in note.text, note.text
    assert "'afghanistan'" not in note.text and "'Zimbabwe'" not in note.text, note.text
    assert "none of the 228 rows it scrolls through matches" in note.text, note.text
    assert differing(shut, rest, MENU) < 0.002  # closed again, as it was


SEARCH = (480, 100)  # antd's Select with showSearch, beside the plain one


async def test_a_virtual_list_with_a_search_field_is_filtered_by_typing(
        sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "antd_select")) as ex:
        note, before = await act(ex, "select", SEARCH, option="Zimbabwe")
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        assert await state(ex, "search") == "Zimbabwe"
        missing, _ = await act(ex, "select", SEARCH, option="Narnia")
        assert await state(ex, "search") == "Zimbabwe"
    assert note.outcome == "changed", note.text
    assert "chose 'Zimbabwe' (exact match) in its open list, filtered by typing 'Zimbabwe'" \
        in note.text, note.text
    assert "the dropdown now shows 'Zimbabwe'" in note.text, note.text
    assert shows_end_state(before, after, rest, STATUS)
    assert missing.outcome == "error" and "no option matches 'Narnia'" in missing.text, missing.text
    # It opens at the choice: the rows around Zimbabwe, then none once 'Narnia' is typed.
    assert "'Zambia'; 'Zimbabwe', and once 'Narnia' was typed into its search field: no options" \
        in missing.text, missing.text


async def test_a_missing_option_in_radix_select_is_refused(sized: Browsers,
                                                          gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "radix_select")) as ex:
        note, _ = await act(ex, "select", CONTROL, option="Narnia")
        open_after = await ex.tabs.page.evaluate("document.querySelectorAll('[role=listbox]').length")
        assert await state(ex, "country") == "none"
    assert note.outcome == "error" and "no option matches 'Narnia'" in note.text, note.text
    assert "'Afghanistan'" in note.text, note.text
    assert open_after == 0  # Escape closed it

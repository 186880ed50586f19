"""Issue 31 item 1 on real web components: two libraries whose controls live in open shadow
roots (Shoelace's <sl-select>, <sl-tooltip> and <sl-input>; Material Web's Lit-based
<md-outlined-select>), at 1920x1080 and at 1280x720 with device scale factor 2.

For each select the four checks: the component's own state holds the choice, the note says
what the control now shows (and a click beside it is "no detectable change"), the
screenshot after the action shows the end state, and read_text reads it. find_text counts a
tooltip's words rendered inside a shadow root's <slot>, match i of n across the page's roots
and a frame's declarative shadow root; fill reads back a field inside a shadow root.
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
MENU = (40, 135, 330, 300)  # below the controls, where their menus open


@dataclass(frozen=True)
class Case:
    page: str
    point: tuple[int, int]  # on the control, page CSS pixels
    option: str  # as the model writes it
    want: str  # the component's value afterwards


CASES = [
    Case("shoelace_select", (150, 100), "Ireland", "Ireland"),
    Case("material_select", (150, 108), "portugal", "Portugal"),  # normalised, far down
]


def url(gallery: LocalServer, page: str) -> str:
    return gallery.url(f"/pages/{page}.html")


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("case", CASES, ids=[c.page for c in CASES])
async def test_select_reaches_a_listbox_inside_a_shadow_root(case: Case, view: View, sized: Browsers,
                                                             gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, case.page)) as ex:
        await ex.tabs.page.wait_for_function("window.galleryState !== undefined")
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "select", case.point, option=case.option)
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        assert await state(ex, "country") == case.want
        read, _ = await act(ex, "read_text", label=case.want)
        again, _ = await act(ex, "select", case.point, option=case.want)
    assert beside.outcome == "no_change" and NO_CHANGE in beside.text, beside.text
    assert note.outcome == "changed", note.text
    assert f"chose '{case.want}'" in note.text, note.text
    shows = note.text.split("the dropdown now shows '", 1)[1].split("'")[0]
    assert shows.endswith(case.want), note.text  # Material's box also shows its label
    assert "its list is still open" not in note.text
    assert shows_end_state(before, after, rest, STATUS)
    assert differing(after, rest, MENU) < 0.002  # the menu is gone, not fading out
    assert read.outcome == "changed" and case.want in read.text and "visible" in read.text, read.text
    assert again.outcome == "no_change", again.text  # it already shows it: nothing done


@pytest.mark.parametrize("case", CASES, ids=[c.page for c in CASES])
async def test_a_missing_option_lists_the_options_inside_the_shadow_root(
        case: Case, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, case.page)) as ex:
        await ex.tabs.page.wait_for_function("window.galleryState !== undefined")
        note, _ = await act(ex, "select", case.point, option="Narnia")
        assert await state(ex, "country") == "none"
    assert note.outcome == "error" and "no option matches 'Narnia'" in note.text, note.text
    assert "'Austria'; 'Belgium'" in note.text, note.text


async def test_select_beside_the_web_component_is_refused(sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(SMALL, url(gallery, "shoelace_select")) as ex:
        note, _ = await act(ex, "select", BLANK, option="Ireland")
    assert note.outcome == "error" and "there is no dropdown" in note.text, note.text


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_find_text_counts_words_inside_shadow_roots_and_frames(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "shoelace_select")) as ex:
        await ex.tabs.page.wait_for_function("window.galleryState !== undefined")
        first, _ = await act(ex, "find_text", text="three working days")
        selected = await ex.tabs.page.evaluate("""() => {
          const [r] = document.getSelection().getComposedRanges(
            { shadowRoots: [document.getElementById("tip").shadowRoot] });
          return r.startContainer.nodeValue.slice(r.startOffset, r.endOffset);
        }""")  # the selection is inside the tooltip's shadow root
        second, _ = await act(ex, "find_text", text="three working days")
        missing, _ = await act(ex, "find_text", text="four working days")
        read, _ = await act(ex, "read_text", label="Ships within")
    assert "match 1 of 2, now scrolled" in first.text, first.text  # the tooltip's <slot>
    assert selected.lower() == "three working days"
    assert "match 2 of 2 inside the frame" in second.text, second.text
    assert missing.outcome == "no_change" and "found no match" in missing.text, missing.text
    assert "three working days" in read.text and "visible" in read.text, read.text


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_fill_reads_back_a_field_inside_a_shadow_root(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, url(gallery, "shoelace_select")) as ex:
        await ex.tabs.page.wait_for_function("window.galleryState !== undefined")
        note, _ = await act(ex, "fill", (150, 470), content="Oslo")
        assert await state(ex, "city") == "Oslo"
        same, _ = await act(ex, "fill", (150, 470), content="Oslo")
        read, _ = await act(ex, "read_text", label="Oslo")
    assert note.outcome == "changed" and "the field now holds 'Oslo'" in note.text, note.text
    assert same.outcome == "no_change" and "the field now holds 'Oslo'" in same.text, same.text
    assert read.outcome == "changed" and "exact and visible" in read.text, read.text

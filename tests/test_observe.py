"""Issue 3, observation stage: find_text and read_text reach what the screenshot hides.

Real headless Chromium through the real executor; the frame comes from a second origin
(``localhost``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Frame

from conftest import Opener
from webfovea.actions.registry import Action
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import Note
from webfovea.browser.local_server import LocalServer
from webfovea.browser.observe import READ_LIMIT

PAGES = Path(__file__).parent / "pages"




async def act(ex: Executor, name: str, **args: str) -> Note:
    screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
    return await ex.execute(Action(name, dict(args)), screen)


IN_VIEW = """(id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight;
}"""


async def _in_view(frame: Frame, element_id: str) -> bool:
    shown: bool = await frame.evaluate(IN_VIEW, element_id)
    return shown


def _long_url(pages: LocalServer, other: LocalServer) -> str:
    return pages.url(f"feedback/long.html?other=http://localhost:{other.port}")


async def test_find_text_reaches_6000_px_down_and_inside_a_frame_cycling(
        opened: Opener, pages: LocalServer, other: LocalServer) -> None:
    async with opened(_long_url(pages, other)) as ex:
        page = ex.tabs.page
        inner = page.frames[1]
        assert not await _in_view(page.main_frame, "deep")
        first = await act(ex, "find_text", text="ZX-4471")
        deep_shown = await _in_view(page.main_frame, "deep")
        second = await act(ex, "find_text", text="ZX-4471")  # the frame's match (lower case)
        frame_shown = await _in_view(inner, "far") and await _in_view(page.main_frame, "inner")
        third = await act(ex, "find_text", text="ZX-4471")
        deep_again = await _in_view(page.main_frame, "deep")
    assert first.outcome == "changed" and "match 1 of 2" in first.text, first.text
    assert deep_shown
    assert "match 2 of 2 inside the frame http://localhost" in second.text, second.text
    assert frame_shown
    assert "match 1 of 2" in third.text and deep_again  # cycles back
    for note in (first, second, third):  # it answers where, never what the page says
        assert "pilot" not in note.text.lower() and "appendix" not in note.text.lower()


async def test_find_text_not_found_is_no_change(opened: Opener, pages: LocalServer,
                                                other: LocalServer) -> None:
    async with opened(_long_url(pages, other)) as ex:
        note = await act(ex, "find_text", text="quarterly dividend")
        scrolled = await ex.tabs.page.evaluate("scrollY")
    assert note.outcome == "no_change" and "found no match for 'quarterly dividend'" in note.text
    assert scrolled == 0 and note.details == {"found": False, "total": 0}


def _quoted(note: Note) -> str:
    m = re.search(r': "(.*)"\.$', note.text, re.S)
    assert m, note.text
    return m.group(1)


async def test_read_text_returns_hidden_dom_text_capped_with_glyphs_counted(
        opened: Opener, pages: LocalServer) -> None:
    async with opened(pages.url("feedback/read.html")) as ex:
        note = await act(ex, "read_text", label="Account code")
    text = _quoted(note)
    assert note.outcome == "changed", note.text
    assert "AC-9931 ? ? balance 4,210.55 ?" in text  # in the DOM, display:none
    assert len(text) <= READ_LIMIT and note.details["chars"] == len(text)
    assert "2 matches, the best is exact and visible" in note.text  # exact beats partial
    assert "3 character(s) drawn by an icon font are shown as ?" in note.text
    assert "\uf155" not in note.text and "search" not in text
    details: dict[str, Any] = note.details
    assert details["glyphs"] == 3 and details["level"] == "exact"


async def test_read_text_searches_child_frames(opened: Opener, pages: LocalServer,
                                               other: LocalServer) -> None:
    async with opened(_long_url(pages, other)) as ex:
        note = await act(ex, "read_text", label="backup pilot code")
    assert note.outcome == "changed", note.text
    assert "in the frame http://localhost" in note.text and "zx-4471" in _quoted(note)


async def test_read_text_without_a_match_says_so(opened: Opener,
                                                 pages: LocalServer) -> None:
    async with opened(pages.url("feedback/read.html")) as ex:
        note = await act(ex, "read_text", label="Routing number")
    assert note.outcome == "no_change"
    assert "found no text matching 'Routing number'" in note.text

"""Issue 31 item 5 on a real iframe-based rich-text editor (TinyMCE 8, classic mode: the
editing area is an iframe), on its own page and inside a frame of another origin
(localhost against 127.0.0.1), at 1920x1080 and at 1280x720 with device scale factor 2:
every `type` into it is seen as a change inside the editing frame, typing with nothing
focused is "no detectable change", the screenshot after shows the end state, and
find_text/read_text reach the words inside the frames.
"""

from __future__ import annotations

import pytest

from gallery_helpers import SMALL, Browsers, View, act, at_rest, shows_end_state, views
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import NO_CHANGE
from webfovea.browser.local_server import LocalServer

LINE = (400, 142)  # right of the editor's first line: the caret goes to its end
BLANK = (900, 200)
EDITOR = (60, 130, 560, 60)  # the editing area's first lines (left, top, width, height)
PAGES = ["tinymce_editor", "tinymce_framed"]
WORDS = [" at noon", " sharp", " in room 4"]


async def text(ex: Executor) -> str:
    """The editor's content as its own change events recorded it, in whichever frame."""
    for frame in ex.tabs.page.frames:
        if frame.url.endswith("/pages/tinymce_editor.html"):
            held: str = await frame.evaluate("window.galleryState.text")
            return held
    raise AssertionError("no editor frame")


async def ready(ex: Executor) -> None:
    for frame in ex.tabs.page.frames:
        if frame.url.endswith("/pages/tinymce_editor.html"):
            await frame.wait_for_function("window.galleryState && window.galleryState.ready")
            return
    await ex.tabs.page.wait_for_timeout(200)
    await ready(ex)


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("page", PAGES)
async def test_typing_in_an_iframe_editor_is_always_seen(page: str, view: View, sized: Browsers,
                                                        gallery: LocalServer) -> None:
    async with sized.open(view, gallery.url(f"/pages/{page}.html")) as ex:
        await ready(ex)
        await act(ex, "click", BLANK)
        idle, _ = await act(ex, "type", content="zzz")  # nothing focused: nowhere to type
        assert await text(ex) == "Meeting on Friday"
        await act(ex, "click", LINE)
        notes = []
        for words in WORDS:
            note, before = await act(ex, "type", content=words)
            notes.append(note)
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        assert await text(ex) == "Meeting on Friday at noon sharp in room 4"
        found, _ = await act(ex, "find_text", text="sharp in room")
        read, _ = await act(ex, "read_text", label="sharp in room")
    assert idle.outcome == "no_change" and NO_CHANGE in idle.text, idle.text
    for note in notes:
        assert note.outcome == "changed", [n.text for n in notes]
        assert "the content inside the frame about:srcdoc changed" in note.text, note.text
    assert shows_end_state(before, after, rest, EDITOR)
    assert "match 1 of 1 inside the frame" in found.text, found.text
    assert "at noon sharp in room 4" in read.text, read.text

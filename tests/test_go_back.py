"""go_back() never strands the agent on the tab's initial blank page."""

from __future__ import annotations

from conftest import Opener
from webfovea.actions.registry import Action
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import Note
from webfovea.browser.local_server import LocalServer


async def _back(ex: Executor) -> Note:
    screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
    return await ex.execute(Action("go_back"), screen)


async def test_go_back_on_the_entry_page_is_refused(opened: Opener, pages: LocalServer) -> None:
    entry = pages.url("roundtrip/form.html")
    async with opened(entry) as ex:
        await ex.tabs.page.fill("#search", "kept")
        note = await _back(ex)
        assert note.outcome == "error" and "nothing to go back to" in note.text, note.text
        assert "left as it was" in note.text
        assert ex.tabs.page.url == entry  # not about:blank
        assert await ex.tabs.page.input_value("#search") == "kept"  # the page itself stayed


async def test_go_back_after_a_navigation_goes_back(opened: Opener, pages: LocalServer) -> None:
    entry = pages.url("roundtrip/form.html")
    async with opened(entry) as ex:
        await ex.tabs.page.goto(pages.url("roundtrip/results.html?q=x"))
        note = await _back(ex)
        assert note.outcome != "error", note.text
        assert ex.tabs.page.url == entry
        note = await _back(ex)  # and now it is the entry page again
        assert note.outcome == "error" and ex.tabs.page.url == entry

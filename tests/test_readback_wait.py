"""Issue 31 item 3: a read-back waits until the control stops changing. The dropdown of
tests/pages/settle/late_dropdown.html shows "Saving…" at once and the choice 150–300 ms
later, when a worker answers: the page has settled by then (nothing the action started is
in flight in the page), so a read-back that did not wait would report "Saving…"."""

from __future__ import annotations

from conftest import Opener
from webfovea.actions.registry import Action, Point
from webfovea.browser.capture import capture
from webfovea.browser.local_server import LocalServer

CITY = (150, 37)  # the dropdown's box, page CSS pixels


async def test_select_reads_the_dropdown_back_once_it_shows_the_late_choice(
        opened: Opener, pages: LocalServer) -> None:
    async with opened(pages.url("settle/late_dropdown.html")) as ex:
        notes = []
        for city in ("Oslo", "Prague"):
            screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
            scale = screen.sent.width / screen.page.width
            point = Point(CITY[0] * scale, CITY[1] * scale)
            notes.append(await ex.execute(Action("select", {"start_box": point, "option": city}),
                                          screen))
        saved = await ex.tabs.page.inner_text("#saved")
    for note, city in zip(notes, ("Oslo", "Prague"), strict=True):
        assert note.outcome == "changed", note.text
        assert f"chose '{city}'" in note.text, note.text
        assert f"the dropdown now shows '{city}'" in note.text, note.text  # never "Saving…"
    assert saved == "Saved: Prague"

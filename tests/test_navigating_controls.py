"""Controls whose change loads another page (issue 31): a jump menu's
``<select onchange="location=...">`` and a search field that submits its form as it is
typed into. The choice took effect and the page navigated, and the note says so (never
"could not be performed: Execution context was destroyed"); beside them, a <select> whose
change stays on the page is read back as before."""

from __future__ import annotations

from conftest import Opener
from webfovea.actions.registry import Action, Point
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor, safe_execute
from webfovea.browser.feedback import Note
from webfovea.browser.local_server import LocalServer


async def act(ex: Executor, name: str, element_id: str, **args: str) -> Note:
    """``name`` at the middle of the element, as the loop runs it (a page failure of the
    action would be its note)."""
    screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
    box = await ex.tabs.page.evaluate(
        "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; }", element_id)
    scale = screen.sent.width / screen.page.width
    action = Action(name, {**args, "start_box": Point(box[0] * scale, box[1] * scale)})
    return await safe_execute(ex, action, screen)


async def landed(ex: Executor) -> str:
    await ex.tabs.page.wait_for_function("document.getElementById('where')")
    return await ex.tabs.page.inner_text("#where")


async def test_a_jump_menu_choice_took_effect_and_the_page_navigated(
        opened: Opener, pages: LocalServer) -> None:
    async with opened(pages.url("native/navigating.html")) as ex:
        note = await act(ex, "select", "jump", option="Sport")
        where = await landed(ex)
    assert where == "Landed: to=sport"
    assert note.outcome == "changed", note.text
    assert "could not be performed" not in note.text, note.text
    assert "the page navigated to" in note.text and "landed.html" in note.text, note.text
    assert "selected 'Sport' (exact match); its change loaded another page" in note.text, note.text


async def test_a_field_that_submits_as_it_is_typed_into_navigated(
        opened: Opener, pages: LocalServer) -> None:
    async with opened(pages.url("native/navigating.html")) as ex:
        note = await act(ex, "fill", "q", content="cats")
        where = await landed(ex)
    assert where.startswith("Landed: q=c")  # every key submits it; the last load wins
    assert note.outcome == "changed", note.text
    assert "could not be performed" not in note.text, note.text
    assert "the page navigated to" in note.text, note.text
    # Read back before the new page replaced the field, or given up once it had.
    assert ("it loaded another page as it was typed, so the field was not read back" in note.text
            or "the field now holds 'cats'" in note.text), note.text


async def test_a_select_that_stays_on_the_page_is_read_back(
        opened: Opener, pages: LocalServer) -> None:
    async with opened(pages.url("native/navigating.html")) as ex:
        note = await act(ex, "select", "size", option="Large")
        again = await act(ex, "select", "size", option="Large")
        title = await ex.tabs.page.title()
    assert title == "Size Large"
    assert note.outcome == "changed" and "selected 'Large' (exact match)" in note.text, note.text
    assert "navigated" not in note.text and "another page" not in note.text, note.text
    assert again.outcome == "no_change" and "already selected" in again.text, again.text

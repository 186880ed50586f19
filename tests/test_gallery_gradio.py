"""Issue 31 item 3 on a Svelte-based Python app framework: Gradio's Dropdown behind 100 ms of
latency each way (tests/gradio_support.py), at 1920x1080 and at 1280x720 with device scale
factor 2. The choice makes a server round trip; the note reads the dropdown back once it
stops changing (never the '' it shows for a moment), the server's answer is in the next
screenshot, a click beside it is "no detectable change", and read_text reads the answer.
Here settle already follows the round trip; tests/test_readback_wait.py is the page where
only the read-back's wait sees the late value.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gallery_helpers import SMALL, Browsers, View, act, at_rest, shows_end_state, views
from gradio_support import gradio_app
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import NO_CHANGE

CITY = (300, 75)  # the dropdown's input, page CSS pixels
BLANK = (600, 400)  # the empty page below the app's two components
ANSWER = (52, 148, 1180, 30)  # the answer box (left, top, width, height)


@pytest.fixture(scope="module")
def gradio() -> Iterator[str]:
    with gradio_app() as url:
        yield url


async def answer(ex: Executor) -> str:
    held: str = await ex.tabs.page.evaluate("document.querySelector('#out textarea').value")
    return held


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_select_in_a_gradio_dropdown_reads_back_after_the_round_trip(
        view: View, sized: Browsers, gradio: str) -> None:
    async with sized.open(view, gradio) as ex:
        await ex.tabs.page.wait_for_selector("#city input", timeout=30000)
        beside, _ = await act(ex, "click", BLANK)
        note, before = await act(ex, "select", CITY, option="oslo")
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        echoed = await answer(ex)
        read, _ = await act(ex, "read_text", label="You chose")
        missing, _ = await act(ex, "select", CITY, option="Narnia")
        again = await answer(ex)
    assert beside.outcome == "no_change" and NO_CHANGE in beside.text, beside.text
    assert note.outcome == "changed", note.text
    assert "chose 'Oslo'" in note.text and "the dropdown now shows 'Oslo'" in note.text, note.text
    assert echoed == "You chose Oslo"  # the server's answer was waited for
    assert shows_end_state(before, after, rest, ANSWER)
    assert "You chose Oslo" in read.text, read.text
    assert missing.outcome == "error" and "no option matches 'Narnia'" in missing.text, missing.text
    assert "'Amsterdam'" in missing.text, missing.text
    assert again == "You chose Oslo"

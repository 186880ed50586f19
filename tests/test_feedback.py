"""Issue 3, feedback stage: the page's reaction reaches the model truthfully.

Real headless Chromium on local pages (tests/pages/feedback), the real executor, and a
second origin (``localhost``) for cross-origin frames. Every page carries noise.js: a
ticking clock, a carousel that swaps its slide element and a ticker that adds and
removes nodes, so no test can pass by comparing raw node counts or text.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from conftest import Opener
from webfovea.actions.registry import Action, Point
from webfovea.browser.capture import Screen, capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import NO_CHANGE, Note
from webfovea.browser.frame_fallback import captcha_kind
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps

PAGES = Path(__file__).parent / "pages"




def frames_url(pages: LocalServer, other: LocalServer) -> str:
    return pages.url(f"feedback/frames.html?other=http://localhost:{other.port}")


# One tab per page for the module, as one task would keep it: tests assert relative to
# the state they find, so their order does not matter.
@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def noisy(opened: Opener, pages: LocalServer) -> AsyncIterator[Executor]:
    async with opened(pages.url("feedback/noisy.html")) as ex:
        yield ex


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def chart(opened: Opener, pages: LocalServer) -> AsyncIterator[Executor]:
    async with opened(pages.url("feedback/chart.html")) as ex:
        yield ex


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def frames(opened: Opener, pages: LocalServer, other: LocalServer
                 ) -> AsyncIterator[Executor]:
    async with opened(frames_url(pages, other)) as ex:
        yield ex


async def act(ex: Executor, name: str, page_point: tuple[int, int] | None = None,
              **args: str) -> tuple[Note, Screen]:
    """Capture a screen and execute ``name`` with a point given in page pixels, converted
    to the sent image's pixels (1440x810 for 1920x1080) as a model would answer."""
    screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
    action_args: dict[str, str | Point] = dict(args)
    if page_point is not None:
        scale = screen.sent.width / screen.page.width
        action_args["start_box"] = Point(page_point[0] * scale, page_point[1] * scale)
    return await ex.execute(Action(name, action_args), screen), screen


BLANK = (300, 650)  # noisy.html: an empty div


# --- noise: clocks and carousels are not changes -------------------------------------------


async def test_no_op_clicks_stay_no_change_on_a_noisy_page(noisy: Executor) -> None:
    notes = [(await act(noisy, "click", BLANK))[0] for _ in range(5)]
    assert [n.outcome for n in notes] == ["no_change"] * 5, [n.text for n in notes]
    assert NO_CHANGE in notes[0].text
    assert "<div#blank>" in notes[0].text and "(not clickable)" in notes[0].text
    assert "(225,487.5)" in notes[0].text  # the model's own coordinates, not the page's
    # The counter, clock, carousel and ticker did change during those clicks.
    assert sum(n.details.get("noise_ignored", 0) for n in notes) >= 3


async def test_real_changes_amid_noise_are_reported(noisy: Executor) -> None:
    saved, _ = await act(noisy, "click", (900, 530))
    arrow, _ = await act(noisy, "click", (1350, 240))  # the carousel's own arrow
    assert saved.outcome == "changed" and "Saved at step" in saved.text, saved.text
    assert "clock" not in saved.text and "ticker" not in saved.text
    assert arrow.outcome == "changed" and "track" in arrow.text, arrow.text


async def test_scrolling_an_inner_container_is_a_change(noisy: Executor) -> None:
    page = noisy.tabs.page
    inner = "document.getElementById('scroller').scrollTop"
    await page.evaluate(f"{inner} = 0")
    note, _ = await act(noisy, "scroll", (1400, 650), direction="down")
    assert note.outcome == "changed", note.text
    assert "the scroll container under the point scrolled (down" in note.text
    assert await page.evaluate("scrollY") == 0 and await page.evaluate(inner) > 0


async def test_a_dead_button_is_named_clickable_and_no_change(frames: Executor) -> None:
    """A click that only moves the focus to a button is not an effect of that button."""
    await frames.tabs.page.evaluate("document.getElementById('blank').innerHTML = "
                                    "'<button id=dead style=\"width:200px;height:60px\">Go</button>'")
    note, _ = await act(frames, "click", (200, 630))
    await frames.tabs.page.evaluate("document.getElementById('blank').innerHTML = ''")
    assert note.outcome == "no_change", note.text
    assert "<button#dead> role=button \"Go\" (clickable)" in note.text


# --- hover, SVG and canvas -----------------------------------------------------------------

CHART_BLANK = (400, 800)  # chart.html: empty space under the charts


async def test_svg_hover_tooltip_is_a_change_and_stays_for_the_screenshot(
        chart: Executor) -> None:
    page = chart.tabs.page
    await act(chart, "hover", CHART_BLANK)
    assert await page.evaluate("document.getElementById('tip')") is None
    hovered, _ = await act(chart, "hover", (420, 400))  # the Q3 bar
    tip = await page.evaluate("document.getElementById('tip')?.textContent")
    # The next screenshot the model gets shows the tooltip: the pointer stayed there.
    _, shot = await act(chart, "wait")
    away, _ = await act(chart, "hover", CHART_BLANK)
    gone = await page.evaluate("document.getElementById('tip')")
    assert hovered.outcome == "changed", hovered.text
    assert "the visible text changed" in hovered.text and "Q3: 42.7 units" in hovered.text
    assert tip == "Q3: 42.7 units" and gone is None  # it exists only while hovered
    assert _dark_pixels(shot, (430 - 20, 360 - 20, 430 + 140, 360 + 40)) > 200
    assert away.outcome == "changed"  # the tooltip going away is a change too


def _dark_pixels(screen: Screen, page_box: tuple[int, int, int, int]) -> int:
    """Pixels of the tooltip's dark background (#222) inside a page-pixel box."""
    scale = screen.sent.width / screen.page.width
    left, top, right, bottom = (round(v * scale) for v in page_box)
    with Image.open(io.BytesIO(screen.png)) as img:
        return sum(img.convert("L").crop((left, top, right, bottom)).histogram()[:60])


async def test_css_only_hover_reveal_is_a_visible_text_change(chart: Executor) -> None:
    await act(chart, "hover", CHART_BLANK)
    note, _ = await act(chart, "hover", (1000, 730))
    assert note.outcome == "changed", note.text
    assert note.details["changes"] == ["text"]  # no DOM mutation: only the words changed
    assert "the visible text changed" in note.text


async def test_hover_on_nothing_is_no_change_despite_the_clock(chart: Executor) -> None:
    await act(chart, "hover", (200, 100))  # from wherever the pointer was
    notes = [(await act(chart, "hover", (400 + 20 * i, 800)))[0] for i in range(3)]
    assert [n.outcome for n in notes] == ["no_change"] * 3, [n.text for n in notes]
    assert "visible text unchanged" in notes[0].text and "<div#blank>" in notes[0].text


async def test_canvas_redraw_on_hover_is_a_change(chart: Executor) -> None:
    await act(chart, "hover", CHART_BLANK)
    first, _ = await act(chart, "hover", (1100, 400))  # bar 2: redrawn highlighted
    same, _ = await act(chart, "hover", (1110, 400))  # same bar: nothing redrawn
    assert first.outcome == "changed", first.text
    assert "the canvas under the point was redrawn" in first.text
    assert "visible text unchanged" in first.text  # no DOM text: only pixels tell
    assert same.outcome == "no_change", same.text
    assert "<canvas#cv>" in same.text


# --- frames --------------------------------------------------------------------------------

COUNTER = (220, 172)  # frames.html: the Count button inside the cross-origin counter frame
STUBBORN = (720, 172)  # the button of the frame that ignores trusted input
CAPTCHA = (1220, 172)  # the checkbox of the frame titled reCAPTCHA


async def _in_frame(ex: Executor, frame_id: str, expression: str) -> Any:
    handle = await ex.tabs.page.query_selector(f"#{frame_id}")
    assert handle is not None
    frame = await handle.content_frame()
    assert frame is not None
    return await frame.evaluate(expression)


async def test_click_inside_a_cross_origin_frame_is_a_change(frames: Executor,
                                                             other: LocalServer) -> None:
    clicks = await _in_frame(frames, "counter", "window.clicks")
    note, _ = await act(frames, "click", COUNTER)
    assert note.outcome == "changed", note.text
    assert f"inside the frame http://localhost:{other.port}/feedback/frame_counter.html" in note.text
    assert f"Clicked {clicks + 1} times" in note.text
    assert note.frame and note.frame.startswith("http://localhost")
    # Clicked once, not twice: no fallback after a click that worked.
    assert await _in_frame(frames, "counter", "window.clicks") == clicks + 1
    assert note.details["dom_fallback"] is False


async def test_without_frame_fingerprints_the_frame_click_looks_like_nothing(
        frames: Executor) -> None:
    """The paper's bug, the "frame-fallback" fix ablated: main-frame-only prints."""
    naive = Executor(frames.tabs, replace(frames.config, ablate=frozenset({"frame-fallback"})))
    clicks = await _in_frame(frames, "counter", "window.clicks")
    note, _ = await act(naive, "click", COUNTER)
    assert await _in_frame(frames, "counter", "window.clicks") == clicks + 1
    assert note.outcome == "no_change" and NO_CHANGE in note.text  # worked, called nothing


async def test_fallback_makes_a_frame_that_ignores_trusted_input_work(frames: Executor) -> None:
    out = "document.getElementById('out').textContent"
    await _in_frame(frames, "stubborn", f"{out} = 'Report closed'")
    note, _ = await act(frames, "click", STUBBORN)
    assert await _in_frame(frames, "stubborn", out) == "Report opened: revenue 7,310"
    assert note.outcome == "changed", note.text
    assert "DOM mouse events" in note.text and note.details["dom_fallback"] is True


async def test_fallback_without_effect_still_says_no_change(frames: Executor) -> None:
    note, _ = await act(frames, "click", (400, 350))  # empty part of the counter frame
    assert note.outcome == "no_change", note.text
    assert NO_CHANGE in note.text and "in frame http://localhost" in note.text
    assert note.details["dom_fallback"] is True


async def test_fallback_is_refused_in_a_captcha_frame(frames: Executor) -> None:
    note, _ = await act(frames, "click", CAPTCHA)
    shown = await _in_frame(frames, "captcha", "document.getElementById('out').textContent")
    assert shown == "unchecked"  # no DOM events were dispatched
    assert note.outcome == "no_change", note.text
    assert "reCAPTCHA" in note.text and "needs a human" in note.text
    assert note.details["dom_fallback"] is False and note.details["captcha"] == "reCAPTCHA"


@pytest.mark.parametrize(("url", "title", "kind"), [
    ("https://www.google.com/recaptcha/api2/anchor?k=x", "", "reCAPTCHA"),
    ("https://www.recaptcha.net/recaptcha/api2/bframe", "", "reCAPTCHA"),
    ("https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html", "", "hCaptcha"),
    ("https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2",
     "", "Cloudflare Turnstile"),
    ("about:blank", "Widget containing a Cloudflare security challenge", "Cloudflare Turnstile"),
    ("http://127.0.0.1/x.html", "reCAPTCHA", "reCAPTCHA"),
    ("https://example.com/embed/chart", "Quarterly chart", None),
])
def test_captcha_frames_are_recognised_by_url_and_title(url: str, title: str,
                                                        kind: str | None) -> None:
    assert captcha_kind(url, title) == kind


# --- end to end: the note in steps.jsonl ---------------------------------------------------


async def test_agent_run_records_frame_change_and_no_op_notes(
        browser: BrowserSession, pages: LocalServer, other: LocalServer,
        tmp_path: Path) -> None:
    replies = [  # points in the 1440x810 image the fake model receives
        "Thought: count.\nAction: click(start_box='(165,129)')",
        "Thought: empty space.\nAction: click(start_box='(225,487)')",
        "Thought: done.\nAction: finished(content='1')",
    ]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:fake", base_url=fp.base_url)
        result = await run_task(Task("count once", frames_url(pages, other)), model=model,
                                session=browser, config=AgentConfig(max_steps=4, grounding="record"),
                                out=tmp_path)
        await model.aclose()
    steps = read_steps(tmp_path)
    assert result.status == "finished"
    assert [s.outcome for s in steps[:2]] == ["changed", "no_change"], [s.note for s in steps]
    assert "inside the frame http://localhost" in steps[0].note and steps[0].frame
    assert "Clicked 1 times" in steps[0].note
    assert NO_CHANGE in steps[1].note and "<div#blank>" in steps[1].note
    # The model was told: the second request carries the first step's note.
    assert "Clicked 1 times" in fp.requests[1].turns[-1].text


async def test_css_sibling_reveal_inside_a_frame_is_a_change(
        opened: Opener, pages: LocalServer) -> None:
    """`#bar:hover + #tip` directly under <body> of a child frame: no mutation, no ancestor
    holding the words; the hidden tip's innerText equals its text, so only rendering tells."""
    async with opened(pages.url("feedback/sibling_tip_outer.html")) as ex:
        await act(ex, "hover", (50, 50))
        note, _ = await act(ex, "hover", (200, 250))  # the bar, inside the frame
    assert note.outcome == "changed", note.text
    assert "visible text inside the frame" in note.text

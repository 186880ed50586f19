"""Issue 31 item 4 on a real autoplaying carousel (Swiper, autoplay every 1.2 s, loop mode),
at 1920x1080 and at 1280x720 with device scale factor 2: a click beside it, also one timed
so that the next slide begins just after the click (its timer comes due inside the click's
own input window), is "no detectable change"; the carousel's own arrow and the like button
beside it are changes, and the screenshot after the like shows the end state.
"""

from __future__ import annotations

import asyncio

import pytest

from gallery_helpers import SMALL, Browsers, View, act, at_rest, shows_end_state, state, views
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import NO_CHANGE
from webfovea.browser.local_server import LocalServer

BESIDE = (670, 150)  # inside the carousel's container, right of the slides: nothing there
BLANK = (900, 200)
NEXT = (614, 190)  # the carousel's own "next" arrow
LIKE = (75, 390)
STATUS = (40, 12, 600, 36)
ATTEMPTS = 5


async def slide_after_click(ex: Executor) -> float | None:
    """ms from the last mousedown to the slide change that began nearest after it (negative:
    it began before), from the page's own record of both."""
    gap: float | None = await ex.tabs.page.evaluate("""() => {
      const s = window.gallerySlides.find((t) => t > window.clickAt - 400);
      return s === undefined ? null : s - window.clickAt;
    }""")
    return gap


async def timed_clicks(ex: Executor, point: tuple[int, int]) -> list[tuple[str, str, float | None]]:
    """Clicks at ``point``, each timed so that the carousel's next slide is due just after
    the mousedown (the harness's own delay before it is learned from the clicks before):
    (outcome, note, ms from the click to the slide change)."""
    page = ex.tabs.page
    lead = 200.0  # ms before the slide is due that the click is sent
    out = []
    for _ in range(ATTEMPTS):
        await page.wait_for_function(f"window.galleryNext - performance.now() < {lead}", polling=5)
        note, _ = await act(ex, "click", point)
        gap = await slide_after_click(ex)
        out.append((note.outcome, note.text, gap))
        # Aim for the slide to begin 20 ms after the mousedown; none yet: it came after the
        # whole step, so the click went too early.
        lead = min(max(lead + 20 - gap if gap is not None else lead - 100, 0), 1000)
    return out


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_a_click_beside_an_autoplaying_carousel_is_never_charged_to_it(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, gallery.url("/pages/swiper_carousel.html")) as ex:
        await ex.tabs.page.evaluate(
            "window.addEventListener('mousedown', () => { window.clickAt = performance.now(); }, true)")
        await asyncio.sleep(1.6)  # a slide by itself: the page as a user finds it
        beside = await timed_clicks(ex, BESIDE)
        blank, _ = await act(ex, "click", BLANK)
        assert await state(ex, "manual") == 0 and await state(ex, "likes") == 0
    # Never charged to the click. Now and then (about 1 click in 12) Swiper writes its
    # wrapper's style from outside any timer or event the watcher can attribute (its
    # resize observer): that one reads "unknown", never "changed".
    assert not [t for o, t, _ in beside if o == "changed"], beside
    assert sum(o == "no_change" and NO_CHANGE in t for o, t, _ in beside) >= ATTEMPTS - 1, beside
    # The timing was met: a slide began during a click's step (or its transition was
    # still running) at least once; on a loaded machine the harness's delay before the
    # mousedown varies too much to hit the 40 ms every time.
    assert any(gap is not None for _, _, gap in beside), [gap for _, _, gap in beside]
    assert blank.outcome == "no_change", blank.text


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_the_carousels_own_arrow_and_the_button_beside_it_are_changes(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(view, gallery.url("/pages/swiper_carousel.html")) as ex:
        await ex.tabs.page.evaluate(
            "window.addEventListener('mousedown', () => { window.clickAt = performance.now(); }, true)")
        await asyncio.sleep(1.6)
        arrows = []
        for _ in range(2):
            # Well before its next slide; Swiper still ignores an arrow now and then (loop
            # mode, while it re-orders its slides): the note must then say no change.
            await ex.tabs.page.wait_for_function("window.galleryNext - performance.now() > 700", polling=5)
            arrow, _ = await act(ex, "click", NEXT)
            moved = await ex.tabs.page.evaluate(
                "window.gallerySlides.some((t) => t > window.clickAt && t < window.clickAt + 100)")
            arrows.append((arrow.outcome, arrow.text, moved))
        assert await state(ex, "manual") == 2
        like, before = await act(ex, "click", LIKE)
        after = await capture(ex.tabs.page, cap=ex.config.image_cap)
        rest = await at_rest(ex)
        assert await state(ex, "likes") == 1
        read, _ = await act(ex, "read_text", label="Likes")
        found, _ = await act(ex, "find_text", text="Likes: 1")
        missing, _ = await act(ex, "find_text", text="Likes: 2")
    assert any(moved for _, _, moved in arrows), arrows
    for outcome, text, moved in arrows:
        assert (outcome == "changed" and "#carousel" in text) if moved else outcome == "no_change", text
    assert like.outcome == "changed" and "Likes: 1" in like.text, like.text
    assert shows_end_state(before, after, rest, STATUS)
    assert "Likes: 1" in read.text, read.text
    assert found.outcome == "changed" and "match 1 of 1" in found.text, found.text
    assert missing.outcome == "no_change", missing.text

"""The image the model sees, rendered by Chromium at the sent size.

Its size must be exactly what the cap promises (fit_within the full-resolution viewport)
whichever way it was made, at device scale factors 1 and 2, with and without a cap, and
with a cap whose rounding Chromium does not share (the downsampling fallback); a point
found in that image must map back onto the element it shows.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from playwright.async_api import Page

from test_roundtrip import _colour_centre
from webfovea.actions.geometry import fit_within, model_space, to_page
from webfovea.actions.registry import Point
from webfovea.browser.capture import capture, downsample, png_size
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, Size, SmartResize
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.rundir.store import read_steps

MARK = (1234, 567, 40, 30)  # left, top, width, height in CSS px (scaled to the viewport)


def marked_page(viewport: Size) -> tuple[str, tuple[float, float]]:
    """A page with text and one red rectangle; the rectangle's centre in page pixels."""
    left, top = MARK[0] * viewport.width / 1920, MARK[1] * viewport.height / 1080
    html = (f"<html><body style='margin:0;font:16px sans-serif'><h1>Capture</h1>"
            f"<p>{'Some text to render. ' * 40}</p>"
            f"<div style='position:absolute;left:{left}px;top:{top}px;width:{MARK[2]}px;"
            f"height:{MARK[3]}px;background:rgb(255,0,0)'></div></body></html>")
    return html, (left + MARK[2] / 2, top + MARK[3] / 2)


@asynccontextmanager
async def page_at(browser: BrowserSession, viewport: Size, scale: float
                  ) -> AsyncIterator[Page]:
    context = await browser.browser.new_context(
        viewport={"width": viewport.width, "height": viewport.height},
        device_scale_factor=scale)
    try:
        yield await context.new_page()
    finally:
        await context.close()


CASES = [  # viewport, device scale factor, cap
    (Size(1920, 1080), 1.0, Size(1440, 810)),
    (Size(1280, 720), 2.0, Size(1440, 810)),
    (Size(1920, 1080), 2.0, Size(1440, 810)),
    (Size(1000, 1000), 1.0, Size(1440, 810)),
    (Size(1920, 1080), 1.0, None),
    (Size(1280, 720), 2.0, None),
    # 1080 x 1000/1920 = 562.5: Python rounds to 562, Chromium to 563 -> the fallback path.
    (Size(1920, 1080), 1.0, Size(1000, 700)),
    (Size(1280, 720), 2.0, Size(1000, 700)),
]


@pytest.mark.parametrize(("viewport", "scale", "cap"), CASES)
async def test_sent_size_is_exact_and_points_map_back(
        browser: BrowserSession, viewport: Size, scale: float, cap: Size | None) -> None:
    html, (cx, cy) = marked_page(viewport)
    async with page_at(browser, viewport, scale) as page:
        await page.set_content(html)
        screen = await capture(page, cap=cap)
    full = Size(round(viewport.width * scale), round(viewport.height * scale))
    assert screen.sent == fit_within(full, cap)
    assert png_size(screen.png) == screen.sent and screen.capture == full
    assert screen.page == viewport
    with Image.open(io.BytesIO(screen.png)) as image:
        assert image.size == (screen.sent.width, screen.sent.height)
        x, y = _colour_centre(image, (255, 0, 0))
    for coords in ("image", "norm1000", "smart_resize"):
        space = model_space(screen.sent, coords, SmartResize())  # type: ignore[arg-type]
        point = Point(x * space.width / screen.sent.width, y * space.height / screen.sent.height)
        px, py = to_page(point, space=space, page=screen.page)
        # Within one sent pixel (<= 1.34 CSS px at 0.75, 0.5 at DSF 2 uncapped) of the centre.
        tolerance = max(1.0, screen.page.width / screen.sent.width) + 0.5
        assert abs(px - cx) <= tolerance and abs(py - cy) <= tolerance, (coords, px, py, cx, cy)


@pytest.mark.parametrize(("viewport", "scale", "cap"), [CASES[1], CASES[5], (Size(500, 320), 2.0, None)])
async def test_every_capture_keeps_the_page_as_the_context_made_it(
        browser: BrowserSession, viewport: Size, scale: float, cap: Size | None) -> None:
    # A clipped DevTools capture used to drop the context's device scale factor and screen
    # size after the first screenshot: step 2 on was drawn at 1x, and pages saw it change.
    html, _ = marked_page(viewport)
    probe = "[devicePixelRatio, innerWidth, innerHeight, screen.width, screen.height]"
    full = Size(round(viewport.width * scale), round(viewport.height * scale))
    async with page_at(browser, viewport, scale) as page:
        await page.set_content(html)
        before = await page.evaluate(probe)
        for _ in range(3):
            screen = await capture(page, cap=cap)
            assert (screen.capture, screen.sent) == (full, fit_within(full, cap))
            size = [viewport.width, viewport.height]
            assert await page.evaluate(probe) == before == [scale, *size, *size]


async def test_chromium_scaled_image_shows_what_the_downsampled_one_shows(
        browser: BrowserSession) -> None:
    viewport, cap = Size(1920, 1080), Size(1440, 810)
    html, _ = marked_page(viewport)
    async with page_at(browser, viewport, 1.0) as page:
        await page.set_content(html)
        screen = await capture(page, cap=cap)
        legacy, sent, _ = downsample(await page.screenshot(type="png"), cap)
    assert sent == screen.sent
    with Image.open(io.BytesIO(screen.png)) as a, \
            Image.open(io.BytesIO(legacy)) as b:
        diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
        # Same layout and colours; only the anti-aliasing of glyph edges differs a little.
        assert max(ImageStat.Stat(diff).mean) < 4
        assert _colour_centre(a, (255, 0, 0)) == pytest.approx(_colour_centre(b, (255, 0, 0)),
                                                               abs=1)


async def test_each_step_records_where_its_harness_time_went(
        browser: BrowserSession, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(marked_page(Size(1920, 1080))[0])
    model = ScriptedModel(["Thought: click.\nAction: click(start_box='(100,100)')",
                           "Thought: done.\nAction: finished(content='x')"])
    await run_task(Task("t", page.as_uri()), model=model, session=browser,
                   config=AgentConfig(max_steps=3), out=tmp_path / "run")
    click, done = read_steps(tmp_path / "run")
    assert {"capture", "encode", "prompt", "parse", "execute", "settle", "fingerprints",
            "trajectory_write"} <= set(click.stage_seconds)
    assert all(v >= 0 for v in click.stage_seconds.values())
    assert sum(click.stage_seconds.values()) <= click.harness_seconds + 0.05
    assert "settle" not in done.stage_seconds  # finished never waits for the page
    assert (tmp_path / "run" / click.screenshot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

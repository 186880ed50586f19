"""view: the static HTML report of real runs, opened from disk in real Chromium."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image
from playwright.async_api import Page

from viewer_helpers import (
    BAIT,
    HELP,
    REVEAL,
    click,
    opened,
    record,
    reply,
    reveal_policy,
    scripted,
)
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.viewer.report import write_report

SENT = (1440, 810)
XSS_TASK = '<script>window.__xss = "task"</script> Read the page.'
XSS_ID = 'x<script>window.__xss = "id"</script>'
XSS_THOUGHT = ('Look <script>window.__xss = "thought"</script> at '
               '<img src=x onerror="window.__xss=\'thought\'">')
XSS_ANSWER = "<img src=x onerror=window.__xss=1>"
XSS_REPLIES = [
    reply(click(BAIT), XSS_THOUGHT),
    reply(click(HELP), "Ask for help.<|im_end|>"),
    reply(f"finished(content='{XSS_ANSWER}')", "Done."),
]
# Text recorded from the page itself: an element's text quoted in a note, an alert's message.
PAGE_TEXTS = ("<img src=x onerror=\"window.__xss='note'\">", "<script>window.__xss = 'dialog'</script>")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def runs(browser: BrowserSession, pages: LocalServer,
               tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Path]:
    root = tmp_path_factory.mktemp("viewer")
    clean = await record(browser, pages, root / "reveal", reveal_policy)
    assert clean.status == "finished"
    broken = await record(browser, pages, root / "coords", reveal_policy, ablate="ratio",
                          max_steps=2)
    assert broken.status == "step_limit"
    xss = await record(browser, pages, root / "xss", scripted(XSS_REPLIES), task=XSS_TASK,
                       task_id=XSS_ID)
    assert xss.status == "finished"
    for run in ("reveal", "coords", "xss"):
        write_report(root / run)
    yield root


async def shot_of(page: Page, step: int) -> Image.Image:
    """The screenshot of ``step`` as the report draws it (marks included), image area only."""
    img = page.locator(f"#step-{step} .shot img")
    await img.scroll_into_view_if_needed()
    await page.wait_for_function(f"document.querySelector('#step-{step} .shot img').naturalWidth")
    box = await img.bounding_box()
    assert box is not None
    png = await page.screenshot(clip=box)
    return Image.open(io.BytesIO(png)).convert("RGB")


def centroid(image: Image.Image, match: str) -> tuple[float, float, int]:
    tests = {"red": lambda r, g, b: r > 200 and g < 60 and b < 60,
             "orange": lambda r, g, b: r > 220 and 120 < g < 190 and b < 80}
    hits = [(x, y) for y in range(image.height) for x in range(image.width)
            if tests[match](*image.getpixel((x, y)))]
    assert hits, f"no {match} pixels"
    return (sum(x for x, _ in hits) / len(hits), sum(y for _, y in hits) / len(hits), len(hits))


def expected(image: Image.Image, sent_point: tuple[float, float]) -> tuple[float, float]:
    return (sent_point[0] * image.width / SENT[0], sent_point[1] * image.height / SENT[1])


async def test_report_loads_cleanly_and_rings_the_click(browser: BrowserSession, runs: Path) -> None:
    async with opened(browser, runs / "reveal" / "view.html") as (page, problems):
        assert await page.locator("article.step").count() == 3
        image = await shot_of(page, 1)
        x, y, count = centroid(image, "red")
        want = expected(image, REVEAL)
        assert abs(x - want[0]) < 2 and abs(y - want[1]) < 2, ((x, y), want)
        assert count > 30  # a ring, not a stray pixel
        assert await page.locator("#step-1 .landed").count() == 0  # landed where it was asked
        assert problems == []


async def test_misplaced_click_shows_where_it_really_landed(browser: BrowserSession,
                                                            runs: Path) -> None:
    """The paper's figure: with coordinates scaled by 3/4 the click lands up and to the left."""
    async with opened(browser, runs / "coords" / "view.html") as (page, problems):
        image = await shot_of(page, 1)
        ring, landed = centroid(image, "red"), centroid(image, "orange")
        want_ring, want_landed = expected(image, REVEAL), expected(image, (956.25, 472.5))
        assert abs(ring[0] - want_ring[0]) < 2 and abs(ring[1] - want_ring[1]) < 2
        assert abs(landed[0] - want_landed[0]) < 3 and abs(landed[1] - want_landed[1]) < 3
        diagnosis = await page.locator(".diagnosis").inner_text()
        assert "Diagnosis: execute" in diagnosis and "coordinate mapping" in diagnosis
        assert problems == []


async def test_recorded_markup_stays_text(browser: BrowserSession, runs: Path) -> None:
    async with opened(browser, runs / "xss" / "view.html") as (page, problems):
        for step in (1, 2, 3):
            await shot_of(page, step)  # every image loaded, so any onerror had its chance
        assert await page.evaluate("window.__xss") is None
        assert await page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
        assert await page.evaluate("document.scripts.length") == 2  # the data and the viewer
        text = await page.evaluate("document.body.textContent")
        for recorded in (XSS_TASK, XSS_THOUGHT, XSS_ANSWER, *PAGE_TEXTS):
            assert recorded in text, recorded
        assert XSS_ID in await page.title()
        assert problems == []


async def test_keyboard_moves_between_steps(browser: BrowserSession, runs: Path) -> None:
    async with opened(browser, runs / "reveal" / "view.html") as (page, _):
        current = "document.querySelector('article.step.current')?.id ?? null"
        assert await page.evaluate(current) is None
        for key, step in (("j", 1), ("j", 2), ("ArrowRight", 3), ("j", 3), ("k", 2),
                          ("Home", 1), ("End", 3), ("ArrowLeft", 2)):
            await page.keyboard.press(key)
            assert await page.evaluate(current) == f"step-{step}", key
        await page.keyboard.press("r")
        assert await page.evaluate("document.querySelector('#step-2 details.raw').open")


async def test_embedded_report_travels_alone(browser: BrowserSession, runs: Path,
                                             tmp_path: Path) -> None:
    task = shutil.copytree(runs / "reveal", tmp_path / "reveal")
    out = subprocess.run([sys.executable, "-m", "webfovea", "view", str(task),
                          "--embed"], capture_output=True, text=True, check=True).stdout
    assert Path(out.strip()) == task / "view.html"
    alone = tmp_path / "alone.html"
    shutil.move(task / "view.html", alone)
    shutil.rmtree(task)
    async with opened(browser, alone) as (page, problems):
        srcs = await page.evaluate("[...document.images].map((i) => i.src)")
        assert len(srcs) == 4 and all(s.startswith("data:image/png;base64,") for s in srcs)
        await shot_of(page, 3)
        assert problems == []


def test_view_of_something_else_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "webfovea", "view",
                           str(tmp_path / "missing")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "is not a directory" in done.stderr

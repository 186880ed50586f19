"""The guard of issue 35: an image webfovea sent is the viewport as a person sees it.

It is held against a plain Playwright ``page.screenshot()`` of the same page state, scaled
to the sent size: the mean absolute difference per channel (0-255) must stay within
:data:`TOLERANCE`. A right capture differs by resampling only (about 0.1); the capture of
the document's top after a scroll differed by ~100 (white, or the wrong bands).

:class:`Witness` is a model for :func:`webfovea.agent.run_task`: it wraps the model that
decides and, each time it is asked, compares the newest image of the request with the
page as it is at that moment (the loop waits on the model, so nothing has moved since the
capture), keeping one :class:`Seen` per step.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat
from playwright.async_api import Page

from webfovea.browser.session import BrowserSession
from webfovea.core.config import BrowserConfig
from webfovea.models.base import Model, ModelReply, ModelRequest
from webfovea.suite.server import SuiteServer

TOLERANCE = 2.0
# Against a page opened afresh (:func:`bare_at`): what the session did there and a fresh page
# lacks (find_text's selection highlight, a caret) differs by a few more.
AFRESH_TOLERANCE = 5.0


def mean_difference(sent: bytes, bare: bytes) -> float:
    """Mean absolute difference per channel between ``sent`` and ``bare`` scaled to it."""
    with Image.open(io.BytesIO(sent)) as a, Image.open(io.BytesIO(bare)) as b:
        mine = a.convert("RGB")
        theirs = b.convert("RGB").resize(mine.size, Image.Resampling.LANCZOS)
    return sum(ImageStat.Stat(ImageChops.difference(mine, theirs)).mean) / 3


async def difference_from_bare(page: Page, sent: bytes) -> float:
    """How far ``sent`` is from what a plain Playwright screenshot of ``page`` shows now."""
    return mean_difference(sent, await page.screenshot(type="png"))


async def bare_at(session: BrowserSession, url: str, offset: tuple[float, float]) -> bytes:
    """A plain Playwright screenshot of ``url`` opened afresh at the session's screen size
    and scrolled to ``offset``: the page state of a step taken in another process (the MCP
    server, a suite run), for a page that shows the same at the same offset."""
    config = session.config
    context = await session.browser.new_context(
        viewport={"width": config.viewport.width, "height": config.viewport.height},
        device_scale_factor=config.device_scale_factor)
    try:
        page = await context.new_page()
        await page.goto(url)
        await page.evaluate("([x, y]) => window.scrollTo(x, y)", list(offset))
        return await page.screenshot(type="png")
    finally:
        await context.close()


@dataclass(frozen=True)
class Seen:
    step: int
    scroll_y: float
    difference: float


@dataclass
class Witness:
    """A model that checks every image it is sent against the page, then lets ``inner``
    decide."""

    inner: Model
    page: Page
    seen: list[Seen] = field(default_factory=list)
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = self.inner.name

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        image = request.turns[-1].images[-1]
        scroll_y = float(await self.page.evaluate("window.visualViewport.pageTop"))
        self.seen.append(Seen(request.step, scroll_y,
                              await difference_from_bare(self.page, image.png)))
        return await self.inner.complete(request, timeout=timeout)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def wrong(self) -> list[Seen]:
        return [s for s in self.seen if s.difference > TOLERANCE]


# Actions after which a page opened afresh and scrolled to the same offset shows the same.
_READ_ONLY = ("scroll", "find_text", "read_text", "zoom", "wait")


def _reproducible(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Steps taken after the window moved, on a page that only moved and was read since it
    was reached (a click or a fill there changed its state, which a fresh page lacks)."""
    out = []
    for i, step in enumerate(records[1:], start=1):
        actions: list[str | None] = []  # on this URL, oldest first, up to this step
        for before in reversed(records[:i]):
            if before["url"] != step["url"]:
                break
            actions.insert(0, (before.get("action") or {}).get("name"))
        moved = actions[-1:] in (["scroll"], ["find_text"])
        if moved and all(a in _READ_ONLY for a in actions) and step["scroll_offset"][1] > 0:
            out.append(step)
    return out


async def suite_images_after_moves(run: Path) -> int:
    """Every image an offline-suite run (in any dialect) sent after the window moved (a
    scroll, a find_text) on a page that was only moved and read, held against the page
    opened afresh at the offset its step records: the suite's pages are the same for the
    same seed. Returns the count checked."""
    checked = 0
    with SuiteServer(seed=0) as server:
        async with BrowserSession(BrowserConfig(host_rules=server.host_rules())) as session:
            for path in sorted(run.glob("**/steps.jsonl")):
                records = [json.loads(line) for line in path.read_text().splitlines()]
                for step in _reproducible(records):
                    sent = (path.parent / step["screenshot"]).read_bytes()
                    bare = await bare_at(session, step["url"], tuple(step["scroll_offset"]))
                    difference = mean_difference(sent, bare)
                    assert difference <= AFRESH_TOLERANCE, (path, step["step"], difference)
                    checked += 1
    return checked

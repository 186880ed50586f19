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
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageStat
from playwright.async_api import Page

from webfovea.models.base import Model, ModelReply, ModelRequest

TOLERANCE = 2.0


def mean_difference(sent: bytes, bare: bytes) -> float:
    """Mean absolute difference per channel between ``sent`` and ``bare`` scaled to it."""
    with Image.open(io.BytesIO(sent)) as a, Image.open(io.BytesIO(bare)) as b:
        mine = a.convert("RGB")
        theirs = b.convert("RGB").resize(mine.size, Image.Resampling.LANCZOS)
    return sum(ImageStat.Stat(ImageChops.difference(mine, theirs)).mean) / 3


async def difference_from_bare(page: Page, sent: bytes) -> float:
    """How far ``sent`` is from what a plain Playwright screenshot of ``page`` shows now."""
    return mean_difference(sent, await page.screenshot(type="png"))


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

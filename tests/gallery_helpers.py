"""What the real-component gallery tests share (tests/test_gallery_*.py): the two screen
sizes of issue 20, one browser for each, acting with page-pixel points converted to the
sent image's pixels as a model answers, and pixel checks of the screenshot after the
action against the page at rest."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops

from webfovea.actions.registry import Action, Point
from webfovea.browser.capture import Screen, capture
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import Note
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig, Size


@dataclass(frozen=True)
class View:
    name: str
    viewport: Size
    scale: float

    @property
    def config(self) -> BrowserConfig:
        return BrowserConfig(viewport=self.viewport, device_scale_factor=self.scale)


LARGE = View("1920x1080", Size(1920, 1080), 1.0)
SMALL = View("1280x720@2", Size(1280, 720), 2.0)


def views(*, quick: View) -> list[Any]:
    """Both sizes, the one not in the quick sample marked slow."""
    return [pytest.param(v, id=v.name, marks=() if v is quick else pytest.mark.slow)
            for v in (LARGE, SMALL)]


class Browsers:
    """One headless Chromium per screen size, started on first use."""

    def __init__(self) -> None:
        self._open: dict[str, BrowserSession] = {}

    async def session(self, view: View) -> BrowserSession:
        if view.name not in self._open:
            session = BrowserSession(view.config)
            await session.__aenter__()
            self._open[view.name] = session
        return self._open[view.name]

    @asynccontextmanager
    async def open(self, view: View, url: str) -> AsyncIterator[Executor]:
        """A fresh context of that size on ``url``, and its executor."""
        tabs = await (await self.session(view)).new_tabs()
        try:
            await tabs.open(url)
            yield Executor(tabs, AgentConfig())
        finally:
            await tabs.close()

    async def close(self) -> None:
        for session in self._open.values():
            await session.__aexit__(None, None, None)


async def act(ex: Executor, name: str, *points: tuple[float, float], **args: str
              ) -> tuple[Note, Screen]:
    """Execute ``name`` as a model would: points given in page CSS pixels are sent in the
    pixels of the image the model received (``start_box``, then ``end_box``). Returns the
    note and that image (the screenshot the action was decided on)."""
    screen = await capture(ex.tabs.page, cap=ex.config.image_cap)
    scale = screen.sent.width / screen.page.width
    action_args: dict[str, str | Point] = dict(args)
    for key, (x, y) in zip(("start_box", "end_box")[:len(points)], points, strict=True):
        action_args[key] = Point(x * scale, y * scale)
    return await ex.execute(Action(name, action_args), screen), screen


async def act_and_look(ex: Executor, name: str, *points: tuple[float, float], **args: str
                       ) -> tuple[Note, Screen]:
    """:func:`act`, returning the note and the next screenshot the model would get."""
    note, _ = await act(ex, name, *points, **args)
    return note, await capture(ex.tabs.page, cap=ex.config.image_cap)


async def state(ex: Executor, key: str) -> Any:
    """The component's own state, as the page's change handlers recorded it."""
    return await ex.tabs.page.evaluate("(k) => window.galleryState[k]", key)


async def at_rest(ex: Executor) -> Screen:
    """A screenshot once no animation or transition runs and two frames have passed: the
    end state to hold the step's screenshot against."""
    await ex.tabs.page.wait_for_function(
        "document.getAnimations().every((a) => a.playState !== 'running')")
    await ex.tabs.page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return await capture(ex.tabs.page, cap=ex.config.image_cap)


Rect = tuple[int, int, int, int]  # left, top, width, height in page CSS pixels


def sent_crop(screen: Screen, left: float, top: float, right: float, bottom: float) -> Image.Image:
    """The region between two corners given in page CSS pixels, cut from the image as sent
    (RGB, in the sent image's pixels)."""
    scale = screen.sent.width / screen.page.width
    with Image.open(io.BytesIO(screen.png)) as img:
        crop: Image.Image = img.convert("RGB").crop((round(left * scale), round(top * scale),
                                                     round(right * scale), round(bottom * scale)))
    return crop


def _crop(screen: Screen, box: Rect) -> Image.Image:
    left, top, width, height = box
    return sent_crop(screen, left, top, left + width, top + height).convert("L")


def differing(a: Screen, b: Screen, box: Rect) -> float:
    """Share of the box's pixels that differ by more than anti-aliasing does."""
    one, two = _crop(a, box), _crop(b, box)
    diff = ImageChops.difference(one, two).point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255] / max(1, one.width * one.height)


def shows_end_state(before: Screen, after: Screen, rest: Screen, box: Rect) -> bool:
    """The step's screenshot shows the change (it differs from before in the box) and it is
    the end state (it matches the page at rest there)."""
    return differing(before, after, box) > 0.002 and differing(after, rest, box) < 0.002

"""Settling: wait until what the action (or the loading document) started has finished.

Event-based, never a fixed quiet window: each frame's watcher (``js/watch.js``) knows the
short timers and requests the action started and which regions change by themselves;
``js/settle.js`` waits for those, for finite animations and for two animation frames in a
row without a mutation outside the noise. Every frame settles at once; then requests seen
by the browser (images, navigations) must be quiet too. All within one cap.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from playwright.async_api import BrowserContext, Frame, Page, Request
from playwright.async_api import Error as PlaywrightError

from ..core.errors import BrowserError
from .scripts import evaluate_watched, js


class Tabs(Protocol):
    """What settling reads of a task's tabs (``session.Tabs``; a protocol, so the session,
    which settles its entry page, and this module do not import each other)."""

    @property
    def page(self) -> Page: ...

    @property
    def inflight(self) -> Mapping[Request, float]: ...

    def gone(self) -> bool: ...

REQUEST_GRACE = 2.0  # seconds: an older request in flight is a long poll, not a reaction
POPUP_WAIT = 1.0  # seconds for a tab the page asked to open to reach the browser


@dataclass
class Settled:
    """How a settle ended: quiet within the cap or not, how long, and what it waited for."""

    quiet: bool
    ms: float = 0.0
    held: list[str] = field(default_factory=list)  # "timer", "request", "animation", ...


async def instrument(context: BrowserContext) -> None:
    """Run the watcher from document start in every frame of every page of ``context``."""
    await context.add_init_script(script=js("watch"))


async def settle_frame(frame: Frame, cap: float) -> dict[str, Any] | None:
    """One frame's settle; None when the frame went away or navigated meanwhile, or its
    script never yields (an endless ``confirm()`` loop): the page-side wait ends at ``cap``,
    so a reply later than that will not come."""
    try:
        result: dict[str, Any] = await asyncio.wait_for(
            evaluate_watched(frame, "settle", {"capMs": cap * 1000}), cap + 1.0)
    except (PlaywrightError, asyncio.TimeoutError):
        return None
    return result


async def settle(tabs: Tabs, *, cap: float) -> Settled:
    """Wait until the active page and its frames are settled; ``quiet`` False at the cap."""
    started = time.monotonic()
    deadline = started + cap
    held: set[str] = set()
    while (remaining := deadline - time.monotonic()) > 0:
        page = tabs.page
        try:
            await page.wait_for_load_state("domcontentloaded", timeout=remaining * 1000)
        except PlaywrightError:
            if tabs.gone():
                raise BrowserError("the browser closed or crashed while the page settled") from None
            await asyncio.sleep(0.05)
            continue
        remaining = deadline - time.monotonic()
        results = await asyncio.gather(*(settle_frame(f, remaining) for f in page.frames))
        main = results[0] if page.frames and page.frames[0] is page.main_frame else None
        for r in results:
            held.update(r["held"] if r else ())
        if tabs.gone():
            raise BrowserError("the browser closed or crashed while the page settled")
        if page is not tabs.page or main is None:
            await asyncio.sleep(0.05)  # a new tab, or a navigation replaced the document
            continue
        if not all(r is None or r["quiet"] for r in results):
            break
        if any(r and r["popup"] for r in results) and await _new_tab(tabs, page, deadline):
            continue  # settle the tab the action opened
        if _network_quiet(tabs):
            return Settled(True, (time.monotonic() - started) * 1000, sorted(held))
        held.add("network")
        await asyncio.sleep(0.05)
    return Settled(False, (time.monotonic() - started) * 1000, sorted(held))


async def _new_tab(tabs: Tabs, page: Page, deadline: float) -> bool:
    """Wait (within POPUP_WAIT) for the tab a popup-opening action opened to be followed."""
    until = min(deadline, time.monotonic() + POPUP_WAIT)
    while tabs.page is page and time.monotonic() < until:
        await asyncio.sleep(0.02)
    return tabs.page is not page


def _network_quiet(tabs: Tabs) -> bool:
    """No request younger than REQUEST_GRACE in flight (long polls are ignored)."""
    now = time.monotonic()
    return not any(now - t < REQUEST_GRACE for t in tabs.inflight.values())

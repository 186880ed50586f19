"""Launching or attaching to Chromium, and one browser context per task.

``BrowserSession`` owns the Playwright driver and the browser; ``Tabs`` owns
one task's context: the active page (new tabs are followed), dialogs (accepted
and reported) and in-flight requests (for settling).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

from playwright.async_api import (
    Browser,
    BrowserContext,
    Dialog,
    Frame,
    Page,
    Playwright,
    Request,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError

from ..core.config import BrowserConfig
from ..core.errors import BrowserError, SiteUnreachable
from .chromium import find_chromium, launch_args
from .evidence import PageEvent
from .features import disable_features
from .network import NetworkRecorder
from .settle import instrument, settle


class BrowserSession:
    """A running (or attached) Chromium that hands out fresh contexts.

    ``driver``: a Playwright driver shared with other sessions (the local pool's workers
    share one: each driver is a Node process of ~120 MiB). A shared driver outlives the
    session; without one the session starts and stops its own.
    """

    def __init__(self, config: BrowserConfig, *, driver: Playwright | None = None) -> None:
        self.config = config
        self._driver = driver
        self._pw: Playwright | None = None
        self._browser: Browser | None = None

    async def __aenter__(self) -> BrowserSession:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        self._pw = self._driver or await _start_playwright()
        try:
            self._browser = await self._launch(self._pw)
        except PlaywrightError as e:
            await self._stop_driver()
            raise BrowserError(f"could not start Chromium: {e.message.splitlines()[0]}") from e
        except asyncio.CancelledError:  # stopped while Chromium starts: end the driver too
            await self._stop_driver()
            raise

    async def _launch(self, pw: Playwright) -> Browser:
        cfg = self.config
        if cfg.cdp_url:
            return await pw.chromium.connect_over_cdp(cfg.cdp_url)
        executable = cfg.executable or find_chromium()
        features = await disable_features(pw)
        return await pw.chromium.launch(
            executable_path=executable,
            headless=cfg.headless,
            args=[*launch_args(host_rules=cfg.host_rules), *features.args],
            ignore_default_args=features.replaced,
        )

    @property
    def browser(self) -> Browser:
        if self._browser is None:
            raise BrowserError("the browser session is not started")
        return self._browser

    @property
    def connected(self) -> bool:
        return self._browser is not None and self._browser.is_connected()

    async def restart(self) -> None:
        """Replace a crashed or disconnected browser."""
        await self.close()
        await self.start()

    async def close(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(PlaywrightError):  # a crashed browser is already gone
                await self._browser.close()
            self._browser = None
        await self._stop_driver()

    async def _stop_driver(self) -> None:
        if self._pw is not None and self._pw is not self._driver:
            await self._pw.stop()
        self._pw = None

    async def new_tabs(self) -> Tabs:
        cfg = self.config
        try:
            context = await self.browser.new_context(
                viewport={"width": cfg.viewport.width, "height": cfg.viewport.height},
                device_scale_factor=cfg.device_scale_factor,
                accept_downloads=cfg.downloads,
            )
            # No single page operation may hang a task: 30 s is far above any healthy action.
            context.set_default_timeout(30_000)
            await instrument(context)  # the noise watcher runs from document start
            page = await context.new_page()
        except PlaywrightError as e:
            raise BrowserError(f"could not open a browser context: {e.message}") from e
        return Tabs(context, page)


Driver = Playwright  # what shared_driver() yields, for the bench's workers


def shared_driver() -> AbstractAsyncContextManager[Playwright]:
    """One Playwright driver that several sessions share (``BrowserSession(driver=...)``):
    a bench's workers in one process need one driver, not one each."""
    return async_playwright()


async def _start_playwright() -> Playwright:
    """Playwright's driver process; a stop (Ctrl-C) while it starts still ends it, rather
    than leaving it to outlive the event loop."""
    starting = asyncio.ensure_future(async_playwright().start())
    try:
        return await asyncio.shield(starting)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await (await starting).stop()
        raise


@dataclass
class Tabs:
    """One task's browser context, following new tabs and recording page events."""

    context: BrowserContext
    page: Page
    events: list[PageEvent] = field(default_factory=list)
    inflight: dict[Request, float] = field(default_factory=dict)
    # The tabs the agent has been shown (active when a step's events were drained): a tab
    # outside this set that is sent off the site is a popup, and the domain lock closes it.
    seen: set[Page] = field(default_factory=set)
    _came_from: dict[Page, Page] = field(default_factory=dict)
    # The recorder of the site's XHR and fetch requests (network.jsonl), when one is set:
    # told of each request by the handlers below, which every request runs through anyway.
    network: NetworkRecorder | None = None

    def __post_init__(self) -> None:
        self.context.on("page", self._on_new_page)
        self._watch(self.page)
        self.seen.add(self.page)

    def _watch(self, page: Page) -> None:
        page.on("dialog", self._on_dialog)
        page.on("request", self._request_started)
        page.on("requestfinished", self._request_ended)
        page.on("requestfailed", self._request_ended)
        page.on("close", self._on_close)

    def _request_started(self, request: Request) -> None:
        self.inflight[request] = time.monotonic()
        if self.network is not None:
            self.network.sent(request)

    def _request_ended(self, request: Request) -> None:
        self.inflight.pop(request, None)
        if self.network is not None:
            self.network.ended(request)

    async def stop_recording(self) -> None:
        """End the network record (see :mod:`webfovea.browser.network`), before the context
        closes: bodies still being read are read from it."""
        network, self.network = self.network, None
        if network is not None:
            await network.close()

    def _on_new_page(self, page: Page) -> None:
        self._watch(page)
        if _loaded(page.url):
            self._adopt(page)
            return
        # Still on its initial empty document (``w = window.open()``), or its first
        # navigation is pending: followed once a document of its own commits, so a popup
        # whose navigation the domain lock blocks (and closes) is never shown.
        page.on("framenavigated", functools.partial(self._on_first_document, page))

    def _on_first_document(self, page: Page, frame: Frame) -> None:
        if frame is page.main_frame and _loaded(frame.url) and page not in self._came_from:
            self._adopt(page)

    def _adopt(self, page: Page) -> None:
        self._came_from[page] = self.page
        self.page = page
        self.events.append(PageEvent("new_tab", page.url))

    def _on_close(self, page: Page) -> None:
        if page is not self.page:
            return
        back = self._came_from.get(page)
        open_pages = [p for p in self.context.pages if not p.is_closed()]
        if back is not None and not back.is_closed():  # the tab that opened this one
            self.page = back
        elif open_pages:
            self.page = open_pages[-1]
        else:
            return
        self.events.append(PageEvent("tab_closed", self.page.url))

    async def _on_dialog(self, dialog: Dialog) -> None:
        self.events.append(PageEvent("dialog", f"{dialog.type} \"{dialog.message[:200]}\""))
        with contextlib.suppress(PlaywrightError):  # the page may have navigated away already
            await dialog.accept()

    def gone(self) -> bool:
        """The browser disconnected, or the active page closed with no tab to fall back on."""
        browser = self.context.browser
        return (browser is not None and not browser.is_connected()) or self.page.is_closed()

    def drain_events(self) -> list[PageEvent]:
        """The events since the last call; the active tab is then one the agent has seen."""
        self.seen.add(self.page)
        events, self.events = self.events, []
        return events

    @property
    def tab_count(self) -> int:
        return len([p for p in self.context.pages if not p.is_closed()])

    async def open(self, url: str, *, timeout: float = 30.0, settle_cap: float = 5.0) -> None:
        """Load the entry URL; a failure here means the site is unreachable. It then settles
        under the same cap as any action: a page that never stops moving must not delay
        the first step."""
        try:
            response = await self.page.goto(url, wait_until="domcontentloaded",
                                            timeout=timeout * 1000)
        except PlaywrightError as e:
            raise SiteUnreachable(f"could not load {url}: {e.message.splitlines()[0]}") from e
        if response is not None and response.status >= 500:
            raise SiteUnreachable(f"{url} answered HTTP {response.status}")
        await settle(self, cap=min(timeout, settle_cap))

    async def close(self) -> None:
        with contextlib.suppress(PlaywrightError):  # after a crash the context is gone anyway
            await self.context.close()


def _loaded(url: str) -> bool:
    """A tab holds a document of its own: not the empty start of a new tab."""
    return url not in ("", "about:blank")

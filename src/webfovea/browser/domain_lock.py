"""The domain lock in the browser: top-level documents come only from the task's site.

No single hook sees every way out, so three layers share one rule
(:class:`webfovea.domains.DomainPolicy`):

1. ``context.route`` sees every top-frame document request of every tab, including
   a new tab's first navigation: clicked links, form posts, meta refresh,
   ``location=`` from a timer, ``target=_blank``, ``window.open``.
2. A CDP ``Fetch`` session per tab, for documents only, also sees each hop of an
   HTTP redirect, which Playwright's routing lets through unseen.
3. A check of every URL a tab's main frame commits: whatever still lands outside
   (a new tab that redirected before its session was attached) is left at once.

Blocked requests fail with ERR_ABORTED, which keeps the current document in place
(ERR_BLOCKED_BY_CLIENT would replace it with an error page). Subframes, scripts,
images and XHR are never touched. Every block is appended to ``tabs.events`` so the
next note reports it. Downloads are reported here too: a download is a navigation
whose response is a file (the context refuses it unless downloads are enabled).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, Download, Frame, Page, Request, Route
from playwright.async_api import Error as PlaywrightError

from ..domains import DomainPolicy
from .session import PageEvent, Tabs

_DOCUMENTS = {"patterns": [{"urlPattern": "*", "resourceType": "Document",
                            "requestStage": "Request"}]}
_SHOWN_URL = 200


_SENTENCES = {
    "navigation": "a navigation to {url} was blocked: {reason}",
    "new_tab": "a new tab to {url} was blocked: {reason}",
    "redirect": "a redirect to {url} was blocked: {reason}",
    "landed": "the tab reached {url} and was taken back at once: {reason}",
    "download": "a download from {url} was blocked: {reason}",
}


@dataclass(frozen=True)
class Blocked:
    kind: str  # a key of _SENTENCES
    url: str
    reason: str

    def sentence(self) -> str:
        return _SENTENCES[self.kind].format(url=_shown(self.url), reason=self.reason)


def _top_frame(request: Request) -> tuple[bool, Page | None]:
    """Whether a navigation request is for a top frame, and its tab (None: not known yet)."""
    try:
        frame = request.frame
    except PlaywrightError:
        # Playwright has not attached the frame to a page yet: that only happens for
        # the first navigation of a tab that is still opening.
        return True, None
    return frame.parent_frame is None, frame.page


def _shown(url: str) -> str:
    return url if len(url) <= _SHOWN_URL else url[:_SHOWN_URL] + "…"


@dataclass
class DomainLock:
    policy: DomainPolicy
    tabs: Tabs
    blocked: list[Blocked] = field(default_factory=list)
    _tasks: set[asyncio.Future[None]] = field(default_factory=set)
    _last_allowed: dict[Page, str] = field(default_factory=dict)

    async def install(self) -> None:
        """Start enforcing on the task's context; call before the entry URL loads."""
        await self.tabs.context.route("**/*", self._route)
        self.tabs.context.on("page", lambda page: self._spawn(self._watch(page)))
        await self._watch(self.tabs.page)

    # --- layer 1: routing ------------------------------------------------------------------

    async def _route(self, route: Route, request: Request) -> None:
        if request.is_navigation_request():
            top, page = _top_frame(request)
            reason = self.policy.verdict(request.url) if top else None
            if reason is not None:
                await _quietly(route.abort("aborted"))
                self._report("new_tab" if page is None else "navigation", request.url, reason)
                if page is not None:
                    await self._close_if_empty(page)
                return
        await _quietly(route.fallback())

    # --- layer 2: CDP, for redirect hops ---------------------------------------------------

    async def _watch(self, page: Page) -> None:
        page.on("framenavigated", self._on_navigated)
        page.on("download", lambda download: self._spawn(self._on_download(download)))
        try:
            cdp = await self.tabs.context.new_cdp_session(page)
            tree = await cdp.send("Page.getFrameTree")
            main = tree["frameTree"]["frame"]["id"]
            cdp.on("Fetch.requestPaused",
                   lambda event: self._spawn(self._paused(cdp, main, page, event)))
            await cdp.send("Fetch.enable", _DOCUMENTS)
        except PlaywrightError:
            pass  # the tab closed before it could be watched: nothing left to guard

    async def _paused(self, cdp: CDPSession, main: str, page: Page, event: dict[str, Any]) -> None:
        url = event["request"]["url"]
        reason = self.policy.verdict(url) if event.get("frameId") == main else None
        request = {"requestId": event["requestId"]}
        if reason is None:
            await _quietly(cdp.send("Fetch.continueRequest", request))
            return
        await _quietly(cdp.send("Fetch.failRequest", {**request, "errorReason": "Aborted"}))
        self._report("redirect" if event.get("redirectedRequestId") else "navigation", url, reason)
        await self._close_if_empty(page)

    # --- layer 3: committed URLs -----------------------------------------------------------

    def _on_navigated(self, frame: Frame) -> None:
        if frame.parent_frame is not None:
            return
        reason = self.policy.verdict(frame.url)
        if reason is None:
            self._last_allowed[frame.page] = frame.url
        elif not frame.url.startswith("chrome-error:"):  # the browser's page for a failed load
            self._report("landed", frame.url, reason)
            self._spawn(self._leave(frame.page))

    async def _leave(self, page: Page) -> None:
        """Close a tab that landed outside, or send the only tab back to its last page."""
        if self._other_tabs(page):
            await _quietly(page.close())
        else:
            back = self._last_allowed.get(page, self.policy.entry_url)
            await _quietly(page.goto(back, wait_until="commit"))

    # --- shared ----------------------------------------------------------------------------

    async def _on_download(self, download: Download) -> None:
        failure = await download.failure()
        if failure is None:
            self.tabs.events.append(
                PageEvent("download", f"{download.suggested_filename} was downloaded"))
        else:
            why = "downloads are disabled" if "accept_downloads" in failure else failure
            self._report("download", download.url, why)

    def _other_tabs(self, page: Page) -> bool:
        return any(p is not page and not p.is_closed() for p in self.tabs.context.pages)

    async def _close_if_empty(self, page: Page) -> None:
        """A tab whose only navigation was blocked is an empty tab: close it."""
        if page.url in ("", "about:blank") and self._other_tabs(page):
            await _quietly(page.close())

    def _report(self, kind: str, url: str, reason: str) -> None:
        blocked = Blocked(kind, url, reason)
        self.blocked.append(blocked)
        self.tabs.events.append(PageEvent("blocked", blocked.sentence()))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)  # keep a reference until done, or the task may be collected
        task.add_done_callback(self._tasks.discard)


async def _quietly(call: Coroutine[Any, Any, Any]) -> None:
    """Await a browser call that fails only because its tab or request is already gone."""
    try:
        await call
    except PlaywrightError:
        pass

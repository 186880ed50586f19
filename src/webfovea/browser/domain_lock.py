"""The domain lock in the browser: top-level documents come only from the task's site.

The lock is a CDP ``Fetch`` interception of document requests on a browser-level
session: it sees every top-frame document request of the task's context — clicked
links, form posts, meta refresh, ``location=`` from a timer, each hop of an HTTP
redirect, and the first navigation of a new tab (``target=_blank``,
``window.open``) before Playwright even reports the tab. A request belongs to a
top frame when its frame id is a page target (Chromium names a tab's main frame
after its target); subframes, scripts, images and XHR are never paused, so an
embedded dashboard from another origin still loads. Requests of other contexts in
the same browser pass straight through.

Blocked requests fail with ERR_ABORTED, which keeps the current document in place
(ERR_BLOCKED_BY_CLIENT would replace it with an error page). A tab the agent has not
been shown yet (a popup: ``window.open`` to another site, an empty ``window.open()``
whose ``location`` is then set, or a popup of the site that moves itself on) is closed
when it is sent off the site, so the agent stays on the tab it was on. As a last line,
every URL a known tab's main frame commits is checked too, and a tab that still lands
outside is taken back. Every block is appended to ``tabs.events`` so the next note
reports it. Downloads are reported here as well: a download is a navigation whose
response is a file, and the context refuses it unless downloads are enabled.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Literal

from playwright.async_api import CDPSession, ConsoleMessage, Download, Frame, Page
from playwright.async_api import Error as PlaywrightError

from ..core.domains import DomainPolicy
from ..core.errors import BrowserError
from .document_view import PATTERNS as DOCUMENT_RESPONSES
from .document_view import DocumentView, Reports
from .evidence import PageEvent
from .session import Tabs

_DOCUMENTS = {"patterns": [{"urlPattern": "*", "resourceType": "Document",
                            "requestStage": "Request"}]}
_EVERYTHING = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
_SHOWN_URL = 200
# Chromium's console messages for a top-level navigation it refuses on its own.
_REFUSED = re.compile(r"Not allowed to (?:navigate top frame to data URL|load local resource): "
                      r"(\S+)")


Downstream = Callable[[CDPSession, dict[str, Any]], Awaitable[None]]
BlockKind = Literal["navigation", "new_tab", "popup", "redirect", "landed", "download"]
_SENTENCES: dict[BlockKind, str] = {
    "navigation": "a navigation to {url} was blocked: {reason}",
    "new_tab": "a new tab to {url} was blocked: {reason}",
    "popup": "the new tab's move to {url} was blocked: {reason}",
    "redirect": "a redirect to {url} was blocked: {reason}",
    "landed": "the tab reached {url} and was taken back at once: {reason}",
    "download": "a download from {url} was blocked: {reason}",
}


@dataclass(frozen=True)
class Blocked:
    kind: BlockKind
    url: str
    reason: str

    def sentence(self) -> str:
        return _SENTENCES[self.kind].format(url=_shown(self.url), reason=self.reason)


def _shown(url: str) -> str:
    return url if len(url) <= _SHOWN_URL else url[:_SHOWN_URL] + "…"


@dataclass
class DomainLock:
    policy: DomainPolicy
    tabs: Tabs
    blocked: list[Blocked] = field(default_factory=list)
    _context_id: str = ""
    _tasks: set[asyncio.Future[None]] = field(default_factory=set)
    _last_allowed: dict[Page, str] = field(default_factory=dict)
    _targets: dict[Page, str] = field(default_factory=dict)  # a shown tab's CDP target id
    # Where requests the lock lets through go instead of the network, when set: a site
    # snapshot's replayer (snapshot/replay.py). The lock then pauses every request, so it
    # still judges each document first, exactly as in a live run.
    downstream: Downstream | None = None
    # The document view (webfovea.documents), when set: document responses pause at their
    # headers too, and a PDF or data file is answered with its view page.
    documents: DocumentView | None = None

    @classmethod
    async def for_task(cls, tabs: Tabs, entry_url: str, allow_domains: tuple[str, ...], *,
                       downstream: Downstream | None = None,
                       documents: DocumentView | None = None,
                       block_domains: tuple[str, ...] = (),
                       block_reason: str = "refused in this run") -> DomainLock:
        """The lock of a task that starts at ``entry_url``, installed on its context; requests
        it lets through go to ``downstream`` (a site snapshot replay) if given;
        ``block_domains`` are refused even where the site or ``allow_domains`` allow them."""
        policy = DomainPolicy.for_task(entry_url, allow_domains, block_domains=block_domains,
                                       block_reason=block_reason)
        lock = cls(policy, tabs, downstream=downstream, documents=documents)
        await lock.install()
        return lock

    async def install(self) -> None:
        """Start enforcing on the task's context; call before the entry URL loads."""
        context = self.tabs.context
        if context.browser is None:
            raise BrowserError("the domain lock needs a browser-launched context")
        page_cdp = await context.new_cdp_session(self.tabs.page)
        info = (await page_cdp.send("Target.getTargetInfo"))["targetInfo"]
        await page_cdp.detach()
        self._context_id = info["browserContextId"]
        self._targets[self.tabs.page] = info["targetId"]
        cdp = await context.browser.new_browser_cdp_session()
        cdp.on("Fetch.requestPaused", lambda event: self._spawn(self._paused(cdp, event)))
        patterns = (_EVERYTHING if self.downstream else _DOCUMENTS)["patterns"]
        if self.documents is not None:
            patterns = [*patterns, *DOCUMENT_RESPONSES]
        await cdp.send("Fetch.enable", {"patterns": patterns})
        context.on("close", lambda _: self._spawn(_quietly(cdp.detach())))
        context.on("page", self._watch)
        self._watch(self.tabs.page)

    # --- the network layer -----------------------------------------------------------------

    async def _paused(self, cdp: CDPSession, event: dict[str, Any]) -> None:
        if "responseStatusCode" in event or "responseErrorReason" in event:
            await self._response(cdp, event)
            return
        request = {"requestId": event["requestId"]}
        url = event["request"]["url"]
        document = event.get("resourceType") == "Document"
        tab = await self._our_tab(cdp, event.get("frameId", "")) if document else None
        reason = self.policy.verdict(url) if tab is not None else None
        if tab is None or reason is None:
            await (self.downstream(cdp, event) if self.downstream else
                   _quietly(cdp.send("Fetch.continueRequest", request)))
            return
        await _quietly(cdp.send("Fetch.failRequest", {**request, "errorReason": "Aborted"}))
        popup = not await self._shown(tab["targetId"])
        empty = tab["url"] in ("", "about:blank")
        kind: BlockKind = "redirect" if event.get("redirectedRequestId") else (
            "navigation" if not popup else "new_tab" if empty else "popup")
        self._report(kind, url, reason)
        if popup:  # a tab the agent never saw, sent off the site: the agent stays where it was
            await _quietly(cdp.send("Target.closeTarget", {"targetId": tab["targetId"]}))

    async def _response(self, cdp: CDPSession, event: dict[str, Any]) -> None:
        """A document response at its headers, for the document view: judged by its headers
        first (a page goes on at once), then only a tab's or a frame's of this context."""
        view = self.documents
        verdict = view.verdict(event) if view and "responseErrorReason" not in event else None
        info = await self._target(cdp, event.get("frameId", "")) if verdict else None
        if view is None or verdict is None or info is None:  # a page: on at once
            await _quietly(cdp.send("Fetch.continueRequest", {"requestId": event["requestId"]}))
            return
        await view.paused(cdp, event, verdict, top=info["type"] == "page", report=Reports(
            opened=lambda sentence: self.tabs.events.append(PageEvent("document", sentence)),
            blocked=lambda url, reason: self._report("download", url, reason)))

    async def _target(self, cdp: CDPSession, frame_id: str) -> dict[str, Any] | None:
        """The target of a frame of this context: a tab, a cross-origin frame, or (an
        in-process subframe is no target) a frame taken as ours; None for another context's."""
        try:
            info: dict[str, Any] = (await cdp.send("Target.getTargetInfo",
                                                   {"targetId": frame_id}))["targetInfo"]
        except PlaywrightError:
            return {"type": "iframe", "browserContextId": self._context_id}
        return info if info["browserContextId"] == self._context_id else None

    async def _shown(self, target_id: str) -> bool:
        """Whether the tab ``target_id`` is one the agent has been shown (``tabs.seen``)."""
        for page in self.tabs.seen - self._targets.keys():
            with contextlib.suppress(PlaywrightError):  # closed meanwhile: not this tab
                page_cdp = await self.tabs.context.new_cdp_session(page)
                info = (await page_cdp.send("Target.getTargetInfo"))["targetInfo"]
                self._targets[page] = info["targetId"]
                await page_cdp.detach()
        return target_id in self._targets.values()

    async def _our_tab(self, cdp: CDPSession, frame_id: str) -> dict[str, Any] | None:
        """The tab (page target) whose main frame is ``frame_id``, if it is in our context."""
        try:
            info: dict[str, Any] = (await cdp.send("Target.getTargetInfo",
                                                   {"targetId": frame_id}))["targetInfo"]
        except PlaywrightError:
            return None  # not a target: a subframe inside a page
        ours = info["type"] == "page" and info["browserContextId"] == self._context_id
        return info if ours else None

    # --- the last line: committed URLs -----------------------------------------------------

    def _watch(self, page: Page) -> None:
        page.on("framenavigated", self._on_navigated)
        page.on("console", self._on_console)
        page.on("download", lambda download: self._spawn(self._on_download(download)))
        # A new tab is reported once its first document has committed, before these
        # listeners existed: check what it holds now.
        self._on_navigated(page.main_frame)

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
        if any(p is not page and not p.is_closed() for p in self.tabs.context.pages):
            await _quietly(page.close())
        else:
            back = self._last_allowed.get(page, self.policy.entry_url)
            await _quietly(page.goto(back, wait_until="commit"))

    def _on_console(self, message: ConsoleMessage) -> None:
        """Chromium itself refuses a page's navigation to data:, file: or view-source:
        before any request exists; it says so only on the console."""
        refused = _REFUSED.match(message.text) if message.type == "error" else None
        if refused:
            url = refused.group(1)
            self._report("navigation", url, self.policy.verdict(url) or "the browser refused it")

    # --- shared ----------------------------------------------------------------------------

    async def _on_download(self, download: Download) -> None:
        if self.documents is not None and self.documents.reopen(download.url):
            # A document's view the browser took for a download (a link's ``download``
            # attribute): shown in the tab instead, as a click on a plain link would.
            await _quietly(download.cancel())
            await _quietly(download.page.goto(download.url, wait_until="commit"))
            return
        failure = await download.failure()
        if failure is None:
            self.tabs.events.append(
                PageEvent("download", f"{download.suggested_filename} was downloaded"))
        else:
            why = "downloads are disabled" if "accept_downloads" in failure else failure
            self._report("download", download.url, why)

    def _report(self, kind: BlockKind, url: str, reason: str) -> None:
        blocked = Blocked(kind, url, reason)
        self.blocked.append(blocked)
        self.tabs.events.append(PageEvent("blocked", blocked.sentence()))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)  # keep a reference until done, or the task may be collected
        task.add_done_callback(self._tasks.discard)


async def _quietly(call: Coroutine[Any, Any, Any]) -> None:
    """Await a browser call that fails only because its tab or request is already gone."""
    with contextlib.suppress(PlaywrightError):
        await call

"""Replaying a snapshot: every request of the task's context is answered from it.

The replayer is the domain lock's *downstream*: the lock's browser-level CDP
``Fetch`` interception sees every request first (documents are judged exactly as in
a live run) and hands the ones it lets through to :meth:`Replayer.handle` instead
of the network. One interception for both keeps the order fixed: with two
browser-level ``Fetch`` sessions Chromium asks the most recent first, and a
replayed redirect would slip past the lock. Browser-level interception sees every
frame, cross-origin iframes (their own targets) included, and each hop of a
replayed redirect.

A request the snapshot cannot answer gets an HTTP 504 whose body says so, and is
listed; a document that is not there also becomes a page event, so the step's note tells
the model the page is not in the snapshot (and which archive lacks it).
A snapshot imported from a web archive (``manifest.archive``) is replayed as the crawl's
browser saw it: of several captures of a URL, the one nearest in time to the document
asking (each frame remembers its document's capture time); and a URL the crawl captured
only under its other scheme (http/https: crawls mix them) is answered by that capture.
Nothing the page asks for leaves the browser: the harness's own channel (see rules.py,
relay.py) is carried by the harness.
A replayed document carries the clock its recording saw at its start as a
``Server-Timing`` entry (CLOCK), from which js/snapshot_page.js starts the page's
wall clock; ``Math.random`` gets the recording's seed.
"""

from __future__ import annotations

import base64
import contextlib
from dataclasses import dataclass, field, replace
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from ..browser.evidence import PageEvent
from ..core.sites import SiteRecord, Unmatched
from .manifest import Manifest, Snapshot
from .match import Match, Matcher, Request
from .relay import Relay
from .rules import Rules

UNMATCHED_STATUS = 504
CLOCK = "webfovea-clock"  # the Server-Timing name js/snapshot_page.js reads
_SHOWN = 20  # unmatched requests listed in result.json (all of them go to the run's file)


@dataclass
class Replayer:
    snapshot: Snapshot
    manifest: Manifest
    rules: Rules
    record: SiteRecord
    relay: Relay
    unmatched: list[Unmatched] = field(default_factory=list)
    _context_id: str = ""
    _frames: dict[str, bool] = field(default_factory=dict)  # frame id → in our context
    _events: list[PageEvent] | None = None  # the tabs' page events: the step's note reads them
    _times: dict[str, float] = field(default_factory=dict)  # frame id → its page's capture ms
    _latest: float = 0.0  # the capture time of the last document served

    def __post_init__(self) -> None:
        bodies = {e.request_body: self.snapshot.body(e.request_body)
                  for e in self.manifest.entries if e.request_body}
        self.matcher = Matcher(self.manifest, self.rules, bodies)
        self._latest = self.manifest.started_at * 1000

    def attach(self, context_id: str, events: list[PageEvent] | None = None) -> None:
        """Answer for ``context_id`` from now on; the lock calls :meth:`handle`. A document
        the snapshot lacks is reported to ``events``."""
        self._context_id = context_id
        self._events = events

    async def handle(self, cdp: CDPSession, event: dict[str, Any]) -> None:
        request_id = {"requestId": event["requestId"]}
        url = event["request"]["url"]
        if not await self._ours(cdp, event.get("frameId", "")):
            await _quietly(cdp, "Fetch.continueRequest", request_id)
            return
        request = _request(event["request"])
        if self.rules.is_passthrough(url):
            self.record.passthrough += 1
            relayed = await self.relay.send(request.method, url, event["request"]["headers"],
                                            request.body)
            await _fulfill(cdp, request_id, relayed.status, "", relayed.headers, relayed.body)
            return
        frame = event.get("frameId", "")
        match = self._find(request, frame)
        if match is None:
            await self._refuse(cdp, request_id, request, event.get("resourceType", ""))
            return
        entry = match.entry
        self.record.count(match.how)
        if entry.captured_ms is not None and event.get("resourceType") == "Document":
            self._times[frame] = self._latest = entry.captured_ms
        headers = entry.headers
        if entry.clock_ms is not None:
            headers = [*headers, ("server-timing", f'{CLOCK};desc="{entry.clock_ms:.0f}"')]
        await _fulfill(cdp, request_id, entry.status, entry.status_text, headers,
                       self.snapshot.body(entry.body))

    def _find(self, request: Request, frame: str) -> Match | None:
        archive = self.manifest.archive
        if archive is None:
            return self.matcher.find(request)
        near = self._times.get(frame, self._latest)
        return self.matcher.find(request, near) or self.matcher.find(_twin(request), near)

    async def _refuse(self, cdp: CDPSession, request_id: dict[str, str], request: Request,
                      resource_type: str) -> None:
        why = self.matcher.why_unmatched(request)
        self.unmatched.append(Unmatched(method=request.method, url=request.url,
                                        resource_type=resource_type, reason=why))
        self.record.unmatched += 1
        self.record.unmatched_shown = [u for u in self.unmatched[:_SHOWN]]
        archive = self.manifest.archive
        lacks = f" (the web archive {archive.name} did not capture it)" if archive else ""
        if resource_type == "Document" and self._events is not None:
            self._events.append(PageEvent("missing", (
                f"the page {request.url} is not in the site snapshot{lacks}, so an error page "
                "stands in for it; go_back returns to the last page the snapshot holds")))
        body = f"not in the site snapshot{lacks}: {request.method} {request.url} ({why})"
        await _fulfill(cdp, request_id, UNMATCHED_STATUS, "Not In Snapshot",
                       [("content-type", "text/plain; charset=utf-8"),
                        ("x-webfovea-snapshot", "unmatched")], body.encode())

    async def _ours(self, cdp: CDPSession, frame_id: str) -> bool:
        """Whether a request's frame belongs to the task's context.

        Tabs and cross-origin iframes are targets that name their context. An in-process
        subframe or a worker is not a target: it is taken as ours, because the harness
        runs one task context per browser at a time.
        """
        if frame_id not in self._frames:
            try:
                info = (await cdp.send("Target.getTargetInfo",
                                       {"targetId": frame_id}))["targetInfo"]
                self._frames[frame_id] = info.get("browserContextId") == self._context_id
            except PlaywrightError:
                self._frames[frame_id] = True
        return self._frames[frame_id]


def _twin(request: Request) -> Request:
    """The same request under the other scheme (http ↔ https)."""
    scheme, sep, rest = request.url.partition("://")
    other = {"http": "https", "https": "http"}.get(scheme.lower(), scheme)
    return replace(request, url=other + sep + rest)


def _request(data: dict[str, Any]) -> Request:
    entries = data.get("postDataEntries") or []
    if entries:
        body = b"".join(base64.b64decode(e.get("bytes", "")) for e in entries)
    else:
        body = (data.get("postData") or "").encode()
    ctype = next((v for k, v in (data.get("headers") or {}).items()
                  if k.lower() == "content-type"), "")
    return Request(method=data["method"], url=data["url"], body=body, content_type=ctype)


async def _fulfill(cdp: CDPSession, request_id: dict[str, str], status: int, phrase: str,
                   headers: list[tuple[str, str]], body: bytes) -> None:
    await _quietly(cdp, "Fetch.fulfillRequest", {
        **request_id, "responseCode": status, "responsePhrase": phrase or "OK",
        "responseHeaders": [{"name": k, "value": v} for k, v in headers],
        "body": base64.b64encode(body).decode()})


async def _quietly(cdp: CDPSession, method: str, params: dict[str, Any]) -> None:
    """A CDP call that fails only because the request is already gone (tab closed)."""
    with contextlib.suppress(PlaywrightError):
        await cdp.send(method, params)

"""Recording a snapshot: every response the task's context loaded, as it finishes.

Recording only listens (Playwright's context-wide request events), so the live run
is not slowed by interception and the domain lock works exactly as without it. The
context's events cover every page and frame, cross-origin iframes included; an
HTTP redirect is one request per hop, each recorded with its 3xx status and
``Location`` header, so a replay walks the same chain. Requests that failed (a
navigation the domain lock blocked, a refused connection) have no response and are
not recorded: the replay fails them again. A response the browser took from its cache
has no body left to read; it is the body recorded for that URL before. Each document
tells its clock at its start (js/snapshot_page.js, :meth:`Recorder.clock`); it is kept
with the document's entry, so the replay starts that document at the same time.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import BrowserContext, Frame, Request, Response
from playwright.async_api import Error as PlaywrightError

from ..core.sites import Limit
from .manifest import Entry, Manifest, Snapshot, kept_headers
from .rules import Rules


@dataclass
class Recorder:
    snapshot: Snapshot
    manifest: Manifest
    rules: Rules
    _order: dict[Request, int] = field(default_factory=dict)
    _stored: set[Request] = field(default_factory=set)
    _last_body: dict[tuple[str, str], str] = field(default_factory=dict)  # (method, URL) → hash
    _pending: set[asyncio.Future[None]] = field(default_factory=set)
    _clocks: dict[int, float] = field(default_factory=dict)  # a document's order → its clock

    def attach(self, context: BrowserContext) -> None:
        self.snapshot.create()
        context.on("request", self._started)
        context.on("requestfinished", self._finished)

    def _started(self, request: Request) -> None:
        if not self.rules.is_passthrough(request.url):
            self._order[request] = len(self._order)
        if request.redirected_from is not None:  # its hop never fires requestfinished
            self._finished(request.redirected_from)

    def clock(self, source: dict[str, Any], started_ms: float, url: str) -> None:
        """A document of ``source``'s frame at ``url`` started when its clock read
        ``started_ms``: the latest document request of that frame for that URL."""
        frame = source.get("frame")
        for request in reversed(self._order):
            if request.resource_type == "document" and request.url == url and \
                    _frame_of(request) is frame:
                self._clocks[self._order[request]] = started_ms
                return

    def _finished(self, request: Request) -> None:
        if request in self._order and request not in self._stored:
            self._stored.add(request)
            task = asyncio.ensure_future(self._store(request))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def _store(self, request: Request) -> None:
        try:
            response = await request.response()
        except PlaywrightError:
            return
        if response is None:
            return
        key = (request.method, request.url)
        body = await _body(response)
        if body is None and key in self._last_body:
            digest = self._last_body[key]  # a cache hit: the browser did not keep its copy
        elif body is None:
            self.manifest.limits.append(Limit(kind="body_lost", url=request.url,
                                              detail="the browser no longer had the body"))
            return
        else:
            digest = self._last_body[key] = self.snapshot.put(body)
        post = request.post_data_buffer
        self.manifest.entries.append(Entry(
            order=self._order[request], method=request.method, url=request.url,
            resource_type=request.resource_type,
            request_body=self.snapshot.put(post) if post else None,
            request_type=(await request.all_headers()).get("content-type", "") if post else "",
            status=response.status, status_text=response.status_text,
            headers=kept_headers(await response.all_headers()),
            body=digest, size=(self.snapshot.bodies / digest).stat().st_size))

    async def close(self) -> None:
        """Wait for responses still being stored, then write the manifest."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=10.0)
        for entry in self.manifest.entries:
            entry.clock_ms = self._clocks.get(entry.order)
        self.snapshot.write(self.manifest)


def _frame_of(request: Request) -> Frame | None:
    try:
        return request.frame
    except PlaywrightError:  # a service worker's request has no frame
        return None


async def _body(response: Response) -> bytes | None:
    if 300 <= response.status < 400:
        return b""  # a redirect has no body the browser keeps
    with contextlib.suppress(PlaywrightError):
        return await response.body()
    return None

"""The site's requests, recorded: every XHR and fetch request of a task's tabs (every tab,
every frame) into ``OUT/network.jsonl`` (:mod:`webfovea.rundir.network`).

It rides on the request events :class:`~webfovea.browser.session.Tabs` already receives for
settling (a second listener would cost Playwright's per-handler bookkeeping again on every
request of every type). Nothing on a step's path waits for it: what is sent is noted when it
is sent (time, step, frame, page, the headers the browser announced); once the response has
finished, a task of its own reads the body — the one call to the driver per request, for
JSON and text responses only — and the records are written from a worker thread in batches.
A body that cannot be read (a redirect, a page that went away) is recorded as null. Model
providers are asked from Python, never from the page, so their requests are not there.

The headers are the ones the request went out with (``request.all_headers()``, read once
it has finished, in the same background task): what the page set (``Authorization``
included) and what the network stack added (``Cookie``), credentials redacted. Should that
read fail (the context closing), the headers Playwright announced up front stand in.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Request, Response

from ..rundir.network import (
    BODY_CAP,
    RECORDED_TYPES,
    NetworkLog,
    NetworkRecord,
    Redactor,
    decoded,
    post_fields,
    textual,
)

CLOSE_WAIT = 5.0  # seconds the task's end waits for bodies still being read
# A response declaring more than this is not read at all (the driver would carry it whole
# across its pipe, beside the step's own calls): body null, body_truncated true.
READ_LIMIT = 4 * 1024 * 1024
UNFINISHED = "unfinished: the task ended before the response"
# The offline suite's pages report their layout to its server for the oracle
# (webfovea.suite.server.CONTROL): the harness's own bookkeeping, not the site's requests.
HARNESS_PATHS = re.compile(r"^https?://[^/]+/__fovea/")


@dataclass(frozen=True)
class _Sent:
    """What is known the moment a request is sent."""

    time: float
    step: int
    frame_url: str | None
    page_url: str | None


class NetworkRecorder:
    """Records the XHR and fetch requests it is told of (``sent``, then ``ended``);
    ``step`` is the loop's current step."""

    def __init__(self, log: NetworkLog, redactor: Redactor, *, cap: int = BODY_CAP) -> None:
        self.log, self.redactor, self.cap = log, redactor, cap
        self.step = 0
        self._sent: dict[Request, _Sent] = {}
        self._reading: set[asyncio.Future[None]] = set()
        self._queue: list[NetworkRecord] = []
        self._flushing: asyncio.Future[None] | None = None
        self._closed = False

    def sent(self, request: Request) -> None:
        previous = request.redirected_from
        if previous is not None and previous in self._sent:  # its hop fires no requestfinished
            self.ended(previous)
        if (self._closed or request.resource_type not in RECORDED_TYPES
                or HARNESS_PATHS.match(request.url)):
            return
        frame_url = page_url = None
        with contextlib.suppress(PlaywrightError):  # a service worker's request has no frame
            frame = request.frame
            frame_url = frame.url
            page_url = frame.page.url
        self._sent[request] = _Sent(time.time(), self.step, frame_url, page_url)

    def ended(self, request: Request) -> None:
        """The request finished or failed: its record is completed in the background."""
        sent = self._sent.pop(request, None)
        if sent is None:
            return
        reading = asyncio.ensure_future(self._read(request, sent))
        self._reading.add(reading)
        reading.add_done_callback(self._reading.discard)

    async def _read(self, request: Request, sent: _Sent) -> None:
        fields: dict[str, Any] = {}
        headers = request.headers  # announced up front; the full set replaces them below
        try:
            with contextlib.suppress(PlaywrightError):  # the context may close meanwhile
                headers = await request.all_headers()  # the cookies the stack added too
                fields = await self._response_fields(request)
        finally:  # also when the task's end cut the reading short: the request was made
            self._emit(self._record(request, sent, failure=request.failure, headers=headers,
                                    **fields))

    async def _response_fields(self, request: Request) -> dict[str, Any]:
        # Finished: its response has arrived, so it is at hand without a call to the driver.
        response = request.existing_response if request.failure is None else None
        if response is None:
            return {}
        headers = response.headers  # the type and length, again without a call
        content_type = headers.get("content-type")
        length = headers.get("content-length")
        size = int(length) if length and length.isdigit() else None
        fields: dict[str, Any] = {"status": response.status, "content_type": content_type,
                                  "body_size": size}
        if not textual(content_type) or 300 <= response.status < 400:
            return fields
        if size is not None and size > READ_LIMIT:
            return {**fields, "body_truncated": True}
        raw = await _body(response)
        if raw is not None:
            body, cut = decoded(self.redactor.data(raw), content_type, cap=self.cap)
            fields.update(body=body, body_size=len(raw), body_truncated=cut)
        return fields

    def _record(self, request: Request, sent: _Sent, *, failure: str | None,
                headers: dict[str, str] | None = None, **response: Any) -> NetworkRecord:
        r = self.redactor
        return NetworkRecord(
            time=sent.time, step=sent.step,
            frame_url=r.url(sent.frame_url) if sent.frame_url else None,
            page_url=r.url(sent.page_url) if sent.page_url else None,
            url=r.url(request.url), method=request.method, resource_type=request.resource_type,
            headers=r.headers(request.headers if headers is None else headers),
            failure=failure,
            **post_fields(request.post_data_buffer, r, cap=self.cap), **response)

    def _emit(self, record: NetworkRecord) -> None:
        """Queue ``record``; one flush at a time writes what has queued, in a thread."""
        self._queue.append(record)
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            # A full disk is reported by the run directory's own writes; the page goes on.
            with contextlib.suppress(OSError):
                await asyncio.to_thread(self.log.extend, batch)

    async def close(self) -> None:
        """Stop recording; wait (briefly) for bodies still being read, record the requests
        that never finished, and write everything. Before the context closes: bodies are
        read from it."""
        self._closed = True
        if self._reading:
            await asyncio.wait(set(self._reading), timeout=CLOSE_WAIT)
        late = set(self._reading)
        for reading in late:
            reading.cancel()
        if late:  # each records what it has as it stops
            await asyncio.wait(late)
        for request, sent in self._sent.items():
            self._queue.append(self._record(request, sent, failure=UNFINISHED))
        self._sent.clear()
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
        batch, self._queue = self._queue, []
        with contextlib.suppress(OSError):
            self.log.extend(batch)


def network_recorder(out: Path, *, secrets: Iterable[str]) -> NetworkRecorder:
    """A recorder writing ``out``/network.jsonl, ``secrets`` redacted."""
    return NetworkRecorder(NetworkLog(out), Redactor.of(secrets))


async def _body(response: Response) -> bytes | None:
    with contextlib.suppress(PlaywrightError):
        return await response.body()
    return None

"""The document view in the browser: a document response is replaced by its view page.

The domain lock's browser-level CDP ``Fetch`` interception (browser/domain_lock.py) also
pauses every document response at its headers and hands it to :meth:`DocumentView.paused`
(one interception for both, so the lock still judges each request before it leaves). A PDF
(by type, or a ``.pdf`` served untyped or as an attachment) or a data file that would be
downloaded is read as a stream, up to the size cap, saved under ``OUT/documents/``, and
answered with its view page (webfovea.documents.view) in place of the response: the tab or
frame shows the view at the document's URL, so links, history and the lock behave as on any
page. Over the cap, or a download of another type, the request fails (the current page
stays) and the next note says why and which flag changes it.

A snapshot records what the browser received, so a recorded document replays as its view.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from ..core.errors import DocumentError
from ..documents.kinds import KINDS, Verdict, judge
from ..documents.opening import open_document
from ..documents.view import refusal_page
from ..rundir.trajectory import DocumentRecord

PATTERNS = [{"urlPattern": "*", "resourceType": "Document", "requestStage": "Response"}]
DEFAULT_MAX_MB = 50.0
CHUNK = 1 << 20
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
OPENED = ", ".join(k.upper() for k in KINDS)


@dataclass(frozen=True)
class Reports:
    """Where the view says what it did: ``opened`` takes a document's sentence (a page event
    for the next note); ``blocked`` a refused download's URL and reason (the domain lock's
    report, so the block is listed with the lock's own)."""

    opened: Callable[[str], None]
    blocked: Callable[[str, str], None]


_QUIET = Reports(lambda sentence: None, lambda url, reason: None)


@dataclass
class DocumentView:
    """``folder``: where documents are saved (None: not saved); ``allow_downloads``: other
    downloads go on to the browser (``--allow-downloads``) instead of being refused."""

    folder: Path | None
    max_bytes: int = int(DEFAULT_MAX_MB * 1e6)
    allow_downloads: bool = False
    records: list[DocumentRecord] = field(default_factory=list)
    _reopening: dict[str, DocumentRecord] = field(default_factory=dict)

    def reopen(self, url: str) -> bool:
        """The browser took a view for a download (a link with a ``download`` attribute
        asks for one whatever the response is): True when ``url``'s latest document was
        shown, so the caller opens it in the tab; that second opening is neither reported
        nor saved again."""
        last = next((r for r in reversed(self.records) if r.url == url), None)
        if last is None or not last.shown:
            return False
        self._reopening[url] = last
        return True

    def verdict(self, event: dict[str, Any]) -> Verdict | None:
        """What a paused response is, from its headers alone, when the view acts on it (a
        document, or a download to refuse); None for a page (most responses), which the
        caller lets on at once."""
        if not 200 <= event.get("responseStatusCode", 0) < 300:
            return None
        headers = {h["name"].lower(): h["value"] for h in event.get("responseHeaders") or []}
        verdict = judge(event["request"]["url"], headers)
        if verdict.kind is None and (not verdict.download or self.allow_downloads):
            return None
        return verdict

    async def paused(self, cdp: CDPSession, event: dict[str, Any], verdict: Verdict, *,
                     top: bool, report: Reports) -> None:
        """A response the view acts on (``verdict``), paused at its headers: open it or
        refuse it; what was done goes to ``report``."""
        request = {"requestId": event["requestId"]}
        headers = {h["name"].lower(): h["value"] for h in event.get("responseHeaders") or []}
        started = time.monotonic()
        earlier = self._reopening.pop(event["request"]["url"], None)
        if earlier is not None:
            report = _QUIET  # told at the first opening
        record = earlier or DocumentRecord(url=event["request"]["url"], kind=verdict.kind or "",
                                           content_type=verdict.content_type, size=0,
                                           frame=not top)
        if earlier is None:
            self.records.append(record)
        if verdict.kind is None:
            await self._refuse(cdp, request, record, report,
                               f"downloads are disabled for {verdict.content_type} files "
                               f"(--allow-downloads saves them); {OPENED} files open as "
                               "documents")
            return
        length = int(headers.get("content-length", "0") or 0)
        data = await self._body(cdp, request, length)
        if data is None:
            record.size = length
            await self._refuse(cdp, request, record, report, f"it is larger than the cap of "
                               f"{self.max_bytes / 1e6:g} MB (--max-download-mb)")
            return
        await self._open(cdp, request, record, verdict, data, report, save=earlier is None)
        record.open_seconds = round(time.monotonic() - started, 3)

    async def _body(self, cdp: CDPSession, request: dict[str, str], length: int) -> bytes | None:
        """The body, read as a stream; None once it passes the cap (nothing more is read)."""
        if length > self.max_bytes:
            return None
        stream = (await cdp.send("Fetch.takeResponseBodyAsStream", request))["stream"]
        chunks, size = [], 0
        try:
            while True:
                part = await cdp.send("IO.read", {"handle": stream, "size": CHUNK})
                data = part["data"]
                chunk = base64.b64decode(data) if part.get("base64Encoded") else data.encode()
                size += len(chunk)
                if size > self.max_bytes:
                    return None
                chunks.append(chunk)
                if part.get("eof"):
                    return b"".join(chunks)
        finally:
            await _send(cdp, "IO.close", {"handle": stream})

    async def _open(self, cdp: CDPSession, request: dict[str, str], record: DocumentRecord,
                    verdict: Verdict, data: bytes, report: Reports, *,
                    save: bool) -> None:
        assert verdict.kind is not None  # judged a document by the caller
        record.size, record.sha256 = len(data), hashlib.sha256(data).hexdigest()
        if save:
            record.path = self._save(verdict.filename, data)
        where = f"; saved as {record.path}" if record.path else ""
        try:
            opened = await asyncio.to_thread(open_document, verdict.kind, verdict.filename, data)
        except DocumentError as e:
            record.note = f"{verdict.filename} could not be opened: {e}{where}"
            report.opened(record.note)
            await _fulfill(cdp, request, refusal_page(verdict.filename, record.note))
            return
        record.shown, record.pages, record.rows = True, opened.pages, opened.rows
        inside = " inside a frame" if record.frame else ""
        notes = "".join(f"; {n}" for n in opened.notes)
        record.note = (f"{opened.what} opened{inside} ({verdict.filename}{where}): "
                       f"{opened.shown}{notes}")
        report.opened(record.note)
        await _fulfill(cdp, request, opened.html)

    def _save(self, filename: str, data: bytes) -> str:
        if self.folder is None:
            return ""
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"{len(self.records):02d}-{_SAFE.sub('_', filename)[:80] or 'document'}"
        (self.folder / name).write_bytes(data)
        return f"{self.folder.name}/{name}"

    async def _refuse(self, cdp: CDPSession, request: dict[str, str], record: DocumentRecord,
                      report: Reports, reason: str) -> None:
        record.note = f"a download from {_shown(record.url)} was blocked: {reason}"
        report.blocked(record.url, reason)
        with contextlib.suppress(PlaywrightError):
            await cdp.send("Fetch.failRequest", {**request, "errorReason": "Aborted"})


def _shown(url: str) -> str:
    return url if len(url) <= 200 else url[:200] + "…"


async def _fulfill(cdp: CDPSession, request: dict[str, str], html: str) -> None:
    await _send(cdp, "Fetch.fulfillRequest", {
        **request, "responseCode": 200,
        "responseHeaders": [{"name": "Content-Type", "value": "text/html; charset=utf-8"},
                            {"name": "Cache-Control", "value": "no-store"}],
        "body": base64.b64encode(html.encode("utf-8")).decode()})


async def _send(cdp: CDPSession, method: str, params: dict[str, Any]) -> None:
    """A CDP call that fails only because the request is already gone (tab closed)."""
    with contextlib.suppress(PlaywrightError):
        await cdp.send(method, params)

"""Reading WARC 1.0/1.1 and ARC files with warcio: responses, revisits, requests.

warcio reads plain and record-at-a-time gzipped files alike, turns ARC records into WARC
ones (``arc2warc``) and decodes the body as the crawler stored it (chunked transfer
coding, gzip/deflate/brotli content coding) through ``content_stream()``. Everything is
gathered first and resolved at the end, because the records that complete one another
come in any order and, in a WACZ, in several files: a request may follow its response,
and a revisit may come before the record it refers to.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import IO, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.timeutils import iso_date_to_timestamp, timestamp_to_sec

from .capture import Capture, Read, Skipped

_NOT_MODIFIED = "server-not-modified"  # a revisit profile: the crawler got a 304
SEED_FIELD, ENTRY_FIELD = "webfovea-random-seed", "webfovea-entry-url"  # in our warcinfo
STARTED_FIELD = "webfovea-started-at"  # the recording's start, epoch seconds


@dataclass
class _Request:
    method: str
    body: bytes
    content_type: str


@dataclass
class _Revisit:
    capture: Capture  # headers and date of its own; payload still to find
    digest: str
    refers_to: str
    profile: str
    own_headers: bool


@dataclass
class WarcReader:
    """Feed it one or more WARC/ARC streams, then :meth:`finish` into ``read``."""

    read: Read
    _responses: list[tuple[Capture, str, str]] = field(default_factory=list)  # id, concurrent
    _requests: dict[str, _Request] = field(default_factory=dict)  # by record id
    _requests_to: dict[str, _Request] = field(default_factory=dict)  # by WARC-Concurrent-To
    _requests_of: dict[str, list[_Request]] = field(default_factory=lambda: defaultdict(list))
    _revisits: list[_Revisit] = field(default_factory=list)
    _by_digest: dict[str, Capture] = field(default_factory=dict)

    def feed(self, stream: IO[bytes], source: str) -> None:
        try:
            for record in ArchiveIterator(stream, arc2warc=True):
                self._record(record)
        except ArchiveLoadFailed as e:
            self.read.skipped.append(Skipped(source, f"the rest of the file is not a readable "
                                                     f"WARC/ARC record ({e})"))

    def _record(self, record: Any) -> None:
        kind = record.rec_type
        uri = record.rec_headers.get_header("WARC-Target-URI") or ""
        if kind == "warcinfo":
            self._warcinfo(record.content_stream().read())
        if kind not in ("response", "revisit", "request"):
            self._other(kind)
            return
        if not uri.startswith(("http://", "https://")):
            self._other(f"{kind} of a non-HTTP URL")
            return
        if kind == "request":
            self._request(record, uri)
        elif record.http_headers is None and kind == "response":
            self.read.skipped.append(Skipped(uri, "its response record holds no HTTP headers"))
        else:
            self._response(record, uri, kind)

    def _warcinfo(self, payload: bytes) -> None:
        """A webfovea export names the recording's seed and entry page (export.py)."""
        fields = dict(line.split(":", 1) for line in payload.decode("utf-8", "replace")
                      .splitlines() if ":" in line)
        fields = {k.strip().lower(): v.strip() for k, v in fields.items()}
        if fields.get(SEED_FIELD, "").isdigit():
            self.read.random_seed = int(fields[SEED_FIELD])
        self.read.entry_url = fields.get(ENTRY_FIELD, self.read.entry_url)
        with contextlib.suppress(ValueError):
            self.read.started_at = float(fields.get(STARTED_FIELD, ""))
        self.read.from_webfovea |= fields.get("software", "").startswith("webfovea ")

    def _other(self, kind: str) -> None:
        self.read.others[kind] = self.read.others.get(kind, 0) + 1

    def _request(self, record: Any, uri: str) -> None:
        http = record.http_headers
        request = _Request(method=(http.protocol if http else "GET") or "GET",
                           body=record.content_stream().read() if http else b"",
                           content_type=http.get_header("content-type") or "" if http else "")
        self._requests[record.rec_headers.get_header("WARC-Record-ID") or ""] = request
        concurrent = record.rec_headers.get_header("WARC-Concurrent-To")
        if concurrent:
            self._requests_to[concurrent] = request
        self._requests_of[uri].append(request)

    def _response(self, record: Any, uri: str, kind: str) -> None:
        headers = record.rec_headers
        http = record.http_headers
        try:
            capture = Capture(url=uri, status=int(http.get_statuscode()) if http else 0,
                              headers=list(http.headers) if http else [],
                              reason=_reason(http.statusline) if http else "",
                              body=record.content_stream().read(),
                              captured_ms=_epoch_ms(headers.get_header("WARC-Date") or ""),
                              seq=len(self._responses) + len(self._revisits))
        except (ValueError, OSError, EOFError) as e:  # a body its encoding cannot decode
            self.read.skipped.append(Skipped(uri, f"its body could not be decoded ({e})"))
            return
        digest = headers.get_header("WARC-Payload-Digest") or ""
        if kind == "revisit":
            profile = headers.get_header("WARC-Profile") or ""
            self._revisits.append(_Revisit(capture, digest,
                                           headers.get_header("WARC-Refers-To-Target-URI") or uri,
                                           profile, own_headers=http is not None))
            return
        if digest:
            self._by_digest.setdefault(digest, capture)
        self._responses.append((capture, headers.get_header("WARC-Record-ID") or "",
                                headers.get_header("WARC-Concurrent-To") or ""))

    def finish(self) -> None:
        """Pair responses with their requests, resolve the revisits, hand all to ``read``."""
        for capture, record_id, concurrent in self._responses:
            request = (self._requests_to.get(record_id) or self._requests.get(concurrent)
                       or _first(self._requests_of.get(capture.url)))
            if request is not None:
                capture.method, capture.request_body = request.method, request.body
                capture.request_type = request.content_type
            self.read.captures.append(capture)
        for revisit in self._revisits:
            resolved = self._resolve(revisit)
            if resolved is not None:
                self.read.captures.append(resolved)
        self.read.captures.sort(key=lambda c: (0.0 if self.read.from_webfovea else c.captured_ms,
                                               c.seq))

    def _resolve(self, revisit: _Revisit) -> Capture | None:
        capture = revisit.capture
        original = self._by_digest.get(revisit.digest) if revisit.digest else None
        if original is None:
            same = [c for c, _, _ in self._responses if c.url == revisit.refers_to]
            original = min(same, key=lambda c: abs(c.captured_ms - capture.captured_ms),
                           default=None)
        if original is None:
            self.read.skipped.append(Skipped(capture.url, "a revisit whose original record "
                                             f"({revisit.refers_to}) is not in the archive"))
            return None
        # A 304 revisit: the browser showed what it had cached, the original response.
        keep_own = revisit.own_headers and _NOT_MODIFIED not in revisit.profile
        return Capture(url=capture.url, status=capture.status if keep_own else original.status,
                       headers=capture.headers if keep_own else original.headers,
                       reason=capture.reason if keep_own else original.reason,
                       body=original.body, captured_ms=capture.captured_ms,
                       method=original.method, revisit=True, seq=capture.seq)


def _first(requests: list[_Request] | None) -> _Request | None:
    return requests.pop(0) if requests else None


def _reason(statusline: str) -> str:
    parts = statusline.split(" ", 1)
    return parts[1] if len(parts) == 2 else ""


def _epoch_ms(date: str) -> float:
    """A WARC-Date (ISO 8601, fractional seconds in WARC/1.1) as epoch milliseconds."""
    whole, _, rest = date.rstrip("Z").partition(".")
    seconds = float(timestamp_to_sec(iso_date_to_timestamp(whole + "Z")))
    fraction = float(f"0.{rest}") if rest.isdigit() else 0.0
    return (seconds + fraction) * 1000

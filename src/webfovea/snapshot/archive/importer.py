"""An archive file → an ordinary site snapshot, and a report of what it holds.

Captures keep the archive's time order (``order``); each carries its capture time
(``captured_ms``), and an HTML document also its clock (``clock_ms``), so the replay
starts that page's ``Date`` where the crawler saw it. An archive webfovea exported keeps
its recorded order and no capture times: it replays exactly as its snapshot did (several
responses to one URL in recorded order, as a stateful site gave them). The recording start is the earliest
capture. Bodies are stored decoded, as the snapshot format holds them. A 304 the crawling browser
got is replaced by the body it had cached (the latest earlier 200 of the URL), as a
revisit is by the payload it refers to; both count as revisits resolved.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ..manifest import DROPPED_HEADERS, ArchiveSource, Entry, Manifest, Snapshot
from .capture import Capture, Read, Skipped
from .har_import import read_har
from .wacz import read_wacz
from .warc_import import WarcReader

SUFFIXES = {".warc": "warc", ".warc.gz": "warc", ".arc": "arc", ".arc.gz": "arc",
            ".wacz": "wacz", ".har": "har"}
_TYPES = (("text/html", "document"), ("application/xhtml", "document"),
          ("text/css", "stylesheet"), ("javascript", "script"), ("font", "font"),
          ("image/", "image"), ("json", "fetch"))


@dataclass
class ImportReport:
    archive: str
    kind: str
    sha256: str
    snapshot: str
    responses: int
    pages: list[str]
    revisits: int
    redirects: int
    first_ms: float | None
    last_ms: float | None
    skipped: list[Skipped] = field(default_factory=list)
    others: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {**{k: v for k, v in vars(self).items() if k != "skipped"},
                "skipped": [{"url": s.url, "why": s.why} for s in self.skipped]}


def archive_kind(path: Path) -> str:
    """warc, arc, wacz or har, from the file name (what crawlers and browsers name them)."""
    name = path.name.lower()
    for suffix, kind in sorted(SUFFIXES.items(), key=lambda s: -len(s[0])):
        if name.endswith(suffix):
            return kind
    raise ConfigError(f"{path}: not a web archive by its name; expected one of "
                      + ", ".join(sorted(SUFFIXES)))


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_archive(path: Path) -> Read:
    if not path.is_file():
        raise ConfigError(f"{path}: no such archive file")
    kind = archive_kind(path)
    if kind == "har":
        return read_har(path)
    if kind == "wacz":
        return read_wacz(path)
    read = Read(kind=kind)
    reader = WarcReader(read)
    with path.open("rb") as fh:
        reader.feed(fh, path.name)
    reader.finish()
    return read


def import_archive(path: Path, root: Path) -> ImportReport:
    """Read ``path`` into a new snapshot at ``root``."""
    started = time.monotonic()
    read = read_archive(path)
    _resolve_not_modified(read)
    if not read.captures:
        why = "; ".join(f"{s.url}: {s.why}" for s in read.skipped[:3]) or "no HTTP responses"
        raise ConfigError(f"{path} holds nothing a snapshot can replay ({why})")
    sha = file_sha256(path)
    snapshot = Snapshot(root)
    snapshot.create()
    entries = [_entry(snapshot, order, c, timed=not read.from_webfovea)
               for order, c in enumerate(read.captures)]
    pages = read.pages or list(dict.fromkeys(
        e.url for e in entries if e.resource_type == "document" and 200 <= e.status < 300))
    times = [c.captured_ms for c in read.captures]
    manifest = Manifest(started_at=read.started_at or min(times) / 1000,
                        entry_url=read.entry_url or (pages[0] if pages else entries[0].url),
                        random_seed=int(sha[:8], 16) if read.random_seed is None
                        else read.random_seed, entries=entries,
                        archive=ArchiveSource(kind=read.kind, name=path.name, sha256=sha))
    snapshot.write(manifest)
    return ImportReport(
        archive=str(path), kind=read.kind, sha256=sha, snapshot=str(root),
        responses=len(entries), pages=pages, revisits=sum(c.revisit for c in read.captures),
        redirects=sum(_redirect(c) for c in read.captures),
        first_ms=min(times), last_ms=max(times),
        skipped=read.skipped, others=read.others, seconds=time.monotonic() - started)


def _resolve_not_modified(read: Read) -> None:
    """A 304 the crawling browser got (a HAR's revalidation, a crawler's conditional GET)
    was shown from its cache: replay the body it had, the latest earlier 200 of that URL.
    One with nothing earlier cannot be replayed."""
    latest: dict[tuple[str, str], Capture] = {}
    kept = []
    for capture in read.captures:
        key = (capture.method, capture.url)
        if capture.status == 304 and not capture.body:
            cached = latest.get(key)
            if cached is None:
                read.skipped.append(Skipped(capture.url, "a 304 (not modified) with no "
                                                         "earlier capture of its body"))
                continue
            capture = replace(cached, captured_ms=capture.captured_ms, revisit=True)
        elif 200 <= capture.status < 300:
            latest[key] = capture
        kept.append(capture)
    read.captures = kept


def _redirect(capture: Capture) -> bool:
    return 300 <= capture.status < 400 and bool(capture.header("location"))


def _entry(snapshot: Snapshot, order: int, capture: Capture, *, timed: bool) -> Entry:
    kind = _resource_type(capture)
    digest = snapshot.put(capture.body)
    return Entry(order=order, method=capture.method, url=capture.url, resource_type=kind,
                 request_body=snapshot.put(capture.request_body) if capture.request_body
                 else None, request_type=capture.request_type if capture.request_body else "",
                 status=capture.status, status_text=capture.reason,
                 headers=sorted((k.lower(), v) for k, v in capture.headers
                                if k.lower() not in DROPPED_HEADERS and not k.startswith(":")),
                 body=digest, size=len(capture.body),
                 clock_ms=capture.captured_ms if kind == "document" else None,
                 captured_ms=capture.captured_ms if timed else None)


def _resource_type(capture: Capture) -> str:
    ctype = capture.header("content-type").lower()
    if _redirect(capture) and not ctype:
        return "document"  # a redirect hop: almost always a navigation in a crawl
    return next((kind for needle, kind in _TYPES if needle in ctype), "other")

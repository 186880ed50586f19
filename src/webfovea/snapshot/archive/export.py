"""A snapshot → a standard WARC 1.1 (gzip per record), or a WACZ holding one.

Each entry becomes a request record and a response record (the body as stored, so no
content coding; ``Content-Length`` set), dated by its capture time (``captured_ms``,
else a document's clock, else the date of the document before it: its page's). A body already written earlier
becomes a revisit record (identical-payload-digest), as crawlers dedupe. warcio writes
the payload and block digests. The first record is a warcinfo naming webfovea, with the
recording's start, ``Math.random`` seed and entry page, so an import of it replays as the
snapshot did.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import io
import json
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from cdxj_indexer.main import write_cdx_index
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from ... import __version__
from ...core.errors import ConfigError
from ..manifest import Entry, Manifest, Snapshot
from .warc_import import ENTRY_FIELD, SEED_FIELD, STARTED_FIELD

SOFTWARE = f"webfovea {__version__}"
WACZ_VERSION = "1.1.1"
WACZ_WARC = "data.warc.gz"


@dataclass(frozen=True)
class Exported:
    path: str
    records: int
    responses: int
    revisits: int
    bytes: int
    seconds: float


def export(snapshot_dir: Path, out: Path) -> Exported:
    name = out.name.lower()
    if not name.endswith((".wacz", ".warc.gz", ".warc")):
        raise ConfigError(f"{out}: export writes OUT.warc.gz, OUT.warc or OUT.wacz")
    out.parent.mkdir(parents=True, exist_ok=True)
    if name.endswith(".wacz"):
        return _timed(out, lambda: export_wacz(Snapshot(snapshot_dir), out))
    return _timed(out, lambda: _write_file(Snapshot(snapshot_dir), out))


def _timed(out: Path, write: Callable[[], tuple[int, int, int]]) -> Exported:
    started = time.monotonic()
    records, responses, revisits = write()
    return Exported(str(out), records, responses, revisits, out.stat().st_size,
                    time.monotonic() - started)


def _write_file(snapshot: Snapshot, out: Path) -> tuple[int, int, int]:
    manifest = snapshot.read()
    with out.open("wb") as fh:
        return write_warc(snapshot, manifest, fh, gzip=out.name.lower().endswith(".gz"),
                          filename=out.name)


def write_warc(snapshot: Snapshot, manifest: Manifest, fh: IO[bytes],
               *, gzip: bool, filename: str) -> tuple[int, int, int]:
    """Write every entry; returns (records, responses, revisits)."""
    writer = WARCWriter(fh, gzip=gzip, warc_version="1.1")
    info = {"software": SOFTWARE, "format": "WARC File Format 1.1",
            "description": f"a webfovea site snapshot recorded from {manifest.entry_url}",
            "isPartOf": snapshot.root.name, SEED_FIELD: str(manifest.random_seed),
            ENTRY_FIELD: manifest.entry_url, STARTED_FIELD: repr(manifest.started_at)}
    writer.write_record(writer.create_warcinfo_record(filename, info))
    first: dict[str, tuple[str, str]] = {}  # body hash → (URL, WARC-Date) written first
    records, revisits = 1, 0
    for entry, when in zip(manifest.entries, _dates(manifest), strict=True):
        date = _warc_date(when)
        request = _request_record(writer, snapshot, entry, date)
        response = _response_record(writer, snapshot, entry, date, first)
        revisits += response.rec_type == "revisit"
        response.rec_headers.add_header("WARC-Concurrent-To",
                                        request.rec_headers.get_header("WARC-Record-ID"))
        writer.write_record(response)
        writer.write_record(request)
        records += 2
    return records, len(manifest.entries), revisits


def _request_record(writer: WARCWriter, snapshot: Snapshot, entry: Entry,
                    date: str) -> Any:
    parts = urlsplit(entry.url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    body = snapshot.body(entry.request_body) if entry.request_body else b""
    headers = [("Host", parts.netloc)]
    if body:
        headers += [("Content-Type", entry.request_type or "application/octet-stream"),
                    ("Content-Length", str(len(body)))]
    http = StatusAndHeaders(f"{entry.method} {target} HTTP/1.1", headers, is_http_request=True)
    return writer.create_warc_record(entry.url, "request", payload=io.BytesIO(body),
                                     length=len(body), http_headers=http,
                                     warc_headers_dict={"WARC-Date": date})


def _response_record(writer: WARCWriter, snapshot: Snapshot, entry: Entry, date: str,
                     first: dict[str, tuple[str, str]]) -> Any:
    body = snapshot.body(entry.body)
    headers = [*entry.headers, ("content-length", str(len(body)))]
    phrase = entry.status_text or "OK"
    http = StatusAndHeaders(f"{entry.status} {phrase}", headers, protocol="HTTP/1.1")
    if body and entry.body in first:
        url, when = first[entry.body]
        return writer.create_revisit_record(entry.url, _digest(body), url, when,
                                            http_headers=http,
                                            warc_headers_dict={"WARC-Date": date})
    if body:
        first[entry.body] = (entry.url, date)
    return writer.create_warc_record(entry.url, "response", payload=io.BytesIO(body),
                                     length=len(body), http_headers=http,
                                     warc_headers_dict={"WARC-Date": date})


def _digest(body: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()


def _dates(manifest: Manifest) -> list[float]:
    """Each entry's capture time (epoch ms): its own when imported, a document's clock,
    else that of the document before it (its page), so the dates keep the recorded order."""
    current = manifest.started_at * 1000
    dates = []
    for entry in manifest.entries:
        own = entry.captured_ms if entry.captured_ms is not None else entry.clock_ms
        if own is not None:
            current = own
        dates.append(current)
    return dates


def _warc_date(ms: float) -> str:
    when = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def export_wacz(snapshot: Snapshot, out: Path) -> tuple[int, int, int]:
    """A WACZ 1.1.1: the WARC, its pages, a CDXJ index and datapackage.json with hashes."""
    manifest = snapshot.read()
    with tempfile.TemporaryDirectory() as tmp:
        warc_path = Path(tmp) / WACZ_WARC
        with warc_path.open("wb") as fh:
            counts = write_warc(snapshot, manifest, fh, gzip=True, filename=WACZ_WARC)
        index = io.StringIO()
        write_cdx_index(index, [str(warc_path)], {"sort": True})
        files = {f"archive/{WACZ_WARC}": warc_path.read_bytes(),
                 "pages/pages.jsonl": _pages(manifest),
                 "indexes/index.cdx": index.getvalue().encode()}
    package = {"profile": "data-package", "wacz_version": WACZ_VERSION, "software": SOFTWARE,
               "created": _warc_date(time.time() * 1000), "title": snapshot.root.name,
               "mainPageUrl": manifest.entry_url,
               "resources": [{"name": Path(n).name, "path": n, "bytes": len(data),
                              "hash": "sha256:" + hashlib.sha256(data).hexdigest()}
                             for n, data in files.items()]}
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in files.items():  # the WARC is gzipped already: stored, not deflated
            kind = zipfile.ZIP_STORED if name.endswith(".gz") else zipfile.ZIP_DEFLATED
            zf.writestr(name, data, compress_type=kind)
        data = json.dumps(package, indent=2).encode()
        zf.writestr("datapackage.json", data)
        zf.writestr("datapackage-digest.json", json.dumps(
            {"path": "datapackage.json", "hash": "sha256:" + hashlib.sha256(data).hexdigest()}))
    return counts


def _pages(manifest: Manifest) -> bytes:
    lines: list[dict[str, str]] = [{"format": "json-pages-1.0", "id": "pages",
                                    "title": "All Pages"}]
    seen: set[str] = set()
    for e, when in zip(manifest.entries, _dates(manifest), strict=True):
        if e.resource_type == "document" and 200 <= e.status < 300 and e.url not in seen:
            seen.add(e.url)
            # id and title on every line, as Webrecorder's tools write them (its validator
            # reads pages.jsonl as a table, and a line without them is a blank row)
            lines.append({"id": hashlib.sha256(e.url.encode()).hexdigest()[:22],
                          "url": e.url, "title": e.url, "ts": _warc_date(when)})
    return "".join(json.dumps(line) + "\n" for line in lines).encode()

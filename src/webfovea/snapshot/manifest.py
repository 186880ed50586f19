"""A site snapshot on disk (the site snapshots contract, docs/contracts.md).

``SNAP_DIR/manifest.json`` is small and readable: when the recording started, the
origins it touched, one entry per recorded response (method, URL, status, the
headers kept, the body's hash, the order the request started in) and what the
recording found it could not capture. ``SNAP_DIR/bodies/<sha256>`` holds each body
(response bodies and request bodies alike) once, however often it was loaded.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, ValidationError

from ..core.errors import ConfigError
from ..core.sites import Limit

MANIFEST = "manifest.json"
BODIES = "bodies"
FORMAT = 1
# Response headers that describe the transfer, not the resource: the body is stored
# decoded and whole, so replaying these would make the browser misread it.
DROPPED_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding",
                             "connection", "keep-alive"})

# websocket/webrtc/service_worker: seen by the page script while recording; body_lost: the
# browser had dropped a body before it could be stored; random_body: found by a replay.


class Entry(BaseModel):
    """One recorded response and the request that got it."""

    order: int  # the order its request started in, from 0
    method: str
    url: str
    resource_type: str = ""
    request_body: str | None = None  # sha256 of the request body (POST), if any
    request_type: str = ""  # the request body's content type
    status: int
    status_text: str = ""
    headers: list[tuple[str, str]] = Field(default_factory=list)  # headers kept
    body: str  # sha256 of the response body
    size: int = 0
    # A document's: the page's clock (epoch ms) when it started while recording; a replay
    # starts that document's clock there. None for other resources and older snapshots.
    clock_ms: float | None = None
    # Imported from a web archive: when the crawler captured it (epoch ms, WARC-Date). With
    # several captures of one URL the replay serves the one nearest the page's own capture.
    captured_ms: float | None = None

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"


class ArchiveSource(BaseModel):
    """The web archive a snapshot was imported from (snapshot/archive/)."""

    kind: str  # warc, arc, wacz or har
    name: str  # the archive's file name
    sha256: str  # of the archive file: equal hashes, the same archive


class Manifest(BaseModel):
    format: int = FORMAT
    started_at: float  # epoch seconds when the recording run started: the replay clock's start
    entry_url: str = ""
    random_seed: int = 0  # Math.random's seed while recording (replays use the same)
    origins: list[str] = Field(default_factory=list)
    entries: list[Entry] = Field(default_factory=list)
    limits: list[Limit] = Field(default_factory=list)
    archive: ArchiveSource | None = None  # set when imported from a web archive


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Snapshot:
    """A snapshot directory: write bodies and the manifest while recording, read them back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bodies = root / BODIES

    # --- writing -------------------------------------------------------------------------

    def create(self) -> None:
        if (self.root / MANIFEST).exists():
            raise ConfigError(f"{self.root} already holds a snapshot; record into a new directory")
        self.bodies.mkdir(parents=True, exist_ok=True)

    def put(self, data: bytes) -> str:
        """Store a body once by content hash; returns the hash."""
        digest = sha256(data)
        path = self.bodies / digest
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        return digest

    def write(self, manifest: Manifest) -> None:
        manifest.entries.sort(key=lambda e: e.order)
        manifest.origins = sorted({e.origin for e in manifest.entries})
        tmp = self.root / (MANIFEST + ".tmp")
        tmp.write_text(manifest.model_dump_json(indent=1), encoding="utf-8")
        os.replace(tmp, self.root / MANIFEST)

    # --- reading -------------------------------------------------------------------------

    def read(self) -> Manifest:
        path = self.root / MANIFEST
        if not path.is_file():
            raise ConfigError(f"{self.root} is not a snapshot: it has no {MANIFEST}")
        try:
            manifest = Manifest.model_validate_json(path.read_text(encoding="utf-8"))
        except (ValidationError, ValueError) as e:
            raise ConfigError(f"{path} is not a readable snapshot manifest: "
                              f"{str(e).splitlines()[0]}") from e
        if manifest.format != FORMAT:
            raise ConfigError(f"{path} has snapshot format {manifest.format}; this webfovea "
                              f"reads format {FORMAT}")
        missing = [e.body for e in manifest.entries if not (self.bodies / e.body).is_file()]
        if missing:
            raise ConfigError(f"{self.root} lacks {len(missing)} bodies its manifest names "
                              f"(first: {BODIES}/{missing[0]})")
        return manifest

    def body(self, digest: str) -> bytes:
        return (self.bodies / digest).read_bytes()

    def identity(self) -> str:
        """A short id of the snapshot's content: equal ids mean identical recorded pages."""
        return sha256((self.root / MANIFEST).read_bytes())[:16]

    def size(self) -> int:
        """Bytes on disk: the manifest and every stored body."""
        total = (self.root / MANIFEST).stat().st_size
        return total + sum(p.stat().st_size for p in self.bodies.iterdir() if p.is_file())


def kept_headers(headers: dict[str, str]) -> list[tuple[str, str]]:
    return sorted((k.lower(), v) for k, v in headers.items()
                  if k.lower() not in DROPPED_HEADERS and not k.startswith(":"))

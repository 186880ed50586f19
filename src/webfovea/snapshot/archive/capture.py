"""What every archive reader yields: captures (one HTTP exchange each) and what it skipped."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Capture:
    """One archived response and the request that got it, body decoded and whole."""

    url: str
    status: int
    headers: list[tuple[str, str]]  # as the archive holds them (encodings included)
    body: bytes
    captured_ms: float  # epoch ms: WARC-Date, a HAR entry's startedDateTime
    method: str = "GET"
    reason: str = ""
    request_body: bytes = b""
    request_type: str = ""
    revisit: bool = False  # its payload came from the record a revisit refers to
    seq: int = 0  # its place in the archive: equal capture times keep the archive's order

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers if k.lower() == name), "")


@dataclass(frozen=True)
class Skipped:
    """A record the import could not use, and why."""

    url: str
    why: str


@dataclass
class Read:
    """An archive as read: its captures in archive order, its pages if it lists them."""

    kind: str
    captures: list[Capture] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)  # WACZ pages.jsonl, HAR log.pages
    others: dict[str, int] = field(default_factory=dict)  # records that are no exchange
    # From a warcinfo webfovea wrote (export.py): the recording's Math.random seed and entry.
    random_seed: int | None = None
    entry_url: str = ""
    started_at: float | None = None
    # A webfovea export: replayed as its snapshot was (recorded order, not capture time).
    from_webfovea: bool = False

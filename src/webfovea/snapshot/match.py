"""Which recorded response answers a replayed request.

Exact first (method, URL, request body), then by the ignore rules (both sides
normalised). Several recorded responses with the same key are served in the order
they were recorded; once all have been served, the last one is served again (a
reload). A request that matches nothing is unmatched; when only its body differed
from a recorded request to the same URL, the reason says so (a body randomised
beyond the ignore rules). A snapshot imported from a web archive may hold several
captures of one URL made at different times: the replay asks for the one nearest the
capture time of the page asking (a crawl's page sees its own day's resources).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from .manifest import Entry, Manifest, sha256
from .rules import Rules

How = Literal["exact", "rules"]
Key = tuple[str, str, str]
RANDOM_BODY = "randomised body"


@dataclass(frozen=True)
class Request:
    method: str
    url: str
    body: bytes = b""
    content_type: str = ""


@dataclass(frozen=True)
class Match:
    entry: Entry
    how: How


@dataclass
class Matcher:
    manifest: Manifest
    rules: Rules
    bodies: dict[str, bytes]  # recorded request bodies by hash
    _exact: dict[Key, list[Entry]] = field(default_factory=lambda: defaultdict(list))
    _loose: dict[Key, list[Entry]] = field(default_factory=lambda: defaultdict(list))
    _urls: set[tuple[str, str]] = field(default_factory=set)
    _served: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for entry in self.manifest.entries:
            body = self.bodies.get(entry.request_body or "", b"")
            self._exact[self._exact_key(entry.method, entry.url, body)].append(entry)
            self._loose[self._loose_key(entry.method, entry.url, body, entry.request_type)].append(
                entry)
            self._urls.add((entry.method, self.rules.url(entry.url)))

    def _exact_key(self, method: str, url: str, body: bytes) -> Key:
        return (method, url.split("#")[0], sha256(body) if body else "")

    def _loose_key(self, method: str, url: str, body: bytes, ctype: str) -> Key:
        normal = self.rules.body(body, ctype)
        return (method, self.rules.url(url), sha256(normal) if normal else "")

    def find(self, request: Request, near: float | None = None) -> Match | None:
        """The response for ``request``; with ``near`` (epoch ms, an imported archive's
        replay), the capture nearest that time among entries that carry one."""
        exact = self._exact.get(self._exact_key(request.method, request.url, request.body), [])
        loose = self._loose.get(self._loose_key(request.method, request.url, request.body,
                                                request.content_type), [])
        for candidates, how in ((exact, "exact"), (loose, "rules")):
            if near is not None and candidates and \
                    all(e.captured_ms is not None for e in candidates):
                # Equally near (one page's resources share its time): in recorded order.
                nearest = min(candidates, key=lambda e: (abs((e.captured_ms or 0.0) - near),
                                                         e.order in self._served, e.order))
                self._served.add(nearest.order)
                return Match(nearest, how)  # type: ignore[arg-type]
            fresh = [e for e in candidates if e.order not in self._served]
            if fresh:
                self._served.add(fresh[0].order)
                return Match(fresh[0], how)  # type: ignore[arg-type]
        if exact:
            return Match(exact[-1], "exact")
        if loose:
            return Match(loose[-1], "rules")
        return None

    def why_unmatched(self, request: Request) -> str:
        if (request.method, self.rules.url(request.url)) in self._urls:
            return (f"{RANDOM_BODY}: its body differs from every recorded request to this URL, "
                    "even under the ignore rules")
        return "no recorded request has this method and URL, even under the ignore rules"

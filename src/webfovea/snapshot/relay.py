"""The harness's own channel during a replay, carried by the harness instead of the page.

The offline suite's pages report their layout to ``/__fovea/`` for the oracle (see
rules.py, ``passthrough``). A replayed page must not send anything out itself, and
Chromium would refuse it anyway: a page served by interception has no address, so a
request from it to 127.0.0.1 is a private-network request from a public page. The
replayer hands such requests to :class:`Relay`, which sends them from Python to where
the browser's ``--host-resolver-rules`` would have sent them, keeping the Host header
so the server sees the site it expects.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import httpx

_HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length",
                         "content-encoding", "host", "accept-encoding"})


@dataclass(frozen=True)
class Relayed:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class Relay:
    def __init__(self, host_rules: tuple[str, ...]) -> None:
        self._maps = [words[1:] for words in (r.split() for r in host_rules)
                      if len(words) == 3 and words[0].upper() == "MAP"]
        self._http = httpx.AsyncClient(timeout=15.0)

    def target(self, url: str) -> str:
        """The URL as the browser's host rules would have resolved it."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        for pattern, to in self._maps:
            if fnmatch.fnmatch(host, pattern):
                return urlunsplit((parts.scheme, to, parts.path, parts.query, ""))
        return url

    async def send(self, method: str, url: str, headers: dict[str, str],
                   body: bytes) -> Relayed:
        if self._http.is_closed:  # the task is over: a last report as its tab closes
            return Relayed(503, [], b"")
        kept = {k: v for k, v in headers.items() if k.lower() not in _HOP_BY_HOP}
        kept["Host"] = urlsplit(url).netloc
        try:
            response = await self._http.request(method, self.target(url), headers=kept,
                                                content=body)
        except httpx.HTTPError as e:
            return Relayed(502, [("content-type", "text/plain")],
                           f"the harness channel is unreachable: {e}".encode())
        return Relayed(response.status_code,
                       [(k, v) for k, v in response.headers.items()
                        if k.lower() not in _HOP_BY_HOP], response.content)

    async def aclose(self) -> None:
        await self._http.aclose()

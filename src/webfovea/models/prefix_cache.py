"""A provider's prompt cache as documented, to count what a request reads and writes.

The fake provider charges requests with it (so tests see realistic usage fields)
and ``webfovea cost`` prices recorded runs under both history layouts with it.

- ``explicit`` (Anthropic): a prefix is written at each ``cache_control``
  breakpoint (at most 4) once it holds ``min_tokens``; a request reads the longest
  cached prefix ending at a breakpoint or at one of the ``lookback`` blocks before
  it. Tokens between the hit and the last breakpoint are written; the rest is input.
- ``automatic`` (OpenAI, vLLM/SGLang prefix caching): every prefix is kept; a
  request reads the longest one seen before, in ``granularity``-token steps from
  ``min_tokens`` on. Nothing is billed as a write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

CacheMode = Literal["explicit", "automatic"]


@dataclass(frozen=True)
class Block:
    """One content block of a request: its identity, its size, and whether it is a breakpoint."""

    key: str
    tokens: int
    breakpoint: bool = False
    role: str = ""  # system, user or assistant: where a breakpoint sits, for tests and reports
    opens_message: bool = False


@dataclass(frozen=True)
class Charge:
    input_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int


@dataclass
class PrefixCache:
    mode: CacheMode
    min_tokens: int = 1024
    lookback: int = 20
    granularity: int = 128
    _seen: set[str] = field(default_factory=set)

    def charge(self, blocks: Sequence[Block]) -> Charge:
        """What ``blocks`` cost against the cache; the cache learns the request."""
        hashes = prefix_hashes(blocks)
        totals = _running_totals(blocks)
        if self.mode == "automatic":
            return self._automatic(hashes, totals)
        return self._explicit(blocks, hashes, totals)

    def _automatic(self, hashes: list[str], totals: list[int]) -> Charge:
        hit = max((totals[i] for i, h in enumerate(hashes) if h in self._seen), default=0)
        read = hit // self.granularity * self.granularity if hit >= self.min_tokens else 0
        self._seen.update(hashes)
        total = totals[-1] if totals else 0
        return Charge(total - read, read, 0)

    def _explicit(self, blocks: Sequence[Block], hashes: list[str], totals: list[int]) -> Charge:
        points = [i for i, b in enumerate(blocks) if b.breakpoint]
        candidates = {j for p in points for j in range(max(0, p - self.lookback), p + 1)}
        hit = max((j for j in candidates if hashes[j] in self._seen), default=-1)
        read = totals[hit] if hit >= 0 else 0
        written = [p for p in points if p > hit and totals[p] >= self.min_tokens]
        for p in written:
            self._seen.add(hashes[p])
        write = totals[written[-1]] - read if written else 0
        total = totals[-1] if totals else 0
        return Charge(total - read - write, read, write)


def prefix_hashes(blocks: Sequence[Block]) -> list[str]:
    """Hash of each prefix ``blocks[:i + 1]``: equal hashes mean byte-identical prefixes."""
    out: list[str] = []
    running = hashlib.sha256()
    for block in blocks:
        running.update(block.key.encode() + b"\0")
        out.append(running.copy().hexdigest())
    return out


def common_prefix(a: Sequence[Block], b: Sequence[Block]) -> int:
    """How many leading blocks two requests share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x.key != y.key:
            break
        n += 1
    return n


def _running_totals(blocks: Sequence[Block]) -> list[int]:
    totals, running = [], 0
    for block in blocks:
        running += block.tokens
        totals.append(running)
    return totals

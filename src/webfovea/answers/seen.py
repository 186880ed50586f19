"""The text this session saw: each step's page text (every frame, open shadow roots), the
``read_text`` results, and the page the answer was given on.

Recording is cheap by construction: a page's text is stored once per distinct content
(keyed by its hash), so a step that shows the same page again costs one hash and one
small record; each text is cut at :data:`MAX_TEXT_CHARS` and the store stops keeping new
texts after :data:`MAX_TOTAL_CHARS`. The readings grounding needs (numbers, dates,
normalised text) are computed once per distinct text, only when an answer asks for them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from ..browser.capture import FrameText
from ..matching.dates import DateValue, date_mentions
from ..matching.numbers import find_numbers, literal_readings, prepare
from ..rundir.trajectory import SeenAt
from .parts import searchable

MAX_TEXT_CHARS = 200_000  # one frame's text: a very long page keeps its first part
MAX_TOTAL_CHARS = 20_000_000  # distinct text kept per task
_LITERAL = re.compile(r"(?<![\d.,])\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?(?!\d)|(?<![\d.,])\d+(?:[.,]\d+)?")


@dataclass
class Indexed:
    """One distinct text and the readings grounding matches against."""

    text: str

    @cached_property
    def normalised(self) -> str:
        return f" {searchable(self.text)} "

    @cached_property
    def numbers(self) -> tuple[Decimal, ...]:
        """Every value a number here may mean: as the scorer reads it ("£606k" is 606000)
        and as written without its scale word (an answer "in thousands of pounds": 606)."""
        text = prepare(self.text)
        read = {r for n in find_numbers(text) for r in n.readings}
        written = {r for m in _LITERAL.finditer(text) for r in literal_readings(m.group(0))[0]}
        return tuple(read | written)

    @cached_property
    def dates(self) -> tuple[DateValue, ...]:
        return tuple(d for _, _, readings in date_mentions(prepare(self.text)) for d in readings)


@dataclass(frozen=True)
class Sighting:
    at: SeenAt
    digest: str


@dataclass
class SessionText:
    sightings: list[Sighting] = field(default_factory=list)
    texts: dict[str, Indexed] = field(default_factory=dict)
    kept_chars: int = 0
    dropped: int = 0  # distinct texts not kept once the store was full

    def add_page(self, step: int, frames: Sequence[FrameText]) -> None:
        for frame in frames:
            self._add(SeenAt(step=step, url=frame.url, frame=frame.frame), frame.text)

    def add_read_text(self, step: int, url: str, text: str) -> None:
        self._add(SeenAt(step=step, url=url, source="read_text"), text)

    def _add(self, at: SeenAt, text: str) -> None:
        text = text[:MAX_TEXT_CHARS]
        if not text.strip():
            return
        digest = hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest()
        if digest not in self.texts:
            if self.kept_chars + len(text) > MAX_TOTAL_CHARS:
                self.dropped += 1
                return
            self.texts[digest] = Indexed(text)
            self.kept_chars += len(text)
        last = self.sightings[-1] if self.sightings else None
        if last is None or (last.digest, last.at) != (digest, at):
            self.sightings.append(Sighting(at, digest))

    def newest_first(self) -> list[tuple[SeenAt, Indexed]]:
        """Each distinct (place, text) once, the most recent sighting first."""
        out: list[tuple[SeenAt, Indexed]] = []
        done: set[tuple[str, str | None, str]] = set()
        for s in reversed(self.sightings):
            key = (s.at.url, s.at.frame, s.digest)
            if key not in done:
                done.add(key)
                out.append((s.at, self.texts[s.digest]))
        return out

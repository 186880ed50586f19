"""The checkable parts of an answer: numbers (as the scorer reads them), dates, names and
quoted phrases. Words that are none of these ("ok", "increased") are not checkable: such an
answer is grounded only as an option its task offers (webfovea.answers.grounding)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from ..matching.dates import DateValue, date_mentions
from ..matching.normalize import normalize
from ..matching.numbers import find_numbers, prepare
from ..rundir.trajectory import PartKind

# Capitalised words, joined by the small words names contain ("University of Kenmore").
_CAP = r"[A-ZÀ-ÖØ-Þ][\w'’&.\-]*"
_NAME = re.compile(rf"(?<![\w'’]){_CAP}(?:\s+(?:(?:of|the|and|de|del|da|du|la|le|von|van|der|"
                   rf"upon|on)\s+)*{_CAP})*")
_QUOTED = re.compile(r'"([^"]{2,120})"|“([^”]{2,120})”|‘([^’]{2,120})’')
# Capitalised only because they start a sentence: never a name on their own.
_OPENERS = frozenset({
    "the", "a", "an", "it", "its", "this", "that", "these", "those", "yes", "no", "i", "in", "on",
    "at", "by", "for", "from", "to", "according", "answer", "total", "there", "here", "so", "and",
    "or", "but", "as", "of", "is", "was", "were", "based", "after", "before"})


_GLUED = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")


def searchable(text: str) -> str:
    """Text normalised as the scorer does, a digit and a letter written together split apart:
    inline elements glue their text ("1 February 2025Greyhaven council…" in a list), and a
    phrase must be found whichever way the page ran its words together."""
    return normalize(_GLUED.sub(" ", text))


@dataclass(frozen=True)
class Part:
    kind: PartKind
    text: str  # as the answer wrote it
    numbers: tuple[Decimal, ...] = ()  # number: its readings
    dates: tuple[DateValue, ...] = ()  # date: its readings
    phrase: str = ""  # name / phrase: normalised as the scorer normalises

    @property
    def key(self) -> str:
        return self.phrase or self.text


def answer_parts(answer: str) -> list[Part]:
    """Every checkable part of ``answer``, in order of appearance, each once."""
    text = prepare(answer)
    found: list[tuple[int, Part]] = []
    spans: list[tuple[int, int]] = []
    for start, end, readings in date_mentions(text):
        found.append((start, Part("date", text[start:end], dates=readings)))
        spans.append((start, end))
    for m in _QUOTED.finditer(text):
        quoted = next(g for g in m.groups() if g is not None)
        found.append((m.start(), Part("phrase", quoted, phrase=searchable(quoted))))
        spans.append(m.span())
    rest = _masked(text, spans)
    for n in find_numbers(rest):
        found.append((n.start, Part("number", text[n.start:n.end].strip(), numbers=n.readings)))
        spans.append((n.start, n.end))
    rest = _masked(text, spans)
    for m in _NAME.finditer(rest):
        name = _trimmed(m.group(0))
        if name:
            found.append((m.start(), Part("name", name, phrase=searchable(name))))
    unique: dict[tuple[str, str], Part] = {}
    for _, part in sorted(found, key=lambda pair: pair[0]):
        unique.setdefault((part.kind, part.key), part)
    return list(unique.values())


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the spans blanked out, positions kept."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _trimmed(name: str) -> str:
    """A name without a sentence opener in front or a full stop behind."""
    words = name.rstrip(".").split()
    while words and words[0].lower() in _OPENERS:
        words.pop(0)
    while words and words[-1].lower() in _OPENERS:
        words.pop()
    return " ".join(words) if words and any(len(w) > 1 for w in words) else ""

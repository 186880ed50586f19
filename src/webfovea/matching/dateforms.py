"""Dates as answers and references write them, beyond :mod:`dates`' ISO, numeric and English
forms: Chinese (``1999年4月29日``, ``2025年3月``, ``2011年第一季度``), quarters (``2011 Q1``,
``first quarter of 2011``), and a datetime at midnight (``1999-04-29 00:00:00``), which is
its date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from .dates import DateValue, date_mentions, parse_date
from .numbers import prepare

_QUARTER_WORDS = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4,
                  "first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2,
                  "3rd": 3, "4th": 4}
_Y = r"(?P<y>\d{4})\s*年?\s*"
_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("day", re.compile(r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]")),
    ("month", re.compile(r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月(?!\s*\d)")),
    ("quarter", re.compile(_Y + r"(?:第\s*)?(?P<q>[一二三四1-4])\s*季度?")),
    # "2025/03" (a slash only: "2025.03" may be a decimal)
    ("month", re.compile(r"(?<![\d/.])(?P<y>(?:19|20)\d\d)/(?P<m>0?[1-9]|1[0-2])(?![\d/.])")),
    ("quarter", re.compile(_Y + r"[Qq](?P<q>[1-4])\b")),
    ("quarter", re.compile(r"\b[Qq](?P<q>[1-4])\s*(?P<y>\d{4})")),
    ("quarter", re.compile(r"(?i:\b(?P<q>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
                           r"\s+(?:of\s+)?)(?P<y>\d{4})")),
    ("year", re.compile(r"(?P<y>\d{4})\s*年(?!\s*\d{1,2}\s*月)(?!\s*(?:第\s*)?[一二三四1-4]\s*季)")),
)
_MIDNIGHT = re.compile(r"(?<=\d)(?:[ T]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)(?=\s|$)")


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    readings: tuple[DateValue, ...]

    def shown(self) -> str:
        return " or ".join(v.shown() for v in self.readings)


def find_dates(text: str) -> list[DateMention]:
    """Every date written in ``text``, in order; Chinese and quarter forms first, then the
    ISO, numeric and English ones that do not overlap them."""
    text = _MIDNIGHT.sub(lambda m: " " * len(m.group(0)), prepare(text))
    found: list[DateMention] = []
    for precision, pattern in _FORMS:
        for m in pattern.finditer(text):
            value = _value(precision, m)
            if value is not None and not _overlaps(found, m.start(), m.end()):
                found.append(DateMention(m.start(), m.end(), (value,)))
    for start, end, readings in date_mentions(text):
        if not _overlaps(found, start, end):
            found.append(DateMention(start, end, readings))
    return sorted(found, key=lambda d: d.start)


def reference_date(text: str) -> tuple[DateValue, ...]:
    """The reference's readings when it is one date and nothing else (a bare year like
    ``2025`` is a number; ``2025年`` is a year)."""
    text = _MIDNIGHT.sub("", prepare(text)).strip().rstrip("。.").strip()
    if re.fullmatch(r"\d{1,4}", text):
        return ()
    found = find_dates(text)
    if len(found) == 1 and found[0].start == 0 and found[0].end >= len(text.rstrip()):
        return found[0].readings
    return parse_date(text) if not found else ()


def _value(precision: str, m: re.Match[str]) -> DateValue | None:
    year = int(m.group("y"))
    if precision == "quarter":
        quarter = _QUARTER_WORDS[m.group("q").lower()]
        return DateValue(year, 3 * quarter - 2, 1, "quarter")
    if precision == "year":
        return DateValue(year, 1, 1, "year")
    month = int(m.group("m"))
    day = int(m.group("d")) if precision == "day" else 1
    try:
        dt.date(year, month, day)
    except ValueError:
        return None
    return DateValue(year, month, day, "day" if precision == "day" else "month")


def _overlaps(found: list[DateMention], start: int, end: int) -> bool:
    return any(d.start < end and start < d.end for d in found)

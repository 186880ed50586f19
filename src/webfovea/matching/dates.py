"""Reading dates out of answers, deterministically.

Numeric forms are read here: ISO ``2024-03-15`` and Chinese ``2024年3月15日`` have one
reading; ``3/4/2024`` is ambiguous and keeps both the month-first and the day-first reading
(the date matcher accepts a pair when any readings agree, and says so). Forms with month names go to
dateparser with pinned settings: English only, absolute dates only (no "yesterday"),
a year required (so nothing depends on today's date), missing days read as the first.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, cast

from dateparser.date import DateDataParser

Precision = Literal["year", "quarter", "month", "day"]
_RANK: dict[Precision, int] = {"year": 0, "quarter": 1, "month": 2, "day": 3}

DATEPARSER_SETTINGS: dict[str, Any] = {
    "PREFER_DAY_OF_MONTH": "first",
    "RELATIVE_BASE": dt.datetime(2000, 1, 1),
    "PARSERS": ["absolute-time"],
    "REQUIRE_PARTS": ["year"],
    "RETURN_AS_TIMEZONE_AWARE": False,
    "DATE_ORDER": "MDY",
    "STRICT_PARSING": False,
}

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_ISO = r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
_NUMERIC = r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})"
_TEXTUAL = (rf"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(?:{_ORD}\s+(?:of\s+)?)?"
            rf"{_MONTH},?\s+(?:{_ORD},?\s+)?\d{{4}}")
# Chinese and Japanese: 2024年3月15日 (号 in speech), or a month 2024年3月; one reading only.
_CJK = r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?"
_CANDIDATES = re.compile(rf"(?<!\d)(?:{_ISO}|{_NUMERIC}|\d{{4}}-\d{{1,2}}|{_CJK})(?!\d)|{_TEXTUAL}",
                         re.IGNORECASE)


@dataclass(frozen=True)
class DateValue:
    year: int
    month: int
    day: int
    precision: Precision

    def shown(self) -> str:
        if self.precision == "year":
            return f"{self.year:04d}"
        if self.precision == "quarter":
            return f"{self.year:04d}-Q{(self.month - 1) // 3 + 1}"
        if self.precision == "month":
            return f"{self.year:04d}-{self.month:02d}"
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


def parse_date(text: str) -> tuple[DateValue, ...]:
    """The readings of ``text`` as a whole date (``()`` when it is not one)."""
    text = text.strip().rstrip(".").strip()
    if m := re.fullmatch(_ISO, text):
        return _valid(int(m[1]), int(m[2]), int(m[3]))
    if m := re.fullmatch(_CJK, text):
        return _valid(int(m[1]), int(m[2]), int(m[3] or 1), "day" if m[3] else "month")
    if m := re.fullmatch(r"(\d{4})-(\d{1,2})", text):
        return _valid(int(m[1]), int(m[2]), 1, "month")
    if m := re.fullmatch(_NUMERIC, text):
        year = _full_year(m[3])
        first, second = int(m[1]), int(m[2])
        readings = _valid(year, first, second) + _valid(year, second, first)
        return tuple(dict.fromkeys(readings))
    if re.fullmatch(r"\d{4}", text):
        return (DateValue(int(text), 1, 1, "year"),)
    if not re.search(r"[a-z]", text, re.IGNORECASE):
        return ()
    return _dateparser(text)


def date_mentions(text: str) -> list[tuple[int, int, tuple[DateValue, ...]]]:
    """Every date written in ``text`` with its span: (start, end, readings), in order."""
    found = []
    for m in _CANDIDATES.finditer(text):
        readings = parse_date(m.group(0))
        if readings:
            found.append((m.start(), m.end(), readings))
    return found


def same_date(reference: DateValue, answer: DateValue) -> bool:
    """Equal at the reference's precision; an answer vaguer than the reference is not."""
    if _RANK[answer.precision] < _RANK[reference.precision]:
        return False
    if reference.year != answer.year:
        return False
    if reference.precision == "quarter":
        return (reference.month - 1) // 3 == (answer.month - 1) // 3
    if reference.precision in ("month", "day") and reference.month != answer.month:
        return False
    return reference.precision != "day" or reference.day == answer.day


def _valid(year: int, month: int, day: int, precision: Precision = "day") -> tuple[DateValue, ...]:
    try:
        dt.date(year, month, day)
    except ValueError:
        return ()
    return (DateValue(year, month, day, precision),)


def _full_year(text: str) -> int:
    """Two-digit years: 00-69 are 2000-2069, 70-99 are 1970-1999 (the POSIX pivot)."""
    if len(text) == 4:
        return int(text)
    value = int(text)
    return 2000 + value if value < 70 else 1900 + value


@lru_cache(maxsize=1)
def _parser() -> DateDataParser:
    return DateDataParser(languages=["en"], settings=DATEPARSER_SETTINGS)


def _dateparser(text: str) -> tuple[DateValue, ...]:
    data = _parser().get_date_data(text)
    if data.date_obj is None:
        return ()
    # dateparser's other periods ("time", "week") are at least a day's precision.
    period = cast(Precision, data.period if data.period in _RANK else "day")
    d = data.date_obj
    return (DateValue(d.year, d.month, d.day, period),)

"""What a model types into a native date/time field → the value the browser stores.

Chromium's ``date``, ``time``, ``datetime-local``, ``month`` and ``week`` inputs are
segmented widgets: typed keys go to the segment under the caret, a space opens the
picker, and the stored value has one fixed shape (``2011-04-11``, ``19:09``,
``2011-04-11T19:09``, ``2011-04``, ``2011-W15``). Models type what the task or the
screenshot shows ("04/11/2011", "7:09 AM", "April 2011"), so ``fill`` converts that
here and sets the value directly. Pure functions: no browser.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time

NATIVE_TYPES = ("date", "time", "datetime-local", "month", "week")

# Slash dates are read month first (the US order MiniWoB and most English pages use)
# unless the first number cannot be a month.
_DATE_FORMATS = (
    "%Y-%m-%d", "%Y/%m/%d", "%m/%d/%Y", "%d/%m/%Y", "%m-%d-%Y", "%d.%m.%Y", "%m/%d/%y",
    "%B %d %Y", "%b %d %Y", "%d %B %Y", "%d %b %Y", "%A %B %d %Y", "%a %b %d %Y", "%Y%m%d",
)
_TIME_FORMATS = ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p", "%I %p", "%H%M", "%H.%M")
_MONTH_FORMATS = ("%Y-%m", "%m/%Y", "%m-%Y", "%B %Y", "%b %Y", "%Y/%m")
_TIME_TAIL = re.compile(r"(\d{1,2}(?::\d{2}){1,2}(?:\s*[ap]\.?\s*m\.?)?|\d{1,2}\s*[ap]\.?\s*m\.?)$",
                        re.I)
_WEEK = (re.compile(r"^(\d{4})\s*-?\s*w(?:eek)?\s*(\d{1,2})$", re.I),
         re.compile(r"^w(?:eek)?\s*(\d{1,2})\s*(?:of\s*)?(\d{4})$", re.I))

EXAMPLES = {
    "date": "'2011-04-11' or '04/11/2011' or 'April 11, 2011'",
    "time": "'19:09' or '7:09 PM'",
    "datetime-local": "'2011-04-11 19:09' or '04/11/2011 7:09 PM'",
    "month": "'2011-04' or 'April 2011'",
    "week": "'2011-W15' or 'week 15, 2011'",
}


class NotAValue(ValueError):
    """The typed text is not a value of that input type in any format we read."""


def _clean(text: str) -> str:
    """Commas, ordinal suffixes and doubled spaces removed: 'April 11th, 2011' → 'April 11 2011'."""
    text = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.strip(), flags=re.I)
    return " ".join(text.replace(",", " ").split())


def _first(text: str, formats: tuple[str, ...]) -> datetime | None:
    for fmt in formats:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def parse_date(text: str) -> date:
    found = _first(_clean(text), _DATE_FORMATS)
    if found is None:
        raise NotAValue(text)
    return found.date()


def parse_time(text: str) -> time:
    squashed = re.sub(r"\s*([ap])\.?\s*m\.?$", r" \1M", _clean(text), flags=re.I).upper()
    found = _first(squashed, _TIME_FORMATS)
    if found is None:
        raise NotAValue(text)
    return found.time()


def _time_value(t: time) -> str:
    return t.strftime("%H:%M:%S" if t.second else "%H:%M")


def _datetime_value(text: str) -> str:
    clean = _clean(text.replace("T", " ", 1) if re.match(r"^\d{4}-\d{2}-\d{2}T", text) else text)
    tail = _TIME_TAIL.search(clean)
    if tail is None:
        raise NotAValue(text)
    day = parse_date(clean[: tail.start()].strip().removesuffix(" at").strip())
    return f"{day.isoformat()}T{_time_value(parse_time(tail.group()))}"


def _month_value(text: str) -> str:
    found = _first(_clean(text), _MONTH_FORMATS)
    if found is None:
        found = datetime.combine(parse_date(text), time())
    return f"{found.year:04d}-{found.month:02d}"


def _week_value(text: str) -> str:
    clean = _clean(text)
    for i, pattern in enumerate(_WEEK):
        match = pattern.match(clean)
        if match:
            year, week = (match.group(1), match.group(2)) if i == 0 else (match.group(2), match.group(1))
            if not 1 <= int(week) <= 53:
                raise NotAValue(text)
            return f"{int(year):04d}-W{int(week):02d}"
    iso = parse_date(text).isocalendar()  # a date means the week that holds it
    return f"{iso[0]:04d}-W{iso[1]:02d}"


def to_input_value(kind: str, text: str) -> str:
    """The value string an ``<input type=kind>`` stores for what the model typed."""
    if kind == "date":
        return parse_date(text).isoformat()
    if kind == "time":
        return _time_value(parse_time(text))
    if kind == "datetime-local":
        return _datetime_value(text)
    if kind == "month":
        return _month_value(text)
    if kind == "week":
        return _week_value(text)
    raise NotAValue(f"{kind} is not a native date/time input type")

"""Reading numbers out of answers and pages: separators in both conventions, scale words,
units, currency — the reader answer grounding (webfovea.answers) uses to find an answer's
numbers on a page. Scoring reads quantities with :mod:`quantities`, built on
:func:`literal_readings`.

A number whose separator is genuinely ambiguous ("1,234" or "1.234": one separator
followed by exactly three digits) keeps both readings, the English one first (comma
groups, point is decimal).

Percent: a percentage is the number as written ("12%" reads as 12, flagged as a
percent); grounding looks for the digits a page shows.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

SCALES: dict[str, Decimal] = {
    "thousand": Decimal(10) ** 3, "k": Decimal(10) ** 3,
    "million": Decimal(10) ** 6, "mn": Decimal(10) ** 6, "mio": Decimal(10) ** 6,
    "m": Decimal(10) ** 6,  # only ever glued and upper-case: "1.2M"
    "billion": Decimal(10) ** 9, "bn": Decimal(10) ** 9, "b": Decimal(10) ** 9,
    "trillion": Decimal(10) ** 12, "tn": Decimal(10) ** 12,
}

CURRENCY_SYMBOLS = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY/CNY",
                    "₹": "INR", "₩": "KRW", "₽": "RUB", "CHF": "CHF"}
CURRENCY_WORDS = {"usd": "USD", "dollar": "USD", "dollars": "USD", "eur": "EUR", "euro": "EUR",
                  "euros": "EUR", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "jpy": "JPY/CNY",
                  "yen": "JPY/CNY", "cny": "JPY/CNY", "rmb": "JPY/CNY", "yuan": "JPY/CNY",
                  "inr": "INR", "rupees": "INR", "chf": "CHF", "krw": "KRW", "won": "KRW",
                  "rub": "RUB", "cad": "CAD", "aud": "AUD"}

# Measurement units: two answers that name different ones do not match.
UNITS = {
    "km": "km", "kilometer": "km", "kilometre": "km", "m": "m", "meter": "m", "metre": "m",
    "cm": "cm", "mm": "mm", "mi": "mi", "mile": "mi", "ft": "ft", "feet": "ft", "foot": "ft",
    "kg": "kg", "kilogram": "kg", "g": "g", "gram": "g", "lb": "lb", "lbs": "lb", "pound": "lb",
    "t": "t", "ton": "t", "tonne": "t", "l": "l", "liter": "l", "litre": "l", "ml": "ml",
    "gal": "gal", "gallon": "gal", "h": "h", "hr": "h", "hour": "h", "min": "min",
    "minute": "min", "s": "s", "sec": "s", "second": "s", "day": "day", "week": "week",
    "month": "month", "year": "year", "kwh": "kWh", "mwh": "MWh", "gwh": "GWh", "mw": "MW",
    "gw": "GW", "kw": "kW", "°c": "°C", "°f": "°F", "ha": "ha", "acre": "acre",
}

SMALL_NUMBERS = {word: n for n, word in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"))}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}

_CUR_PREFIX = (r"(?:(?P<cur>US\$|[$€£¥₹₩₽]|usd|eur|gbp|jpy|cny|rmb|inr|chf|cad|aud)\s?"
               r"(?P<neg2>-)?)?")
_LITERAL = r"""(?P<lit>
    \d{1,3}(?:,\d{3})+(?:\.\d+)?          # 1,234,567.89
  | \d{1,3}(?:\.\d{3})+(?:,\d+)?          # 1.234.567,89
  | \d{1,3}(?:[ '’]\d{3})+(?:[.,]\d+)?    # 1 234 567,89   1'234.5
  | \d+(?:[.,]\d+)?                        # 1234.5   1234,5   and the ambiguous 1,234
  | [.,]\d+                                # .5
)"""
# Glued scale letters are case-sensitive: "1.2M" is a million, "5m" is five metres.
_SCALE = (r"(?:(?P<glued>(?-i:k|K|M|B|bn|Bn|mn|tn))(?![a-z])"
          r"|\s?(?P<word>thousand|million|billion|trillion|mio|mn|bn)s?\b)?")
_PERCENT = r"(?P<pct>\s?(?:%|percent\b|per\s?cent\b|pct\b))?"
NUMBER_RE = re.compile(
    r"(?P<neg>(?<![\w.,])[-–])?" + _CUR_PREFIX + r"(?<![\d.,])" + _LITERAL
    + r"(?!\d)(?:st|nd|rd|th)?" + _SCALE + _PERCENT,
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True)
class Number:
    """One number mention: its possible values (two when the separator is ambiguous)."""

    readings: tuple[Decimal, ...]
    percent: bool
    currency: str | None
    unit: str | None
    start: int
    end: int
    ambiguous: bool = False

    def shown(self) -> str:
        values = " or ".join(plain(v) for v in self.readings)
        return values + ("%" if self.percent else "")


def prepare(text: str) -> str:
    """NFKC (full-width digits, no-break spaces), one kind of minus sign."""
    text = unicodedata.normalize("NFKC", text)
    return text.replace("\u2212", "-").replace("\u202f", " ").replace("\u2009", " ")


def find_numbers(text: str) -> list[Number]:
    """Every number mentioned in ``text`` (already :func:`prepare`-d), in order."""
    found = [_mention(m, text) for m in NUMBER_RE.finditer(text)]
    numbers = [n for n in found if n is not None]
    if not numbers:
        word = _word_number(text)
        if word is not None:
            numbers.append(word)
    return numbers


def _mention(m: re.Match[str], text: str) -> Number | None:
    readings, ambiguous = literal_readings(m.group("lit"))
    if not readings:
        return None
    scale = _scale(m.group("glued"), m.group("word"))
    negative = bool(m.group("neg") or m.group("neg2")) or _in_parentheses(m, text)
    sign = Decimal(-1) if negative else Decimal(1)
    values = tuple(sign * r * scale for r in readings)
    currency = _currency(m.group("cur"), text[m.end():])
    unit = None if currency or m.group("pct") else _unit_after(text[m.end():])
    return Number(values, bool(m.group("pct")), currency, unit, m.start(), m.end(), ambiguous)


def literal_readings(lit: str) -> tuple[tuple[Decimal, ...], bool]:
    """The values a numeric literal may mean, and whether it is ambiguous."""
    seps = [c for c in lit if not c.isdigit()]
    if not seps:
        return (_dec(lit),), False
    if len(seps) == 1:
        head, tail = lit.split(seps[0])
        if seps[0] not in ",.":
            return (_dec(head + tail),), False  # 1 234, 1'234
        if len(tail) == 3 and 0 < len(head) <= 3 and head != "0":
            # The English reading first: a comma groups thousands, a point is decimal.
            grouped, decimal = _dec(head + tail), _dec(head + "." + tail)
            return ((grouped, decimal) if seps[0] == "," else (decimal, grouped)), True
        return (_dec((head or "0") + "." + tail),), False
    if len(set(seps)) == 1:
        return (_dec(_strip_groups(lit)),), False  # 1,234,567  1.234.567  1 234 567
    # Two kinds of separator: the last comma or point is the decimal mark.
    last = max(lit.rfind(","), lit.rfind("."))
    return (_dec(_strip_groups(lit[:last]) + "." + lit[last + 1:]),), False


def _strip_groups(text: str) -> str:
    return re.sub(r"[,.'’ ]", "", text) or "0"


def _dec(text: str) -> Decimal:
    try:
        return Decimal(text)
    except InvalidOperation:
        return Decimal(0)


def _scale(glued: str | None, word: str | None) -> Decimal:
    key = (glued or word or "").lower()
    return SCALES.get(key, Decimal(1))


def _in_parentheses(m: re.Match[str], text: str) -> bool:
    """Accounting negatives: the whole answer is "(1,234)"."""
    return text.strip().startswith("(") and text.strip().endswith(")") and \
        text.strip()[1:-1].strip() == m.group(0).strip()


def _currency(prefix: str | None, after: str) -> str | None:
    if prefix:
        key = prefix.strip()
        return CURRENCY_SYMBOLS.get(key) or CURRENCY_WORDS.get(key.lower())
    m = re.match(r"\s?([$€£¥₹₩₽]|[a-z]+)", after, re.IGNORECASE)
    if m is None:
        return None
    token = m.group(1)
    return CURRENCY_SYMBOLS.get(token) or CURRENCY_WORDS.get(token.lower())


def _unit_after(after: str) -> str | None:
    m = re.match(r"\s?([a-z°]+)", after, re.IGNORECASE)
    if m is None:
        return None
    word = m.group(1).lower()
    return UNITS.get(word) or (UNITS.get(word[:-1]) if word.endswith("s") else None)


def _word_number(text: str) -> Number | None:
    """Small cardinal words ("twelve", "twenty-five"), only when the text holds no digits."""
    words = [w.lower() for w in re.findall(r"[a-z]+(?:-[a-z]+)?", text, re.IGNORECASE)]
    values = [v for v in (cardinal(w) for w in words) if v is not None]
    if len(values) != 1:
        return None
    return Number((Decimal(values[0]),), False, None, None, 0, len(text))


def cardinal(word: str) -> int | None:
    """A small cardinal word's value (``twelve``, ``twenty-five``); None for any other word."""
    if word in SMALL_NUMBERS:
        return SMALL_NUMBERS[word]
    if word in TENS:
        return TENS[word]
    tens, _, ones = word.partition("-")
    if tens in TENS and ones in SMALL_NUMBERS and 0 < SMALL_NUMBERS[ones] < 10:
        return TENS[tens] + SMALL_NUMBERS[ones]
    return None


def plain(value: Decimal) -> str:
    """A Decimal without exponent or trailing zeros: 3.2E+6 → 3200000."""
    return format(value.normalize(), "f")


def within(a: Decimal, b: Decimal, tolerance: Decimal) -> bool:
    """``a`` within ``tolerance`` (relative) of the reference ``b``; exact when ``b`` is 0."""
    return abs(a - b) <= tolerance * abs(b)

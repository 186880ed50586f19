"""Reading quantities — a value, the precision its last digit gives, a scale, a unit, a
currency, a percent sign — out of Chinese and English answers, and comparing two.

``2895（千人）`` is 2 895 000 people to the nearest thousand; ``21.0007万`` is 210 007 to
the unit; ``0.437`` is 0.437 to the thousandth. An integer reference matches only its own
value; a decimal one within half a unit of its last digit; an answer that gives fewer digits
than the reference and is its rounding is undecided (a grader may take it or not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from .numbers import cardinal, literal_readings, plain, prepare
from .units import CURRENCIES, SCALE_PATTERN, SCALES, currency_of, read_after
from .verdict import Rule, Verdict, correct, undecided, wrong

_LITERAL = (r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?"
            r"|\d{1,3}(?:[ '’]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?|\.\d+")
_PREFIX = r"(?P<cur>US\$|HK\$|NT\$|[$€£¥￥₹₩₽৳])?\s?"
_NUMBER = re.compile(
    r"(?P<neg>(?<![\w.,])-)?" + _PREFIX + r"(?<![\d.,])(?P<lit>" + _LITERAL + r")(?!\d)"
    + r"(?:\s?(?P<scale>" + SCALE_PATTERN + r"))?"
    + r"(?P<pct>\s?(?:%|％|个百分点|百分点|(?i:percent|per\s?cent|pct)\b))?")
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
# Chinese numerals count only before a measure word ("七次", "三个"), never in names or
# ordinals ("一汽", "第一").
_CN_NUMBER = re.compile(r"(?<![第\d.])(?P<cn>(?=[零〇一二两三四五六七八九十])"
                        r"[零〇一二两三四五六七八九十百千万亿]+)"
                        r"(?=[次个人名家所件项位条场种只座篇部辆架台届年天])")
_WORDS = re.compile(r"\b(?P<word>[a-z]+(?:-[a-z]+)?)\b", re.IGNORECASE)
# A reference's unit gloss after its number: "（千人）", "(万吨)", "(%)", "(USD million)".
_GLOSS = re.compile(r"\s*[（(]\s*(?P<scale>" + SCALE_PATTERN + r")?\s*(?P<rest>[^（）()]*)[)）]\s*$")

Reading = tuple[Decimal, Decimal]  # (value, precision): precision is the last digit's unit


@dataclass(frozen=True)
class Quantity:
    readings: tuple[Reading, ...]  # scale applied; two when a separator is ambiguous
    shown: Reading  # as written, before any scale (a bare answer may state just this)
    scaled: bool
    percent: bool
    unit: str | None
    currency: str | None
    start: int
    end: int
    glossed: bool = False  # scaled by a unit gloss (``（千人）``): the table shows ``shown``

    @property
    def integer(self) -> bool:
        """A count: written without decimals or scale (a scale makes the last digit coarse)."""
        return not self.scaled and not self.percent and self.readings[0][1] == 1

    def text(self) -> str:
        value = plain(self.readings[0][0])
        extra = "".join(f" {x}" for x in (self.unit, self.currency) if x)
        return value + ("%" if self.percent else "") + extra


def read_quantities(text: str) -> list[Quantity]:
    """Every quantity mentioned in ``text``, in order (digits, Chinese numerals before a
    measure word, and English number words when there are no digits)."""
    text = prepare(text)
    found = [q for m in _NUMBER.finditer(text) if (q := _mention(m, text)) is not None]
    found += [q for m in _CN_NUMBER.finditer(text) if (q := _chinese(m, text)) is not None
              and not any(f.start <= q.start < f.end for f in found)]
    if not found:
        found = _english_words(text)
    return _accounting(text, sorted(found, key=lambda q: q.start))


def _accounting(text: str, found: list[Quantity]) -> list[Quantity]:
    """An accounting negative: the whole text is one number in parentheses, ``(1,234)``."""
    stripped = text.strip()
    if len(found) != 1 or not (stripped.startswith("(") and stripped.endswith(")")):
        return found
    q = found[0]
    if stripped[1:-1].strip() != text[q.start:q.end].strip():
        return found
    return [replace(q, readings=tuple((-v, p) for v, p in q.readings),
                    shown=(-q.shown[0], q.shown[1]))]


def reference_quantity(text: str) -> Quantity | None:
    """The reference as one quantity, when it is nothing else: a number with its scale,
    unit, currency or percent, and optionally a unit gloss (``2895（千人）``)."""
    text = prepare(text).strip().rstrip("。.")
    if re.fullmatch(r"\(\s*[-\d.,]+\s*\)", text):  # accounting: the whole text in parentheses
        found = read_quantities(text)
        return found[0] if len(found) == 1 else None
    gloss = _GLOSS.search(text)
    body = text[:gloss.start()] if gloss else text
    found = read_quantities(body)
    if len(found) != 1:
        return None
    q = found[0]
    before, after = body[:q.start].strip(), body[q.end:].strip()
    if before and not (currency_of(before) or before in ("~", "≈", "约")):
        return None
    if re.search(r"\d", after) or len(after) > 12:
        return None
    return _with_gloss(q, gloss) if gloss else q


def _with_gloss(q: Quantity, gloss: re.Match[str]) -> Quantity | None:
    scale = SCALES.get((gloss.group("scale") or "").lower(), Decimal(1))
    rest = gloss.group("rest").strip()
    percent = rest in ("%", "％")
    unit, currency, read = read_after(rest) if rest and not percent else (None, None, 0)
    if rest and not percent and read != len(rest):
        return None  # not a unit gloss: "X（Y）" alternatives are read elsewhere
    readings = tuple((v * scale, p * scale) for v, p in q.readings)
    return Quantity(readings, q.shown, q.scaled or scale != 1, q.percent or percent,
                    q.unit or unit, q.currency or currency, q.start, q.end, glossed=scale != 1)


def _mention(m: re.Match[str], text: str) -> Quantity | None:
    values, _ = literal_readings(m.group("lit"))
    if not values:
        return None
    scale = SCALES.get((m.group("scale") or "").lower(), Decimal(1))
    sign = Decimal(-1) if m.group("neg") else Decimal(1)
    written = tuple((sign * v, _unit_of_last_digit(v)) for v in values)
    unit, currency, read = (None, None, 0) if m.group("pct") else read_after(text[m.end():])
    prefix = CURRENCIES.get((m.group("cur") or "").lower())
    return Quantity(tuple((v * scale, p * scale) for v, p in written), written[0],
                    scale != 1, bool(m.group("pct")), unit, prefix or currency,
                    m.start(), m.end() + read)


def _unit_of_last_digit(value: Decimal) -> Decimal:
    exponent = value.as_tuple().exponent
    return Decimal(1).scaleb(exponent if isinstance(exponent, int) else 0)


def _chinese(m: re.Match[str], text: str) -> Quantity | None:
    value = chinese_numeral(m.group("cn"))
    if value is None:
        return None
    reading = (Decimal(value), Decimal(1))
    unit, currency, read = read_after(text[m.end():])
    return Quantity((reading,), reading, False, False, unit, currency, m.start(), m.end() + read)


def chinese_numeral(text: str) -> int | None:
    """``七`` 7, ``十二`` 12, ``二十一`` 21, ``一百零五`` 105, ``三万`` 30000 (None: not one)."""
    total, section, digit = 0, 0, None
    for c in text:
        if c in _CN_DIGITS:
            digit = _CN_DIGITS[c]
        elif c in _CN_UNITS:
            section += (1 if digit is None else digit) * _CN_UNITS[c]
            digit = None
        elif c in ("万", "亿"):
            total = (total + section + (digit or 0)) * (10_000 if c == "万" else 100_000_000)
            section, digit = 0, None
        else:
            return None
    return total + section + (digit or 0)


def _english_words(text: str) -> list[Quantity]:
    found = []
    for m in _WORDS.finditer(text):
        value = cardinal(m.group("word").lower())
        if value is not None:
            reading = (Decimal(value), Decimal(1))
            found.append(Quantity((reading,), reading, False, False, None, None,
                                  m.start(), m.end()))
    return found


# -- comparing ----------------------------------------------------------------------------------


def compare(ref: Quantity, answer: Quantity, *, percent_context: bool) -> Verdict:
    """One answer quantity against the reference."""
    clash = _unit_clash(ref, answer)
    if clash:
        return wrong("unit", clash)
    if percent_context or ref.percent:
        return _compare_percent(ref, answer)
    if answer.percent:  # the reference is bare and nothing says %: a fraction may be meant
        raw = _compare_values(ref, answer, _plain_readings(answer), "decimal")
        if raw.correct:
            return undecided("percent", f"{answer.text()} has the reference's digits, but "
                                        "neither the task nor the reference says %")
        converted = _compare_values(ref, answer, _fractions(answer), "percent")
        if converted.correct:
            return undecided("percent", f"{answer.text()} is {ref.text()} as a fraction, but "
                                        "neither the task nor the reference says %")
        return raw
    return _compare_values(ref, answer, _plain_readings(answer), _rule(ref))


def _rule(ref: Quantity) -> Rule:
    return "integer" if ref.integer else "decimal"


def _unit_clash(ref: Quantity, answer: Quantity) -> str:
    if ref.currency and answer.currency:
        a, b = set(ref.currency.split("/")), set(answer.currency.split("/"))
        if not a & b:
            return f"currency differs: {answer.currency} in the answer, {ref.currency} expected"
    if ref.unit and answer.unit and ref.unit != answer.unit:
        return f"unit differs: {answer.unit} in the answer, {ref.unit} expected"
    return ""


def _plain_readings(q: Quantity) -> list[Reading]:
    return list(q.readings)


def _fractions(q: Quantity) -> list[Reading]:
    return [(v / 100, p / 100) for v, p in q.readings]


def _compare_percent(ref: Quantity, answer: Quantity) -> Verdict:
    """Both sides as fractions: a percentage is divided by 100; a bare reference up to 1 is
    already a fraction (``0.437`` for a task asking "(%)"); a bare answer may be either."""
    ref_value, ref_precision = ref.readings[0]
    if ref.percent or abs(ref_value) > 1:
        ref_value, ref_precision = ref_value / 100, ref_precision / 100
    as_fraction = replace(ref, readings=((ref_value, ref_precision),), percent=False)
    readings = _fractions(answer) if answer.percent else [*answer.readings, *_fractions(answer)]
    return _compare_values(as_fraction, answer, readings, "percent", ambiguous_ok=True)


def _compare_values(ref: Quantity, answer: Quantity, readings: list[Reading], rule: Rule, *,
                    ambiguous_ok: bool = False) -> Verdict:
    targets = [ref.readings[0]]
    bare = ref.scaled and not answer.scaled and not answer.unit and not answer.percent
    if bare and ref.glossed:
        targets.append(ref.shown)  # "2895" for 2895（千人）: the number as the table shows it
    elif bare and _close(ref.shown, readings[0], integer=False) == "equal":
        return undecided(rule, f"{answer.text()} is the reference's {plain(ref.shown[0])} "
                               "without its scale")
    outcomes = [(i, _close(t, a, integer=ref.integer and not t_i))
                for i, a in enumerate(readings) for t_i, t in enumerate(targets)]
    for i, outcome in outcomes:
        if outcome == "equal":
            if i and not ambiguous_ok:
                return undecided("decimal", f"{answer.text()} is {ref.text()} only with its "
                                            "ambiguous separator read the other way")
            return correct(rule, f"{plain(readings[i][0])} is {plain(targets[0][0])}"
                           f"{_precision_note(targets[0])}")
    if any(o == "rounding" for _, o in outcomes):
        return undecided("rounding", f"{answer.text()} is {ref.text()} rounded to fewer "
                                     "digits than the reference gives")
    return wrong(rule, f"{answer.text()} is not {ref.text()}"
                       f"{_precision_note(targets[0])}")


def _precision_note(target: Reading) -> str:
    return "" if target[1] >= 1 else f" (to ±{plain(target[1] / 2)})"


def _close(target: Reading, answer: Reading, *, integer: bool) -> str:
    """"equal", "rounding" or "different"."""
    (r, pr), (a, pa) = target, answer
    if a == r or (not integer and abs(a - r) * 2 < pr and pa <= pr):
        return "equal"
    if pa > pr and _round(r, pa) == a:
        return "rounding"
    return "different"


def _round(value: Decimal, step: Decimal) -> Decimal:
    try:
        return (value / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step
    except InvalidOperation:
        return value


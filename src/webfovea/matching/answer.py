"""One answer against one reference: the typed rules in the order that decides.

A list reference (several lines or items) is matched item by item (:mod:`lists`); each item,
or a single reference, by its kind: a date, a quantity, a date with a quantity
(``2011年第一季度172千人次``), or text — each form of a reference that gives alternatives.
The task's instruction tells whether % is meant and which numbers and dates in the answer
merely repeat the question (``2025年1月``, ``6级`` in "2025年1月发生的6级及以上地震").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from .dateforms import DateMention, find_dates, reference_date
from .dates import DateValue, same_date
from .forms import reference_forms
from .lists import answer_items, is_ranking, list_verdict, split_items
from .numbers import prepare
from .quantities import Quantity, compare, read_quantities, reference_quantity
from .text import text_verdict
from .verdict import Verdict, best, correct, undecided, wrong

AnswerType = Literal["auto", "text", "number", "date"]

# Words joining two values an answer hedges between: "2006年或2007年", "40 to 42".
_HEDGE = re.compile(r"^[\s年月日次个人]*(?:或者?|或是|还是|至|到|~|～|-|–|—|/|(?i:or|to|and))\s*$")
_PARTIAL_HEDGE = re.compile(r"\s*(?:或者?|或是|还是|至|到|~|～|(?i:or|to))\s*\d")
# A bound is not a value: "5 or more", "至少5", "超过5次", "6级及以上".
_BOUND_AFTER = re.compile(r"\s*(?:[个次人名家项条]?\s*(?:及?以上|及?以下|多|余|左右|之多)"
                          r"|\+|(?i:or (?:more|above|less|fewer|below)|plus)\b)")
_BOUND_BEFORE = re.compile(r"(?:至少|最少|最多|超过|不到|不足|多于|少于|近|将近|大于|小于|"
                           r"(?i:at least|at most|more than|less than|fewer than|over|under|"
                           r"nearly|almost|up to))\s*$")
# The task asks for a percentage ("多少(%)", "百分比"); a % among its parameters ("Top 10%")
# does not. The reference says % when it holds one.
_ASKS_PERCENT = re.compile(r"[(（]\s*[%％]\s*[)）]|百分比|百分之|占比|"
                           r"(?i:percentage|what percent|in percent|\bin %)")


@dataclass(frozen=True)
class Context:
    percent: bool  # the task or the reference says %: percentages and fractions convert
    task_numbers: tuple[tuple[str, str, str], ...]  # (value, word before, word after) each

    task_dates: tuple[DateValue, ...]


def context(task: str, reference: str) -> Context:
    text = prepare(task)
    numbers = tuple((str(q.readings[0][0]), _word_before(text, q.start),
                     _word_after(text, q.end)) for q in read_quantities(text))
    dates = tuple(v for d in find_dates(text) for v in d.readings)
    return Context(bool(_ASKS_PERCENT.search(task) or re.search(r"[%％]", reference)),
                   numbers, dates)


def match_answer(reference: str, answer: str, *, task: str = "",
                 answer_type: AnswerType = "auto") -> Verdict:
    """The typed verdict for ``answer`` against ``reference`` (``task``: the instruction)."""
    ctx = context(task, reference)
    if answer_type == "auto" and not reference_date(reference):
        refs, numbered = split_items(reference)
        if len(refs) > 1:
            found = answer_items(answer, len(refs))
            return list_verdict(refs, found, ranking=is_ranking(task, numbered),
                                item=lambda r, a: item_verdict(r, a, ctx, "auto"))
    return item_verdict(reference, answer, ctx, answer_type)


def item_verdict(reference: str, answer: str, ctx: Context, answer_type: AnswerType) -> Verdict:
    forms = reference_forms(reference)
    verdicts = [_one_form(form, answer, ctx, answer_type) for form in forms]
    # A gloss in another script (Dublin（都柏林）) does not make an answer in the script of
    # one of the forms undecided: that form decides.
    same_script = [v for v in verdicts if v.rule != "script"]
    found = _finest_form(forms, verdicts, answer) or best(same_script or verdicts)
    assert found is not None  # reference_forms gives at least one form
    if len(forms) > 1 and found.correct:
        return correct(found.rule, f"{found.why} (one of the reference's forms: "
                                   f"{' / '.join(forms)})")
    return found


def _finest_form(forms: list[str], verdicts: list[Verdict], answer: str) -> Verdict | None:
    """``107.8/107.77``: an answer that gives the finest form's digits is judged by that form
    alone (107.76 is within half a unit of 107.8, not of 107.77), unless it is exactly
    another form's value (107.80)."""
    quantities = [reference_quantity(form) for form in forms]
    mentions = read_quantities(answer)
    if len(forms) < 2 or len(mentions) != 1 or None in quantities:
        return None
    values = [q.readings[0] for q in quantities if q is not None]
    (value, precision), finest = mentions[0].readings[0], min(range(len(values)),
                                                             key=lambda i: values[i][1])
    if any(value == v for v, _ in values) or precision > values[finest][1]:
        return None
    return verdicts[finest]


def _one_form(reference: str, answer: str, ctx: Context, answer_type: AnswerType) -> Verdict:
    if answer_type in ("auto", "date"):
        dates = reference_date(reference)
        if dates:
            return date_verdict(dates, answer, ctx)
    if answer_type in ("auto", "number"):
        quantity = reference_quantity(reference)
        if quantity is not None:
            return quantity_verdict(quantity, answer, ctx)
    if answer_type == "auto":
        combined = _date_and_quantity(reference, answer, ctx)
        if combined is not None:
            return combined
    return text_verdict(reference, answer)


# -- quantities -----------------------------------------------------------------------------


def quantity_verdict(ref: Quantity, answer: str, ctx: Context) -> Verdict:
    """The answer's own numbers (not the task's, not inside its dates) against ``ref``."""
    text = prepare(answer)
    mentions = read_quantities(text)
    if not mentions:
        if re.search(r"\d", text) or not re.search(r"\w", text):
            return wrong(_family(ref), f"no number in the answer; {ref.text()} expected")
        return undecided(_family(ref), "the answer states no number a typed rule can read")
    own = _own(mentions, text, ctx)
    verdicts = [compare(ref, q, percent_context=ctx.percent) for q in own]
    if _hedges(own, [v.correct for v in verdicts], text):
        return wrong("hedge", "the answer hedges between "
                              + " and ".join(q.text() for q in own))
    agree = [v for v in verdicts if v.correct]
    bound = _bound([q for q, v in zip(own, verdicts, strict=True) if v.correct], text)
    if bound is not None:
        return undecided("hedge", f"the answer gives {bound.text()} as a bound, not a value")
    clash = _scope_clash(mentions, text, ctx) if agree else ""
    if clash:
        return undecided(agree[0].rule, f"the answer states {ref.text()}, but {clash}")
    if agree and len(agree) == len(verdicts):
        return agree[0]
    if agree:
        return undecided(agree[0].rule, f"the answer states {ref.text()} among other numbers ("
                                        + ", ".join(q.text() for q in own) + ")")
    return verdicts[0] if len(verdicts) == 1 else _none_agree(verdicts, own, ref)


def _bound(agreeing: list[Quantity], text: str) -> Quantity | None:
    """The agreeing value written as a bound ("5 or more", "至少7次"), if it is."""
    for q in agreeing:
        if _BOUND_AFTER.match(text[q.end:]) or _BOUND_BEFORE.search(text[:q.start]):
            return q
    return None


def _none_agree(verdicts: list[Verdict], own: list[Quantity], ref: Quantity) -> Verdict:
    if any(v.decision == "undecided" for v in verdicts) and all(
            v.decision != "wrong" or v.rule == "unit" for v in verdicts):
        return next(v for v in verdicts if v.decision == "undecided")
    return wrong(_family(ref), "none of the answer's numbers ("
                               + ", ".join(q.text() for q in own) + f") is {ref.text()}")


def _family(ref: Quantity) -> Literal["integer", "decimal", "percent"]:
    return "percent" if ref.percent else "integer" if ref.integer else "decimal"


def _own(mentions: list[Quantity], text: str, ctx: Context) -> list[Quantity]:
    """The answer's numbers less those that repeat the task's or sit inside a date; all of
    them when that leaves none."""
    dates = find_dates(text)
    fresh = [q for q in mentions if not _from_task(q, text, ctx)]
    undated = [q for q in fresh if not any(d.start <= q.start < d.end for d in dates)]
    return undated or fresh or mentions


def _scope_clash(mentions: list[Quantity], text: str, ctx: Context) -> str:
    """Where the answer restates the question differently — another period ("2026年1月"
    for a task about 2025年1月), another threshold ("7级" for "6级") — the value may answer
    another question: what differs ("" when nothing does)."""
    for d in find_dates(text):
        if ctx.task_dates and not any(_consistent(t, v) for t in ctx.task_dates
                                      for v in d.readings):
            return f"it speaks of {d.shown()}, which the task does not name"
    for q in mentions:
        value, after = str(q.readings[0][0]), _word_after(text, q.end)
        named = [v for v, _, a in ctx.task_numbers if after and a == after]
        if named and value not in named:
            return f"its {value}{after} is not the task's {named[0]}{after}"
    return ""


def _consistent(a: DateValue, b: DateValue) -> bool:
    """The same date at the vaguer one's precision (2024-02 and 2024-02-01 agree)."""
    return same_date(a, b) or same_date(b, a)


def _from_task(q: Quantity, text: str, ctx: Context) -> bool:
    """The task names this number with the same word before or after it ("6级", "Top 10%"),
    or the answer gives it no word after it ("6+"): it repeats the question."""
    value, before, after = (str(q.readings[0][0]), _word_before(text, q.start),
                            _word_after(text, q.end))
    return any(v == value and (a == after or not after or (b and b == before))
               for v, b, a in ctx.task_numbers)


def _word_before(text: str, start: int) -> str:
    m = re.search(r"([\u4e00-\u9fff]|[A-Za-z]+)\s*$", text[:start])
    return m.group(1).lower() if m else ""


def _word_after(text: str, end: int) -> str:
    m = re.match(r"\s*([\u4e00-\u9fff]|[A-Za-z]+|%)", text[end:])
    return m.group(1).lower() if m else ""


def _hedges(own: Sequence[Quantity], agree: Sequence[bool], text: str) -> bool:
    """The value that agrees is joined to a different one by "或 / or / to / -"."""
    pairs = zip(pairwise(own), pairwise(agree), strict=True)
    return any((x or y) and a.readings[0] != b.readings[0] and _HEDGE.match(text[a.end:b.start])
               for (a, b), (x, y) in pairs)


# -- dates ------------------------------------------------------------------------------------


def date_verdict(refs: tuple[DateValue, ...], answer: str, ctx: Context) -> Verdict:
    text = prepare(answer)
    mentions = find_dates(text)
    if all(r.precision == "year" for r in refs):
        mentions = _with_bare_years(mentions, text)
    shown = " or ".join(r.shown() for r in refs)
    if not mentions:
        if re.search(r"\d", text):
            return wrong("date", f"no date in the answer; {shown} expected")
        return undecided("date", "the answer states no date a typed rule can read")
    own = [d for d in mentions if not any(v in ctx.task_dates for v in d.readings)] or mentions
    agree = [d for d in own if _same(refs, d)]
    if _date_hedge(own, text):
        return wrong("hedge", "the answer hedges between " + " and ".join(d.shown() for d in own))
    if agree and len(agree) == len(own):
        return correct("date", f"{agree[0].shown()} is {shown}")
    if agree:
        return undecided("date", f"the answer states {shown} among other dates ("
                                 + ", ".join(d.shown() for d in own) + ")")
    return wrong("date", ", ".join(d.shown() for d in own) + f" is not {shown}")


def _with_bare_years(mentions: list[DateMention], text: str) -> list[DateMention]:
    """A year reference (``2006年``) is also stated by a bare ``2006``."""
    years = [DateMention(m.start(), m.end(), (DateValue(int(m.group(0)), 1, 1, "year"),))
             for m in re.finditer(r"(?<![\d.,])\d{4}(?![\d.,])", text)
             if not any(d.start <= m.start() < d.end for d in mentions)]
    return sorted([*mentions, *years], key=lambda d: d.start)


def _same(refs: tuple[DateValue, ...], mention: DateMention) -> bool:
    return any(same_date(r, a) for r in refs for a in mention.readings)


def _date_hedge(own: Sequence[DateMention], text: str) -> bool:
    """Two dates joined by "或 / or / 至", or one followed by a second, partial one
    ("1999年4月29日或4月30日")."""
    if len({d.readings for d in own}) > 1 and any(
            _HEDGE.match(text[a.end:b.start]) for a, b in pairwise(own)):
        return True
    return any(_PARTIAL_HEDGE.match(text[d.end:]) for d in own)


# -- an item with a date and a quantity ------------------------------------------------------


def _date_and_quantity(reference: str, answer: str, ctx: Context) -> Verdict | None:
    """``2011年第一季度172千人次``: the date and the quantity each must match; an answer that
    gives the date but leaves the quantity out is undecided."""
    ref_text = prepare(reference)
    ref_dates = find_dates(ref_text)
    if len(ref_dates) != 1:
        return None
    rest = _without(ref_text, ref_dates)
    quantity = reference_quantity(rest)
    if quantity is None:
        return None
    when = date_verdict(ref_dates[0].readings, answer, ctx)
    ans_text = prepare(answer)
    ans_rest = _without(ans_text, find_dates(ans_text)).strip("()（） ")
    if not read_quantities(ans_rest):
        if when.decision == "wrong":
            return when
        return undecided("date", f"{when.why}; the answer leaves out {quantity.text()}")
    how_much = quantity_verdict(quantity, ans_rest, ctx)
    return _both(when, how_much)


def _without(text: str, dates: Sequence[DateMention]) -> str:
    for d in sorted(dates, key=lambda d: d.start, reverse=True):
        text = text[:d.start] + " " + text[d.end:]
    return text.strip(" ：:，,")


def _both(first: Verdict, second: Verdict) -> Verdict:
    for v in (first, second):
        if v.decision == "wrong":
            return v
    for v in (first, second):
        if v.decision == "undecided":
            return v
    return correct(second.rule, f"{first.why}; {second.why}")

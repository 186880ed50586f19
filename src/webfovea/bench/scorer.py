"""Answer matching: exact, numeric, date and list matchers, and an optional model judge.

Every verdict names the matcher that decided it. ``conclusive`` is False when a matcher
could not read the answer the way it needs (no number, several numbers, list items
that do not pair up, text that differs): only then may a judge overrule it. A judge
never overrules a number or date that was read on both sides and differs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from decimal import Decimal
from typing import Any, Literal

from ..core.errors import ModelError
from ..core.task import AnswerType
from ..matching.dates import DateValue, find_date, parse_date, same_date
from ..matching.normalize import TOLERANCE, normalize
from ..matching.numbers import Number, find_numbers, is_single_number, plain, prepare, within
from .judge import Judge

Matcher = Literal["exact", "numeric", "date", "list", "judge", "status", "none"]


@dataclass(frozen=True)
class Verdict:
    correct: bool | None  # None: the task has no reference answer
    matcher: Matcher
    detail: str
    conclusive: bool = True

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def match(reference: str, answer: str, answer_type: AnswerType = "auto") -> Verdict:
    """The deterministic verdict for one answer.

    A reference that is a number or a date is decided by that matcher (exact equality
    of the text would call "(1,234)" and "1,234" equal); other references are compared
    exactly, then as lists.
    """
    typed = _typed(reference, answer, answer_type)
    if typed is not None:
        return typed
    if normalize(reference) == normalize(answer):
        return Verdict(True, "exact", "equal after normalising case, whitespace and punctuation")
    listed = match_list(reference, answer) if answer_type == "auto" else None
    if listed is not None:
        return listed
    return Verdict(False, "exact", f"{answer!r} differs from {reference!r} after normalising",
                   conclusive=False)


def _typed(reference: str, answer: str, answer_type: AnswerType) -> Verdict | None:
    if answer_type in ("auto", "number"):
        verdict = match_number(reference, answer, strict=answer_type == "auto")
        if verdict is not None:
            return verdict
    if answer_type in ("auto", "date"):
        return match_date(reference, answer)
    return None


def match_number(reference: str, answer: str, *, strict: bool = True) -> Verdict | None:
    """None when the reference is not a number (``strict``: nothing but a number)."""
    ref_text = prepare(reference)
    refs = find_numbers(ref_text)
    if len(refs) != 1 or (strict and not is_single_number(ref_text, refs[0])):
        return None
    ref = refs[0]
    found = find_numbers(prepare(answer))
    if not found:
        return Verdict(False, "numeric", "no number in the answer", conclusive=False)
    conflict = _conflict(ref, found)
    if conflict:
        return Verdict(False, "numeric", conflict)
    hits = [_agrees(ref, n) for n in found]
    if all(hit is not None for hit in hits):
        return Verdict(True, "numeric", str(hits[0]))
    if len(found) == 1:
        return Verdict(False, "numeric", f"{found[0].shown()} is not within 0.5 % of "
                                         f"{ref.shown()}")
    shown = ", ".join(n.shown() for n in found)
    return Verdict(False, "numeric", f"the answer holds {len(found)} different numbers ({shown}); "
                                     "a numeric answer must state one", conclusive=False)


def _conflict(ref: Number, found: Sequence[Number]) -> str:
    for n in found:
        if ref.currency and n.currency and not set(ref.currency.split("/")) & set(
                n.currency.split("/")):
            return f"currency differs: {n.currency} in the answer, {ref.currency} expected"
        if ref.unit and n.unit and ref.unit != n.unit:
            return f"unit differs: {n.unit} in the answer, {ref.unit} expected"
    return ""


def _agrees(ref: Number, answer: Number) -> str | None:
    for i, r in enumerate(ref.readings):
        for j, a in enumerate(answer.readings):
            if within(a, r, TOLERANCE):
                how = "equal" if a == r else f"within 0.5 % ({_percent_off(a, r)} off)"
                # Readings after the first are the other convention of an ambiguous separator.
                note = " (an ambiguous separator read the other way)" if i or j else ""
                return f"{plain(a)} vs {plain(r)}: {how}{note}"
    return None


def _percent_off(a: Decimal, r: Decimal) -> str:
    return f"{abs(a - r) / abs(r) * 100:.3f} %"


def match_date(reference: str, answer: str) -> Verdict | None:
    refs = parse_date(reference)
    if not refs:
        return None
    found = find_date(answer)
    if not found:
        return Verdict(False, "date", "no single date in the answer", conclusive=False)
    ambiguous = " (an ambiguous day/month order was read both ways)" if (
        len(refs) > 1 or len(found) > 1) else ""
    for r in refs:
        for a in found:
            if same_date(r, a):
                return Verdict(True, "date", f"{a.shown()} matches {r.shown()}{ambiguous}")
    return Verdict(False, "date", f"{_dates(found)} is not {_dates(refs)}")


def _dates(values: Sequence[DateValue]) -> str:
    return " or ".join(v.shown() for v in values)


_ITEM_SPLIT = re.compile(r"\s*(?:[;\n|]|,\s+(?:and\s+)?|,(?!\d)|\s+and\s+|\s+&\s+)\s*",
                         re.IGNORECASE)


def split_items(text: str) -> list[str]:
    """List items: separated by ; | newlines, commas (not inside numbers), 'and', '&'."""
    return [item for item in (i.strip(" .") for i in _ITEM_SPLIT.split(text.strip())) if item]


def match_list(reference: str, answer: str) -> Verdict | None:
    """Unordered: every item pairs with exactly one item of the other side."""
    refs, found = split_items(reference), split_items(answer)
    if len(refs) < 2:
        return None
    pairs = _pairing(refs, found)
    if len(pairs) == len(refs) == len(found):
        return Verdict(True, "list", f"all {len(refs)} items match (in any order)")
    missing = [r for i, r in enumerate(refs) if i not in pairs]
    extra = [a for j, a in enumerate(found) if j not in pairs.values()]
    return Verdict(False, "list", f"missing {missing}, unexpected {extra}", conclusive=False)


def _item_matches(reference: str, answer: str) -> bool:
    if normalize(reference) == normalize(answer):
        return True
    typed = match_number(reference, answer) or match_date(reference, answer)
    return bool(typed and typed.correct)


def _pairing(refs: Sequence[str], found: Sequence[str]) -> dict[int, int]:
    """A maximum matching of reference items to answer items (augmenting paths)."""
    ok = [[_item_matches(r, a) for a in found] for r in refs]
    owner: dict[int, int] = {}  # answer item → reference item

    def augment(i: int, seen: set[int]) -> bool:
        for j in range(len(found)):
            if ok[i][j] and j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(refs)):
        augment(i, set())
    return {i: j for j, i in owner.items()}


async def score(*, reference: str | None, answer: str | None, answer_type: AnswerType,
                status: str, question: str, judge: Judge | None = None) -> Verdict:
    """The verdict for one task's outcome; the judge is asked only about inconclusive misses."""
    if reference is None:
        return Verdict(None, "none", "the task has no reference answer")
    if status != "finished":
        return Verdict(False, "status", f"no answer: the task ended with status {status}")
    if answer is None or not answer.strip():
        return Verdict(False, "status", "no answer: the agent finished without one")
    verdict = match(reference, answer, answer_type)
    if verdict.correct or verdict.conclusive or judge is None:
        return verdict
    try:
        same = await judge.equivalent(question=question, reference=reference, answer=answer)
    except ModelError as e:
        return replace(verdict, detail=f"{verdict.detail}; the judge failed: {e}")
    said = "equivalent" if same else "not equivalent"
    return Verdict(same, "judge", f"{judge.name} judged it {said} ({verdict.matcher}: "
                                  f"{verdict.detail})")

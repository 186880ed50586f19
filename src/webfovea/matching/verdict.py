"""A typed matcher's verdict: correct, wrong or undecided, the rule that decided and why.

Undecided is the third answer a typed rule may give when it cannot tell (the answer is in
another script than the reference, a rounding of its last digit, a possible short form):
never a guess either way. Only undecided verdicts go to a model judge.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Decision = Literal["correct", "wrong", "undecided"]
# The rule that decided: the family of the reference (integer, decimal, percent, date, list)
# or what settled it (unit, hedge, rounding, script, text).
Rule = Literal["integer", "decimal", "percent", "unit", "hedge", "rounding", "date", "ranking",
               "set", "text", "script"]

_RANK: dict[Decision, int] = {"wrong": 0, "undecided": 1, "correct": 2}


@dataclass(frozen=True)
class Verdict:
    decision: Decision
    rule: Rule
    why: str

    @property
    def correct(self) -> bool:
        return self.decision == "correct"


def correct(rule: Rule, why: str) -> Verdict:
    return Verdict("correct", rule, why)


def wrong(rule: Rule, why: str) -> Verdict:
    return Verdict("wrong", rule, why)


def undecided(rule: Rule, why: str) -> Verdict:
    return Verdict("undecided", rule, why)


def best(verdicts: Iterable[Verdict]) -> Verdict | None:
    """The most favourable of several readings or forms (correct, then undecided, then
    wrong); the first of equals, so callers order readings by preference."""
    found: Verdict | None = None
    for v in verdicts:
        if found is None or _RANK[v.decision] > _RANK[found.decision]:
            found = v
    return found

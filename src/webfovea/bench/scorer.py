"""Answer scoring: the typed matcher's three verdicts, and an optional model judge for the
undecided ones.

The typed rules (:mod:`webfovea.matching.answer`) say correct, wrong or undecided, each with
the rule that decided and why. A judge (``--judge SPEC``) is asked about the undecided ones
and only those; without one an undecided answer counts as not correct and the report lists
it. The status of the task (it ended without an answer) decides before any matching.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..core.errors import ModelError
from ..core.task import AnswerType
from ..matching.answer import match_answer
from ..matching.verdict import Verdict as Typed
from .judge import Judge

Decision = Literal["correct", "wrong", "undecided", "unscored"]


@dataclass(frozen=True)
class Verdict:
    correct: bool | None  # None: the task has no reference answer; False also when undecided
    matcher: str  # who decided: a typed rule, "judge", "status" or "none"
    detail: str
    rule: str = ""  # the typed rule, kept when the judge decided what it left undecided
    undecided: bool = False  # the typed rules could not tell and no judge decided

    @property
    def decision(self) -> Decision:
        if self.correct is None:
            return "unscored"
        if self.correct:
            return "correct"
        return "undecided" if self.undecided else "wrong"

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "decision": self.decision}


def from_typed(typed: Typed) -> Verdict:
    return Verdict(typed.correct, typed.rule, typed.why, rule=typed.rule,
                   undecided=typed.decision == "undecided")


def match(reference: str, answer: str, answer_type: AnswerType = "auto", *,
          task: str = "") -> Verdict:
    """The typed verdict for one answer (``task``: the instruction, which says whether %
    is meant and which numbers merely repeat the question)."""
    return from_typed(match_answer(reference, answer, task=task, answer_type=answer_type))


async def score(*, reference: str | None, answer: str | None, answer_type: AnswerType,
                status: str, question: str, judge: Judge | None = None) -> Verdict:
    """The verdict for one task's outcome; the judge is asked only about undecided ones."""
    if reference is None:
        return Verdict(None, "none", "the task has no reference answer")
    if status != "finished":
        return Verdict(False, "status", f"no answer: the task ended with status {status}")
    if answer is None or not answer.strip():
        return Verdict(False, "status", "no answer: the agent finished without one")
    verdict = match(reference, answer, answer_type, task=question)
    if not verdict.undecided or judge is None:
        return verdict
    try:
        same = await judge.equivalent(question=question, reference=reference, answer=answer)
    except ModelError as e:
        return Verdict(False, verdict.matcher, f"{verdict.detail}; the judge failed: {e}",
                       rule=verdict.rule, undecided=True)
    said = "equivalent" if same else "not equivalent"
    return Verdict(same, "judge", f"{judge.name} judged it {said} (undecided by the "
                                  f"{verdict.rule} rule: {verdict.detail})", rule=verdict.rule)

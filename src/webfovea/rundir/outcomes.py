"""What a task's end counts as: the outcome buckets and the success rate with its error.

The bench's report (from the store) and the viewer's bench page (from the run directory)
both count with these, so the two can never disagree on what a task's ending means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The eight buckets, then the ones a run can also have.
BUCKETS = ("correct", "wrong_answer", "no_answer", "step_limit", "time_limit", "unreachable",
           "model_error", "browser_error", "harness_error", "needs_confirmation", "unscored",
           "pending")
BUCKET_HELP = {
    "correct": "finished, and the answer matches the reference",
    "wrong_answer": "finished with an answer that does not match",
    "no_answer": "finished without an answer (empty, or finished()), or gave up (call_user())",
    "step_limit": "ran out of steps",
    "time_limit": "ran out of time (or hung and was ended)",
    "unreachable": "the entry URL could not be loaded",
    "model_error": "the model could not be used (after retries)",
    "browser_error": "the browser crashed, disconnected or would not start",
    "harness_error": "an unexpected error inside webfovea (please report it)",
    "needs_confirmation": "stopped: the provider asked to confirm an action (a safety check)",
    "unscored": "finished, but the task has no reference answer",
    "pending": "not run yet (resume the run to finish it)",
}


def bucket(status: str | None, correct: bool | None, answer: str | None) -> str:
    """The bucket of a task that ended with ``status`` (None: not run yet)."""
    if status is None:
        return "pending"
    if status == "finished":
        if correct is None:
            return "unscored"
        if correct:
            return "correct"
        return "wrong_answer" if (answer or "").strip() else "no_answer"
    if status == "gave_up":
        return "no_answer"
    return status if status in BUCKETS else "harness_error"


# Evidence-based scoring (``score --judge-evidence``): what a finished answer counts as once
# a judge has looked at the evidence, beside or instead of the reference.
EVIDENCE_CATEGORIES = ("correct", "stale_reference", "wrong", "supported", "not_supported",
                       "cannot_tell")
EVIDENCE_HELP = {
    "correct": "the answer matches the reference",
    "stale_reference": "the answer differs from the reference but the evidence supports it "
                       "(the reference may be stale)",
    "wrong": "the answer differs from the reference and the evidence does not support it",
    "supported": "no reference: the evidence supports the answer",
    "not_supported": "no reference: the evidence does not support the answer",
    "cannot_tell": "no reference: the evidence cannot tell",
}


def evidence_category(correct: bool | None, evidence: str | None) -> str | None:
    """The category of a finished answer: ``correct`` from the reference; else the evidence
    judge's verdict decides (None: not judged and not correct)."""
    if correct:
        return "correct"
    if correct is False:
        return None if evidence is None else (
            "stale_reference" if evidence == "supported" else "wrong")
    return evidence


WILSON_Z = 1.959964  # two-sided 95 %


@dataclass(frozen=True)
class Rate:
    correct: int
    n: int

    @property
    def value(self) -> float | None:
        return self.correct / self.n if self.n else None

    @property
    def stderr(self) -> float | None:
        """Binomial standard error sqrt(p(1-p)/n)."""
        p = self.value
        return None if p is None else math.sqrt(p * (1 - p) / self.n)

    @property
    def interval(self) -> tuple[float, float] | None:
        """Wilson score 95 % interval: unlike p ± SE it stays honest at 0/n and n/n."""
        if not self.n:
            return None
        z, n, p = WILSON_Z, self.n, self.correct / self.n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def shown(self) -> str:
        if not self.n or self.value is None or self.stderr is None:
            return "n/a (no scored task)"
        if self.correct in (0, self.n):  # SE is 0 here: show the interval instead
            low, high = self.interval or (0.0, 1.0)
            return (f"{100 * self.value:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}) "
                    f"({self.correct}/{self.n})")
        return f"{100 * self.value:.1f}% ± {100 * self.stderr:.1f} ({self.correct}/{self.n})"

    def explained(self) -> str:
        """:meth:`shown`, saying what its ± is (the interval form names itself)."""
        shown = self.shown()
        return f"{shown} (± binomial standard error)" if " ± " in shown else shown

"""What the viewer shows of a trustworthy answer: its grounding (result.json ``grounding``),
the independent verifier's verdict and calls (result.json ``verifier``, ``verifier.jsonl``)
and the evidence judge's word (score.json ``evidence``). Plain data; viewer.js draws it as
text."""

from __future__ import annotations

from typing import Any

from ..rundir.store import TaskRun, read_verifier
from .pages import cost


def grounding_status(task: TaskRun) -> str:
    """The index's grounding column: the recorded status, or ``not_checked`` (no answer, or
    a run made before grounding was recorded)."""
    g = task.result.grounding
    return g.status if g else "not_checked"


def evidence_category(task: TaskRun) -> str | None:
    e = task.score.evidence if task.score else None
    return e.category if e else None


def answer_checks(task: TaskRun) -> dict[str, Any]:
    """The task page's grounding, verifier and evidence-judge records."""
    g, v = task.result.grounding, task.result.verifier
    e = task.score.evidence if task.score else None
    return {
        "grounding": g.model_dump(mode="json") if g else None,
        "verifier": None if v is None else {**v.model_dump(mode="json"), "cost": cost(v.usage)},
        "verifier_calls": [{**c.model_dump(mode="json", exclude={"reply"}), "cost": cost(c.usage)}
                           for c in read_verifier(task.dir)],
        "evidence_judge": e.model_dump(mode="json") if e else None,
        "documents": [d.model_dump(mode="json") for d in task.result.documents],
    }


def disagreement(task: TaskRun, evidence: str | None, evidence_problem: str | None = None
                 ) -> dict[str, Any] | None:
    """A finished task whose answer the reference did not match (the "reference may be
    stale" review): answer, reference, the evidence judge's category and reason."""
    s = task.score
    if task.result.status != "finished" or s is None or s.correct is not False:
        return None
    return {"answer": task.result.answer, "reference": s.reference,
            "category": evidence_category(task),
            "reason": s.evidence.reason if s.evidence else None,
            "judge_verdict": s.evidence.verdict if s.evidence else None,
            "evidence": evidence, "evidence_problem": evidence_problem}

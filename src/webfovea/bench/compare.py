"""Paired comparison of two runs: tasks fixed, broken and unchanged, and whether the
difference could be noise (McNemar's exact test on the tasks that changed)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from ..rundir.outcomes import EVIDENCE_CATEGORIES
from ..rundir.store import load_run
from .store import TaskRow

NOISE_LEVEL = 0.05


@dataclass(frozen=True)
class Comparison:
    run_a: str
    run_b: str
    paired: int
    correct_a: float  # tasks correct; with trials, the sum of per-task success rates
    correct_b: float
    fixed: list[str] = field(default_factory=list)  # wrong in A, correct in B
    broken: list[str] = field(default_factory=list)  # correct in A, wrong in B
    still_correct: list[str] = field(default_factory=list)
    still_wrong: list[str] = field(default_factory=list)
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    unpaired: list[str] = field(default_factory=list)  # in both, but not scored in both
    reference_changed: list[str] = field(default_factory=list)

    @property
    def p_value(self) -> float:
        return mcnemar_exact(len(self.fixed), len(self.broken))

    @property
    def within_noise(self) -> bool:
        return self.p_value >= NOISE_LEVEL

    @property
    def difference(self) -> float | None:
        """Success rate of B minus A on the paired tasks."""
        return (self.correct_b - self.correct_a) / self.paired if self.paired else None

    @property
    def stderr(self) -> float | None:
        """Standard error of the paired difference of proportions."""
        if not self.paired:
            return None
        b, c, n = len(self.fixed), len(self.broken), self.paired
        return math.sqrt(max(0.0, b + c - (b - c) ** 2 / n)) / n

    def conclusion(self) -> str:
        if not self.paired:
            return "no task was scored in both runs: nothing to compare"
        diff, se = self.difference or 0.0, self.stderr or 0.0
        head = (f"B − A = {len(self.fixed) - len(self.broken):+d} tasks "
                f"({100 * diff:+.1f} points ± {100 * se:.1f}) on {self.paired} paired tasks; "
                f"McNemar exact p = {self.p_value:.3g}")
        if self.within_noise:
            return f"{head}: within noise (p ≥ {NOISE_LEVEL})"
        return f"{head}: unlikely to be noise (p < {NOISE_LEVEL})"

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "p_value": self.p_value, "within_noise": self.within_noise,
                "difference": self.difference, "stderr": self.stderr,
                "conclusion": self.conclusion()}


def mcnemar_exact(fixed: int, broken: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test of the discordant pairs at 1/2."""
    n = fixed + broken
    if n == 0:
        return 1.0
    k = min(fixed, broken)
    # In log space: 2**n overflows a float from n = 1,024 discordant pairs.
    terms = [_log_comb(n, i) - n * math.log(2) for i in range(k + 1)]
    top = max(terms)
    log_tail = top + math.log(sum(math.exp(t - top) for t in terms))
    return min(1.0, 2 * math.exp(log_tail))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def compare(rows_a: list[TaskRow], rows_b: list[TaskRow], *, run_a: str,
            run_b: str) -> Comparison:
    """Pair the runs' tasks by id; a pair counts when both runs scored the task. With
    trials, a task's success is its rate over its scored trials, and a task is fixed or
    broken when that rate went up or down."""
    a, b = _by_task(rows_a), _by_task(rows_b)
    groups: dict[str, list[str]] = {name: [] for name in (
        "fixed", "broken", "still_correct", "still_wrong", "unpaired", "reference_changed")}
    correct_a = correct_b = 0.0
    for task_id, ra in a.items():
        rb = b.get(task_id)
        if rb is None:
            continue
        if ra.reference != rb.reference:
            groups["reference_changed"].append(task_id)
        if ra.rate is None or rb.rate is None:
            groups["unpaired"].append(task_id)
            continue
        correct_a += ra.rate
        correct_b += rb.rate
        groups[_group(ra.rate, rb.rate)].append(task_id)
    paired = sum(len(groups[g]) for g in ("fixed", "broken", "still_correct", "still_wrong"))
    return Comparison(run_a, run_b, paired, correct_a, correct_b,
                      only_a=[t for t in a if t not in b], only_b=[t for t in b if t not in a],
                      **groups)


@dataclass(frozen=True)
class _Task:
    reference: str | None
    rate: float | None  # success over the task's scored trials; None: none scored


def _by_task(rows: list[TaskRow]) -> dict[str, _Task]:
    trials: dict[str, list[TaskRow]] = {}
    for r in rows:
        trials.setdefault(r.task_id, []).append(r)
    out = {}
    for task_id, group in trials.items():
        scored = [bool(r.correct) for r in group if r.correct is not None]
        out[task_id] = _Task(group[0].reference, sum(scored) / len(scored) if scored else None)
    return out


def _group(was: float, now: float) -> str:
    if now > was:
        return "fixed"
    if now < was:
        return "broken"
    return "still_correct" if now > 0.5 else "still_wrong"


def print_comparison(c: Comparison, console: Console) -> None:
    console.print(f"[bold]A[/bold] {c.run_a}\n[bold]B[/bold] {c.run_b}", highlight=False)
    if c.paired:
        console.print(f"A: {c.correct_a:g}/{c.paired} correct   B: {c.correct_b:g}/{c.paired} "
                      "correct", highlight=False)
    console.print(f"[green]fixed (+)[/green] {len(c.fixed)}: {_ids(c.fixed)}", highlight=False)
    console.print(f"[red]broken (−)[/red] {len(c.broken)}: {_ids(c.broken)}", highlight=False)
    console.print(f"unchanged: {len(c.still_correct)} still correct, {len(c.still_wrong)} still "
                  f"wrong", highlight=False)
    for label, ids in (("only in A", c.only_a), ("only in B", c.only_b),
                       ("not scored in both", c.unpaired),
                       ("reference answer differs between runs", c.reference_changed)):
        if ids:
            console.print(f"{label}: {_ids(ids)}", highlight=False)
    console.print(f"[bold]{c.conclusion()}[/bold]", highlight=False)


def _ids(ids: list[str]) -> str:
    return ", ".join(ids) if ids else "–"


@dataclass(frozen=True)
class EvidenceComparison:
    """The evidence categories of both runs (``score --judge-evidence``), and the tasks whose
    category differs between them."""

    a: dict[str, int]
    b: dict[str, int]
    changed: list[tuple[str, str | None, str | None]]  # task, category in A, in B

    def lines(self) -> list[str]:
        if not self.a and not self.b:
            return []
        out = [f"evidence A: {_counts(self.a)}", f"evidence B: {_counts(self.b)}"]
        out += [f"  {task}: {a or '–'} -> {b or '–'}" for task, a, b in self.changed]
        return out


def compare_evidence(run_a: Path, run_b: Path) -> EvidenceComparison:
    cats = [_categories(run_a), _categories(run_b)]
    counts = [{c: n for c in EVIDENCE_CATEGORIES if (n := Counter(run.values())[c])}
              for run in cats]
    changed = [(t, cats[0].get(t), cats[1].get(t)) for t in sorted({*cats[0], *cats[1]})
               if cats[0].get(t) != cats[1].get(t)]
    return EvidenceComparison(counts[0], counts[1], changed)


def _categories(run_dir: Path) -> dict[str, str]:
    if not (run_dir / "tasks").is_dir():  # a bench stopped before its first task: nothing judged
        return {}
    return {run.label: run.score.evidence.category for run in load_run(run_dir).tasks
            if run.score and run.score.evidence and run.score.evidence.category}


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items()) or "not judged"

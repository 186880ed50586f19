"""A run's report: success rate with its binomial standard error, outcome buckets,
steps, tokens and cost per task; rendered as a table, JSON or CSV."""

from __future__ import annotations

import csv
import io
import math
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..console.options import Prices
from ..models.prices import Price
from ..rundir import outcomes
from ..rundir.outcomes import BUCKET_HELP, BUCKETS, EVIDENCE_CATEGORIES, EVIDENCE_HELP, Rate
from ..rundir.store import SCORE, EvidenceRecord, read_score
from ..tools.costs import task_cost
from .store import Store, TaskRow


@dataclass(frozen=True)
class TrialStats:
    """Repeated trials (``bench --trials``): one run of a stochastic model is one sample."""

    trials: int  # per task, at most
    per_task: dict[str, Rate]  # each task's success over its scored trials
    mean: float  # mean of the per-task success rates
    low: float  # its 95 % interval (normal approximation over tasks)
    high: float
    pass_at: dict[int, float]  # pass@k: at least one of k trials succeeds
    pass_all: dict[int, float]  # pass^k: all k trials succeed

    def shown(self) -> str:
        k = max(self.pass_at)
        return (f"mean success over {len(self.per_task)} tasks x {self.trials} trials: "
                f"{100 * self.mean:.1f}% (95% interval {100 * self.low:.1f}-{100 * self.high:.1f})"
                f"   pass@{k} {100 * self.pass_at[k]:.1f}%   pass^{k} {100 * self.pass_all[k]:.1f}%")


def trial_stats(rows: list[TaskRow]) -> TrialStats | None:
    """Per-task success over trials, the mean with its interval, pass@k and pass^k (the
    unbiased estimators 1 - C(n-c,k)/C(n,k) and C(c,k)/C(n,k), averaged over tasks)."""
    if all(r.trial == 1 for r in rows):
        return None
    per_task: dict[str, list[bool]] = {}
    for r in rows:
        if r.state == "done" and r.correct is not None:
            per_task.setdefault(r.task_id, []).append(r.correct)
    if not per_task:
        return None
    rates = {t: Rate(sum(v), len(v)) for t, v in per_task.items()}
    values = [rate.correct / rate.n for rate in rates.values()]
    mean = statistics.fmean(values)
    half = 1.96 * (statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0)
    top = min(rate.n for rate in rates.values())
    return TrialStats(
        trials=max(rate.n for rate in rates.values()), per_task=rates, mean=mean,
        low=max(0.0, mean - half), high=min(1.0, mean + half),
        pass_at={k: statistics.fmean(1 - math.comb(r.n - r.correct, k) / math.comb(r.n, k)
                             for r in rates.values()) for k in range(1, top + 1)},
        pass_all={k: statistics.fmean(math.comb(r.correct, k) / math.comb(r.n, k)
                              for r in rates.values()) for k in range(1, top + 1)})


@dataclass(frozen=True)
class TaskLine:
    id: str
    trial: int
    status: str
    bucket: str
    correct: bool | None
    matcher: str
    answer: str | None
    reference: str | None
    steps: int
    elapsed: float
    input_tokens: int
    output_tokens: int
    cost: float | None
    verdict: str
    error: str | None
    evidence: str | None = None  # the evidence category (score --judge-evidence)
    evidence_reason: str = ""
    decision: str = ""  # correct, wrong, undecided (the typed rules could not tell), unscored
    rule: str = ""  # the typed rule that decided, or left it undecided for the judge


@dataclass(frozen=True)
class Report:
    run_dir: str
    model: str
    judge: str | None
    tasks: int
    done: int
    success: Rate
    success_reachable: Rate
    buckets: dict[str, int]
    matchers: dict[str, int]
    steps_mean: float | None
    steps_median: float | None
    input_tokens_mean: float | None
    output_tokens_mean: float | None
    seconds_mean: float | None
    cost_total: float | None
    cost_per_task: float | None
    versions: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)
    invocations: int = 0
    lines: list[TaskLine] = field(default_factory=list)
    trials: TrialStats | None = None
    evidence: dict[str, int] = field(default_factory=dict)  # evidence categories, when judged
    judged: int = 0  # undecided answers the judge decided
    undecided: int = 0  # undecided answers no judge decided: counted as not correct

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("success", "success_reachable"):
            rate: Rate = getattr(self, key)
            data[key] = {"correct": rate.correct, "n": rate.n, "rate": rate.value,
                         "stderr": rate.stderr, "wilson95": rate.interval}
        return data


def bucket(row: TaskRow) -> str:
    return outcomes.bucket(row.status if row.state == "done" else None, row.correct, row.answer)


def build_report(store: Store, run_dir: str, *, prices: Prices | None = None) -> Report:
    settings = store.get_meta("settings") or {}
    prices = prices or _stored_prices(store)
    rows = store.rows()
    done = [r for r in rows if r.state == "done"]
    lines = [_line(r, prices, Path(run_dir)) for r in rows]
    cost = _total([ln.cost for ln, r in zip(lines, rows, strict=True) if r.state == "done"])
    scored = [ln for ln in lines if ln.correct is not None]
    marked = {r.task_id for r in rows if "unreachable" in r.tags}  # references --unreachable
    reachable = [ln for ln in scored if ln.bucket != "unreachable" and ln.id not in marked]
    runs = store.runs()
    return Report(
        run_dir=run_dir, model=settings.get("model", ""), judge=store.get_meta("judge"),
        tasks=len(rows), done=len(done),
        success=Rate(sum(bool(ln.correct) for ln in scored), len(scored)),
        success_reachable=Rate(sum(bool(ln.correct) for ln in reachable), len(reachable)),
        buckets={b: n for b in BUCKETS if (n := Counter(ln.bucket for ln in lines)[b])},
        matchers=dict(Counter(ln.matcher for ln in scored)),
        steps_mean=_mean([r.steps for r in done]), steps_median=_median([r.steps for r in done]),
        input_tokens_mean=_mean([r.input_tokens for r in done]),
        output_tokens_mean=_mean([r.output_tokens for r in done]),
        seconds_mean=_mean([r.elapsed for r in done]),
        cost_total=cost,
        cost_per_task=None if cost is None or not done else cost / len(done),
        versions=runs[-1]["versions"] if runs else {}, settings=settings,
        invocations=len(runs), lines=lines, trials=trial_stats(rows),
        evidence={c: n for c in EVIDENCE_CATEGORIES
                  if (n := Counter(ln.evidence for ln in lines)[c])},
        judged=sum(ln.matcher == "judge" for ln in scored),
        undecided=sum(ln.decision == "undecided" for ln in scored))


def _stored_prices(store: Store) -> Prices | None:
    value = store.get_meta("prices")
    return None if value is None else Prices(value["input"], value["output"])


def _total(costs: list[float | None]) -> float | None:
    """The sum when every cost is known (a model without a price is "unknown", not 0)."""
    return None if not costs or any(c is None for c in costs) else sum(c or 0.0 for c in costs)


def _line(r: TaskRow, prices: Prices | None, run_dir: Path) -> TaskLine:
    # Recorded cost (tokens by kind at the run's price) unless a price is given now.
    price = None if prices is None else Price(prices.input, prices.output, prices.input,
                                              prices.input)
    evidence = _evidence(run_dir / "tasks" / r.dir, r.trial)
    return TaskLine(
        id=r.task_id, trial=r.trial, status=r.status or r.state, bucket=bucket(r), correct=r.correct,
        matcher=r.matcher or "", answer=r.answer, reference=r.reference, steps=r.steps,
        elapsed=r.elapsed, input_tokens=r.input_tokens, output_tokens=r.output_tokens,
        cost=task_cost(run_dir / "tasks" / r.dir, price),
        verdict=r.verdict or "", error=r.error,
        evidence=evidence.category if evidence else None,
        evidence_reason=evidence.reason if evidence else "",
        decision=_decision(r), rule=r.rule or "")


def _decision(r: TaskRow) -> str:
    """The row's decision; a store from before three verdicts holds only ``correct``."""
    if r.decision or r.state != "done":
        return r.decision or ""
    return "unscored" if r.correct is None else "correct" if r.correct else "wrong"


def _evidence(task_dir: Path, trial: int) -> EvidenceRecord | None:
    """The evidence judge's record in the task's (or trial's) ``score.json``."""
    for where in (task_dir, task_dir / str(trial)):
        score = read_score(where) if (where / SCORE).is_file() else None
        if score is not None:
            return score.evidence
    return None


def _mean(values: list[int] | list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: list[int]) -> float | None:
    return float(statistics.median(values)) if values else None


# -- rendering --------------------------------------------------------------------------------


def print_table(report: Report, console: Console) -> None:
    console.print(f"[bold]run[/bold] {report.run_dir}   [bold]model[/bold] {report.model}"
                  + (f"   [bold]judge[/bold] {report.judge}" if report.judge else ""),
                  highlight=False)
    console.print(f"tasks: {report.done}/{report.tasks} done", highlight=False)
    console.print(f"[bold]success: {report.success.explained()}[/bold]", highlight=False)
    console.print(f"success on reachable sites: {report.success_reachable.shown()}",
                  highlight=False)
    if report.trials is not None:
        console.print(report.trials.shown(), highlight=False)
    console.print(_per_task_numbers(report), highlight=False)
    console.print(_bucket_table(report))
    for line in _verdict_lines(report):
        console.print(line, highlight=False, markup=False)
    if report.evidence:
        console.print(_evidence_table(report))
    console.print(_task_table(report))


def _per_task_numbers(report: Report) -> str:
    parts = [f"steps/task: mean {_num(report.steps_mean)}, median {_num(report.steps_median)}",
             f"tokens/task: {_num(report.input_tokens_mean, 0)} in, "
             f"{_num(report.output_tokens_mean, 0)} out",
             f"time/task: {_num(report.seconds_mean)} s"]
    if report.cost_total is not None:
        parts.append(f"cost: ${report.cost_total:.4f} (${report.cost_per_task or 0:.4f}/task)")
    else:
        parts.append("cost: unknown (give --price-input/--price-output, or a price for the "
                     "model in webfovea.toml)")
    return "   ".join(parts)


def _verdict_lines(report: Report) -> list[str]:
    """How many undecided answers the judge decided; the ones still undecided, listed."""
    lines = []
    if report.judged:
        lines.append(f"the judge ({report.judge}) decided {report.judged} answer(s) the typed "
                     "rules left undecided")
    if report.undecided:
        lines.append(f"undecided: {report.undecided} answer(s) the typed rules cannot tell, "
                     "counted as not correct (score --judge SPEC decides them):")
        lines += [f"  {ln.id}{'' if ln.trial == 1 else f' #{ln.trial}'} ({ln.rule}): "
                  f"answer {_short(ln.answer, 60)!r}, reference {_short(ln.reference, 60)!r}"
                  for ln in report.lines if ln.decision == "undecided"]
    return lines


def _num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _bucket_table(report: Report) -> Table:
    table = Table(title="outcomes", title_justify="left")
    for column in ("outcome", "tasks", "share", "meaning"):
        table.add_column(column, justify="right" if column in ("tasks", "share") else "left")
    for name, n in report.buckets.items():
        table.add_row(name, str(n), f"{100 * n / max(1, report.tasks):.0f}%", BUCKET_HELP[name])
    return table


def _evidence_table(report: Report) -> Table:
    table = Table(title="evidence (score --judge-evidence)", title_justify="left")
    for column in ("category", "tasks", "meaning"):
        table.add_column(column, justify="right" if column == "tasks" else "left")
    for name, n in report.evidence.items():
        table.add_row(name, str(n), EVIDENCE_HELP[name])
    return table


def _task_table(report: Report) -> Table:
    table = Table(title="tasks", title_justify="left")
    for column in ("id", "outcome", "matcher", "answer", "reference", "steps", "time", "tokens"):
        table.add_column(column, overflow="fold")
    for ln in report.lines:
        name = ln.id if report.trials is None else f"{ln.id} #{ln.trial}"
        table.add_row(name, ln.bucket, ln.matcher, _short(ln.answer), _short(ln.reference),
                      str(ln.steps), f"{ln.elapsed:.1f}s",
                      f"{ln.input_tokens}/{ln.output_tokens}")
    return table


def _short(text: str | None, limit: int = 40) -> str:
    if text is None:
        return "–"
    return text if len(text) <= limit else text[:limit - 1] + "…"


CSV_COLUMNS = ("id", "trial", "status", "bucket", "correct", "matcher", "answer", "reference", "steps",
               "elapsed", "input_tokens", "output_tokens", "cost", "verdict", "error", "evidence",
               "evidence_reason", "decision", "rule")


def to_csv(report: Report) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for ln in report.lines:
        writer.writerow({key: _csv_value(value) for key, value in asdict(ln).items()})
    return buffer.getvalue()


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return value

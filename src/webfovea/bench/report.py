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

from ..costs import task_cost
from ..models.prices import Price
from .store import Store, TaskRow

# The eight buckets, then the ones a run can also have.
BUCKETS = ("correct", "wrong_answer", "no_answer", "step_limit", "time_limit", "unreachable",
           "model_error", "browser_error", "harness_error", "unscored", "pending")
BUCKET_HELP = {
    "correct": "finished, and the answer matches the reference",
    "wrong_answer": "finished with an answer that does not match",
    "no_answer": "finished with an empty answer, or gave up",
    "step_limit": "ran out of steps",
    "time_limit": "ran out of time (or hung and was ended)",
    "unreachable": "the entry URL could not be loaded",
    "model_error": "the model could not be used (after retries)",
    "browser_error": "the browser crashed, disconnected or would not start",
    "harness_error": "an unexpected error inside webfovea (please report it)",
    "unscored": "finished, but the task has no reference answer",
    "pending": "not run yet (resume the run to finish it)",
}


@dataclass(frozen=True)
class Prices:
    """USD per million tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1e6


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


@dataclass(frozen=True)
class TaskLine:
    id: str
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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("success", "success_reachable"):
            rate: Rate = getattr(self, key)
            data[key] = {"correct": rate.correct, "n": rate.n, "rate": rate.value,
                         "stderr": rate.stderr, "wilson95": rate.interval}
        return data


def bucket(row: TaskRow) -> str:
    if row.state != "done":
        return "pending"
    if row.status == "finished":
        if row.correct is None:
            return "unscored"
        if row.correct:
            return "correct"
        return "wrong_answer" if (row.answer or "").strip() else "no_answer"
    if row.status == "gave_up":
        return "no_answer"
    return row.status if row.status in BUCKETS else "harness_error"


def build_report(store: Store, run_dir: str, *, prices: Prices | None = None) -> Report:
    settings = store.get_meta("settings") or {}
    prices = prices or _stored_prices(store)
    rows = store.rows()
    done = [r for r in rows if r.state == "done"]
    lines = [_line(r, prices, Path(run_dir)) for r in rows]
    cost = _total([ln.cost for ln, r in zip(lines, rows, strict=True) if r.state == "done"])
    scored = [ln for ln in lines if ln.correct is not None]
    reachable = [ln for ln in scored if ln.bucket != "unreachable"]
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
        invocations=len(runs), lines=lines)


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
    return TaskLine(
        id=r.task_id, status=r.status or r.state, bucket=bucket(r), correct=r.correct,
        matcher=r.matcher or "", answer=r.answer, reference=r.reference, steps=r.steps,
        elapsed=r.elapsed, input_tokens=r.input_tokens, output_tokens=r.output_tokens,
        cost=task_cost(run_dir / "tasks" / r.dir, price),
        verdict=r.verdict or "", error=r.error)


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
    console.print(f"[bold]success: {report.success.shown()}[/bold]   (binomial standard error)",
                  highlight=False)
    console.print(f"success on reachable sites: {report.success_reachable.shown()}",
                  highlight=False)
    console.print(_per_task_numbers(report), highlight=False)
    console.print(_bucket_table(report))
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


def _num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _bucket_table(report: Report) -> Table:
    table = Table(title="outcomes", title_justify="left")
    for column in ("outcome", "tasks", "share", "meaning"):
        table.add_column(column, justify="right" if column in ("tasks", "share") else "left")
    for name, n in report.buckets.items():
        table.add_row(name, str(n), f"{100 * n / max(1, report.tasks):.0f}%", BUCKET_HELP[name])
    return table


def _task_table(report: Report) -> Table:
    table = Table(title="tasks", title_justify="left")
    for column in ("id", "outcome", "matcher", "answer", "reference", "steps", "time", "tokens"):
        table.add_column(column, overflow="fold")
    for ln in report.lines:
        table.add_row(ln.id, ln.bucket, ln.matcher, _short(ln.answer), _short(ln.reference),
                      str(ln.steps), f"{ln.elapsed:.1f}s",
                      f"{ln.input_tokens}/{ln.output_tokens}")
    return table


def _short(text: str | None, limit: int = 40) -> str:
    if text is None:
        return "–"
    return text if len(text) <= limit else text[:limit - 1] + "…"


CSV_COLUMNS = ("id", "status", "bucket", "correct", "matcher", "answer", "reference", "steps",
               "elapsed", "input_tokens", "output_tokens", "cost", "verdict", "error")


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

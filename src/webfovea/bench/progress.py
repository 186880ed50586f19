"""The bench's progress display.

On a terminal it is a live panel: done / running / failed, the success rate so far with its
binomial standard error, an ETA from the median task time and the number of workers, the
tasks running now with their current step, and tokens (and cost, when known) so far.
Otherwise (logs, CI) it prints one line per finished task.

The running tasks' steps come from the agent loop's step events (:mod:`webfovea.rundir.events`),
which this display listens to as a logging handler; tasks run in other processes (Ray) show
as running without a step.
"""

from __future__ import annotations

import logging
import math
import statistics
import time
from dataclasses import dataclass, field
from types import TracebackType

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from ..console.step_view import PACKAGE_LOGGER, cost_of, one_line
from ..rundir.events import StepEvent, event_of
from ..rundir.trajectory import UsageRecord

SHOWN_RUNNING = 12  # running tasks listed in the panel; the rest are counted


@dataclass
class Running:
    """A task in flight, as far as its step events tell."""

    task_id: str
    started: float
    step: int = 0
    doing: str = "starting"
    usage: UsageRecord = field(default_factory=UsageRecord)


@dataclass
class Tally:
    """Tokens and cost of the finished tasks."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None

    def add(self, usage: UsageRecord) -> None:
        self.input_tokens += usage.input_tokens
        self.output_tokens += usage.output_tokens
        cost = cost_of(usage)
        if cost is not None:
            self.cost = (self.cost or 0.0) + cost


class _Events(logging.Handler):
    """Forwards the agent loop's step events to the progress display."""

    def __init__(self, progress: BenchProgress) -> None:
        super().__init__(logging.INFO)
        self.progress = progress

    def emit(self, record: logging.LogRecord) -> None:
        event = event_of(record)
        if event is not None:
            self.progress.step_event(event)


class BenchProgress:
    def __init__(self, *, total: int, done: int, console: Console, workers: int = 1) -> None:
        self.console = console
        self.total, self.done, self.workers = total, done, max(1, workers)
        self.failed = self.correct = self.scored = 0
        self.running: dict[str, Running] = {}
        self.durations: list[float] = []
        self.tally = Tally()
        self.started_at = time.monotonic()
        self._live = Live(console=console, auto_refresh=True, refresh_per_second=2,
                          get_renderable=self.panel, transient=False) \
            if console.is_terminal else None
        self._handler = _Events(self)
        self._level = logging.NOTSET

    def __enter__(self) -> BenchProgress:
        logger = logging.getLogger(PACKAGE_LOGGER)
        self._level = logger.level
        logger.addHandler(self._handler)
        if not logger.isEnabledFor(logging.INFO):
            logger.setLevel(logging.INFO)
        if self._live is not None:
            self._live.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        logger = logging.getLogger(PACKAGE_LOGGER)
        logger.removeHandler(self._handler)
        logger.setLevel(self._level)
        if self._live is not None:
            self._live.stop()

    # -- what the runner and the agent loop report ----------------------------------------

    def started(self, task_id: str) -> None:
        self.running[task_id] = Running(task_id, time.monotonic())

    def step_event(self, event: StepEvent) -> None:
        task = self.running.get(event.task_id)
        if task is None:
            return
        task.step = event.step
        if event.kind == "step_started":
            task.doing = "asking the model"
        elif event.kind == "step_done" and event.record is not None:
            task.doing = one_line(event.record.action_source or "(no action)", 60)
            task.usage = event.usage or task.usage

    def finished(self, task_id: str, *, status: str, correct: bool | None, matcher: str,
                 steps: int, elapsed: float, usage: UsageRecord | None = None,
                 decision: str | None = None) -> None:
        self.running.pop(task_id, None)
        self.done += 1
        self.durations.append(elapsed)
        self.failed += status != "finished"
        if usage is not None:
            self.tally.add(usage)
        if correct is not None:
            self.scored += 1
            self.correct += correct
        if self._live is None:
            verdict = decision or {True: "correct", False: "wrong", None: "unscored"}[correct]
            self.console.print(Text(f"[{self.done}/{self.total}] {task_id}: {status}, {verdict} "
                                    f"({matcher}), {steps} steps, {elapsed:.1f}s"
                                    f"{self._eta_suffix()}"), soft_wrap=True)
        else:
            self._live.refresh()

    # -- numbers ---------------------------------------------------------------------------

    def rate(self) -> str:
        if not self.scored:
            return "–"
        p = self.correct / self.scored
        se = math.sqrt(p * (1 - p) / self.scored)
        return f"{self.correct}/{self.scored} ({100 * p:.0f}% ± {100 * se:.0f})"

    def eta(self) -> float | None:
        """Seconds left: the tasks not yet finished, in waves of ``workers``, each taking the
        median task time; the running tasks count as half done."""
        if not self.durations:
            return None
        left = self.total - self.done
        waves = max(0.0, left - len(self.running) / 2) / self.workers
        return waves * statistics.median(self.durations)

    def _eta_suffix(self) -> str:
        eta = self.eta()
        return "" if eta is None or self.done >= self.total else f" · ETA {_duration(eta)}"

    def usage_so_far(self) -> Tally:
        """Finished tasks' tokens and cost plus those of the steps of running tasks."""
        total = Tally(self.tally.input_tokens, self.tally.output_tokens, self.tally.cost)
        for task in list(self.running.values()):
            total.add(task.usage)
        return total

    # -- the panel -------------------------------------------------------------------------

    def panel(self) -> RenderableType:
        eta = self.eta()
        head = Text.assemble(
            ("bench ", "bold"), f"{self.done}/{self.total} done · ",
            (f"{len(self.running)} running", "cyan"), " · ",
            (f"{self.failed} failed", "red" if self.failed else ""),
            " · success ", (self.rate(), "bold"),
            f" · elapsed {_duration(time.monotonic() - self.started_at)}",
            f" · ETA {_duration(eta)}" if eta is not None else " · ETA –")
        used = self.usage_so_far()
        tokens = Text(f"tokens so far {used.input_tokens:,} in / {used.output_tokens:,} out"
                      + (f" · cost ${used.cost:.4f}" if used.cost is not None else "")
                      + (f" · median task {_duration(statistics.median(self.durations))}, "
                         f"{self.workers} workers" if self.durations else ""), style="dim")
        bar = ProgressBar(total=max(1, self.total), completed=self.done, width=60)
        return Group(head, bar, tokens, self._running_table())

    def _running_table(self) -> RenderableType:
        tasks = sorted(list(self.running.values()), key=lambda t: t.started)
        if not tasks:
            return Text("")
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        now = time.monotonic()
        for task in tasks[:SHOWN_RUNNING]:
            table.add_row(Text(task.task_id, style="cyan"),
                          Text(f"step {task.step}" if task.step else ""),
                          Text(task.doing), Text(_duration(now - task.started), style="dim"))
        if len(tasks) > SHOWN_RUNNING:
            table.add_row(Text(f"… {len(tasks) - SHOWN_RUNNING} more"), "", "", "")
        return table


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    return f"{minutes // 60}h{minutes % 60:02d}m"

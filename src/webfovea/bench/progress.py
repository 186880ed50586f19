"""The bench's progress display: done / running / failed and the success rate so far.

On a terminal it is a rich progress bar; otherwise (logs, CI) one line per finished task.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


class BenchProgress:
    def __init__(self, *, total: int, done: int, console: Console) -> None:
        self.console = console
        self.total, self.done = total, done
        self.running = self.failed = self.correct = self.scored = 0
        self._live = console.is_terminal
        self._bar = Progress(
            TextColumn("[bold]bench"), BarColumn(),
            TextColumn("{task.completed}/{task.total} done"),
            TextColumn("{task.fields[running]} running"),
            TextColumn("{task.fields[failed]} failed"),
            TextColumn("success {task.fields[rate]}"), TimeElapsedColumn(),
            console=console, disable=not self._live)
        self._id: TaskID | None = None

    def __enter__(self) -> BenchProgress:
        self._bar.start()
        self._id = self._bar.add_task("bench", total=self.total, completed=self.done,
                                      running=self.running, failed=self.failed, rate=self.rate())
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._bar.stop()

    def started(self) -> None:
        self.running += 1
        self._refresh()

    def finished(self, task_id: str, *, status: str, correct: bool | None, matcher: str,
                 steps: int, elapsed: float) -> None:
        self.running -= 1
        self.done += 1
        self.failed += status != "finished"
        if correct is not None:
            self.scored += 1
            self.correct += correct
        self._refresh()
        if not self._live:
            verdict = {True: "correct", False: "wrong", None: "unscored"}[correct]
            self.console.print(f"[{self.done}/{self.total}] {task_id}: {status}, {verdict} "
                               f"({matcher}), {steps} steps, {elapsed:.1f}s", highlight=False)

    def rate(self) -> str:
        if not self.scored:
            return "–"
        return f"{self.correct}/{self.scored} ({100 * self.correct / self.scored:.0f}%)"

    def _refresh(self) -> None:
        if self._id is not None:
            self._bar.update(self._id, completed=self.done, running=self.running,
                             failed=self.failed, rate=self.rate())

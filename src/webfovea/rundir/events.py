"""What the agent loop reports as it goes: one event when a task starts, when a step starts,
when a step ends and when the task ends.

Events travel through the standard :mod:`logging` module, on the logger ``webfovea.agent``:
each is one log record whose message is a plain, readable line and whose ``webfovea_event``
attribute holds the :class:`StepEvent`. So a library user routes or silences them like any
other logging (``logging.getLogger("webfovea").setLevel(...)``), and the command line's live
step view (:mod:`webfovea.console.step_view`) and the bench's progress panel are just logging handlers.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from .trajectory import ResultRecord, StepRecord, UsageRecord

logger = logging.getLogger("webfovea.agent")
EventKind = Literal["task_started", "step_started", "step_done", "task_done"]
ATTRIBUTE = "webfovea_event"  # the LogRecord attribute holding the event


@dataclass(frozen=True)
class StepEvent:
    kind: EventKind
    task_id: str
    step: int = 0
    record: StepRecord | None = None  # step_done: the step as written to steps.jsonl
    usage: UsageRecord | None = None  # step_done / task_done: the task's usage so far
    result: ResultRecord | None = None  # task_done: the final record

    def line(self, *, with_task: bool = True) -> str:
        """The event as one plain line (the log message)."""
        task = f"task {self.task_id} " if self.task_id and with_task else ""
        if self.kind == "task_started":
            return f"{task}started"
        if self.kind == "step_started":
            return f"{task}step {self.step}: asking the model"
        if self.kind == "task_done" and self.result is not None:
            return f"{task}ended: {self.result.status} after {self.result.steps} steps"
        record = self.record
        if record is None:
            return f"{task}step {self.step}"
        action = record.action_source or "(no action)"
        return f"{task}step {self.step}: {action} -> {record.outcome}: {record.note}"


def emit(event: StepEvent) -> None:
    """Send ``event`` to the ``webfovea.agent`` logger (INFO), if anyone listens."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("%s", event.line(), extra={ATTRIBUTE: event})


def event_of(record: logging.LogRecord) -> StepEvent | None:
    """The step event a log record carries, if it is one."""
    value = getattr(record, ATTRIBUTE, None)
    return value if isinstance(value, StepEvent) else None

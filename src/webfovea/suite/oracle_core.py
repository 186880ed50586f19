"""What both oracles share: which suite task a request is, its place in the task's plan, and
the next move scaled to the image the model received.

The two oracles differ only in how they reach the suite server — ``models.oracle`` awaits it
inside the agent's loop, ``testing.oracle_policy`` asks it from the fake provider's thread —
and in how they phrase the move (a reply in the text grammar, or an action a dialect's
renderer phrases). Everything else lives here once, free of I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..actions.geometry import fit_within
from ..actions.registry import Action
from ..core.config import Size
from .catalog import tasks as suite_tasks
from .layout import Layout
from .policy import Move, PlanRunner, PlanStuck, reply_text, to_action
from .spec import SuiteTask
from .web import SuiteError

# Hosted APIs fit images within this before the model sees them (the paper's 3/4 factor).
PROVIDER_SIZE = Size(1440, 810)
INFO = "info"
LAYOUT = "layout?settle=0.15"  # 0.15 s of report silence before the layout is read


@dataclass(frozen=True)
class NextMove:
    """A move in page CSS pixels with the measured scale to the image's space."""

    move: Move
    scale_x: float
    scale_y: float

    def action(self) -> Action:
        return to_action(self.move, scale_x=self.scale_x, scale_y=self.scale_y)

    def reply(self, *, targets: bool = False) -> str:
        return reply_text(self.move, scale_x=self.scale_x, scale_y=self.scale_y, targets=targets)


def read_layout(payload: str | bytes) -> Layout:
    try:
        return Layout.model_validate_json(payload)
    except ValidationError as e:
        raise SuiteError(f"the suite server sent a layout the oracle cannot read: {e}") from e


class OracleCore:
    """One oracle's catalogue and a plan runner per task (a new attempt restarts at step 1)."""

    def __init__(self, *, provider_resize: bool = False) -> None:
        self.provider_resize = provider_resize
        self._tasks: dict[str, SuiteTask] | None = None
        self._runners: dict[str, PlanRunner] = {}

    @property
    def needs_info(self) -> bool:
        """True until the suite server's ``info`` (its seed, hence its tasks) was learnt."""
        return self._tasks is None

    def learn_info(self, info: dict[str, Any]) -> None:
        self._tasks = {t.instruction.strip(): t for t in suite_tasks(int(info["seed"]))}

    def task_for(self, instruction: str) -> SuiteTask:
        task = (self._tasks or {}).get(instruction.strip())
        if task is None:
            raise SuiteError(f"the oracle only knows the offline suite's tasks, not {instruction!r}")
        return task

    def next_move(self, task: SuiteTask, *, step: int, note: str, image: Size,
                  layout: Layout) -> NextMove:
        """The plan's next move for the request of ``step`` (its last note fed to the plan);
        a plan that no longer takes effect ends the task with an empty answer."""
        if step <= 1 or task.id not in self._runners:
            self._runners[task.id] = PlanRunner(task)
        runner = self._runners[task.id]
        if note:
            runner.note(note)
        seen = fit_within(image, PROVIDER_SIZE) if self.provider_resize else image
        try:
            move = runner.next_move(layout)
        except PlanStuck as e:
            move = Move("finished", text="", thought=f"I am stuck: {e}")
        return NextMove(move, seen.width / layout.viewport_w, seen.height / layout.viewport_h)

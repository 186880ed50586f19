"""Guardrails enforced by the harness, whatever the model replies.

The guard decides before an action runs whether it may run (budgets), and
the loop asks it whether the task may take another step (steps, wall clock).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .actions import Action
from .config import AgentConfig
from .errors import TaskStatus

if TYPE_CHECKING:
    from .browser.session import Tabs


@dataclass(frozen=True)
class Refusal:
    guardrail: str
    note: str


@dataclass
class Guard:
    config: AgentConfig
    started: float = field(default_factory=time.monotonic)
    used: Counter[str] = field(default_factory=Counter)

    def remaining(self) -> float:
        return self.config.time_limit - (time.monotonic() - self.started)

    def stop_reason(self, steps_taken: int) -> TaskStatus | None:
        """Why the task may not take another step, if it may not."""
        if self.remaining() <= 0:
            return "time_limit"
        if steps_taken >= self.config.max_steps:
            return "step_limit"
        return None

    def check(self, action: Action) -> Refusal | None:
        """A refusal if the action breaks a guardrail; counts it against its budget otherwise."""
        budget_class = action.spec.budget
        limit = self.config.action_budgets.get(budget_class)
        if limit is not None and self.used[budget_class] >= limit:
            return Refusal(f"budget:{budget_class}",
                           f"Refused by the {budget_class} budget: {action.name} may be used at most "
                           f"{limit} times per task; try something else.")
        self.used[budget_class] += 1
        return None

    async def install(self, tabs: Tabs, entry_url: str) -> None:
        """Set up the browser-side guardrails (domain lock) on a task's context."""

    def after(self, action: Action, outcome: str, points: tuple[tuple[int, int], ...]) -> str:
        """An extra sentence for the note once an action keeps having no effect ('' if none)."""
        return ""

"""Guardrails enforced by the harness, whatever the model replies.

The loop asks the guard whether the task may take another step (steps, wall
clock), whether each parsed action may run (hotkey blacklist, per-action budgets;
answers are checked by webfovea.answers) and appends its word to each executed action's
note (repeat detector). A refusal names its guardrail; the loop records that name and
sends the text as the note.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from ..actions.hotkeys import blacklisted
from ..actions.registry import Action
from ..core.config import AgentConfig
from ..core.errors import TaskStatus
from .repeats import PagePoints, RepeatDetector

ANSWER_EXPECTED = "answer_expected"


@dataclass(frozen=True)
class Refusal:
    guardrail: str
    note: str


@dataclass
class Guard:
    config: AgentConfig
    started: float = field(default_factory=time.monotonic)
    used: Counter[str] = field(default_factory=Counter)
    repeats: RepeatDetector = field(default_factory=RepeatDetector)
    acted: bool = False  # an action other than finished has been let through
    # The task file gives a reference answer: a bare finished() is sent back once (the
    # WebRetriever grammar's navigation-only ending, where this task asks for an answer).
    expects_answer: bool = False
    told_answer: bool = False

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
        refusal = self._answer_expected(action) or self._hotkey(action) or self._budget(action)
        if refusal is None and not action.spec.ends_task:
            self.acted = True
        return refusal

    def _answer_expected(self, action: Action) -> Refusal | None:
        bare = action.spec.ends_task and not action.spec.asks_person and "content" not in action.args
        if not (bare and self.expects_answer) or self.told_answer:
            return None
        self.told_answer = True
        return Refusal(ANSWER_EXPECTED, "Not finished: this task expects an answer. Reply "
                                        "finished(content='the answer') with what the website "
                                        "shows; a second finished() ends the task without one.")

    def _hotkey(self, action: Action) -> Refusal | None:
        if action.name != "hotkey":
            return None
        key = action.text("key")
        why = blacklisted(key)
        if why is None:
            return None
        return Refusal("hotkey_blacklist", f"Refused by the hotkey blacklist: '{key}' {why}. "
                                           "Use the listed actions instead.")

    def _budget(self, action: Action) -> Refusal | None:
        budget_class = action.spec.budget
        limit = self.config.action_budgets.get(budget_class)
        if limit is not None and self.used[budget_class] >= limit:
            return Refusal(f"budget:{budget_class}",
                           f"Refused by the {budget_class} budget: {action.name} may be used at most "
                           f"{limit} times per task; try something else.")
        self.used[budget_class] += 1
        return None

    def after(self, action: Action, outcome: str, points: PagePoints) -> str:
        """An extra sentence for the note once an action keeps having no effect ('' if none)."""
        return self.repeats.record(action, outcome, points)

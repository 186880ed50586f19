"""Per-task step budgets from the task file (``bench --step-budget reference_length[*K]``).

WebRetriever's tasks carry ``reference_length``, the steps a person took. With
``--step-budget reference_length`` a task gets that many steps, ``reference_length*K`` K times
as many (rounded up); never more than ``--max-steps``, which still applies to the tasks
without one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..core.errors import ConfigError
from ..core.task import Task

_SPEC = re.compile(r"reference_length(?:\s*[*x×]\s*(\d+(?:\.\d+)?))?")


@dataclass(frozen=True)
class StepBudget:
    factor: float = 1.0

    @classmethod
    def parse(cls, spec: str) -> StepBudget:
        match = _SPEC.fullmatch(spec.strip())
        factor = float(match.group(1) or 1) if match else 0.0
        if factor <= 0:
            raise ConfigError("--step-budget takes reference_length or reference_length*K (K a "
                              f"positive number, e.g. reference_length*2), got {spec!r}")
        return cls(factor)

    def steps(self, task: Task, ceiling: int) -> int:
        """The task's step limit: its budget, at most ``ceiling`` (--max-steps)."""
        if task.reference_length is None:
            return ceiling
        return max(1, min(ceiling, math.ceil(self.factor * task.reference_length)))

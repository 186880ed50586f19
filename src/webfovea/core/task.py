"""A task: an instruction and an entry URL (the task file's record, docs/contracts.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AnswerType = Literal["auto", "text", "number", "date"]


@dataclass(frozen=True)
class Task:
    instruction: str
    url: str
    id: str = "task"
    answer: str | None = None
    answer_type: AnswerType = "auto"
    tags: tuple[str, ...] = field(default_factory=tuple)
    # WebRetriever's task files (webfovea.bench.formats): kept so a run can be exported under
    # the benchmark's own names. ``keytra`` is Protocol II's operational documentation, shown
    # to the model unless the run leaves it out; ``reference_length`` the steps a person took.
    task_idx: int | None = None
    keytra: str | None = None
    reference_length: int | None = None


# The fields only some task files give: ``task.json`` carries them when they are set.
OPTIONAL_FIELDS = ("task_idx", "keytra", "reference_length")

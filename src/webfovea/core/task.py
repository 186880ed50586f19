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

"""What the viewer's pages show beyond the recorded files: per-task numbers for the index
(site, outcome bucket, cost) and the changed regions between consecutive steps."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..outcomes import bucket
from ..rundir import TaskRun
from ..trajectory import UsageRecord
from .diffs import changed_regions


def outcome(task: TaskRun) -> str:
    """The bench report's outcome bucket of a task."""
    return bucket(task.result.status, task.score.correct if task.score else None,
                  task.result.answer)


def site(url: str) -> str:
    return urlsplit(url).hostname or ""


def cost(usage: UsageRecord) -> float | None:
    """USD, for usage records that carry a cost (a priced model)."""
    value = getattr(usage, "cost", None)
    return float(value) if isinstance(value, (int, float)) else None


def row_extras(task: TaskRun) -> dict[str, Any]:
    """The index's columns a task row needs besides the recorded ones."""
    r = task.result
    return {"site": site(r.url), "bucket": outcome(task), "cost": cost(r.usage),
            "instruction": r.task}


def add_diffs(task: TaskRun, steps: list[dict[str, Any]]) -> None:
    """Each step's changed regions since the step before (in the sent image's pixels)."""
    for before, after, data in zip(task.steps, task.steps[1:], steps[1:], strict=False):
        if before.screenshot and after.screenshot:
            data["diff"] = changed_regions(task.dir / before.screenshot,
                                           task.dir / after.screenshot)



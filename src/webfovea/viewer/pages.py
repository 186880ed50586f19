"""What the viewer's pages show beyond the recorded files: per-task numbers for the index
(site, outcome bucket, cost) and the changed regions between consecutive steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from PIL import Image

from ..rundir.images import RunImages
from ..rundir.outcomes import bucket
from ..rundir.store import TaskRun
from ..rundir.trajectory import UsageRecord
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


def inside(task_dir: Path, rel: str) -> bool:
    """Whether ``rel`` names a place inside the task's directory (the file may be gone): an
    edited record must not pull other files into the page."""
    return (task_dir / rel).resolve().is_relative_to(task_dir.resolve())


def add_diffs(task: TaskRun, steps: list[dict[str, Any]], images: RunImages) -> None:
    """Each step's changed regions since the step before (in the sent image's pixels); None
    when the two cannot be compared (one unreadable or missing, or the size changed). Each
    screenshot is decoded once, and only two are held at a time."""
    before = None
    for n, (record, data) in enumerate(zip(task.steps, steps, strict=True)):
        shown = bool(record.screenshot) and inside(task.dir, record.screenshot)
        after = images.decode(task.dir / record.screenshot) if shown else None
        if n and task.steps[n - 1].screenshot and shown:
            data["diff"] = (changed_regions(before, after) if isinstance(before, Image.Image)
                            and isinstance(after, Image.Image) else None)
        before = after


def add_sent(task: TaskRun, steps: list[dict[str, Any]]) -> None:
    """What each step sent the model: this step's new prompt text (the earlier turns are the
    earlier steps' prompts and replies) and the screenshots attached, as links to the steps
    that show them (never copied). Read from the step record's ``request`` (what the model
    client recorded about the request: ``turns``, ``system_chars``, ``images`` sizes, and
    ``image_steps`` / ``turn_text``); steps recorded without it show nothing."""
    recorded = {r.step for r in task.steps}
    for record, data in zip(task.steps, steps, strict=True):
        request = getattr(record, "request", None)
        if not isinstance(request, dict) or not request:
            continue
        sizes = request.get("images") or []
        images = [{"label": f"screenshot of step {n}", "href": f"#step-{n}" if n in recorded else None,
                   "size": sizes[i] if i < len(sizes) else None}
                  for i, n in enumerate(request.get("image_steps") or [])]
        data["sent"] = {"text": request.get("turn_text"), "turns": request.get("turns"),
                        "system_chars": request.get("system_chars"), "images": images}

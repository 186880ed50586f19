"""The task as every dialect states it to the model.

The instruction, then, when the task file gives it and the run shows it (``AgentConfig.keytra``),
WebRetriever's operational documentation (Protocol II's ``keytra``): a person's notes on how
the site is worked, given with the task so it stands in the first request, and in every
later one that restates the task. ``bench --no-keytra`` leaves it out, which turns a
Protocol II file into Protocol I.
"""

from __future__ import annotations

from ..core.task import Task

DOCUMENTATION_HEADING = ("Operational documentation for this task (how this site is used; a "
                         "guide, not steps to follow to the letter: where the page differs, go "
                         "by the page):")


def task_prompt(task: Task, *, keytra: bool = True) -> str:
    """The task text the dialects send (each prefixes it with ``Task:``)."""
    if not keytra or not task.keytra:
        return task.instruction
    return f"{task.instruction}\n\n{DOCUMENTATION_HEADING}\n{task.keytra}"

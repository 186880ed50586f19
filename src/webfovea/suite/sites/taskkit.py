"""Small helpers shared by the sites' task definitions."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..spec import Answer, AnswerType, Kind, Plan, Read, Step, SuiteTask

# A displayed number such as "12,345", "-3.5" or "1,204.75".
NUM = r"(?P<value>-?\d[\d,]*(?:\.\d+)?)"

UrlFor = Callable[[str], str]


def task(task_id: str, *, site: str, kind: Kind, instruction: str, url: str, answer: str,
         answer_type: AnswerType, steps: Iterable[Step], compute: Answer,
         tags: tuple[str, ...] = ()) -> SuiteTask:
    """A task with its plan; the instruction is written as one line of plain prose."""
    return SuiteTask(id=task_id, instruction=" ".join(instruction.split()), url=url,
                     answer=answer, answer_type=answer_type, site=site, kind=kind,
                     plan=Plan(tuple(steps), compute), extra_tags=tags)


def read_numbers(targets: dict[str, str]) -> list[Step]:
    """One numeric ``Read`` per ``slot -> element id``."""
    return [Read(target, slot, NUM) for slot, target in targets.items()]

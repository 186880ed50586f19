"""``webfovea score TASK_DIR --answer REF | --task FILE``: one task's run directory scored
without a bench store — a ``run``'s, or another agent's trajectory imported
(``webfovea import-trajectory``).

The reference comes from ``--answer``, else the task file's line for the task (its id, or
its only line), else the ``task.json`` an earlier score left. The verdict is the bench's
(:func:`webfovea.bench.scorer.score`), written where the bench writes it — ``task.json``
and ``score.json`` beside ``result.json`` — so ``view`` and ``diagnose`` read it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.task import AnswerType, Task
from ..rundir.store import RESULT, load_task, write_task
from .judge import Judge
from .runner import write_verdict
from .scorer import Verdict, score
from .tasks import read_tasks


@dataclass(frozen=True)
class TaskScore:
    task: Task
    status: str
    answer: str | None
    verdict: Verdict

    @property
    def word(self) -> str:
        return self.verdict.decision

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task.id, "status": self.status, "answer": self.answer,
                "reference": self.task.answer, "verdict": self.word,
                **self.verdict.to_json()}

    def line(self) -> str:
        return (f"{self.task.id}  [{self.status}]  {self.word} ({self.verdict.matcher}): "
                f"answer {self.answer!r}, reference {self.task.answer!r}; {self.verdict.detail}")


def is_task_dir(path: Path) -> bool:
    return (path / RESULT).is_file()


async def score_task_dir(task_dir: Path, *, answer: str | None, answer_type: AnswerType | None,
                         task_file: Path | None, judge: Judge | None) -> TaskScore:
    """Score the task at ``task_dir`` and write its ``task.json`` and ``score.json``."""
    run = load_task(task_dir)
    task = _task(task_dir, run.result.task, run.result.url, run.id, answer, task_file, run.task)
    if answer_type is not None:
        task = replace(task, answer_type=answer_type)
    verdict = await score(reference=task.answer, answer=run.result.answer,
                          answer_type=task.answer_type, status=run.result.status,
                          question=task.instruction, judge=judge)
    write_task(task_dir, task)
    write_verdict(task_dir, task.answer, verdict, judge, keep_evidence=True)
    return TaskScore(task, run.result.status, run.result.answer, verdict)


def _task(task_dir: Path, instruction: str, url: str, task_id: str, answer: str | None,
          task_file: Path | None, recorded: Task | None) -> Task:
    if answer is not None:
        if not answer.strip():
            raise ConfigError("--answer must not be empty")
        base = recorded or Task(instruction, url, id=task_id)
        return replace(base, answer=answer)
    if task_file is not None:
        return _line_for(task_file, task_id)
    if recorded is not None and recorded.answer is not None:
        return recorded
    raise ConfigError(f"{task_dir} is one task's run directory with no reference answer: "
                      f"give --answer TEXT or --task FILE (a task file with its line); a bench "
                      f"run directory is scored from its store")


def _line_for(path: Path, task_id: str) -> Task:
    if not path.is_file():
        raise ConfigError(f"--task: {path} is not a file")
    tasks = read_tasks(path).tasks
    found = [t for t in tasks if t.id == task_id] or (list(tasks) if len(tasks) == 1 else [])
    if not found:
        raise ConfigError(f"--task: {path} has no line with id {task_id!r} "
                          f"({len(tasks)} task(s) in it)")
    if found[0].answer is None:
        raise ConfigError(f"--task: the line {found[0].id!r} of {path} has no answer to "
                          "score against")
    return found[0]

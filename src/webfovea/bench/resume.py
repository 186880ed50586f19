"""What ``--resume`` checks before it continues a run: the same task file as before."""

from __future__ import annotations

from ..errors import ConfigError
from .store import Store
from .tasks import TaskFile


def check_same_tasks(store: Store, task_file: TaskFile, *, force: bool) -> None:
    """Refuse a task file other than the one the run was started with (its SHA-256 is
    recorded with every invocation), unless ``force``; the error says what differs."""
    runs = store.runs()
    if not runs:
        return
    before = runs[-1]["invocation"]
    recorded = before.get("tasks_sha256")
    if recorded in (None, task_file.sha256) or force:
        return
    known = {row.task_id for row in store.rows()}
    now = {task.id for task in task_file.tasks}
    differences = [f"SHA-256 {recorded[:12]}… then, {task_file.sha256[:12]}… now"]
    if before.get("tasks_file") != str(task_file.path):
        differences.append(f"file {before.get('tasks_file')} then, {task_file.path} now")
    if added := sorted(now - known):
        differences.append(f"{len(added)} new task(s): {_ids(added)}")
    if missing := sorted(known - now):
        differences.append(f"{len(missing)} task(s) no longer in it: {_ids(missing)}")
    raise ConfigError("the task file differs from the one this run was started with ("
                      + "; ".join(differences) + "); add --force to resume with it anyway")


def _ids(ids: list[str]) -> str:
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")

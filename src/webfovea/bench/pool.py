"""The local executor: N workers in this process, each with its own Chromium.

Each worker's browser is started once and reused for all its tasks; each task gets a
fresh browser context (no cookies, storage or cache from the task before). The workers
share one Playwright driver. A worker whose browser crashed or was killed replaces it
before its next task; nothing that happens to one task stops the others.

Browsers start one at a time. Started together, N launches share the cores and all end
late, and the workers then step in lockstep: each waits on its model at the same moment,
leaving the CPU idle, then all capture at once. One at a time, the first worker starts
its task at once, each later one a launch behind: the workers' steps interleave, and no
CPU goes to launches fighting each other (benchmarks/bench_workers.py: 2.34 → 2.0 CPU-s
per demo task and 2,070 → 2,330 tasks/h at 8 workers on 2 cores).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from ..browser.session import BrowserSession, Driver, shared_driver
from ..core.errors import BrowserError
from ..core.task import Task
from ..rundir.trajectory import ResultRecord
from .execute import Job, close_record, execute


class Hooks(Protocol):
    """What an executor reports back to the run (the store and the progress bar)."""

    def started(self, task: Task, worker: str) -> None: ...

    async def finished(self, task: Task, result: ResultRecord, *, worker: str,
                       browser_replaced: bool) -> None: ...

    def browser_event(self, kind: str, detail: str, *, worker: str, task_id: str | None) -> None:
        ...


TaskDir = Callable[[Task], Path]


async def run_local(tasks: Sequence[Task], job: Job, *, workers: int, task_dir: TaskDir,
                    hooks: Hooks) -> None:
    queue = deque(tasks)
    count = max(1, min(workers, len(tasks)))
    launching = asyncio.Lock()  # one browser start at a time (the module's docstring)
    async with shared_driver() as driver:
        await asyncio.gather(*(_worker(i, queue, job, task_dir, hooks, driver, launching)
                               for i in range(count)))


async def _worker(slot: int, queue: deque[Task], job: Job, task_dir: TaskDir,
                  hooks: Hooks, driver: Driver, launching: asyncio.Lock) -> None:
    name = f"local-{slot + 1}"
    session = BrowserSession(job.browser_for(slot), driver=driver)
    try:
        while queue:
            task = queue.popleft()
            hooks.started(task, name)
            if not session.connected:
                async with launching:
                    problem = await _start(session, name, hooks, task.id)
                if problem is not None:
                    result = close_record(task, task_dir(task), "browser_error", problem)
                    await hooks.finished(task, result, worker=name, browser_replaced=False)
                    continue
            result = await execute(task, job, session, task_dir(task))
            replaced = not session.connected and bool(queue)
            if replaced:
                async with launching:
                    await _start(session, name, hooks, task.id, after_crash=True)
            await hooks.finished(task, result, worker=name, browser_replaced=replaced)
    finally:
        await session.close()


async def _start(session: BrowserSession, worker: str, hooks: Hooks, task_id: str, *,
                 after_crash: bool = False) -> str | None:
    """(Re)start the worker's browser; the reason when it could not be started."""
    try:
        await session.restart()
    except BrowserError as e:
        hooks.browser_event("browser_start_failed", str(e), worker=worker, task_id=task_id)
        return str(e)
    version = f"Chromium {session.browser.version}"
    if after_crash:
        hooks.browser_event("browser_replaced", f"replaced after {task_id}: {version}",
                            worker=worker, task_id=task_id)
    else:
        hooks.browser_event("browser_started", f"started: {version}", worker=worker,
                            task_id=None)
    return None

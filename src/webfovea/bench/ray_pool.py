"""The Ray executor: the same tasks on a local Ray or an existing cluster.

One Ray actor per worker slot (``--workers``) holds one browser (launched, or attached to
``--cdp-url``) for all the tasks it runs, each task in a fresh context, exactly like a
local worker; a browser that crashed or was killed is replaced before the actor's next
task, and an actor that died is replaced by a new one. Each task runs into a scratch
directory whose record and files come back packed as a tar; the driver unpacks it into
``RUN/tasks/<id>/`` and writes the store, so workers on other machines need no shared
filesystem. Ray is an optional extra (``pip install webfovea[ray]``); the cluster's nodes
need webfovea installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import shutil
import signal
import socket
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..browser.session import BrowserSession
from ..core.errors import BrowserError, ConfigError
from ..core.task import Task
from ..rundir.events import StepEvent, emit, event_of, logger
from ..rundir.trajectory import ResultRecord
from .execute import HARNESS_ERROR, Job, close_record, execute, hard_limit
from .pool import Hooks, TaskDir

# How long past its hard limit the driver waits for a Ray task (scheduling, browser start).
DRIVER_GRACE = 120.0
# How often the driver asks a busy actor for its task's latest step (the progress panel).
POLL_SECONDS = 0.5


def import_ray() -> Any:
    # Ray's C++ SIGTERM handler (absl's failure handler) dumps a stack and aborts the driver
    # 3 s later, cutting short the clean stop (interrupts.py): off, before Ray reads it.
    os.environ.setdefault("RAY_DISABLE_FAILURE_SIGNAL_HANDLER", "1")
    try:
        import ray
    except ImportError as e:
        raise ConfigError("--executor ray needs Ray: pip install 'webfovea[ray]'") from e
    return ray


class _Latest(logging.Handler):
    """Keeps the latest step event of the task the actor runs, for the driver to ask."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.event: StepEvent | None = None

    def emit(self, record: logging.LogRecord) -> None:
        event = event_of(record)
        if event is not None and event.kind in ("step_started", "step_done"):
            self.event = event


class BrowserWorker:
    """Body of one Ray actor: one browser, reused task after task (one task at a time)."""

    def __init__(self, job: Job, slot: int) -> None:
        self.job = job
        self.session = BrowserSession(job.browser_for(slot))
        self.name = f"ray:{socket.gethostname()}:{os.getpid()}"
        self.latest = _Latest()
        # The actor process is ours alone: its step events go to the handler only.
        logger.addHandler(self.latest)
        logger.setLevel(logging.INFO)
        logger.propagate = False

    async def latest_event(self) -> StepEvent | None:
        """Runs in its own concurrency group, beside the task: the driver's poll."""
        return self.latest.event

    async def run(self, task: Task, dirname: str) -> dict[str, Any]:
        events: list[tuple[str, str]] = []
        with tempfile.TemporaryDirectory(prefix="webfovea-ray-") as scratch:
            out = Path(scratch) / dirname
            problem = await self._ensure_browser(events)
            if problem is not None:
                result = close_record(task, out, "browser_error", problem)
            else:
                result = await execute(task, self.job, self.session, out)
            replaced = not self.session.connected
            if replaced:  # crashed or killed during the task: the next task gets a new one
                problem = await self._ensure_browser(events, after=task.id)
            return {"result": result.model_dump(mode="json"), "archive": _pack(out),
                    "worker": self.name, "events": events,
                    "browser_replaced": replaced and problem is None}

    async def _ensure_browser(self, events: list[tuple[str, str]], *,
                              after: str | None = None) -> str | None:
        if self.session.connected:
            return None
        try:
            await self.session.restart()
        except BrowserError as e:
            events.append(("browser_start_failed", str(e)))
            return str(e)
        version = f"Chromium {self.session.browser.version}"
        events.append(("browser_replaced", f"replaced after {after}: {version}") if after
                      else ("browser_started", f"started: {version}"))
        return None

    async def close(self) -> None:
        await self.session.close()


def _pack(directory: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(directory, arcname=".")
    return buffer.getvalue()


def _unpack(archive: bytes, directory: Path) -> None:
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            # Only plain files and folders inside the task directory: never trust paths.
            target = (directory / member.name).resolve()
            if not target.is_relative_to(directory.resolve()) or not (
                    member.isfile() or member.isdir()):
                raise ValueError(f"unexpected archive member {member.name!r}")
        if hasattr(tarfile, "data_filter"):
            tar.extractall(directory, filter="data")
        else:  # Python < 3.10.12 / 3.11.4: the members were checked above
            tar.extractall(directory)


async def run_ray(tasks: Sequence[Task], job: Job, *, workers: int, address: str | None,
                  task_dir: TaskDir, hooks: Hooks) -> None:
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        # "local" starts a new Ray even when `ray start` left one running on this machine;
        # it gets as many CPUs as workers. A cluster brings its own.
        ours = signal.getsignal(signal.SIGTERM)
        try:
            ray.init(address=address or "local", num_cpus=None if address else workers,
                     include_dashboard=False, log_to_driver=False, configure_logging=False)
        except Exception as e:  # e.g. "node timed out during startup" on a loaded machine
            raise ConfigError(f"could not start or reach Ray: {e}") from e
        finally:
            signal.signal(signal.SIGTERM, ours)  # ray.init's own exits at once: ours stops cleanly
    pool = _Actors(ray, job, max(1, min(workers, len(tasks))))
    try:
        await asyncio.gather(*(pool.run(t, task_dir(t), hooks) for t in tasks))
    finally:
        await pool.close()
        if started_here:
            ray.shutdown()


class _Actors:
    """The driver's side: one actor per slot, each running one task at a time."""

    def __init__(self, ray: Any, job: Job, count: int) -> None:
        self.ray, self.job = ray, job
        # max_concurrency=1: an async actor would otherwise run many tasks on one browser;
        # the "poll" group answers the driver's progress questions while a task runs.
        self.remote = ray.remote(num_cpus=1, max_restarts=0, max_concurrency=1,
                                 concurrency_groups={"poll": 1})(BrowserWorker)
        self.actors = {slot: self._new(slot) for slot in range(count)}
        self.free: asyncio.Queue[int] = asyncio.Queue()
        for slot in range(count):
            self.free.put_nowait(slot)

    def _new(self, slot: int) -> Any:
        return self.remote.remote(self.job, slot)

    async def run(self, task: Task, out: Path, hooks: Hooks) -> None:
        slot = await self.free.get()
        follow = asyncio.ensure_future(self._follow(slot, task.id))
        try:
            hooks.started(task, "ray")
            try:
                payload = await self._call(slot, task, out)
            except asyncio.CancelledError:  # the user's stop: the run directory says so
                close_record(task, out, "interrupted", "stopped by the user; the steps it took "
                             "stayed with its Ray worker")
                raise
            if isinstance(payload, ResultRecord):  # the actor failed or hung: replaced
                await hooks.finished(task, payload, worker="ray", browser_replaced=True)
                return
            _unpack(payload["archive"], out)
            for kind, detail in payload["events"]:
                hooks.browser_event(kind, detail, worker=payload["worker"],
                                    task_id=None if kind == "browser_started" else task.id)
            await hooks.finished(task, ResultRecord.model_validate(payload["result"]),
                                 worker=payload["worker"],
                                 browser_replaced=payload["browser_replaced"])
        finally:
            follow.cancel()
            self.free.put_nowait(slot)

    async def _follow(self, slot: int, task_id: str) -> None:
        """Re-emits here the step events of the task an actor runs: the progress panel then
        shows its current step, as it does for a local worker."""
        shown: tuple[str, int] | None = None
        while True:
            await asyncio.sleep(POLL_SECONDS)
            with contextlib.suppress(Exception):  # a dying actor: the task's record says why
                ref = self.actors[slot].latest_event.options(concurrency_group="poll").remote()
                event = await asyncio.wrap_future(ref.future())
                if event is not None and event.task_id == task_id \
                        and (event.kind, event.step) != shown:
                    shown = (event.kind, event.step)
                    emit(event)

    async def _call(self, slot: int, task: Task, out: Path) -> dict[str, Any] | ResultRecord:
        """The actor's payload, or the task's record when the actor died or hung."""
        ref = self.actors[slot].run.remote(task, out.name)
        wait = hard_limit(self.job.agent.time_limit) + DRIVER_GRACE
        try:
            payload: dict[str, Any] = await asyncio.wait_for(asyncio.wrap_future(ref.future()),
                                                             wait)
            return payload
        except asyncio.CancelledError:
            # Stop the actor's task too: a busy actor would hold close() for its whole limit.
            self.ray.cancel(ref)
            raise
        except asyncio.TimeoutError:
            status, error = "time_limit", (f"the Ray task did not return within {wait:.0f} s; "
                                           "the bench ended its worker")
        except Exception as e:  # a worker that died (RayActorError and friends)
            status, error = HARNESS_ERROR, f"the Ray worker failed: {type(e).__name__}: {e}"
        self.ray.kill(self.actors[slot])  # its browser goes with it
        self.actors[slot] = self._new(slot)
        return close_record(task, out, status, error)

    async def close(self) -> None:
        closing = [asyncio.wrap_future(actor.close.remote().future())
                   for actor in self.actors.values()]
        # Together, 30 s at most; a dead actor's failure has nothing left to close.
        done, _ = await asyncio.wait(closing, timeout=30)
        for future in done:
            future.exception()  # retrieved, so asyncio never reports it as lost
        for actor in self.actors.values():
            self.ray.kill(actor)

"""The Ray executor: the same tasks as Ray tasks, on a local Ray or an existing cluster.

Each Ray task starts its own browser (or attaches to ``--cdp-url``), runs one bench
task into a scratch directory and returns the record and the directory packed as a
tar; the driver unpacks it into ``RUN/tasks/<id>/`` and writes the store, so workers
on other machines need no shared filesystem. Ray is an optional extra
(``pip install webfovea[ray]``); the cluster's nodes need webfovea installed.
"""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import socket
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..browser.session import BrowserSession
from ..errors import BrowserError, ConfigError
from ..task import Task
from ..trajectory import ResultRecord
from .execute import HARNESS_ERROR, Job, close_record, execute, hard_limit
from .pool import Hooks, TaskDir

# How long past its hard limit the driver waits for a Ray task (scheduling, browser start).
DRIVER_GRACE = 120.0


def import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise ConfigError("--executor ray needs Ray: pip install 'webfovea[ray]'") from e
    return ray


def remote_run(task: Task, job: Job, slot: int, dirname: str) -> dict[str, Any]:
    """Body of one Ray task (runs in a Ray worker process)."""
    return asyncio.run(_remote_run(task, job, slot, dirname))


async def _remote_run(task: Task, job: Job, slot: int, dirname: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="webfovea-ray-") as scratch:
        out = Path(scratch) / dirname
        session = BrowserSession(job.browser_for(slot))
        version = None
        try:
            await session.start()
            version = session.browser.version
        except BrowserError as e:
            result = close_record(task, out, "browser_error", str(e))
        else:
            result = await execute(task, job, session, out)
        finally:
            await session.close()
        return {"result": result.model_dump(mode="json"), "archive": _pack(out),
                "worker": f"ray:{socket.gethostname()}:{os.getpid()}", "browser": version}


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
        ray.init(address=address or "local", num_cpus=None if address else workers,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    remote = ray.remote(num_cpus=1, max_retries=0)(remote_run)
    free: asyncio.Queue[int] = asyncio.Queue()
    for slot in range(workers):
        free.put_nowait(slot)

    async def one(task: Task) -> None:
        slot = await free.get()  # at most `workers` Ray tasks at once, each with its slot
        try:
            hooks.started(task, "ray")
            result, worker = await _one(ray, remote, task, job, slot, task_dir(task), hooks)
            await hooks.finished(task, result, worker=worker, browser_replaced=False)
        finally:
            free.put_nowait(slot)

    try:
        await asyncio.gather(*(one(t) for t in tasks))
    finally:
        if started_here:
            ray.shutdown()


async def _one(ray: Any, remote: Any, task: Task, job: Job, slot: int, out: Path,
               hooks: Hooks) -> tuple[ResultRecord, str]:
    ref = remote.remote(task, job, slot, out.name)
    wait = hard_limit(job.agent.time_limit) + DRIVER_GRACE
    try:
        payload = await asyncio.wait_for(asyncio.wrap_future(ref.future()), wait)
    except asyncio.TimeoutError:
        ray.cancel(ref, force=True)
        return close_record(task, out, "time_limit", f"the Ray task did not return within "
                                                     f"{wait:.0f} s; the bench cancelled it"), "ray"
    except Exception as e:  # a worker that died (RayError and friends) is the task's status
        return close_record(task, out, HARNESS_ERROR,
                            f"the Ray worker failed: {type(e).__name__}: {e}"), "ray"
    _unpack(payload["archive"], out)
    if payload["browser"]:
        hooks.browser_event("browser_started", f"Chromium {payload['browser']}",
                            worker=payload["worker"], task_id=task.id)
    return ResultRecord.model_validate(payload["result"]), payload["worker"]

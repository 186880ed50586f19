"""Running one bench task to a named status, whatever the page, model or browser does.

Shared by the local pool and the Ray workers. ``run_task`` enforces the time limit
between steps and around model calls; a page that hangs the renderer (an endless
script) can stall a browser call forever, so the bench adds a hard limit on top and,
when even cancelling does not return, closes the browser so the worker can replace it.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Coroutine
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..browser.session import BrowserSession
from ..core.config import AgentConfig, BrowserConfig
from ..core.errors import ConfigError, WebfoveaError
from ..core.task import Task
from ..loop.agent import run_task
from ..models.loader import load_model, retry_policy
from ..rundir.store import read_result, write_result
from ..rundir.trajectory import ResultRecord
from .budgets import StepBudget

# Statuses the bench adds to webfovea.core.errors.TaskStatus.
HARNESS_ERROR = "harness_error"  # an unexpected exception inside the harness: a bug to report
CANCEL_WAIT = 5.0


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to run tasks (picklable, for Ray)."""

    model: str
    base_url: str | None
    agent: AgentConfig
    browser: BrowserConfig
    # Chromium --host-resolver-rules per concurrent slot (e.g. one offline-suite lane per
    # worker); slot i uses entry i modulo their number. Empty: the browser config's own.
    host_rules: tuple[tuple[str, ...], ...] = ()
    # DevTools endpoints of remote browsers, one per slot (slot i attaches to entry i modulo
    # their number), e.g. a pool of browser containers. Empty: the browser config's own.
    cdp_urls: tuple[str, ...] = ()
    # Each task's steps from its reference_length (--step-budget); None: --max-steps for all.
    step_budget: StepBudget | None = None

    def agent_for(self, task: Task) -> AgentConfig:
        """The agent config of one task: the run's, with the task's own step budget."""
        if self.step_budget is None:
            return self.agent
        return replace(self.agent, max_steps=self.step_budget.steps(task, self.agent.max_steps))

    def browser_for(self, slot: int) -> BrowserConfig:
        browser = self.browser
        if self.host_rules:
            browser = replace(browser, host_rules=self.host_rules[slot % len(self.host_rules)])
        if self.cdp_urls:
            browser = replace(browser, cdp_url=self.cdp_urls[slot % len(self.cdp_urls)])
        return browser


def hard_limit(time_limit: float) -> float:
    """The bench's own limit: the task's time limit plus a grace of 10 % (2 s to 30 s)."""
    return time_limit + min(30.0, max(2.0, 0.1 * time_limit))


async def execute(task: Task, job: Job, session: BrowserSession, out: Path) -> ResultRecord:
    """Run ``task`` into the fresh directory ``out``; always returns a record with a status."""
    ended = ended_record(out)
    if ended is not None:  # it ended, but the store never heard (killed in between): keep it
        return ended
    if out.exists():
        shutil.rmtree(out)  # a rerun (resume) starts an unfinished task's directory afresh
    out.mkdir(parents=True)
    try:
        model = load_model(job.model, base_url=job.base_url, timeout=job.agent.model_timeout,
                           host_rules=session.config.host_rules, retry=retry_policy(job.agent))
    except WebfoveaError as e:
        return close_record(task, out, "model_error", f"could not load the model: {e}")
    try:
        run = run_task(task, model=model, session=session, config=job.agent_for(task), out=out)
        return await _bounded(task, job, session, run, out)
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(model.aclose(), CANCEL_WAIT)


async def _bounded(task: Task, job: Job, session: BrowserSession,
                   coroutine: Coroutine[Any, Any, ResultRecord], out: Path) -> ResultRecord:
    limit = hard_limit(job.agent.time_limit)
    run = asyncio.ensure_future(coroutine)
    try:
        done, _ = await asyncio.wait({run}, timeout=limit)
    except asyncio.CancelledError:  # the user's stop: the task records it before we go
        run.cancel()
        await asyncio.wait({run}, timeout=CANCEL_WAIT)
        if run.done() and not run.cancelled():
            run.exception()  # retrieved, so asyncio never reports it as lost
        raise
    if run in done:
        error = run.exception()
        if error is None:
            return run.result()
        return close_record(task, out, HARNESS_ERROR, f"{type(error).__name__}: {error}")
    run.cancel()
    done, _ = await asyncio.wait({run}, timeout=CANCEL_WAIT)
    if not done:
        await session.close()  # a hung browser: closing it fails the stuck calls
        await asyncio.wait({run}, timeout=CANCEL_WAIT)
    return close_record(task, out, "time_limit",
                        f"the task did not return within the bench's hard limit of {limit:.0f} s "
                        "(the page or the browser hung); the bench ended it")


def ended_record(out: Path) -> ResultRecord | None:
    """The task directory's result when the task ended there (not stopped or killed)."""
    try:
        result = ResultRecord.model_validate_json((out / "result.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return None if result.status in ("running", "interrupted") else result


def close_record(task: Task, out: Path, status: str, error: str) -> ResultRecord:
    """Give the task's directory a final result.json with ``status``, keeping what it had."""
    try:
        result = read_result(out)
    except (OSError, ConfigError):
        result = ResultRecord(task=task.instruction, url=task.url, task_id=task.id)
    result.status, result.error = status, error
    write_result(out, result)
    return result

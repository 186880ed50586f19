"""Run MiniWoB episodes through the normal round trip into a bench run directory.

Each worker owns a browser; each task gets one page, loaded once, and its episodes run in
it one after another (started through the page's API, no reload). An episode is a bench
"task" (``<task>.e<NNN>``): its run directory, store row, report line and viewer entry are
the bench's own, so ``score``, ``compare``, ``view`` and ``diagnose`` read it unchanged.
Success is a raw reward > 0; the rewards themselves go to ``miniwob.json`` (per episode
and, at the top, per task and family).
"""

from __future__ import annotations

import asyncio
import json
import statistics
from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console

from ..bench.execute import close_record, hard_limit
from ..bench.runner import versions, write_verdict
from ..bench.scorer import Verdict
from ..bench.store import Store
from ..browser.domain_lock import DomainLock
from ..browser.local_server import LocalServer
from ..browser.session import BrowserSession, Tabs
from ..core.config import AgentConfig, BrowserConfig
from ..core.task import Task
from ..dialects.base import Dialect
from ..loop.agent import run_task
from ..models.base import Model
from ..models.loader import load_model, retry_policy
from ..rundir.store import read_steps, write_task
from ..rundir.trajectory import ResultRecord
from . import ORACLE, assets
from .models import EpisodeModel, MiniwobOracle
from .page import EpisodeState, TaskPage

GRACE = 3.0  # seconds past the page's own limit for the step that sees the episode end
SUMMARY = "miniwob.json"


@dataclass(frozen=True)
class Settings:
    tasks: tuple[str, ...]
    episodes: int
    seed: int
    model: str
    base_url: str | None
    time_limit_scale: float
    workers: int
    agent: AgentConfig
    browser: BrowserConfig


@dataclass
class Episode:
    task: str
    episode: int
    seed: int
    utterance: str
    time_limit: float
    status: str
    raw: float
    reward: float
    reason: str | None
    steps: int
    harness_seconds: list[float]

    @property
    def success(self) -> bool:
        return self.raw > 0


def episode_id(task: str, episode: int) -> str:
    return f"{task}.e{episode:03d}"


class _Recorder:
    def __init__(self, store: Store, run_id: int, out: Path) -> None:
        self.store, self.run_id, self.out = store, run_id, out
        self.episodes: list[Episode] = []

    def task_dir(self, task_id: str) -> Path:
        return self.out / "tasks" / self.store.task_dir(task_id)

    def finish(self, task: Task, result: ResultRecord, episode: Episode, worker: str) -> None:
        verdict = Verdict(correct=episode.success, matcher="status",
                          detail=f"MiniWoB raw reward {episode.raw:g}, reward {episode.reward:.3f}"
                                 + (f" ({episode.reason})" if episode.reason else ""))
        out = self.task_dir(task.id)
        write_task(out, task)
        write_verdict(out, None, verdict, None)
        steps = read_steps(out)
        episode.harness_seconds = [s.harness_seconds for s in steps if s.harness_seconds is not None]
        self.store.finish(task.id, 1, run_id=self.run_id, result=result, verdict=verdict, steps=steps,
                          worker=worker, browser_replaced=False)
        (self.task_dir(task.id) / SUMMARY).write_text(json.dumps(asdict(episode), indent=2))
        self.episodes.append(episode)


async def run(settings: Settings, out: Path, *, console: Console) -> list[Episode]:
    out.mkdir(parents=True, exist_ok=True)
    store = Store(out / "results.sqlite")
    store.set_meta("settings", {"model": settings.model, "miniwob": True,
                                "ablate": sorted(settings.agent.ablate),
                                **{k: v for k, v in asdict(settings).items()
                                   if k not in ("agent", "browser")}})
    run_id = store.begin_run(executor="local", workers=settings.workers, command="miniwob",
                             invocation={"tasks": list(settings.tasks)}, versions=versions())
    recorder = _Recorder(store, run_id, out)
    state = "interrupted"
    try:
        with LocalServer(assets.html_root()) as server:
            queue = deque(settings.tasks)
            count = max(1, min(settings.workers, len(queue)))
            await asyncio.gather(*(_worker(i, queue, settings, server, recorder, console)
                                   for i in range(count)))
        state = "completed"
    finally:
        store.end_run(run_id, state)
        write_summary(out, recorder.episodes, settings)
        store.close()
    return recorder.episodes


async def _worker(slot: int, queue: deque[str], settings: Settings, server: LocalServer,
                  recorder: _Recorder, console: Console) -> None:
    name = f"local-{slot + 1}"
    async with BrowserSession(settings.browser) as session:
        while queue:
            task_name = queue.popleft()
            tabs = await session.new_tabs()
            try:
                url = server.url(assets.task_path(task_name))
                await DomainLock.for_task(tabs, url, settings.agent.allow_domains)
                await tabs.open(url)
                for k in range(settings.episodes):
                    episode = await _episode(task_name, k, settings, session, tabs, url,
                                             recorder, name)
                    console.print(f"{episode_id(task_name, k)}: {episode.status}, raw reward "
                                  f"{episode.raw:g} in {episode.steps} steps")
            finally:
                await tabs.close()


async def _episode(task_name: str, k: int, settings: Settings, session: BrowserSession,
                   tabs: Tabs, url: str, recorder: _Recorder, worker: str) -> Episode:
    page = TaskPage(tabs)
    limit_ms = round(assets.time_limit_ms(task_name) * settings.time_limit_scale)
    seed = settings.seed + k
    started = await page.start(seed, limit_ms)
    task = Task(instruction=started.utterance, url=f"{url}#seed={seed}",
                id=episode_id(task_name, k),
                tags=("miniwob", assets.family(task_name), task_name))
    recorder.store.add_tasks([task])
    recorder.store.mark_running(task.id, 1, run_id=recorder.run_id, worker=worker)
    out = recorder.task_dir(task.id)
    out.mkdir(parents=True, exist_ok=True)
    # An episode ends with the page's reward, not a retrieved answer: nothing to ground.
    config = replace(settings.agent, time_limit=limit_ms / 1000 + GRACE, grounding="off")
    model, dialect = _speaker(settings, task_name, page, config)
    try:
        result = await asyncio.wait_for(
            run_task(task, model=model, dialect=dialect, session=session, config=config,
                     out=out, tabs=tabs),
            hard_limit(config.time_limit))
    except asyncio.TimeoutError:
        result = close_record(task, out, "time_limit", "the episode did not return within the "
                                                       "hard limit; the page or browser hung")
    finally:
        speaker = dialect if dialect is not None else model
        if speaker is not None:
            await speaker.aclose()
    final = await page.state()
    if not final.done:  # the agent stopped before the page ended the episode
        await page.end()
        final = await page.state()
    episode = _record(task_name, k, seed, started, final, result, config)
    recorder.finish(task, result, episode, worker)
    return episode


def _speaker(settings: Settings, task_name: str, page: TaskPage,
             config: AgentConfig) -> tuple[Model | None, Dialect | None]:
    """The episode's model, or (the miniwob-oracle in a native dialect, which speaks it
    through the fake provider: webfovea.miniwob.dialect) its dialect."""
    if settings.model == ORACLE and config.dialect != "text":
        from .dialect import miniwob_bridge

        return None, miniwob_bridge(task_name, page, config)
    return EpisodeModel(_model(settings, task_name, page), page), None


def _model(settings: Settings, task_name: str, page: TaskPage) -> Model:
    if settings.model == ORACLE:
        return MiniwobOracle(task_name, page)
    return load_model(settings.model, base_url=settings.base_url,
                      retry=retry_policy(settings.agent))


def _record(task_name: str, k: int, seed: int, started: EpisodeState, final: EpisodeState,
            result: ResultRecord, config: AgentConfig) -> Episode:
    return Episode(task=task_name, episode=k, seed=seed, utterance=started.utterance,
                   time_limit=config.time_limit - GRACE, status=result.status, raw=final.raw,
                   reward=final.reward, reason=final.reason, steps=result.steps,
                   harness_seconds=[])


def summarise(episodes: Sequence[Episode]) -> dict[str, Any]:
    """Per task and per family: episodes, successes (raw reward > 0), mean raw and shaped reward."""
    def block(group: Sequence[Episode]) -> dict[str, Any]:
        return {"episodes": len(group), "successes": sum(e.success for e in group),
                "success_rate": sum(e.success for e in group) / len(group),
                "mean_raw_reward": statistics.fmean(e.raw for e in group),
                "mean_reward": statistics.fmean(e.reward for e in group),
                "mean_steps": statistics.fmean(e.steps for e in group)}

    by_task: dict[str, list[Episode]] = {}
    by_family: dict[str, list[Episode]] = {}
    for e in episodes:
        by_task.setdefault(e.task, []).append(e)
        by_family.setdefault(assets.family(e.task), []).append(e)
    harness = [s for e in episodes for s in e.harness_seconds]
    return {"tasks": {t: block(g) for t, g in sorted(by_task.items())},
            "families": {f: block(g) for f, g in sorted(by_family.items())},
            "overall": block(episodes) if episodes else {},
            "harness_seconds_per_step_median": statistics.median(harness) if harness else None}


def write_summary(out: Path, episodes: Sequence[Episode], settings: Settings) -> None:
    data = {"settings": {"model": settings.model, "episodes": settings.episodes,
                         "seed": settings.seed, "time_limit_scale": settings.time_limit_scale,
                         "viewport": str(settings.browser.viewport),
                         "device_scale_factor": settings.browser.device_scale_factor},
            **summarise(episodes)}
    (out / SUMMARY).write_text(json.dumps(data, indent=2))

"""One MiniWoB task page and its episodes, through the page's own API (no Selenium, no gym)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..browser.session import Tabs
from ..core.errors import SiteUnreachable

READY_WAIT = 1.0  # seconds a task may take to say WOB_TASK_READY, as MiniWoB's env allows


@cache
def script(name: str) -> str:
    return resources.files("webfovea.miniwob").joinpath("js").joinpath(f"{name}.js").read_text("utf-8")


@dataclass(frozen=True)
class EpisodeState:
    done: bool
    reward: float  # shaped: scaled by the time left, as MiniWoB reports it
    raw: float
    reason: str | None
    utterance: str
    ready: bool
    limit_ms: int

    @property
    def success(self) -> bool:
        return self.raw > 0


class TaskPage:
    """A loaded task page whose episodes start one after another without a reload."""

    def __init__(self, tabs: Tabs) -> None:
        self.tabs = tabs

    async def start(self, seed: int, limit_ms: int) -> EpisodeState:
        problem = await self.tabs.page.evaluate(script("start_episode"),
                                                {"seed": seed, "limitMs": limit_ms})
        if problem:
            raise SiteUnreachable(f"{self.tabs.page.url}: {problem}")
        for _ in range(int(READY_WAIT / 0.05)):
            state = await self.state()
            if state.ready:
                return state
            await asyncio.sleep(0.05)
        raise SiteUnreachable(f"{self.tabs.page.url} did not become ready within {READY_WAIT} s")

    async def state(self) -> EpisodeState:
        data: dict[str, Any] = await self.tabs.page.evaluate(script("episode_state"))
        return EpisodeState(done=data["done"], reward=data["reward"], raw=data["raw"],
                            reason=data["reason"], utterance=data["utterance"],
                            ready=data["ready"], limit_ms=int(data["limitMs"]))

    async def end(self) -> None:
        """End an episode the agent left unfinished, as MiniWoB's env does (reward 0)."""
        await self.tabs.page.evaluate("() => { if (core.EP_TIMER !== null) core.endEpisode(0); }")

    async def probe(self) -> dict[str, Any]:
        data: dict[str, Any] = await self.tabs.page.evaluate(script("probe"))
        return data

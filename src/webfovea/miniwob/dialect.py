"""``webfovea miniwob --model miniwob-oracle --dialect D``: the MiniWoB reference policy speaking
dialect D through the fake provider, as the suite's oracle does
(:mod:`webfovea.dialects.loopback.oracle_bridge`).

The policy answers on the fake provider's handler thread; it reads the task page (a
Playwright call) on the episode's event loop, which is free while the dialect awaits the
provider's reply. Once the page reports the episode over, it answers ``finished`` as
:class:`~.models.EpisodeModel` does for the text dialect.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from ..actions.registry import Action
from ..core.config import AgentConfig
from ..dialects import factory
from ..dialects.loopback.fake_tools import FakeReply
from ..dialects.loopback.fake_wire import FakeRequest
from ..dialects.loopback.oracle_bridge import FakeBridge, renderer
from ..dialects.loopback.renderer_base import Renderer
from .catalog import POLICIES
from .models import _action
from .page import TaskPage
from .policies import Stuck, View

T = TypeVar("T")
PAGE_SECONDS = 30.0  # a page read that takes longer means the episode's loop is stuck


class MiniwobPolicy:
    """One episode's miniwob-oracle behind a fake provider."""

    def __init__(self, task: str, page: TaskPage, renderer: Renderer,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.task, self.page, self.renderer, self.loop = task, page, renderer, loop
        self.memory: dict[str, object] = {}

    def _on_loop(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(PAGE_SECONDS)

    def __call__(self, request: FakeRequest) -> FakeReply:
        seen = self.renderer.seen(request)
        state = self._on_loop(self.page.state())
        if state.done:
            return self.renderer.render(
                Action("finished", {"content": f"episode over: raw reward {state.raw:g}"}),
                f"The task page reports the episode is over ({state.reason or 'done'}).")
        view = View(self._on_loop(self.page.probe()))
        try:
            move = POLICIES[self.task](view, self.memory)
        except Stuck as e:
            return self.renderer.render(Action("finished", {"content": ""}), f"I am stuck: {e}")
        action = _action(move, seen.width / view.viewport_w, seen.height / view.viewport_h)
        return self.renderer.render(action, move.thought)


def miniwob_bridge(task: str, page: TaskPage, config: AgentConfig) -> FakeBridge:
    """Dialect D, its client and the fake provider the miniwob-oracle answers behind."""
    policy = MiniwobPolicy(task, page, renderer(config, "the miniwob-oracle"),
                           asyncio.get_running_loop())
    return FakeBridge(policy, policy.renderer, config, factory(config.dialect))

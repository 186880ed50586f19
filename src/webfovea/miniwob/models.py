"""The models a MiniWoB episode talks to: any model, told to stop once the page says the
episode is over, and ``miniwob-oracle``, the reference policy.

The oracle reads the task page's DOM to plan (like the offline suite's oracle reads the
layout its pages report) but answers only in the reply grammar, with points in pixels of
the image it was sent, so its every action goes through the same parser, executor and
feedback as a real model's. Its success rate is the harness's ceiling on MiniWoB.
"""

from __future__ import annotations

from ..actions.registry import Action, ArgValue, Point
from ..core.errors import ModelError
from ..models.base import Model, ModelReply, ModelRequest, Usage
from . import ORACLE
from .catalog import POLICIES
from .page import TaskPage
from .policies import Move, Stuck, View


class EpisodeModel:
    """Wraps a model for one episode: once the page reports the episode done (the agent
    submitted, or the task's own timer ran out), the step ends the run with ``finished``
    instead of asking the model; that step shows as a zero-call reply in the trajectory."""

    def __init__(self, inner: Model, page: TaskPage) -> None:
        self.inner, self.page, self.name = inner, page, inner.name

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        state = await self.page.state()
        if state.done:
            text = (f"Thought: The task page reports the episode is over ({state.reason or 'done'})."
                    f"\nAction: finished(content='episode over: raw reward {state.raw:g}')")
            return ModelReply(text, Usage(), self.name)
        return await self.inner.complete(request, timeout=timeout)

    async def aclose(self) -> None:
        await self.inner.aclose()


class MiniwobOracle:
    """``miniwob-oracle`` for one task page: a scripted policy per supported task."""

    def __init__(self, task: str, page: TaskPage) -> None:
        if task not in POLICIES:
            raise ModelError(f"miniwob-oracle has no policy for {task}; it plays: "
                             + ", ".join(sorted(POLICIES)))
        self.name, self.task, self.page = ORACLE, task, page
        self.memory: dict[str, object] = {}

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        image = request.turns[-1].images[-1]
        if image.label == "step 1":
            self.memory = {}  # a new episode
        view = View(await self.page.probe())
        try:
            move = POLICIES[self.task](view, self.memory)
        except Stuck as e:
            return ModelReply(f"Thought: I am stuck: {e}\nAction: finished(content='')",
                              Usage(calls=1), self.name)
        scale_x, scale_y = image.width / view.viewport_w, image.height / view.viewport_h
        return ModelReply(f"Thought: {move.thought}\nAction: {_action(move, scale_x, scale_y).source()}",
                          Usage(calls=1), self.name)

    async def aclose(self) -> None:
        return None


def _action(move: Move, scale_x: float, scale_y: float) -> Action:
    """The move with its CSS-pixel points scaled to the image the oracle received."""
    args: dict[str, ArgValue] = dict(move.args)
    for name, (x, y) in move.points.items():
        args[name] = Point(round(x * scale_x), round(y * scale_y))
    return Action(move.name, args)

"""The MCP dialect: ``decide()`` awaits the MCP client's next tool call.

Each tool call waits in :meth:`McpDialect.submit` until the loop has guarded, executed and
recorded it and taken the next screenshot: the call's answer is that next observation (its
one :class:`~webfovea.dialects.base.ActionResult` and the image), or the run's end. A
``screenshot`` call is answered from the observation in hand without taking a step.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from ..dialects.base import ActionResult, Decision, Observation
from ..models.base import Usage
from ..rundir.trajectory import ResultRecord
from .tools import SCREENSHOT, to_call


@dataclass(frozen=True)
class Answer:
    """What one tool call came to: the observation after it (``result`` is the call's own
    result, None for a screenshot), or ``ended``: the run's result when it ended with it."""

    obs: Observation | None = None
    result: ActionResult | None = None
    ended: ResultRecord | None = None
    late: bool = False  # the call came after the run had ended


@dataclass
class _Pending:
    name: str
    arguments: dict[str, Any]
    call_id: str
    answer: asyncio.Future[Answer] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class McpDialect:
    """One MCP session's side of the loop."""

    name = "mcp"

    def __init__(self) -> None:
        self._calls: asyncio.Queue[_Pending] = asyncio.Queue()
        self._waiting: _Pending | None = None  # executed; answered by the next observation
        self._ids = itertools.count(1)
        self._ended: ResultRecord | None = None

    async def submit(self, name: str, arguments: dict[str, Any]) -> Answer:
        """Hand one tool call to the loop and wait for what it came to."""
        if self._ended is not None:
            return Answer(ended=self._ended, late=True)
        pending = _Pending(name, arguments, f"mcp-{next(self._ids)}")
        await self._calls.put(pending)
        return await pending.answer

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            _resolve(waiting, Answer(obs, obs.results[0] if obs.results else None))
        started = time.monotonic()
        while True:
            pending = await asyncio.wait_for(self._calls.get(), timeout)
            if pending.name == SCREENSHOT:
                _resolve(pending, Answer(obs))
                continue
            self._waiting = pending
            call = to_call(pending.call_id, pending.name, pending.arguments, image=obs.image,
                           space=obs.space)
            return Decision(raw=json.dumps(call.native, ensure_ascii=False), thought="",
                            calls=[call], usage=Usage(calls=1),
                            model_seconds=time.monotonic() - started,
                            request_summary={"dialect": self.name,
                                             "image": [obs.image.width, obs.image.height]})

    def end(self, result: ResultRecord) -> None:
        """The run ended: the call in flight and every queued one are answered with it."""
        self._ended = result
        if self._waiting is not None:
            _resolve(self._waiting, Answer(ended=result))
            self._waiting = None
        while not self._calls.empty():
            _resolve(self._calls.get_nowait(), Answer(ended=result))

    async def aclose(self) -> None:
        """Nothing to release: the session (not the loop) owns the bridge."""


def _resolve(pending: _Pending, answer: Answer) -> None:
    if not pending.answer.done():  # the client may have gone (its call cancelled)
        pending.answer.set_result(answer)

"""The oracle as a fake-provider policy: the reference policy of the offline suite answering
through a dialect's real wire format (``webfovea suite run --model oracle --dialect D``).

It sees what the request shows (the task, the image as received, the last result's note)
plus the suite server's layout report, follows the task's plan like
:class:`webfovea.models.oracle.OracleModel`, and lets the dialect's renderer phrase each
move in that protocol, in the pixels of the image it received.
"""

from __future__ import annotations

import threading

import httpx
from pydantic import ValidationError

from ..config import Size
from ..geometry import fit_within
from ..suite.catalog import tasks as suite_tasks
from ..suite.layout import Layout
from ..suite.policy import Move, PlanRunner, PlanStuck, to_action
from ..suite.server import CONTROL
from ..suite.spec import SuiteTask
from .fake_tools import FakeReply
from .fake_wire import FakeRequest
from .renderer_base import Renderer

PROVIDER_SIZE = Size(1440, 810)
LAYOUT_SETTLE = 0.15  # seconds of report silence before the layout is read


class OraclePolicy:
    """One task attempt's oracle behind a fake provider (its runner keeps the plan's place)."""

    def __init__(self, suite_url: str, renderer: Renderer, *, provider_resize: bool = False) -> None:
        self.base, self.renderer, self.resize = suite_url.rstrip("/"), renderer, provider_resize
        self._http = httpx.Client(timeout=15.0)
        self._tasks: dict[str, SuiteTask] | None = None
        self._runners: dict[str, PlanRunner] = {}
        self._lock = threading.Lock()

    def __call__(self, request: FakeRequest) -> FakeReply:
        with self._lock:
            return self._answer(request)

    def _answer(self, request: FakeRequest) -> FakeReply:
        seen = self.renderer.seen(request)
        task = self._catalog().get(seen.task.strip())
        if task is None:
            raise LookupError(f"the oracle only knows the offline suite's tasks, not {seen.task!r}")
        if seen.step <= 1 or task.id not in self._runners:
            self._runners[task.id] = PlanRunner(task)
        runner = self._runners[task.id]
        if seen.note:
            runner.note(seen.note)
        size = Size(seen.width, seen.height)
        if self.resize:
            size = fit_within(size, PROVIDER_SIZE)
        layout = self._layout()
        try:
            move = runner.next_move(layout)
        except PlanStuck as e:
            move = Move("finished", text="", thought=f"I am stuck: {e}")
        action = to_action(move, scale_x=size.width / layout.viewport_w,
                           scale_y=size.height / layout.viewport_h)
        return self.renderer.render(action, move.thought)

    def _get(self, what: str) -> httpx.Response:
        response = self._http.get(f"{self.base}{CONTROL}{what}")
        if response.status_code != 200:
            raise LookupError(f"the suite server answered {response.status_code} for {what}")
        return response

    def _catalog(self) -> dict[str, SuiteTask]:
        if self._tasks is None:
            seed = int(self._get("info").json()["seed"])
            self._tasks = {t.instruction.strip(): t for t in suite_tasks(seed)}
        return self._tasks

    def _layout(self) -> Layout:
        try:
            return Layout.model_validate(self._get(f"layout?settle={LAYOUT_SETTLE}").json())
        except (ValidationError, ValueError) as e:
            raise LookupError(f"the suite server sent a layout the oracle cannot read: {e}") from e

    def close(self) -> None:
        self._http.close()

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

from ...core.config import Size
from ...suite.oracle_core import INFO, LAYOUT, OracleCore, read_layout
from ...suite.server import CONTROL
from ...suite.web import SuiteError
from .fake_tools import FakeReply
from .fake_wire import FakeRequest
from .renderer_base import Renderer


class OraclePolicy:
    """One task attempt's oracle behind a fake provider (its core keeps the plan's place)."""

    def __init__(self, suite_url: str, renderer: Renderer, *, provider_resize: bool = False) -> None:
        self.base, self.renderer = suite_url.rstrip("/"), renderer
        self._core = OracleCore(provider_resize=provider_resize)
        self._http = httpx.Client(timeout=15.0)
        self._lock = threading.Lock()

    def __call__(self, request: FakeRequest) -> FakeReply:
        with self._lock:
            try:
                return self._answer(request)
            except SuiteError as e:
                raise LookupError(str(e)) from e

    def _answer(self, request: FakeRequest) -> FakeReply:
        seen = self.renderer.seen(request)
        if self._core.needs_info:
            self._core.learn_info(self._get(INFO).json())
        task = self._core.task_for(seen.task)
        layout = read_layout(self._get(LAYOUT).content)
        move = self._core.next_move(task, step=seen.step, note=seen.note,
                                    image=Size(seen.width, seen.height), layout=layout)
        return self.renderer.render(move.action(), move.move.thought)

    def _get(self, what: str) -> httpx.Response:
        response = self._http.get(f"{self.base}{CONTROL}{what}")
        if response.status_code != 200:
            raise LookupError(f"the suite server answered {response.status_code} for {what}")
        return response

    def close(self) -> None:
        self._http.close()

"""The oracle: a reference policy for the offline suite that uses the same round trip.

It sees what any model sees (the request: task text, images, notes) plus what the
suite server says about the current page's layout, which the pages report
themselves (element rectangles in CSS pixels, the viewport, the displayed text).
It follows the task's plan (:class:`webfovea.suite.policy.PlanRunner`), converts
the target's rectangle to the space of the image it actually received and answers
in the reply grammar. Its final answer is computed from text the page displayed
(a tooltip, a table cell), never from the ground truth, so it can only be right
if the harness really brought the page there.

With ``provider_resize`` it first shrinks the image the way hosted APIs do (fit
within 1440x810) and answers in that space, so a harness that sends full-size
images and maps points by the full size misses, as in the paper.
"""

from __future__ import annotations

import httpx
from pydantic import ValidationError

from ..config import Size
from ..errors import ConfigError, ModelError
from ..geometry import fit_within
from ..suite.catalog import tasks as suite_tasks
from ..suite.layout import Layout
from ..suite.policy import PlanRunner, PlanStuck, reply_text
from ..suite.server import CONTROL, lane_url
from ..suite.spec import SuiteTask
from .base import ModelReply, ModelRequest, Usage

PROVIDER_SIZE = Size(1440, 810)
LAYOUT_SETTLE = 0.15  # seconds of report silence before the layout is read


class OracleModel:
    """``oracle`` (or ``oracle:provider-resize``) bound to one suite server lane."""

    def __init__(self, suite_url: str, *, provider_resize: bool = False) -> None:
        self.name = "oracle:provider-resize" if provider_resize else "oracle"
        self._base = suite_url.rstrip("/")
        self._resize = provider_resize
        self._http = httpx.AsyncClient(timeout=15.0)
        self._tasks: dict[str, SuiteTask] | None = None
        self._runners: dict[str, PlanRunner] = {}

    @property
    def suite_url(self) -> str:
        return self._base

    @property
    def provider_resize(self) -> bool:
        return self._resize

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        task = (await self._catalog()).get(request.task.strip())
        if task is None:
            raise ModelError(f"the oracle only knows the offline suite's tasks, not {request.task!r}")
        image = request.turns[-1].images[-1]
        # The step number and the note travel as fields of the request, never read from
        # the prompt's wording, so any layout of the history plays the same.
        if request.step <= 1 or task.id not in self._runners:
            self._runners[task.id] = PlanRunner(task)
        runner = self._runners[task.id]
        if request.note:
            runner.note(request.note)
        seen = Size(image.width, image.height)
        if self._resize:
            seen = fit_within(seen, PROVIDER_SIZE)
        layout = await self._layout()
        try:
            move = runner.next_move(layout)
        except PlanStuck as e:
            return ModelReply(f"Thought: I am stuck: {e}\nAction: finished(content='')",
                              Usage(calls=1), self.name)
        reply = reply_text(move, scale_x=seen.width / layout.viewport_w,
                           scale_y=seen.height / layout.viewport_h)
        return ModelReply(reply, Usage(calls=1), self.name)

    async def _get(self, what: str) -> httpx.Response:
        try:
            response = await self._http.get(f"{self._base}{CONTROL}{what}")
        except httpx.HTTPError as e:
            raise ModelError(f"the oracle cannot reach the suite server at {self._base}: {e}",
                             retryable=True) from e
        if response.status_code != 200:
            raise ModelError(f"the suite server answered {response.status_code} for {what}: "
                             f"{response.text[:200]}", retryable=response.status_code == 404)
        return response

    async def _catalog(self) -> dict[str, SuiteTask]:
        if self._tasks is None:
            seed = int((await self._get("info")).json()["seed"])
            self._tasks = {t.instruction.strip(): t for t in suite_tasks(seed)}
        return self._tasks

    async def _layout(self) -> Layout:
        response = await self._get(f"layout?settle={LAYOUT_SETTLE}")
        try:
            return Layout.model_validate(response.json())
        except (ValidationError, ValueError) as e:
            raise ModelError(f"the suite server sent a layout the oracle cannot read: {e}") from e

    async def aclose(self) -> None:
        await self._http.aclose()


def oracle_from_spec(spec: str, suite_url: str | None,
                     host_rules: tuple[str, ...] = ()) -> OracleModel:
    """``oracle`` / ``oracle:provider-resize`` with the suite lane's URL (``--base-url``, else
    the lane the browser's host rules point at)."""
    option = spec.partition(":")[2]
    if option not in ("", "provider-resize"):
        raise ConfigError(f"bad oracle spec {spec!r}: use oracle or oracle:provider-resize")
    suite_url = suite_url or lane_url(host_rules)
    if not suite_url:
        raise ConfigError("the oracle plays the offline suite only: run it with `webfovea suite "
                          "run`, or give --base-url http://127.0.0.1:PORT of `webfovea suite serve`")
    return OracleModel(suite_url, provider_resize=option == "provider-resize")

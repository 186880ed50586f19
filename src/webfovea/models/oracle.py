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

import re

import httpx

from ..core.config import Size
from ..core.errors import ConfigError, ModelError
from ..suite.oracle_core import INFO, LAYOUT, OracleCore, read_layout
from ..suite.server import CONTROL, lane_url
from ..suite.web import SuiteError
from .base import ModelReply, ModelRequest, Usage
from .tls import tls_context


class OracleModel:
    """``oracle`` (or ``oracle:provider-resize``) bound to one suite server lane.
    ``oracle:targets`` names each element it acts on (``target='the element <id>'``) for a
    grounder instead of giving its point (run it with ``--grounder oracle:grounder``)."""

    def __init__(self, suite_url: str, *, provider_resize: bool = False,
                 targets: bool = False) -> None:
        self.name = ("oracle:targets" if targets else
                     "oracle:provider-resize" if provider_resize else "oracle")
        self._base = suite_url.rstrip("/")
        self._core = OracleCore(provider_resize=provider_resize)
        self._targets = targets
        self._http = httpx.AsyncClient(timeout=15.0, verify=tls_context())

    @property
    def suite_url(self) -> str:
        return self._base

    @property
    def provider_resize(self) -> bool:
        return self._core.provider_resize

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        image = request.turns[-1].images[-1]
        try:
            if self._core.needs_info:
                self._core.learn_info((await self._get(INFO)).json())
            task = self._core.task_for(request.task)
            layout = read_layout((await self._get(LAYOUT)).content)
        except SuiteError as e:
            raise ModelError(str(e)) from e
        # The step number and the note travel as fields of the request, never read from
        # the prompt's wording, so any layout of the history plays the same.
        move = self._core.next_move(task, step=request.step, note=request.note,
                                    image=Size(image.width, image.height), layout=layout)
        return ModelReply(move.reply(targets=self._targets), Usage(calls=1), self.name)

    async def _get(self, what: str) -> httpx.Response:
        return await _suite_get(self._http, self._base, what)

    async def aclose(self) -> None:
        await self._http.aclose()


async def _suite_get(http: httpx.AsyncClient, base: str, what: str) -> httpx.Response:
    try:
        response = await http.get(f"{base}{CONTROL}{what}")
    except httpx.HTTPError as e:
        raise ModelError(f"the oracle cannot reach the suite server at {base}: {e}",
                         retryable=True) from e
    if response.status_code != 200:
        raise ModelError(f"the suite server answered {response.status_code} for {what}: "
                         f"{response.text[:200]}", retryable=response.status_code == 404)
    return response


_NAMED = re.compile(r"the element ([\w.-]+)")


class OracleGrounder:
    """``oracle:grounder``: places ``the element <id>`` (the targets oracle's descriptions)
    at the centre the suite page reports for it, in pixels of the image it received; an id
    the page does not show is answered without a point, as a grounding model that finds
    nothing would."""

    name = "oracle:grounder"

    def __init__(self, suite_url: str) -> None:
        self._base = suite_url.rstrip("/")
        self._http = httpx.AsyncClient(timeout=15.0, verify=tls_context())

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        image = request.turns[-1].images[-1]
        named = _NAMED.search(request.turns[-1].text)
        try:
            layout = read_layout((await _suite_get(self._http, self._base, LAYOUT)).content)
        except SuiteError as e:
            raise ModelError(str(e)) from e
        element = layout.get(named.group(1)) if named else None
        if element is None or not element.in_view:
            return ModelReply("I cannot find that element.", Usage(calls=1), self.name)
        x, y = element.centre
        point = (round(x * image.width / layout.viewport_w),
                 round(y * image.height / layout.viewport_h))
        return ModelReply(f"({point[0]},{point[1]})", Usage(calls=1), self.name)

    async def aclose(self) -> None:
        await self._http.aclose()


def oracle_from_spec(spec: str, suite_url: str | None,
                     host_rules: tuple[str, ...] = ()) -> OracleModel | OracleGrounder:
    """``oracle`` / ``oracle:provider-resize`` / ``oracle:targets`` / ``oracle:grounder``
    with the suite lane's URL (``--base-url``, else the lane the browser's host rules point
    at)."""
    option = spec.partition(":")[2]
    if option not in ("", "provider-resize", "targets", "grounder"):
        raise ConfigError(f"bad oracle spec {spec!r}: use oracle, oracle:provider-resize, "
                          "oracle:targets or oracle:grounder")
    suite_url = suite_url or lane_url(host_rules)
    if not suite_url:
        raise ConfigError("the oracle plays the offline suite only: run it with `webfovea suite "
                          "run`, or give --base-url http://127.0.0.1:PORT of `webfovea suite serve`")
    if option == "grounder":
        return OracleGrounder(suite_url)
    return OracleModel(suite_url, provider_resize=option == "provider-resize",
                       targets=option == "targets")

"""The grounder (``--grounder SPEC``): a second model that turns the planner's description of
an element (``target='the blue Search button'``) into one point on the current screenshot.

It is asked the way grounding models (UI-TARS, UGround, OS-Atlas) are trained: the screenshot,
resized to the grounder's own image cap, and one short instruction; one point comes back, in
the grounder's own coordinate convention (image pixels, norm1000, smart_resize). The reply is
read with the planner's care: chat-template tokens stripped (the parser's pattern), the first
point only, a box taken at its centre, a point off the image refused, never clamped. Every
failure is a :class:`Placement` with ``error`` set, for the planner's note: never a guess.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

from ..actions.geometry import ModelSpace, model_space
from ..actions.registry import Point
from ..browser.capture import downsample
from ..core.config import GrounderConfig
from ..core.errors import ConfigError, ModelError
from ..models.base import Model, ModelRequest, SentImage, Turn, Usage
from ..models.keys import named_key
from ..models.loader import load_model
from ..models.retry import RetryPolicy
from ..rundir.trajectory import UsageRecord
from .text.parse import TOKEN_PATTERN

MAX_TOKENS = 64  # one point; a grounder that writes more is cut, its first point still read
INSTRUCTION = ("Output only the coordinate of one point in your response. What element matches "
               "the following description: {description}")
_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_BRACKETED = re.compile(rf"[(\[]\s*({_NUM})\s*,\s*({_NUM})\s*(?:,\s*({_NUM})\s*,\s*({_NUM})\s*)?[)\]]")
_BARE = re.compile(rf"(?<![\w.])({_NUM})\s*,\s*({_NUM})(?![\w.])")


@dataclass
class Placement:
    """One grounder call: what was asked, what came back, where it is in the planner's space."""

    description: str
    request_bytes: int = 0  # the image as sent plus the instruction's text
    image_size: tuple[int, int] = (0, 0)  # the image the grounder got
    space: tuple[float, float] = (0.0, 0.0)  # the grounder's coordinate space for it
    raw: str = ""  # its reply text as received
    point: tuple[float, float] | None = None  # in the grounder's space, as it wrote it
    planner_point: Point | None = None  # the same place in the planner's model space
    seconds: float = 0.0
    usage: Usage = field(default_factory=Usage)
    error: str | None = None  # why no point: unparseable, off the image, unreachable

    def to_json(self) -> dict[str, object]:
        return {"description": self.description, "request_bytes": self.request_bytes,
                "image_size": list(self.image_size), "space": list(self.space),
                "raw": self.raw, "point": list(self.point) if self.point else None,
                "planner_point": ([self.planner_point.x, self.planner_point.y]
                                  if self.planner_point else None),
                "seconds": round(self.seconds, 3), "error": self.error,
                "usage": {"input_tokens": self.usage.input_tokens,
                          "output_tokens": self.usage.output_tokens,
                          "cache_read_tokens": self.usage.cache_read_tokens,
                          "calls": self.usage.calls, "retries": self.usage.retries}}


def first_point(text: str) -> tuple[float, float] | None:
    """The first point of a grounder's reply: ``(x,y)``, ``[x, y]``, a box's centre
    ``(x1,y1,x2,y2)``, or a bare ``x, y``; tokens such as ``<|box_start|>`` are stripped."""
    clean = TOKEN_PATTERN.sub(" ", text)
    match = _BRACKETED.search(clean)
    if match is None:
        bare = _BARE.search(clean)
        return None if bare is None else (float(bare.group(1)), float(bare.group(2)))
    x, y, x2, y2 = match.groups()
    if x2 is not None and y2 is not None:
        return (float(x) + float(x2)) / 2, (float(y) + float(y2)) / 2
    return float(x), float(y)


class Grounder:
    """One task's grounder client; :meth:`aclose` when the task ends."""

    def __init__(self, config: GrounderConfig, *, host_rules: tuple[str, ...] = ()) -> None:
        self.config = config
        self._host_rules = host_rules  # the browser's: where oracle:grounder finds its suite lane
        self._model: Model | None = None
        self.usage = Usage()  # every call of the task, for usage.by_role

    def _client(self) -> Model:
        if self._model is None:
            retry = RetryPolicy(max_attempts=self.config.attempts,
                                budget_seconds=self.config.timeout, max_delay=5.0)
            key = named_key(self.config.api_key_env, flag="--grounder-api-key-env")
            self._model = load_model(self.config.model, base_url=self.config.base_url,
                                     timeout=self.config.timeout, retry=retry,
                                     host_rules=self._host_rules, api_key=key)
        return self._model

    async def place(self, description: str, screenshot: SentImage, planner: ModelSpace, *,
                    time_left: float) -> Placement:
        """Where ``description`` is on ``screenshot`` (the planner's image), in the planner's
        space ``planner``; a failure is said in ``error``."""
        placement = Placement(description)
        png, size, _ = downsample(screenshot.png, self.config.image_cap)
        space = model_space(size, self.config.coords, self.config.smart_resize)
        text = INSTRUCTION.format(description=description)
        placement.image_size, placement.space = (size.width, size.height), (space.width,
                                                                             space.height)
        placement.request_bytes = len(png) + len(text.encode())
        request = ModelRequest(system="", turns=(Turn("user", text, (
            SentImage(png, size.width, size.height, "screenshot"),)),), max_tokens=MAX_TOKENS,
            task=description)
        limit = max(1.0, min(self.config.timeout, time_left))
        started = time.monotonic()
        try:
            reply = await asyncio.wait_for(self._client().complete(request, timeout=limit), limit)
        except asyncio.TimeoutError:
            placement.error = f"the grounder did not answer within {limit:g} s"
        except (ModelError, ConfigError) as e:
            placement.error = f"the grounder could not be reached: {e}"
        else:
            placement.raw, placement.usage = reply.text, reply.usage
            self.usage.add(reply.usage)
            self._read(placement, space, planner)
        placement.seconds = time.monotonic() - started
        return placement

    @staticmethod
    def _read(placement: Placement, space: ModelSpace, planner: ModelSpace) -> None:
        point = first_point(placement.raw)
        if point is None:
            placement.error = f"its reply held no point: {placement.raw[:120]!r}"
            return
        placement.point = point
        x, y = point
        if not (0 <= x <= space.width and 0 <= y <= space.height):
            placement.error = (f"its point ({x:g},{y:g}) is off its image, which is "
                               f"{space.width:g}x{space.height:g}")
            return
        # The grounder's image and the planner's show the same viewport: the same fraction
        # of each side is the same place.
        placement.planner_point = Point(round(x / space.width * planner.width, 1),
                                        round(y / space.height * planner.height, 1))

    def usage_record(self) -> UsageRecord:
        u, price = self.usage, self.config.price
        cost = None if price is None else price.cost(
            input_tokens=u.input_tokens, output_tokens=u.output_tokens,
            cache_read_tokens=u.cache_read_tokens, cache_write_tokens=u.cache_write_tokens)
        return UsageRecord(input_tokens=u.input_tokens, output_tokens=u.output_tokens,
                           cache_read_tokens=u.cache_read_tokens,
                           cache_write_tokens=u.cache_write_tokens, calls=u.calls,
                           retries=u.retries, reasoning_tokens=u.reasoning_tokens, cost=cost)

    async def aclose(self) -> None:
        if self._model is not None:
            await self._model.aclose()

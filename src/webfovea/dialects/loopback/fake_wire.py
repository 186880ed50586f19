"""The fake provider's wire primitives, shared by every route it serves.

What a decoded request looks like (:class:`FakeRequest`, :class:`FakeTurn`), what a route
answers (:class:`Response`), a scripted failure (:class:`Failure`), the image and token
helpers, the OpenAI/Anthropic error shapes, and :class:`Server`: what a route needs of the
server it runs in. The chat/messages routes live in :mod:`.fake_provider`, the native ones in
:mod:`.fake_responses` and :mod:`.fake_gemini`; they all import from here, never each other.
"""

from __future__ import annotations

import base64
import binascii
import io
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from PIL import Image, UnidentifiedImageError

from ...actions import geometry
from ...core.config import Size
from ...models.prefix_cache import Block
from .fake_tools import FakeReply, ToolResult, ToolUse

Provider = Literal["openai", "anthropic", "openai-responses", "gemini"]
ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
               404: "not_found_error", 408: "timeout_error", 409: "conflict_error",
               429: "rate_limit_error", 529: "overloaded_error"}


@dataclass(frozen=True)
class FakeTurn:
    """One decoded conversation turn: its text parts joined by newlines, and its images."""

    role: str
    text: str
    images: tuple[Image.Image, ...] = ()
    uses: tuple[ToolUse, ...] = ()  # the tool calls an assistant turn replays
    results: tuple[ToolResult, ...] = ()  # the tool results a user (or tool) turn carries


@dataclass(frozen=True)
class FakeRequest:
    """One request as the provider received it.

    ``received_sizes`` are the images' sizes on the wire; the images in ``turns``
    are what the policy sees (resized when ``resize_images_to`` applies).
    ``headers`` has lower-case names. ``blocks``: every content block in wire order
    (system first), keyed by its exact JSON (``cache_control`` aside) and sized in
    tokens, with the breakpoints the client marked: what the prompt cache sees.
    """

    provider: Provider
    model: str
    system: str
    turns: tuple[FakeTurn, ...]
    max_tokens: int | None
    received_sizes: tuple[tuple[int, int], ...]
    headers: Mapping[str, str] = field(default_factory=dict)
    blocks: tuple[Block, ...] = ()
    tools: tuple[Any, ...] = ()  # the request's tool definitions, as sent
    body: Mapping[str, Any] = field(default_factory=dict)  # the whole request body, as sent

    @property
    def results(self) -> list[ToolResult]:
        """Every tool result of the request, in order."""
        return [result for turn in self.turns for result in turn.results]

    @property
    def images(self) -> list[Image.Image]:
        """Every image of every turn, in order."""
        return [image for turn in self.turns for image in turn.images]

    @property
    def api_key(self) -> str | None:
        """The key the client sent: ``x-api-key`` or an ``Authorization: Bearer`` token
        (the Anthropic SDK 2.x sends the latter)."""
        bearer = self.headers.get("authorization", "").removeprefix("Bearer ")
        return self.headers.get("x-api-key") or bearer or None


# A policy answers with reply text, or with text and tool calls (a FakeReply).
Policy = Callable[[FakeRequest], "str | FakeReply"]


class BadRequest(Exception):
    """A request body the fake cannot decode; answered with HTTP 400."""


@dataclass(frozen=True)
class Failure:
    """A scripted failure (``fail_next``): its status, Retry-After header and body."""

    status: int
    retry_after: str | None
    body: str | Mapping[str, object] | bytes | None


@dataclass(frozen=True)
class Response:
    """What a route answers: the server sends it as JSON (bytes as they are)."""

    status: int
    payload: Mapping[str, object] | bytes  # bytes: sent as they are (malformed replies)
    headers: Mapping[str, str] = field(default_factory=dict)


class Server(Protocol):
    """What a route needs of the fake provider it runs in."""

    policy: Policy
    api_key: str | None
    models: Collection[str] | None
    resize_images_to: tuple[int, int] | None
    cache_min_tokens: int

    def admit(self, request: FakeRequest) -> tuple[int, Failure | None]:
        """Record a decoded request and wait out its stall: its number and scripted failure."""

    def checked(self, request: FakeRequest, failure: Failure | None) -> Response | None:
        """The refusal a hosted API would answer with (failure, key, model), if any."""


# -- images and tokens ------------------------------------------------------------------------


def open_image(data: str) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(base64.b64decode(data, validate=True)))
        image.load()
    except (binascii.Error, UnidentifiedImageError, OSError) as error:
        raise BadRequest(f"image data is not a valid base64 image: {error}") from error
    return image


def fit_within(image: Image.Image, box: tuple[int, int]) -> Image.Image:
    """The image shrunk to fit ``box`` with its aspect kept; unchanged when it fits."""
    size, target = Size(*image.size), geometry.fit_within(Size(*image.size), Size(*box))
    if target == size:
        return image
    return image.resize((target.width, target.height), Image.Resampling.LANCZOS)


def count_text_tokens(text: str) -> int:
    """A rough, deterministic token count: whitespace-separated words."""
    return len(text.split())


def image_tokens(width: int, height: int) -> int:
    """Anthropic's documented estimate for an image: width*height/750."""
    return math.ceil(width * height / 750)


# -- errors -----------------------------------------------------------------------------------


def error_response(provider: Provider, status: int, message: str,
                   headers: Mapping[str, str] | None = None) -> Response:
    """An error in OpenAI's shape (``provider="openai"``) or Anthropic's (any other)."""
    kind = ERROR_TYPES.get(status, "api_error")
    payload: dict[str, object]
    if provider == "openai":
        payload = {"error": {"message": message, "type": kind, "param": None, "code": None}}
    else:
        payload = {"type": "error", "error": {"type": kind, "message": message}}
    return Response(status, payload, headers or {})


def injected(provider: Provider, failure: Failure) -> Response:
    """A scripted failure as ``provider`` would send it (a raw body goes out as it is)."""
    headers = {} if failure.retry_after is None else {"Retry-After": failure.retry_after}
    if isinstance(failure.body, bytes | Mapping):
        return Response(failure.status, failure.body, headers)
    message = failure.body or f"injected HTTP {failure.status}"
    return error_response(provider, failure.status, message, headers)

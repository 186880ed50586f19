"""The fake provider's routes for native computer-use protocols, by request path."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from . import fake_gemini, fake_responses
from .fake_wire import Response, Server

Route = Callable[[Server, str, Mapping[str, str], bytes], Response]


def native_route(path: str) -> Route | None:
    bare = path.split("?", 1)[0]
    if bare == fake_responses.PATH:
        return fake_responses.answer
    if fake_gemini.GEMINI_PATH.match(bare):
        return fake_gemini.answer
    return None

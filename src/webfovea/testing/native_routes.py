"""The fake provider's routes for native computer-use protocols, by request path."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .fake_provider import FakeProvider, _Response

Route = Callable[["FakeProvider", str, Mapping[str, str], bytes], "_Response"]
GEMINI_PATH = re.compile(r"^/v1(?:beta)?/models/(?P<model>[^/:]+):generateContent$")


def native_route(path: str) -> Route | None:
    bare = path.split("?", 1)[0]
    if bare == "/v1/responses":
        from .fake_responses import answer

        return answer
    if GEMINI_PATH.match(bare):
        from .fake_gemini import answer as gemini

        return gemini
    return None

"""Reading a provider's HTTP 200 body ourselves, so a malformed one is a provider fault.

An endpoint behind a proxy or a half-broken gateway can answer 200 with an HTML
page, a JSON array, invalid or non-UTF-8 bytes, or ``{"error": ...}``. Each of
these becomes a retryable :class:`ModelError` quoting (trimmed, key scrubbed)
what was sent, so the retry policy handles it like any other provider fault and
a persisting one ends the task as ``model_error``.
"""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from webfovea.core.errors import ModelError
from webfovea.models.retry import Endpoint

SHOWN = 300  # characters of a bad body quoted in the error
M = TypeVar("M", bound=BaseModel)


def scrub(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of the configured key replaced."""
    if secret and len(secret) >= 8:
        return text.replace(secret, "[API key]")
    return text


def quote(body: bytes | str, secret: str | None) -> str:
    """The start of a body for an error message: decoded leniently, one line, scrubbed."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    text = scrub(" ".join(text.split()), secret)
    return text[:SHOWN] + (" …" if len(text) > SHOWN else "")


def parse_body(endpoint: Endpoint, body: bytes, model: type[M]) -> M:
    """The 200 body as ``model`` (a provider SDK type); a retryable ModelError otherwise."""
    try:
        value = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise malformed(endpoint, "bytes that are not UTF-8", body) from None
    except json.JSONDecodeError:
        raise malformed(endpoint, "a body that is not JSON", body) from None
    if not isinstance(value, dict):
        raise malformed(endpoint, f"a JSON {type(value).__name__} instead of an object", body)
    if "error" in value:
        raise malformed(endpoint, "an error object", body)
    try:
        return model.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise malformed(endpoint, f"JSON without a valid {where}", body) from None


def malformed(endpoint: Endpoint, what: str, body: bytes | str) -> ModelError:
    return ModelError(f"{endpoint.label()} answered HTTP 200 with {what}: "
                      f"{quote(body, endpoint.secret)!r}", retryable=True, status_code=200)

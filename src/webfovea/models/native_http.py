"""One JSON POST to a native computer-use API over httpx, with the shared retry policy.

The OpenAI Responses and Gemini dialects speak plain HTTP (no vendor SDK to import: the
Gemini SDK alone is larger than webfovea), so errors are translated here, once: HTTP status
→ :func:`~webfovea.models.retry.status_error`, timeouts and refused connections →
:func:`~webfovea.models.retry.transport_error`, a 200 that is not a JSON object → a
retryable malformed-reply error, like every other client.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import httpx

from ..core.errors import ConfigError, ModelError
from .base import Model, Usage
from .retry import (
    Endpoint,
    RetryPolicy,
    call_with_retry,
    parse_retry_after,
    status_error,
    transport_error,
)
from .tls import tls_context
from .wire import malformed


class NativeClient:
    """POSTs JSON bodies to one endpoint; ``aclose`` when the task ends."""

    def __init__(self, endpoint: Endpoint, *, headers: Mapping[str, str], timeout: float = 120.0,
                 retry: RetryPolicy | None = None) -> None:
        self.endpoint = endpoint
        self._timeout = timeout
        self._retry = retry or RetryPolicy()
        self._http = httpx.AsyncClient(headers=dict(headers), timeout=timeout,
                                       verify=tls_context())

    async def post(self, url: str, body: Mapping[str, Any], *, timeout: float,
                   usage: Usage) -> dict[str, Any]:
        """The JSON object the endpoint answered (calls and retries counted in ``usage``)."""
        payload = json.dumps(body).encode("utf-8")

        async def attempt(seconds: float) -> dict[str, Any]:
            return await self._once(url, payload, seconds)

        return await call_with_retry(attempt, endpoint=self.endpoint, policy=self._retry,
                                     timeout=timeout, call_timeout=self._timeout, usage=usage)

    async def exchange(self, url: str, body: Mapping[str, Any], *,
                       timeout: float) -> tuple[dict[str, Any], Usage, float]:
        """One step's :meth:`post`: the reply, its own usage record and the seconds the model
        took (retries included)."""
        usage = Usage()
        started = time.monotonic()
        reply = await self.post(url, body, timeout=timeout, usage=usage)
        return reply, usage, time.monotonic() - started

    async def _once(self, url: str, payload: bytes, seconds: float) -> dict[str, Any]:
        try:
            response = await self._http.post(url, content=payload, timeout=seconds,
                                             headers={"content-type": "application/json"})
        except httpx.TimeoutException:
            raise transport_error(self.endpoint, "timeout") from None
        except httpx.HTTPError as error:
            raise transport_error(self.endpoint, "connection", str(error), cause=error) from None
        if response.status_code != 200:
            raise status_error(self.endpoint, response.status_code, _detail(response),
                               parse_retry_after(response.headers))
        try:
            value = json.loads(response.content.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise malformed(self.endpoint, "a body that is not JSON", response.content) from None
        if not isinstance(value, dict):
            raise malformed(self.endpoint, "a JSON value that is not an object", response.content)
        return value

    async def aclose(self) -> None:
        await self._http.aclose()


def _detail(response: httpx.Response) -> str:
    """The provider's own error message: ``{"error": {"message"}}`` in both APIs."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:500]
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])
    return response.text.strip()[:500]


def endpoint_of(model: Model, kind: str, dialect: str) -> Endpoint:
    """Where the run's model client talks (base URL and key), which the dialect reuses."""
    endpoint = getattr(model, "endpoint", None)
    if not isinstance(endpoint, Endpoint) or not model.name.startswith(f"{kind}:"):
        raise ConfigError(f"--dialect {dialect} speaks to {kind}:<model> models, not "
                          f"{model.name!r}")
    return endpoint


def shape_error(endpoint: Endpoint, what: str, body: Mapping[str, Any]) -> ModelError:
    """A 200 whose JSON lacks what the protocol promises: retryable, like a malformed one."""
    return malformed(endpoint, what, json.dumps(body)[:2000])

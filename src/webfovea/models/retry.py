"""The one retry policy shared by every provider client.

Provider clients translate their SDK's exceptions into :class:`ModelError` (with
``retryable``, ``status_code`` and ``retry_after`` filled in) using
:func:`status_error` and :func:`transport_error`; :func:`call_with_retry` then
decides whether to try again. The SDKs' own retries are switched off so there is
exactly one place that waits, counts and respects the caller's deadline.
"""

from __future__ import annotations

import asyncio
import random
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Literal, TypeVar

from webfovea.core.errors import ConfigError, ModelError
from webfovea.models.base import Usage

T = TypeVar("T")

# 403 is retried because gateways (OpenRouter, Cloudflare in front of vLLM) use it
# for transient blocks; a real permission problem still ends after the last attempt.
RETRYABLE_STATUS = frozenset({403, 408, 409, 429})


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter, bounded by attempts and total time."""

    max_attempts: int = 6
    budget_seconds: float = 240.0
    base_delay: float = 1.0
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ConfigError(f"max_attempts must be at least 1, got {self.max_attempts}")
        if min(self.budget_seconds, self.base_delay, self.max_delay) <= 0:
            raise ConfigError("budget_seconds, base_delay and max_delay must be positive")

    def backoff(self, retry_index: int) -> float:
        """Seconds to wait before retry number ``retry_index + 1`` (full jitter)."""
        ceiling = min(self.max_delay, self.base_delay * 2**retry_index)
        return random.uniform(0.0, ceiling)


@dataclass(frozen=True)
class Endpoint:
    """What a client talks to, so every error message can say what to fix."""

    provider: str
    model: str
    base_url: str
    key_var: str
    secret: str | None = field(default=None, repr=False)  # the key, to scrub from messages

    def label(self) -> str:
        return f"{self.provider} model '{self.model}' at {self.base_url}"


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds the provider asked us to wait: ``retry-after-ms``, or ``Retry-After``
    as seconds or an HTTP date. None when absent or unreadable."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def status_error(endpoint: Endpoint, status: int, detail: str,
                 retry_after: float | None = None) -> ModelError:
    """The ModelError for an HTTP error status, worded to say what to fix."""
    if endpoint.secret and len(endpoint.secret) >= 8:
        detail = detail.replace(endpoint.secret, "[API key]")
    said = f" Provider said: {detail}" if detail else ""
    if status == 401:
        message = (f"{endpoint.label()} rejected the API key (HTTP 401): "
                   f"check {endpoint.key_var}.{said}")
    elif status == 404:
        message = (f"{endpoint.label()} answered HTTP 404: check the model name "
                   f"'{endpoint.model}' and the base URL {endpoint.base_url}.{said}")
    elif status == 400:
        message = f"{endpoint.label()} rejected the request (HTTP 400): {detail or 'no detail'}"
    else:
        message = f"{endpoint.label()} answered HTTP {status}.{said}"
    return ModelError(message, retryable=is_retryable_status(status), status_code=status,
                      retry_after=retry_after)


def transport_error(endpoint: Endpoint, kind: Literal["timeout", "connection"],
                    detail: str = "", *, cause: BaseException | None = None) -> ModelError:
    """The ModelError for a timeout or a connection that failed: retryable, except when
    ``cause`` is a certificate this machine does not trust, which no retry changes."""
    suffix = f": {detail}" if detail else ""
    if cause is not None and untrusted_certificate(cause):
        return ModelError(f"{endpoint.label()} could not be reached: {CERTIFICATE_HINT}{suffix}",
                          retryable=False)
    what = "did not answer in time" if kind == "timeout" else "could not be reached"
    return ModelError(f"{endpoint.label()} {what}{suffix}", retryable=True)


CERTIFICATE_HINT = ("its certificate is not trusted (signed by your own CA? set SSL_CERT_FILE "
                    "to that CA's certificate bundle)")


def untrusted_certificate(error: BaseException) -> bool:
    """Whether ``error``, or an error it was raised from, is a failed certificate check."""
    seen: BaseException | None = error
    for _ in range(10):  # SDKs wrap the ssl error a few levels deep
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLCertVerificationError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


async def call_with_retry(attempt: Callable[[float], Awaitable[T]], *, endpoint: Endpoint,
                          policy: RetryPolicy, timeout: float, call_timeout: float,
                          usage: Usage) -> T:
    """Run ``attempt(seconds)`` until it succeeds, retrying retryable ModelErrors.

    ``timeout`` is the caller's remaining wall time: no attempt runs and no wait
    ends past it. Each attempt gets ``min(remaining, call_timeout)`` seconds and is
    cancelled when they run out. Attempts and retries are counted in ``usage``.
    """
    start = time.monotonic()
    deadline = start + min(timeout, policy.budget_seconds)
    last = ModelError(f"{endpoint.label()}: no time left for a call", retryable=True)
    for index in range(policy.max_attempts):
        if index:
            await asyncio.sleep(_wait_before_retry(last, policy, index, start, deadline))
            usage.retries += 1
        seconds = min(deadline - time.monotonic(), call_timeout)
        if seconds <= 0:
            raise _gave_up(last, index, start, "deadline reached")
        usage.calls += 1
        try:
            return await asyncio.wait_for(attempt(seconds), seconds)
        except asyncio.TimeoutError:
            last = transport_error(endpoint, "timeout", f"no reply within {seconds:.1f} s")
        except ModelError as error:
            if not error.retryable:
                raise
            last = error
    raise _gave_up(last, policy.max_attempts, start, "retry limit reached")


def _wait_before_retry(last: ModelError, policy: RetryPolicy, index: int, start: float,
                       deadline: float) -> float:
    """Seconds to wait before attempt ``index + 1``: the provider's Retry-After, else
    backoff; raises instead when the wait would end past the deadline."""
    wait = last.retry_after if last.retry_after is not None else policy.backoff(index - 1)
    now = time.monotonic()
    if now >= deadline:
        raise _gave_up(last, index, start, "deadline reached")
    if now + wait >= deadline:
        raise _gave_up(last, index, start, f"waiting {wait:.1f} s more would pass the deadline")
    return wait


def _gave_up(last: ModelError, attempts: int, start: float, reason: str) -> ModelError:
    elapsed = time.monotonic() - start
    return ModelError(f"model call failed after {attempts} attempt(s) in {elapsed:.1f} s "
                      f"({reason}); last error: {last}", retryable=False,
                      status_code=last.status_code)

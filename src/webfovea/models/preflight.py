"""One cheap look at the endpoint before any browser starts (``run``, ``bench``,
``webfovea check``): the models listing (``GET …/models``, no tokens spent).

Each mistake a new user makes is named with what to fix, and with ``--no-preflight``, the
flag that skips the check: an OpenAI-compatible base URL missing its ``/v1`` (or carrying
it twice), an Anthropic base URL carrying the ``/v1`` the SDK adds itself, a rejected key,
a model name the endpoint does not serve (listing the ones it does). The check never
blocks an endpoint that would work: a server that does not list its models (404 or 405
outside those URL mistakes, or any other answer) is noted and the run goes on.

An endpoint that cannot be reached (refused, no such host, no answer) is retried under the
model calls' own :class:`RetryPolicy`, so a server still starting or a blip is waited out;
when it stays unreachable the check raises :class:`ModelError` (``run`` exits 3).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from webfovea.core.errors import ConfigError, ModelError
from webfovea.models.base import Usage
from webfovea.models.retry import (
    CERTIFICATE_HINT,
    Endpoint,
    RetryPolicy,
    call_with_retry,
    transport_error,
    untrusted_certificate,
)
from webfovea.models.tls import tls_context

TIMEOUT = 10.0  # one listing request; the retry policy bounds the whole check
SHOWN_MODELS = 12
SKIP = "--no-preflight skips this check"


@dataclass(frozen=True)
class Target:
    kind: str  # "openai" | "anthropic"
    model: str
    base_url: str
    key: str | None
    key_var: str

    def headers(self) -> dict[str, str]:
        if not self.key:
            return {}
        if self.kind == "anthropic":
            return {"x-api-key": self.key, "anthropic-version": "2023-06-01"}
        return {"Authorization": f"Bearer {self.key}"}

    def endpoint(self) -> Endpoint:
        return Endpoint(self.kind, self.model, self.base_url, self.key_var, self.key)


@dataclass(frozen=True)
class Checked:
    """What the check found, in one line. ``complete`` is False when the endpoint answered
    but the model name could not be checked (the line then says why, for the terminal)."""

    said: str
    complete: bool = True


def check_base_url(url: str, flag: str = "--base-url") -> str:
    """``url`` when it is a usable http(s) URL; ConfigError naming what is wrong."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError when out of range or not a number
    except ValueError as error:
        raise ConfigError(f"{flag} {url!r} is not a valid URL: {error}") from None
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"{flag} must start with http:// or https://, got {url!r}")
    if not parts.hostname:
        raise ConfigError(f"{flag} {url!r} has no host name")
    del port
    return url


def target(spec: str, base_url: str | None) -> Target | None:
    """What to check for a model spec; None for models without an endpoint (scripted, oracle)."""
    kind, _, name = spec.partition(":")
    if kind == "openai":
        from webfovea.models.openai_compat import BASE_URL_VAR, DEFAULT_BASE_URL, KEY_VAR
    elif kind == "anthropic":
        from webfovea.models.anthropic import BASE_URL_VAR, DEFAULT_BASE_URL, KEY_VAR
    else:
        return None
    url = base_url or os.environ.get(BASE_URL_VAR) or DEFAULT_BASE_URL
    return Target(kind, name, check_base_url(url).rstrip("/"), os.environ.get(KEY_VAR) or None,
                  KEY_VAR)


async def preflight(spec: str, base_url: str | None, *, policy: RetryPolicy | None = None,
                    time_limit: float = 240.0) -> Checked | None:
    """The check of ``spec``'s endpoint (None for models without one). ConfigError saying
    what to fix (and naming --no-preflight) for a mistake; ModelError when the endpoint
    stays unreachable through the retries, which end within ``time_limit`` seconds."""
    t = target(spec, base_url)
    if t is None:
        return None
    async with httpx.AsyncClient(headers=t.headers(), verify=tls_context()) as http:
        listing = _listing_url(t)
        response = await _get(http, t, listing, policy or RetryPolicy(), time_limit)
        if response.status_code in (401, 403):
            raise ConfigError(f"{t.base_url} rejected the API key (HTTP {response.status_code}): "
                              f"check {t.key_var} ({SKIP})")
        if response.status_code == 404:
            mistake = await _url_mistake(http, t)
            if mistake:
                raise ConfigError(f"{mistake} ({SKIP})")
        if response.status_code != 200:
            return Checked(f"{listing} answered HTTP {response.status_code}, so the model name "
                           f"{t.model!r} could not be checked; going on", complete=False)
        served = _served(response)
    if served and t.model not in served:
        shown = ", ".join(served[:SHOWN_MODELS]) + (" …" if len(served) > SHOWN_MODELS else "")
        raise ConfigError(f"model {t.model!r} is not served at {t.base_url}; it serves: {shown} "
                          f"({SKIP})")
    return Checked(f"{spec}: {t.base_url} answers" + (f" and serves {t.model}" if served else ""))


def _listing_url(t: Target) -> str:
    # The Anthropic SDK appends /v1/... to its base URL; OpenAI's base URL ends in /v1.
    return f"{t.base_url}/v1/models" if t.kind == "anthropic" else f"{t.base_url}/models"


async def _get(http: httpx.AsyncClient, t: Target, url: str, policy: RetryPolicy,
               time_limit: float) -> httpx.Response:
    """The listing's response, retried like a model call while the endpoint cannot be
    reached; ModelError with what was tried when it stays unreachable."""
    endpoint, usage, start = t.endpoint(), Usage(), time.monotonic()
    last = ""

    async def attempt(seconds: float) -> httpx.Response:
        nonlocal last
        last = f"no answer within {seconds:.1f} s"  # what stays when the attempt times out
        try:
            return await http.get(url, timeout=seconds)
        except httpx.TimeoutException:
            raise transport_error(endpoint, "timeout", last) from None
        except httpx.HTTPError as error:
            last = f"{type(error).__name__}: {error}"
            if untrusted_certificate(error):
                raise ConfigError(f"{t.base_url}: {CERTIFICATE_HINT}; {last} ({SKIP})") from None
            raise transport_error(endpoint, "connection", last) from None

    try:
        return await call_with_retry(attempt, endpoint=endpoint, policy=policy,
                                     timeout=time_limit, call_timeout=TIMEOUT, usage=usage)
    except ModelError:
        raise ModelError(f"cannot reach {t.base_url} after {usage.calls} attempt(s) in "
                         f"{time.monotonic() - start:.1f} s ({last}): is the server running, "
                         "and is --base-url right?") from None


async def _url_mistake(http: httpx.AsyncClient, t: Target) -> str | None:
    """Which known /v1 mistake a 404 on the listing is, if it is one."""
    path = urlsplit(t.base_url).path.rstrip("/")
    if t.kind == "anthropic" and path.endswith("/v1"):
        fixed = t.base_url[: -len("/v1")]
        return (f"--base-url {t.base_url} ends in /v1, which the Anthropic SDK adds itself "
                f"(it would call {t.base_url}/v1/messages): use {fixed}")
    if t.kind == "openai" and path.endswith("/v1/v1"):
        return f"--base-url {t.base_url} has /v1 twice: use {t.base_url[: -len('/v1')]}"
    if t.kind == "openai" and not path.endswith("/v1"):
        probe = await _quiet_get(http, f"{t.base_url}/v1/models")
        if probe is not None and probe.status_code == 200:
            return (f"--base-url {t.base_url} is missing /v1 (OpenAI-compatible servers serve "
                    f"under it): use {t.base_url}/v1")
    return None


async def _quiet_get(http: httpx.AsyncClient, url: str) -> httpx.Response | None:
    try:
        return await http.get(url, timeout=TIMEOUT)
    except httpx.HTTPError:
        return None


def _served(response: httpx.Response) -> list[str]:
    """Model ids in a listing; empty when the body is not one (then nothing is checked)."""
    try:
        data = response.json().get("data")
    except (ValueError, AttributeError):
        return []
    if not isinstance(data, list):
        return []
    return [str(m["id"]) for m in data if isinstance(m, dict) and "id" in m]

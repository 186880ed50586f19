"""One cheap look at the endpoint before any browser starts (``run``, ``bench``,
``webfovea check``): the models listing (``GET …/models``, no tokens spent).

Each mistake a new user makes is named with what to fix: an OpenAI-compatible base
URL missing its ``/v1`` (or carrying it twice), an Anthropic base URL carrying the
``/v1`` the SDK adds itself, an endpoint that cannot be reached, a rejected key, a
model name the endpoint does not serve (listing the ones it does).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from webfovea.errors import ConfigError
from webfovea.models.wire import scrub

TIMEOUT = 10.0
SHOWN_MODELS = 12


@dataclass(frozen=True)
class Target:
    kind: str  # "openai" | "anthropic"
    model: str
    base_url: str
    key: str | None

    def headers(self) -> dict[str, str]:
        if not self.key:
            return {}
        if self.kind == "anthropic":
            return {"x-api-key": self.key, "anthropic-version": "2023-06-01"}
        return {"Authorization": f"Bearer {self.key}"}


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
    return Target(kind, name, check_base_url(url).rstrip("/"), os.environ.get(KEY_VAR) or None)


def preflight(spec: str, base_url: str | None) -> str:
    """A one-line account of the check ("" for models without an endpoint); ConfigError
    saying what to fix when it fails."""
    t = target(spec, base_url)
    if t is None:
        return ""
    with httpx.Client(timeout=TIMEOUT, headers=t.headers()) as http:
        listing = _listing_url(t)
        response = _get(http, t, listing)
        if response.status_code == 404:
            raise ConfigError(_not_found(http, t, listing))
        if response.status_code in (401, 403):
            raise ConfigError(f"{t.base_url} rejected the API key (HTTP {response.status_code}): "
                              f"check {'ANTHROPIC' if t.kind == 'anthropic' else 'OPENAI'}_API_KEY")
        if response.status_code != 200:
            raise ConfigError(f"{listing} answered HTTP {response.status_code}: "
                              f"{scrub(response.text[:200], t.key)}")
        served = _served(response)
    if served and t.model not in served:
        shown = ", ".join(served[:SHOWN_MODELS]) + (" …" if len(served) > SHOWN_MODELS else "")
        raise ConfigError(f"model {t.model!r} is not served at {t.base_url}; it serves: {shown}")
    return f"{spec}: {t.base_url} answers" + (f" and serves {t.model}" if served else "")


def _listing_url(t: Target) -> str:
    # The Anthropic SDK appends /v1/... to its base URL; OpenAI's base URL ends in /v1.
    return f"{t.base_url}/v1/models" if t.kind == "anthropic" else f"{t.base_url}/models"


def _get(http: httpx.Client, t: Target, url: str) -> httpx.Response:
    try:
        return http.get(url)
    except httpx.HTTPError as error:
        raise ConfigError(f"cannot reach {t.base_url} ({type(error).__name__}: {error}): is the "
                          "server running, and is --base-url right?") from None


def _not_found(http: httpx.Client, t: Target, listing: str) -> str:
    """The message for a 404 on the listing: which /v1 mistake it is, when it is one."""
    path = urlsplit(t.base_url).path.rstrip("/")
    if t.kind == "anthropic" and path.endswith("/v1"):
        fixed = t.base_url[: -len("/v1")]
        return (f"--base-url {t.base_url} ends in /v1, which the Anthropic SDK adds itself "
                f"(it would call {t.base_url}/v1/messages): use {fixed}")
    if t.kind == "openai" and path.endswith("/v1/v1"):
        return f"--base-url {t.base_url} has /v1 twice: use {t.base_url[: -len('/v1')]}"
    if t.kind == "openai" and not path.endswith("/v1"):
        probe = _quiet_get(http, f"{t.base_url}/v1/models")
        if probe is not None and probe.status_code == 200:
            return (f"--base-url {t.base_url} is missing /v1 (OpenAI-compatible servers serve "
                    f"under it): use {t.base_url}/v1")
    return f"{listing} answered HTTP 404: check --base-url {t.base_url}"


def _quiet_get(http: httpx.Client, url: str) -> httpx.Response | None:
    try:
        return http.get(url)
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

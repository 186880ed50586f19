"""``anthropic:<model>``: the Anthropic Messages API, spoken natively (system
parameter, image blocks with a base64 source, ``cache_control`` breakpoints on
the stable prefix the request marks)."""

from __future__ import annotations

import base64
import os
from typing import Any

import anthropic
from anthropic.types import Message, TextBlock

from webfovea.core.errors import ConfigError, ModelError
from webfovea.models.base import ModelReply, ModelRequest, Turn, Usage
from webfovea.models.keys import KEY_VARS
from webfovea.models.retry import (
    Endpoint,
    RetryPolicy,
    call_with_retry,
    parse_retry_after,
    status_error,
    transport_error,
)
from webfovea.models.sent import breakpoint_turns
from webfovea.models.tls import tls_context
from webfovea.models.wire import parse_body

KEY_VAR = KEY_VARS["anthropic"][0]
BASE_URL_VAR = "ANTHROPIC_BASE_URL"
DEFAULT_BASE_URL = "https://api.anthropic.com"
# Proxies and local gateways speaking the Messages API often need no key.
PLACEHOLDER_KEY = "EMPTY"
CACHE = {"type": "ephemeral"}

Block = dict[str, Any]


class AnthropicModel:
    """A :class:`~webfovea.models.base.Model` speaking the Anthropic Messages API."""

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 timeout: float = 120.0, retry: RetryPolicy | None = None) -> None:
        resolved_url = base_url or os.environ.get(BASE_URL_VAR) or None
        key = api_key or os.environ.get(KEY_VAR) or None
        if key is None and resolved_url is None:
            raise ConfigError(f"{KEY_VAR} is not set: export it for {DEFAULT_BASE_URL}, or pass "
                              f"--base-url (or set {BASE_URL_VAR}) for a compatible gateway")
        self.name = f"anthropic:{model}"
        self._model = model
        self._timeout = timeout
        self._retry = retry or RetryPolicy()
        self._endpoint = Endpoint("Anthropic", model, resolved_url or DEFAULT_BASE_URL, KEY_VAR,
                                  key)
        # An explicit key keeps the SDK from reading credential profiles from disk.
        self._client = anthropic.AsyncAnthropic(api_key=key or PLACEHOLDER_KEY,
                                                base_url=resolved_url or DEFAULT_BASE_URL,
                                                max_retries=0, timeout=timeout,
                                                http_client=anthropic.DefaultAsyncHttpxClient(
                                                    verify=tls_context()))

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        message, usage = await self.send(to_body(self._model, request), timeout=timeout)
        text = "".join(block.text for block in message.content if isinstance(block, TextBlock))
        return ModelReply(text=text, usage=usage, model=message.model)

    async def send(self, body: dict[str, Any], *, timeout: float,
                   betas: tuple[str, ...] = ()) -> tuple[Message, Usage]:
        """One Messages-API call with the shared retry policy: ``body`` as a native dialect
        built it (``model`` is filled in), ``betas`` as the ``anthropic-beta`` header."""
        body = {"model": self._model, **body}
        headers = {"anthropic-beta": ",".join(betas)} if betas else {}
        usage = Usage()

        async def attempt(seconds: float) -> Message:
            return await self._create(body, seconds, headers)

        message = await call_with_retry(attempt, endpoint=self._endpoint, policy=self._retry,
                                        timeout=timeout, call_timeout=self._timeout, usage=usage)
        usage.input_tokens = message.usage.input_tokens
        usage.output_tokens = message.usage.output_tokens
        usage.cache_read_tokens = message.usage.cache_read_input_tokens or 0
        usage.cache_write_tokens = message.usage.cache_creation_input_tokens or 0
        return message, usage

    async def _create(self, body: dict[str, Any], seconds: float,
                      headers: dict[str, str] | None = None) -> Message:
        try:
            raw = await self._client.messages.with_raw_response.create(
                **body, timeout=seconds, extra_headers=headers or None)
        except anthropic.AnthropicError as error:
            raise translate_error(error, self._endpoint) from error
        # Parsed here, not by the SDK, so a malformed 200 is a retryable provider fault.
        return parse_body(self._endpoint, raw.http_response.content, Message)

    async def aclose(self) -> None:
        await self._client.close()


def translate_error(error: anthropic.AnthropicError, endpoint: Endpoint) -> ModelError:
    """The one place an Anthropic SDK exception becomes a ModelError."""
    if isinstance(error, anthropic.APITimeoutError):
        return transport_error(endpoint, "timeout")
    if isinstance(error, anthropic.APIConnectionError):
        return transport_error(endpoint, "connection", str(error.__cause__ or error),
                               cause=error)
    if isinstance(error, anthropic.APIStatusError):
        return status_error(endpoint, error.status_code, error.api_message or error.message,
                            parse_retry_after(error.response.headers))
    return ModelError(f"{endpoint.label()}: {type(error).__name__}: {error}")


def to_body(model: str, request: ModelRequest) -> dict[str, Any]:
    """The Messages API body: system text (with a breakpoint when the request marks it),
    one message per turn, sampling from the profile."""
    body: dict[str, Any] = {"model": model, "max_tokens": request.max_tokens,
                            "messages": to_messages(request), **request.sampling}
    if request.system:
        block: Block = {"type": "text", "text": request.system}
        if request.cache_system:
            block["cache_control"] = CACHE
        body["system"] = [block]
    return body


def to_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """One Messages-API message per turn; the system text travels separately. Turns the
    request marks get a breakpoint on their last block, the latest ones first when the
    marks (with the system's) exceed the API's limit."""
    keep = breakpoint_turns(request)
    return [_message(turn, i in keep) for i, turn in enumerate(request.turns)]


def _message(turn: Turn, breakpoint: bool) -> dict[str, Any]:
    if turn.role == "assistant" and turn.images:
        raise ModelError("an assistant turn cannot carry images in the Messages API")
    blocks: list[Block] = []
    if turn.text:
        blocks.append({"type": "text", "text": turn.text})
    for image in turn.images:
        if image.label:
            blocks.append({"type": "text", "text": image.label})
        blocks.append({"type": "image", "source": {
            "type": "base64", "media_type": "image/png",
            "data": base64.b64encode(image.png).decode("ascii")}})
    if breakpoint and blocks:
        blocks[-1] = {**blocks[-1], "cache_control": CACHE}
    return {"role": turn.role, "content": blocks}

"""``anthropic:<model>``: the Anthropic Messages API, spoken natively (system
parameter, image blocks with a base64 source)."""

from __future__ import annotations

import base64
import os

import anthropic
from anthropic.types import ImageBlockParam, Message, MessageParam, TextBlock, TextBlockParam

from webfovea.errors import ConfigError, ModelError
from webfovea.models.base import ModelReply, ModelRequest, Turn, Usage
from webfovea.models.retry import (
    Endpoint,
    RetryPolicy,
    call_with_retry,
    parse_retry_after,
    status_error,
    transport_error,
)

KEY_VAR = "ANTHROPIC_API_KEY"
BASE_URL_VAR = "ANTHROPIC_BASE_URL"
DEFAULT_BASE_URL = "https://api.anthropic.com"
# Proxies and local gateways speaking the Messages API often need no key.
PLACEHOLDER_KEY = "EMPTY"

Block = TextBlockParam | ImageBlockParam


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
        self._endpoint = Endpoint("Anthropic", model, resolved_url or DEFAULT_BASE_URL, KEY_VAR)
        # An explicit key keeps the SDK from reading credential profiles from disk.
        self._client = anthropic.AsyncAnthropic(api_key=key or PLACEHOLDER_KEY,
                                                base_url=resolved_url or DEFAULT_BASE_URL,
                                                max_retries=0, timeout=timeout)

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        messages = to_messages(request)
        usage = Usage()

        async def attempt(seconds: float) -> Message:
            return await self._create(request, messages, seconds)

        message = await call_with_retry(attempt, endpoint=self._endpoint, policy=self._retry,
                                        timeout=timeout, call_timeout=self._timeout, usage=usage)
        usage.input_tokens = message.usage.input_tokens
        usage.output_tokens = message.usage.output_tokens
        text = "".join(block.text for block in message.content if isinstance(block, TextBlock))
        return ModelReply(text=text, usage=usage, model=message.model)

    async def _create(self, request: ModelRequest, messages: list[MessageParam],
                      seconds: float) -> Message:
        try:
            if request.system:
                return await self._client.messages.create(
                    model=self._model, max_tokens=request.max_tokens, system=request.system,
                    messages=messages, timeout=seconds)
            return await self._client.messages.create(
                model=self._model, max_tokens=request.max_tokens, messages=messages,
                timeout=seconds)
        except anthropic.AnthropicError as error:
            raise translate_error(error, self._endpoint) from error

    async def aclose(self) -> None:
        await self._client.close()


def translate_error(error: anthropic.AnthropicError, endpoint: Endpoint) -> ModelError:
    """The one place an Anthropic SDK exception becomes a ModelError."""
    if isinstance(error, anthropic.APITimeoutError):
        return transport_error(endpoint, "timeout")
    if isinstance(error, anthropic.APIConnectionError):
        return transport_error(endpoint, "connection", str(error.__cause__ or error))
    if isinstance(error, anthropic.APIStatusError):
        return status_error(endpoint, error.status_code, error.api_message or error.message,
                            parse_retry_after(error.response.headers))
    return ModelError(f"{endpoint.label()}: {type(error).__name__}: {error}")


def to_messages(request: ModelRequest) -> list[MessageParam]:
    """One Messages-API message per turn; the system text travels separately."""
    return [_message(turn) for turn in request.turns]


def _message(turn: Turn) -> MessageParam:
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
    if turn.role == "assistant":
        return {"role": "assistant", "content": blocks}
    return {"role": "user", "content": blocks}

"""``openai:<model>``: OpenAI chat completions, for OpenAI and every compatible server
(vLLM, SGLang, Ollama, OpenRouter). Images travel as base64 PNG data URLs."""

from __future__ import annotations

import base64
import os
from typing import Any

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionContentPartParam,
    ChatCompletionMessageParam,
)

from webfovea.core.errors import ConfigError, ModelError
from webfovea.models.base import ModelReply, ModelRequest, SentImage, Turn, Usage
from webfovea.models.keys import KEY_VARS
from webfovea.models.retry import (
    Endpoint,
    RetryPolicy,
    call_with_retry,
    parse_retry_after,
    status_error,
    transport_error,
)
from webfovea.models.tls import tls_context
from webfovea.models.wire import parse_body

KEY_VAR = KEY_VARS["openai"][0]
BASE_URL_VAR = "OPENAI_BASE_URL"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
# vLLM and most local servers ignore the key but the SDK insists on one.
PLACEHOLDER_KEY = "EMPTY"


class OpenAICompatModel:
    """A :class:`~webfovea.models.base.Model` speaking OpenAI chat completions."""

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 timeout: float = 120.0, retry: RetryPolicy | None = None) -> None:
        resolved_url = base_url or os.environ.get(BASE_URL_VAR) or None
        key = api_key or os.environ.get(KEY_VAR) or None
        if key is None and resolved_url is None:
            raise ConfigError(f"{KEY_VAR} is not set: export it for {DEFAULT_BASE_URL}, or pass "
                              f"--base-url (or set {BASE_URL_VAR}) for a local server")
        self.name = f"openai:{model}"
        self._model = model
        self._official = resolved_url is None
        self._timeout = timeout
        self._retry = retry or RetryPolicy()
        self._endpoint = Endpoint("OpenAI-compatible", model, resolved_url or DEFAULT_BASE_URL,
                                  KEY_VAR, key)
        self._client = openai.AsyncOpenAI(api_key=key or PLACEHOLDER_KEY,
                                          base_url=resolved_url or DEFAULT_BASE_URL,
                                          max_retries=0, timeout=timeout,
                                          http_client=openai.DefaultAsyncHttpxClient(
                                              verify=tls_context()))

    @property
    def endpoint(self) -> Endpoint:
        """Where this client talks (the native openai-computer dialect speaks there too)."""
        return self._endpoint

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        completion, usage = await self.send(to_messages(request), timeout=timeout,
                                            max_tokens=request.max_tokens,
                                            sampling=request.sampling)
        text = completion.choices[0].message.content or ""
        return ModelReply(text=text, usage=usage, model=completion.model)

    async def send(self, messages: list[ChatCompletionMessageParam], *, timeout: float,
                   max_tokens: int, sampling: dict[str, float] | None = None,
                   tools: list[dict[str, Any]] | None = None
                   ) -> tuple[ChatCompletion, Usage]:
        """One chat-completions call with the shared retry policy (``tools``: the native
        function-calling dialect's functions); a completion without choices is a ModelError."""
        usage = Usage()

        async def attempt(seconds: float) -> ChatCompletion:
            return await self._create(messages, seconds, max_tokens=max_tokens,
                                      sampling=sampling or {}, tools=tools)

        completion = await call_with_retry(attempt, endpoint=self._endpoint, policy=self._retry,
                                           timeout=timeout, call_timeout=self._timeout,
                                           usage=usage)
        if completion.usage is not None:
            details = completion.usage.prompt_tokens_details
            cached = (details.cached_tokens or 0) if details is not None else 0
            # prompt_tokens counts the cached ones too; Usage keeps them apart.
            usage.input_tokens = completion.usage.prompt_tokens - cached
            usage.cache_read_tokens = cached
            usage.output_tokens = completion.usage.completion_tokens
        if not completion.choices:
            raise ModelError(f"{self._endpoint.label()} returned no choices")
        return completion, usage

    async def _create(self, messages: list[ChatCompletionMessageParam], seconds: float, *,
                      max_tokens: int, sampling: dict[str, float],
                      tools: list[dict[str, Any]] | None) -> ChatCompletion:
        create = self._client.chat.completions.with_raw_response.create
        extra: dict[str, Any] = {k: v for k, v in sampling.items() if k in ("temperature", "top_p")}
        if tools:
            extra["tools"] = tools
        try:
            # The official endpoint rejects max_tokens for newer models; compatible servers
            # (older vLLM, Ollama) only know max_tokens.
            if self._official:
                raw = await create(model=self._model, messages=messages, timeout=seconds,
                                   max_completion_tokens=max_tokens, extra_body=extra or None)
            else:
                raw = await create(model=self._model, messages=messages, timeout=seconds,
                                   max_tokens=max_tokens, extra_body=extra or None)
        except openai.OpenAIError as error:
            raise translate_error(error, self._endpoint) from error
        # Parsed here, not by the SDK, so a malformed 200 is a retryable provider fault.
        return parse_body(self._endpoint, raw.http_response.content, ChatCompletion)

    async def aclose(self) -> None:
        await self._client.close()


def translate_error(error: openai.OpenAIError, endpoint: Endpoint) -> ModelError:
    """The one place an OpenAI SDK exception becomes a ModelError."""
    if isinstance(error, openai.APITimeoutError):
        return transport_error(endpoint, "timeout")
    if isinstance(error, openai.APIConnectionError):
        return transport_error(endpoint, "connection", str(error.__cause__ or error),
                               cause=error)
    if isinstance(error, openai.APIStatusError):
        return status_error(endpoint, error.status_code, _detail(error.body, error.message),
                            parse_retry_after(error.response.headers))
    return ModelError(f"{endpoint.label()}: {type(error).__name__}: {error}")


def _detail(body: object, fallback: str) -> str:
    """The provider's own error message (OpenAI nests it under "error", vLLM does not)."""
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    if isinstance(body, str) and body.strip():
        return body.strip()[:500]
    return fallback


def to_messages(request: ModelRequest) -> list[ChatCompletionMessageParam]:
    """The request in chat-completions form: system message, then one message per turn.
    The stable prefix comes first, which is all automatic prefix caching (OpenAI, vLLM,
    SGLang) needs; the turns' cache marks have no wire form here."""
    messages: list[ChatCompletionMessageParam] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    for turn in request.turns:
        messages.append(_message(turn))
    return messages


def _message(turn: Turn) -> ChatCompletionMessageParam:
    if turn.role == "assistant":
        if turn.images:
            raise ModelError("an assistant turn cannot carry images in chat completions")
        return {"role": "assistant", "content": turn.text}
    parts: list[ChatCompletionContentPartParam] = []
    if turn.text:
        parts.append({"type": "text", "text": turn.text})
    for image in turn.images:
        if image.label:
            parts.append({"type": "text", "text": image.label})
        parts.append({"type": "image_url", "image_url": {"url": data_url(image)}})
    return {"role": "user", "content": parts}


def data_url(image: SentImage) -> str:
    return "data:image/png;base64," + base64.b64encode(image.png).decode("ascii")

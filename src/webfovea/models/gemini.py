"""``gemini:<model>``: the Gemini API's ``generateContent`` over plain HTTP (no SDK).

As a :class:`~webfovea.models.base.Model` it speaks the text dialect (turns of text and
inline PNGs, the reply's text parts joined); the ``gemini-computer`` dialect talks to the
same :attr:`endpoint` with the computer_use tool. The key is ``GEMINI_API_KEY`` (or
``GOOGLE_API_KEY``), sent as ``x-goog-api-key``.
"""

from __future__ import annotations

import base64
import os
from typing import Any

from webfovea.core.errors import ConfigError
from webfovea.models.base import ModelReply, ModelRequest, Usage
from webfovea.models.keys import KEY_VARS as PROVIDER_KEY_VARS
from webfovea.models.retry import Endpoint, RetryPolicy

KEY_VARS = PROVIDER_KEY_VARS["gemini"]
BASE_URL_VAR = "GEMINI_BASE_URL"
DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"


class GeminiModel:
    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 timeout: float = 120.0, retry: RetryPolicy | None = None) -> None:
        from webfovea.models.native_http import NativeClient

        url = (base_url or os.environ.get(BASE_URL_VAR) or DEFAULT_BASE_URL).rstrip("/")
        key = api_key or next((os.environ[v] for v in KEY_VARS if os.environ.get(v)), None)
        if key is None and url == DEFAULT_BASE_URL:
            raise ConfigError(f"{KEY_VARS[0]} is not set: export it for {DEFAULT_BASE_URL}, or "
                              f"pass --base-url (or set {BASE_URL_VAR}) for a compatible server")
        self.name = f"gemini:{model}"
        self.endpoint = Endpoint("Gemini", model, url, KEY_VARS[0], key)
        self._client = NativeClient(self.endpoint, headers={"x-goog-api-key": key or ""},
                                    timeout=timeout, retry=retry)
        self._url = f"{url}/v1beta/models/{model}:generateContent"

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        usage = Usage()
        reply = await self._client.post(self._url, to_body(request), timeout=timeout, usage=usage)
        meta = reply.get("usageMetadata") or {}
        cached = int(meta.get("cachedContentTokenCount") or 0)
        thoughts = int(meta.get("thoughtsTokenCount") or 0)
        usage.input_tokens = int(meta.get("promptTokenCount") or 0) - cached
        usage.cache_read_tokens = cached
        usage.output_tokens = int(meta.get("candidatesTokenCount") or 0) + thoughts
        usage.reasoning_tokens = thoughts
        candidates = reply.get("candidates") or [{}]
        parts = (candidates[0].get("content") or {}).get("parts") or []
        text = "".join(str(p.get("text", "")) for p in parts if not p.get("thought"))
        return ModelReply(text=text, usage=usage, model=self.endpoint.model)

    async def aclose(self) -> None:
        await self._client.aclose()


def to_body(request: ModelRequest) -> dict[str, Any]:
    """The request as ``generateContent`` contents (assistant turns are role ``model``)."""
    contents = []
    for turn in request.turns:
        parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text else []
        for image in turn.images:
            if image.label:
                parts.append({"text": image.label})
            parts.append({"inlineData": {"mimeType": "image/png",
                                         "data": base64.b64encode(image.png).decode("ascii")}})
        contents.append({"role": "model" if turn.role == "assistant" else "user", "parts": parts})
    body: dict[str, Any] = {"contents": contents,
                            "generationConfig": {"maxOutputTokens": request.max_tokens,
                                                 **request.sampling}}
    if request.system:
        body["systemInstruction"] = {"parts": [{"text": request.system}]}
    return body

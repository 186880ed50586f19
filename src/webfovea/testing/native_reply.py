"""What a fake-provider policy answers on a native computer-use route.

A text route's policy returns reply text; on the OpenAI Responses and Gemini routes it may
instead return a :class:`NativeReply`: the vendor's own output items, without the ids the
server assigns. Responses: ``{"type": "computer_call", "actions": [...],
"pending_safety_checks": [{"code", "message"}]?}``, ``{"type": "function_call", "name",
"arguments"}``, ``{"type": "message", "text"}``, ``{"type": "reasoning", "text"}``; the
server writes a computer call as the declared tool version does (preview: one ``action``;
GA: ``actions[]``). Gemini: parts, ``{"text"}``, ``{"text", "thought": true}`` or
``{"functionCall": {"name", "args"}}``; ``finish`` sets the candidate's finishReason
(``MALFORMED_FUNCTION_CALL`` with no parts, as the real API sometimes answers).
A plain string is a final text answer on both routes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class NativeReply:
    items: tuple[Mapping[str, Any], ...]
    finish: str = "STOP"

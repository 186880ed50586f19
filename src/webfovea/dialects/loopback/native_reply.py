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
A plain string is a final text answer on both routes; a plain :class:`FakeReply` (what the
text-route policies answer) is its text and its calls as function calls.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .fake_tools import FakeReply


@dataclass(frozen=True)
class NativeReply(FakeReply):
    items: tuple[Mapping[str, Any], ...] = ()
    finish: str = "STOP"


def native_items(reply: str | FakeReply, route: Literal["responses", "gemini"]
                 ) -> tuple[tuple[Mapping[str, Any], ...], str]:
    """A policy's reply as the route's items and finish reason."""
    if isinstance(reply, NativeReply):
        return reply.items, reply.finish
    text = reply if isinstance(reply, str) else reply.text
    calls = () if isinstance(reply, str) else reply.calls
    if route == "responses":
        items: list[Mapping[str, Any]] = [{"type": "message", "text": text}] if text else []
        items += [{"type": "function_call", "name": c.name, "arguments": c.arguments if isinstance(
            c.arguments, str) else json.dumps(c.arguments)} for c in calls]
        return tuple(items), "STOP"
    parts: list[Mapping[str, Any]] = [{"text": text}] if text else []
    parts += [{"functionCall": {"name": c.name, "args": dict(c.arguments) if not isinstance(
        c.arguments, str) else json.loads(c.arguments)}} for c in calls]
    return tuple(parts), "STOP"

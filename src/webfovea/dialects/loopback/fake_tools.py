"""Tool calling in the fake provider, as the real APIs do it: the calls a policy makes, the
tool results a request carries, the 400s the real APIs answer, and the reply shapes.

- OpenAI-compatible chat completions: ``message.tool_calls[]`` with ``function.arguments`` a
  JSON **string**, ``finish_reason: "tool_calls"``; every assistant ``tool_calls`` entry needs
  a ``role: "tool"`` message with its ``tool_call_id`` before the next other message.
- Anthropic Messages: ``tool_use`` blocks (``toolu_…`` ids; ``toolset_name`` for the GA
  computer toolset's members), ``stop_reason: "tool_use"``; every ``tool_use`` needs a
  ``tool_result`` in the next user message, placed first; a toolset call's result must echo
  ``toolset_name``; the computer tool versions need their ``anthropic-beta`` header.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Provider = Literal["openai", "anthropic"]
# computer tool type -> the beta header it needs (the GA toolset needs none).
COMPUTER_BETAS = {"computer_20241022": "computer-use-2024-10-22",
                  "computer_20250124": "computer-use-2025-01-24",
                  "computer_20251124": "computer-use-2025-11-24"}
TOOLSET = "computer_toolset_20260801"
TOOLSET_KEYS = {"type", "configs", "cache_control"}


class ProtocolError(Exception):
    """A request the real API rejects with HTTP 400; the message is the API's wording."""


@dataclass(frozen=True)
class FakeCall:
    """A tool call a policy makes. ``arguments``: an object, or (chat completions only) the
    exact string to send, which lets a test send malformed JSON."""

    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    toolset: str | None = None  # Anthropic toolset members: "computer"


@dataclass(frozen=True)
class FakeReply:
    """A policy's reply: text and tool calls, in the provider's own shapes on the wire."""

    text: str = ""
    calls: tuple[FakeCall, ...] = ()
    stop_reason: str | None = None  # Anthropic: override (max_tokens, refusal, pause_turn)


@dataclass(frozen=True)
class ToolUse:
    """A tool call as a request replays it (an earlier assistant turn)."""

    id: str
    name: str
    arguments: Any
    toolset: str | None = None


@dataclass(frozen=True)
class ToolResult:
    """A tool result as a request carries it: its text and its images' sizes."""

    id: str
    text: str
    is_error: bool = False
    toolset: str | None = None
    image_count: int = 0


def reply_of(value: str | FakeReply) -> FakeReply:
    return value if isinstance(value, FakeReply) else FakeReply(value)


# -- validation -----------------------------------------------------------------------------


def check_openai(messages: Sequence[Mapping[str, Any]]) -> None:
    pending: list[str] = []
    for message in messages:
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in pending:
                raise ProtocolError("Invalid parameter: messages with role 'tool' must be a "
                                    "response to a preceeding message with 'tool_calls'.")
            pending.remove(call_id)
            continue
        if pending:
            raise ProtocolError("An assistant message with 'tool_calls' must be followed by "
                                "tool messages responding to each 'tool_call_id'. The following "
                                f"tool_call_ids did not have response messages: {', '.join(pending)}")
        if role == "assistant":
            calls = message.get("tool_calls") or []
            for call in calls:
                _check_function_call(call)
            pending = [str(c.get("id")) for c in calls]
    # Trailing tool calls without results: the request ends mid-exchange.
    if pending:
        raise ProtocolError("An assistant message with 'tool_calls' must be followed by tool "
                            f"messages responding to each 'tool_call_id': {', '.join(pending)}")


def _check_function_call(call: Any) -> None:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("arguments"), str):
        raise ProtocolError("messages: tool_calls[].function.arguments must be a string")


def check_anthropic(messages: Sequence[Mapping[str, Any]], tools: Sequence[Any],
                    betas: set[str]) -> None:
    _check_tools(tools, betas)
    for index, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        uses = [b for b in _blocks(message) if b.get("type") == "tool_use"]
        if not uses:
            continue
        following = messages[index + 1] if index + 1 < len(messages) else None
        results = _results_first(following, index + 1) if following else {}
        missing = [str(u.get("id")) for u in uses if u.get("id") not in results]
        if missing:
            raise ProtocolError(f"messages.{index + 1}: `tool_use` ids were found without "
                                "`tool_result` blocks immediately after: "
                                f"{', '.join(missing)}. Each `tool_use` block must have a "
                                "corresponding `tool_result` block in the next message.")
        for use in uses:
            toolset = use.get("toolset_name")
            if toolset and results[use["id"]].get("toolset_name") != toolset:
                raise ProtocolError(f"messages.{index + 1}: the `tool_result` for "
                                    f"{use['id']} must carry toolset_name '{toolset}', as its "
                                    "`tool_use` did")


def _results_first(message: Mapping[str, Any], index: int) -> dict[str, Mapping[str, Any]]:
    blocks = _blocks(message)
    results: dict[str, Mapping[str, Any]] = {}
    seen_other = False
    for block in blocks:
        if block.get("type") == "tool_result":
            if seen_other:
                raise ProtocolError(f"messages.{index}: `tool_result` blocks must come first in "
                                    "the user message's content")
            results[str(block.get("tool_use_id"))] = block
        else:
            seen_other = True
    return results


def _check_tools(tools: Sequence[Any], betas: set[str]) -> None:
    for position, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise ProtocolError(f"tools.{position}: must be an object")
        kind = str(tool.get("type", "custom"))
        if kind in COMPUTER_BETAS:
            if COMPUTER_BETAS[kind] not in betas:
                raise ProtocolError(f"tools.{position}: Input tag '{kind}' found using 'type' "
                                    "does not match any of the expected tags (the beta header "
                                    f"'{COMPUTER_BETAS[kind]}' is required)")
            if tool.get("name") != "computer" or not all(
                    isinstance(tool.get(k), int) for k in ("display_width_px", "display_height_px")):
                raise ProtocolError(f"tools.{position}: a computer tool needs name 'computer' "
                                    "and integer display_width_px / display_height_px")
        elif kind == TOOLSET:
            extra = set(tool) - TOOLSET_KEYS
            if extra:
                raise ProtocolError(f"tools.{position}: {', '.join(sorted(extra))}: Extra inputs "
                                    "are not permitted")
        elif kind == "custom" and not isinstance(tool.get("input_schema"), dict):
            raise ProtocolError(f"tools.{position}.input_schema: Field required")


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


# -- reading what a request replays ---------------------------------------------------------


def openai_uses(message: Mapping[str, Any]) -> tuple[ToolUse, ...]:
    out = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        out.append(ToolUse(str(call.get("id")), str(function.get("name")),
                           function.get("arguments")))
    return tuple(out)


def anthropic_use(block: Mapping[str, Any]) -> ToolUse:
    return ToolUse(str(block.get("id")), str(block.get("name")), block.get("input"),
                   block.get("toolset_name"))


# -- encoding replies -----------------------------------------------------------------------


def openai_message(reply: FakeReply, number: int) -> tuple[dict[str, Any], str]:
    """The assistant message and the finish reason."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None,
                               "refusal": None}
    if not reply.calls:
        message["content"] = reply.text
        return message, "stop"
    message["tool_calls"] = [
        {"id": f"call_fake_{number}_{i}", "type": "function",
         "function": {"name": c.name, "arguments": c.arguments if isinstance(c.arguments, str)
                      else json.dumps(dict(c.arguments))}}
        for i, c in enumerate(reply.calls)]
    return message, "tool_calls"


def anthropic_content(reply: FakeReply, number: int) -> tuple[list[dict[str, Any]], str]:
    """The content blocks and the stop reason."""
    content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
    for i, call in enumerate(reply.calls):
        if isinstance(call.arguments, str):
            raise ProtocolError("an Anthropic tool_use input is always an object")
        block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_fake_{number}_{i}",
                                 "name": call.name, "input": dict(call.arguments)}
        if call.toolset:
            block["toolset_name"] = call.toolset
        content.append(block)
    if not content:
        content = [{"type": "text", "text": ""}]
    stop = reply.stop_reason or ("tool_use" if reply.calls else "end_turn")
    return content, stop

"""An Anthropic computer-use conversation (the reference demo's ``messages`` array, JSON),
checked against the SDK's ``MessageParam`` and read into :class:`Foreign`."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from anthropic.types import MessageParam
from pydantic import TypeAdapter, ValidationError

from ...actions.geometry import ModelSpace
from ...browser.capture import png_size
from ...core.config import Size
from ...core.errors import ConfigError
from ...dialects.anthropic_actions import Translator
from ...dialects.anthropic_computer import DEFAULT_VERSION
from ...dialects.base import Observation
from ...models.base import SentImage
from .record import Foreign, ForeignStep, materialised

_MESSAGES = TypeAdapter(list[MessageParam])


def read(path: Path) -> Foreign:
    try:
        messages: list[Any] = materialised(_MESSAGES.validate_python(
            json.loads(path.read_text("utf-8"))))
    except (OSError, ValueError, ValidationError) as e:
        raise ConfigError(f"{path} is not an Anthropic messages array: {_first(e)}") from None
    foreign = Foreign("anthropic-cu", task=_task(messages))
    translator = Translator(DEFAULT_VERSION)
    shown: bytes | None = None
    for message in messages:
        blocks = _blocks(message)
        if message["role"] == "user":
            shown = _image_in(blocks) or shown
            continue
        thought = " ".join(b["text"] for b in blocks if b.get("type") == "text").strip()
        uses = [b for b in blocks if b.get("type") == "tool_use"]
        if not uses:
            foreign.answer = thought  # the demo's loop ends on a reply without a tool call
        for use in uses:
            foreign.steps.append(_step(translator, use, shown, thought, foreign.task))
    foreign.last_screenshot = shown if foreign.steps and shown is not foreign.steps[-1].screenshot \
        else None
    return foreign


def _step(translator: Translator, use: Mapping[str, Any], shown: bytes | None, thought: str,
          task: str) -> ForeignStep:
    native = {"name": use.get("name"), "input": use.get("input")}
    if shown is None and "coordinate" in (use.get("input") or {}):
        return ForeignStep(native, None, thought, error="no screenshot precedes this call")
    size = png_size(shown) if shown is not None else Size(1, 1)
    obs = Observation(0, task, SentImage(shown or b"", size.width, size.height),
                      ModelSpace(size.width, size.height), size, "", "")
    call = translator.call(use, obs)
    return ForeignStep(native, shown, thought, call.action, call.error)


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def _image_in(blocks: list[Mapping[str, Any]]) -> bytes | None:
    """The last image of a user turn: its own, or inside a tool result."""
    found: bytes | None = None
    for block in blocks:
        inner = block.get("content") if block.get("type") == "tool_result" else [block]
        for part in inner if isinstance(inner, list) else []:
            source = part.get("source") if part.get("type") == "image" else None
            if source and source.get("type") == "base64":
                found = base64.b64decode(source["data"])
    return found


def _task(messages: list[Any]) -> str:
    first = next((m for m in messages if m["role"] == "user"), None)
    texts = [b["text"] for b in _blocks(first) if b.get("type") == "text"] if first else []
    return texts[0] if texts else ""


def _first(error: Exception) -> str:
    return str(error).splitlines()[0][:300]

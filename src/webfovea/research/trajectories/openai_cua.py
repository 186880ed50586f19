"""An OpenAI computer-use loop's Responses items (JSON Lines, as the CUA sample app logs
them), each checked against the SDK's ``ResponseInputItemParam``, read into :class:`Foreign`."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openai.types.responses import ResponseInputItemParam
from pydantic import TypeAdapter, ValidationError

from ...actions.geometry import ModelSpace
from ...browser.capture import png_size
from ...core.config import Size
from ...core.errors import ConfigError
from ...dialects.openai_actions import from_openai
from .record import Foreign, ForeignStep, materialised

_ITEM: TypeAdapter[Any] = TypeAdapter(ResponseInputItemParam)
_DATA_URL = "data:image/png;base64,"


def read(path: Path) -> Foreign:
    items = [_item(path, n, line) for n, line in
             enumerate(path.read_text("utf-8").splitlines(), 1) if line.strip()]
    foreign = Foreign("openai-cua", task=_task(items))
    shown: bytes | None = None
    thought = ""
    for item in items:
        kind = item.get("type", "message")
        if kind == "computer_call_output":
            shown = _png(item["output"].get("image_url", "")) or shown
        elif kind == "reasoning":
            thought = " ".join(s.get("text", "") for s in item.get("summary", [])).strip()
        elif kind == "computer_call":
            foreign.steps.append(_step(item, shown, thought))
            thought = ""
        elif kind == "message" and item.get("role") == "user" and not foreign.steps:
            shown = _user_image(item) or shown
        elif kind == "message" and item.get("role") == "assistant":
            foreign.answer = _text(item)
    last = foreign.steps[-1].screenshot if foreign.steps else None
    foreign.last_screenshot = shown if shown is not last else None
    return foreign


def _item(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        item: dict[str, Any] = materialised(_ITEM.validate_python(json.loads(line)))
    except (ValueError, ValidationError) as e:
        raise ConfigError(f"{path}:{number} is not a Responses item: "
                          f"{str(e).splitlines()[0][:300]}") from None
    return item


def _step(item: Mapping[str, Any], shown: bytes | None, thought: str) -> ForeignStep:
    native = {"type": "computer_call", "call_id": item.get("call_id"),
              "action": item.get("action")}
    if shown is None and item["action"].get("type") not in ("screenshot", "wait"):
        return ForeignStep(native, None, thought, error="no screenshot precedes this call")
    size = png_size(shown) if shown is not None else Size(1, 1)
    t = from_openai(item["action"], image=Size(size.width, size.height),
                    space=ModelSpace(size.width, size.height))
    return ForeignStep(native, shown, thought, t.action, t.error)


def _png(url: str) -> bytes | None:
    return base64.b64decode(url[len(_DATA_URL):]) if url.startswith(_DATA_URL) else None


def _user_image(item: Mapping[str, Any]) -> bytes | None:
    content = item.get("content")
    urls = [p.get("image_url", "") for p in content if p.get("type") == "input_image"] \
        if isinstance(content, list) else []
    return _png(urls[-1]) if urls else None


def _text(item: Mapping[str, Any]) -> str:
    content = item.get("content")
    if isinstance(content, str):
        return content
    return " ".join(p.get("text", "") for p in content or [] if "text" in p).strip()


def _task(items: list[dict[str, Any]]) -> str:
    first = next((i for i in items if i.get("role") == "user"), None)
    return _text(first) if first else ""

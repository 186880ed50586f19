"""The reference policy's renderers for the openai-computer and gemini-computer dialects.

Each reads what a request shows (the task, the newest image as received, the last results'
notes) and phrases one closed-set action in the protocol's own calls, in its coordinate
space: OpenAI's computer actions in screenshot pixels (a fill is click, ctrl+a, type: one
batch with the GA tool, the ``fill`` function with the preview's one action per call),
Gemini's functions on the 0–999 grid (a fill is ``type_text_at`` in the legacy vocabulary,
click + hotkey + type in the new one). What has no native form (select, find_text,
read_text, finished) goes through the extra functions the dialects offer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...actions.geometry import ModelSpace
from ...actions.registry import Action, Point
from ...core.config import AgentConfig, Size
from ...models.base import Model
from ..gemini_actions import Vocabulary, to_gemini
from ..gemini_computer import vocabulary_for
from ..openai_actions import to_openai
from ..openai_computer import version_for
from .fake_provider import FakeProvider
from .fake_wire import FakeRequest, Provider
from .native_reply import NativeReply
from .renderer_base import FAKE_KEY, Seen, seen_in

OPENAI_MODELS = {"preview": "computer-use-preview", "ga": "gpt-5.4"}
GEMINI_MODELS: dict[Vocabulary, str] = {"legacy": "gemini-2.5-computer-use-preview-10-2025",
                                        "new": "gemini-3.5-flash"}


def _function_args(action: Action) -> dict[str, Any]:
    return {k: ([_num(v.x), _num(v.y)] if isinstance(v, Point) else v)
            for k, v in action.args.items()}


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def _fill_parts(action: Action) -> tuple[Action, Action, Action]:
    return (Action("click", {"start_box": action.point()}), Action("hotkey", {"key": "ctrl a"}),
            Action("type", {"content": action.text("content")}))


class OpenAIComputerRenderer:
    provider: Provider = "openai-responses"

    def __init__(self, config: AgentConfig) -> None:
        self.version = version_for("", config.dialect_version)
        self.model = OPENAI_MODELS[self.version]
        self._size = Size(1, 1)

    def seen(self, request: FakeRequest) -> Seen:
        items = list(request.body.get("input") or [])
        first = request.turns[0].text if request.turns else ""
        step = 1 if "previous_response_id" not in request.body else 2
        notes = [str(i.get("output", "")) for i in items if i.get("type") == "function_call_output"]
        notes += [str(c.get("text", "")) for i in items if i.get("type") == "message"
                  for c in i.get("content") or () if c.get("type") == "input_text"]
        seen = seen_in(request, first, step, "\n".join(notes) if step > 1 else "")
        self._size = Size(seen.width, seen.height)
        return seen

    def render(self, action: Action, thought: str) -> NativeReply:
        space = ModelSpace(float(self._size.width), float(self._size.height))
        reasoning = {"type": "reasoning", "text": thought}
        if action.name == "fill" and self.version == "ga":
            actions = [to_openai(a, image=self._size, space=space) for a in _fill_parts(action)]
            return NativeReply(items=(reasoning, {"type": "computer_call", "actions": actions}))
        try:
            native = to_openai(action, image=self._size, space=space)
        except ValueError:
            return NativeReply(items=(reasoning, {"type": "function_call", "name": action.name,
                                            "arguments": json.dumps(_function_args(action))}))
        return NativeReply(items=(reasoning, {"type": "computer_call", "actions": [native]}))

    def client(self, fake: FakeProvider) -> Model:
        from ...models.openai_compat import OpenAICompatModel

        return OpenAICompatModel(self.model, base_url=fake.base_url, api_key=FAKE_KEY)


class GeminiComputerRenderer:
    provider: Provider = "gemini"

    def __init__(self, config: AgentConfig) -> None:
        self.vocabulary: Vocabulary = vocabulary_for("", config.dialect_version or "new")
        self.model = GEMINI_MODELS[self.vocabulary]
        self._size = Size(1, 1)

    def seen(self, request: FakeRequest) -> Seen:
        contents = list(request.body.get("contents") or [])
        first = str(((contents[0].get("parts") or [{}])[0]).get("text", "")) if contents else ""
        step = 1 + sum(c.get("role") == "model" for c in contents)
        last = contents[-1].get("parts") or [] if contents else []
        notes = [str(p["text"]) for p in last if "text" in p]
        notes += [str((p["functionResponse"].get("response") or {}).get("note", ""))
                  for p in last if "functionResponse" in p]
        seen = seen_in(request, first, step, "\n".join(notes) if step > 1 else "")
        self._size = Size(seen.width, seen.height)
        return seen

    def render(self, action: Action, thought: str) -> NativeReply:
        space = ModelSpace(float(self._size.width), float(self._size.height))
        actions: tuple[Action, ...] = (action,)
        if action.name == "fill" and self.vocabulary == "new":
            actions = _fill_parts(action)
        parts: list[Mapping[str, Any]] = [{"text": thought}]
        for one in actions:
            try:
                name, args = to_gemini(one, vocabulary=self.vocabulary, space=space)
            except ValueError:
                name, args = one.name, _function_args(one)
            parts.append({"functionCall": {"name": name, "args": args}})
        return NativeReply(items=tuple(parts))

    def client(self, fake: FakeProvider) -> Model:
        from ...models.gemini import GeminiModel

        return GeminiModel(self.model, base_url=fake.anthropic_base_url, api_key=FAKE_KEY)

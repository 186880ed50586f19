"""The reference policy's decisions in each dialect's own wire format (the fake provider's
"renderers"): how the oracle, playing behind :class:`~.fake_provider.FakeProvider`, reads what
a request shows it and phrases one closed-set action as that protocol's tool calls, in that
protocol's coordinate space.

A renderer is registered by dialect name in ``RENDERERS``; a new dialect adds one (the
OpenAI Responses and Gemini renderers belong with those dialects). ``seen`` reads the task,
the step, the last note and the size of the image the model saw from the request exactly as
received; ``render`` turns an action whose points are in that image's pixels into a reply;
``client`` makes the provider client that speaks to the fake provider.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...actions.registry import Action, Point
from ...core.config import AgentConfig
from ...models.base import Model
from .fake_provider import FakeProvider
from .fake_tools import FakeCall, FakeReply
from .fake_wire import FakeRequest, Provider
from .renderer_base import FAKE_KEY, Renderer, Seen, seen_in


def _seen(request: FakeRequest, note: str) -> Seen:
    first = next((t.text for t in request.turns if t.role == "user"), "")
    step = 1 + sum(t.role == "assistant" for t in request.turns)
    return seen_in(request, first, step, note)


def _points(action: Action) -> dict[str, Any]:
    return {k: ([_int(v.x), _int(v.y)] if isinstance(v, Point) else v)
            for k, v in action.args.items()}


def _int(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


class ToolsRenderer:
    """``tools``: one function call per action, arguments as the registry's schema."""

    provider: Provider = "openai"

    def __init__(self, config: AgentConfig) -> None:
        self.config = config

    def seen(self, request: FakeRequest) -> Seen:
        turns = request.turns
        tail: list[str] = []
        for turn in reversed(turns[:-1]):  # the tool messages before this step's user turn
            if turn.role != "tool":
                break
            tail.insert(0, turn.text)
        note = " ".join(tail) if tail else turns[-1].text.split("Feedback on your last reply: ",
                                                                1)[-1]
        return _seen(request, note if tail or "Feedback" in turns[-1].text else "")

    def render(self, action: Action, thought: str) -> FakeReply:
        return FakeReply(thought, (FakeCall(action.name, _points(action)),))

    def client(self, fake: FakeProvider) -> Model:
        from ...models.openai_compat import OpenAICompatModel

        return OpenAICompatModel("oracle-tools", base_url=fake.base_url, api_key=FAKE_KEY)


class AnthropicComputerRenderer:
    """``anthropic-computer``: the computer tool's own actions (clicks, left_click_drag, key,
    type; a fill is a click, ctrl+a and type in one turn), the extra tools for select /
    find_text / read_text / finished."""

    provider: Provider = "anthropic"

    def __init__(self, config: AgentConfig) -> None:
        self.toolset = config.dialect_version == "computer_toolset_20260801"

    def seen(self, request: FakeRequest) -> Seen:
        last = request.turns[-1]
        later = any(t.role == "assistant" for t in request.turns)
        note = " ".join(r.text for r in last.results) if last.results else (
            last.text.split("\n")[0] if later else "")
        return _seen(request, note)

    def _computer(self, action: str, **params: Any) -> FakeCall:
        if self.toolset:
            return FakeCall(action, params, toolset="computer")
        return FakeCall("computer", {"action": action, **params})

    def render(self, action: Action, thought: str) -> FakeReply:
        args = _points(action)
        point = args.get("start_box")
        calls: list[FakeCall]
        clicks = {"click": "left_click", "left_double": "double_click", "right_single": "right_click"}
        if action.name in clicks:
            calls = [self._computer(clicks[action.name], coordinate=point)]
        elif action.name == "drag":
            calls = [self._computer("left_click_drag", start_coordinate=point,
                                    coordinate=args["end_box"])]
        elif action.name == "hotkey":  # xdotool spelling, as Claude writes it: ctrl+a
            calls = [self._computer("key", text="+".join(args["key"].split()))]
        elif action.name == "type":
            calls = [self._computer("type", text=args["content"])]
        elif action.name == "hover":
            calls = [self._computer("mouse_move", coordinate=point)]
        elif action.name == "scroll":
            calls = [self._computer("scroll", coordinate=point, scroll_amount=5,
                                    scroll_direction=args["direction"])]
        elif action.name == "fill":
            calls = [self._computer("left_click", coordinate=point),
                     self._computer("key", text="ctrl+a"),
                     self._computer("type", text=args["content"])]
        elif action.name == "wait":
            calls = [self._computer("wait", duration=1)]
        else:  # select, find_text, read_text, finished: the extra tools
            calls = [FakeCall(action.name, args)]
        return FakeReply(thought, tuple(calls))

    def client(self, fake: FakeProvider) -> Model:
        from ...models.anthropic import AnthropicModel

        return AnthropicModel("claude-oracle", base_url=fake.anthropic_base_url, api_key=FAKE_KEY)


def _openai_computer(config: AgentConfig) -> Renderer:
    from .native_renderers import OpenAIComputerRenderer

    return OpenAIComputerRenderer(config)


def _gemini_computer(config: AgentConfig) -> Renderer:
    from .native_renderers import GeminiComputerRenderer

    return GeminiComputerRenderer(config)


RENDERERS: dict[str, Callable[[AgentConfig], Renderer]] = {
    "tools": ToolsRenderer,
    "anthropic-computer": AnthropicComputerRenderer,
    "openai-computer": _openai_computer,
    "gemini-computer": _gemini_computer,
}

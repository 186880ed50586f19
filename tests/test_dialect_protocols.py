"""The fake provider enforces the real APIs' tool-calling rules (the 400s), and the pure
translation tables: vendor key spellings, Claude's actions, profiles picking a dialect."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from webfovea.actions.geometry import ModelSpace
from webfovea.actions.hotkeys import blacklisted
from webfovea.actions.registry import Action, Point
from webfovea.core.config import AgentConfig, Size
from webfovea.core.errors import ModelError
from webfovea.dialects.anthropic_actions import Translator
from webfovea.dialects.base import Observation
from webfovea.dialects.keys import KeySpellingError, from_names, from_xdotool
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.dialects.loopback.fake_tools import FakeCall, FakeReply
from webfovea.models.anthropic import AnthropicModel
from webfovea.models.base import SentImage
from webfovea.models.openai_compat import OpenAICompatModel
from webfovea.models.profiles import ConfigFile, resolve
from webfovea.models.retry import RetryPolicy

ONCE = RetryPolicy(max_attempts=1)
COMPUTER = {"type": "computer_20250124", "name": "computer", "display_width_px": 1440,
            "display_height_px": 810}


def _reply(request: FakeRequest) -> FakeReply:
    return FakeReply("ok", (FakeCall("finished", {"content": "x"}),))


def _use(id_: str, toolset: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_use", "id": id_, "name": "left_click" if toolset
                             else "computer", "input": {"coordinate": [1, 1]}}
    if toolset:
        block["toolset_name"] = toolset
    return block


async def _anthropic(body: dict[str, Any], betas: tuple[str, ...] = ()) -> str:
    with FakeProvider(_reply) as fake:
        model = AnthropicModel("claude-test", base_url=fake.anthropic_base_url, api_key="k",
                               retry=ONCE)
        try:
            message, usage = await model.send({"max_tokens": 100, **body}, timeout=30,
                                              betas=betas)
        finally:
            await model.aclose()
    assert message.stop_reason == "tool_use" and usage.calls == 1
    return "ok"


async def test_anthropic_rejects_a_tool_use_without_its_result() -> None:
    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "content": [_use("toolu_1"), _use("toolu_2")]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": "done"}]}]
    with pytest.raises(ModelError, match="toolu_2") as caught:
        await _anthropic({"messages": messages, "tools": [COMPUTER]},
                         ("computer-use-2025-01-24",))
    assert caught.value.status_code == 400
    assert "without `tool_result`" in str(caught.value)


async def test_anthropic_rejects_a_toolset_result_without_toolset_name() -> None:
    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "content": [_use("toolu_1", "computer")]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": "done"}]}]
    body = {"messages": messages, "tools": [{"type": "computer_toolset_20260801"}]}
    with pytest.raises(ModelError, match="toolset_name 'computer'"):
        await _anthropic(body)
    messages[2]["content"][0]["toolset_name"] = "computer"  # type: ignore[index]
    assert await _anthropic(body) == "ok"


async def test_anthropic_needs_the_beta_header_of_the_tool_version() -> None:
    body = {"messages": [{"role": "user", "content": "go"}], "tools": [COMPUTER]}
    with pytest.raises(ModelError, match="computer-use-2025-01-24"):
        await _anthropic(body)
    assert await _anthropic(body, ("computer-use-2025-01-24",)) == "ok"
    with pytest.raises(ModelError, match="display_width_px"):
        await _anthropic({**body, "tools": [{"type": "computer_toolset_20260801",
                                             "display_width_px": 1}]})


async def test_openai_rejects_tool_calls_without_tool_messages() -> None:
    call = {"id": "call_1", "type": "function",
            "function": {"name": "click", "arguments": "{}"}}
    with FakeProvider(_reply) as fake:
        model = OpenAICompatModel("qwen", base_url=fake.base_url, api_key="k", retry=ONCE)
        try:
            with pytest.raises(ModelError, match="call_1"):
                await model.send([{"role": "user", "content": "go"},
                                  {"role": "assistant", "content": None, "tool_calls": [call]},
                                  {"role": "user", "content": "next"}],
                                 timeout=30, max_tokens=10)
            completion, _ = await model.send(
                [{"role": "user", "content": "go"},
                 {"role": "assistant", "content": None, "tool_calls": [call]},
                 {"role": "tool", "tool_call_id": "call_1", "content": "done"}],
                timeout=30, max_tokens=10, tools=[{"type": "function", "function": {
                    "name": "finished", "parameters": {"type": "object"}}}])
        finally:
            await model.aclose()
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.tool_calls and choice.message.tool_calls[0].function.arguments == \
        '{"content": "x"}'  # type: ignore[union-attr]
    assert fake.requests[-1].results[0].text == "done"


@pytest.mark.parametrize(("xdotool", "ours"), [
    ("ctrl+a", "ctrl a"), ("Return", "enter"), ("ctrl+shift+Tab", "ctrl shift tab"),
    ("Page_Down", "pagedown"), ("super+l", "super l"), ("ctrl+minus", "ctrl -"),
    ("KP_Enter", "enter"), ("alt+Left", "alt left"), ("ctrl+plus", "ctrl +"),
])
def test_xdotool_keys_read_as_our_hotkeys(xdotool: str, ours: str) -> None:
    assert from_xdotool(xdotool) == ours


def test_translated_browser_shortcuts_meet_the_blacklist() -> None:
    for key in ("ctrl+l", "ctrl+t", "ctrl+w", "alt+Left", "F5", "ctrl+equal", "super+t"):
        assert blacklisted(from_xdotool(key)) is not None, key
    assert blacklisted(from_names(["CTRL", "A"])) is None
    assert blacklisted(from_names(["CMD", "L"])) is not None
    with pytest.raises(KeySpellingError):
        from_xdotool("Return Return")


def _obs(space: tuple[float, float] = (1440, 810)) -> Observation:
    return Observation(1, "t", SentImage(b"", 1440, 810), ModelSpace(*space), Size(1920, 1080),
                       "http://x/", "")


def _computer(action: str, **params: Any) -> dict[str, Any]:
    return {"id": "toolu_1", "name": "computer", "input": {"action": action, **params}}


def test_claude_actions_translate_into_the_closed_set() -> None:
    t = Translator("computer_20251124")
    assert t.call(_computer("double_click", coordinate=[10, 20]), _obs()).action == Action(
        "left_double", {"start_box": Point(10, 20)})
    # A move places the pointer; a click without a coordinate lands there.
    assert t.call(_computer("mouse_move", coordinate=[5, 6]), _obs()).action == Action(
        "hover", {"start_box": Point(5, 6)})
    assert t.call(_computer("left_click"), _obs()).action == Action(
        "click", {"start_box": Point(5, 6)})
    drag = t.call(_computer("left_click_drag", start_coordinate=[1, 2], coordinate=[30, 40]),
                  _obs()).action
    assert drag == Action("drag", {"start_box": Point(1, 2), "end_box": Point(30, 40)})
    # Display pixels become points of the model space the executor maps (here 0-1000).
    assert t.call(_computer("left_click", coordinate=[720, 405]), _obs((1000, 1000))).action \
        == Action("click", {"start_box": Point(500, 500)})


@pytest.mark.parametrize(("call", "guardrail", "said"), [
    (_computer("left_click", coordinate=[1, 1], text="ctrl"), "new_tab", "ctrl+click"),
    (_computer("middle_click", coordinate=[1, 1]), "new_tab", "middle click"),
    (_computer("triple_click", coordinate=[1, 1]), "closed_action_set", "triple_click"),
    (_computer("left_mouse_down"), "closed_action_set", "left_click_drag"),
    (_computer("scroll", coordinate=[1, 1], scroll_direction="down", text="ctrl"), "new_tab",
     "scroll"),
    (_computer("left_click", coordinate=[1441, 1]), None, "outside display bounds (1440x810)"),
    (_computer("teleport"), None, "unknown computer action"),
    ({"id": "x", "name": "navigate", "input": {"url": "http://evil/"}}, None, "unknown tool"),
])
def test_claude_actions_the_closed_set_refuses(call: dict[str, Any], guardrail: str | None,
                                                said: str) -> None:
    got = Translator("computer_20250124").call(call, _obs())
    assert got.action is None and got.guardrail == guardrail
    assert got.error is not None and said in got.error


def test_a_profile_picks_the_dialect_and_a_flag_overrides_it() -> None:
    profiles = {"claude-cu": {"model": "anthropic:claude-opus-4-5",
                              "dialect": "anthropic-computer",
                              "dialect_version": "computer_20251124"}}
    config = ConfigFile(profiles=profiles)
    ns = argparse.Namespace(model="claude-cu")
    picked = resolve(ns, config, env={})
    assert (picked.dialect, picked.dialect_version) == ("anthropic-computer", "computer_20251124")
    override = resolve(argparse.Namespace(model="claude-cu", dialect="text"), config, env={})
    assert (override.dialect, override.dialect_version) == ("text", None)
    assert resolve(argparse.Namespace(model="openai:x"), ConfigFile(), env={}).dialect == "text"
    assert AgentConfig(**override.agent_settings()).dialect == "text"


def test_the_tool_version_follows_the_model_name() -> None:
    from webfovea.dialects.anthropic_computer import version_for

    assert version_for("anthropic:claude-sonnet-4-5") == "computer_20250124"
    assert version_for("anthropic:claude-opus-4-6") == "computer_20251124"
    assert version_for("anthropic:claude-sonnet-5-5") == "computer_toolset_20260801"
    assert version_for("anthropic:claude-opus-4-8") == "computer_toolset_20260801"


def test_builtin_profiles_name_valid_dialects() -> None:
    from webfovea.dialects import dialect_names
    from webfovea.dialects.anthropic_computer import VERSIONS
    from webfovea.models.profiles import builtin_profiles

    speaking = {n: p for n, p in builtin_profiles().items() if "dialect" in p}
    assert {"claude-computer", "claude-5-computer", "qwen2.5-vl-tools"} <= set(speaking)
    for profile in speaking.values():
        assert profile["dialect"] in dialect_names()
        assert profile.get("dialect_version", "computer_20250124") in VERSIONS

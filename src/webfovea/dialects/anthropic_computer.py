"""``anthropic-computer``: Claude's own computer-use protocol over the Messages API.

Versions (``--dialect-version``, else the profile's): ``computer_20250124`` (beta header
``computer-use-2025-01-24``), ``computer_20251124`` (``computer-use-2025-11-24``, with
``enable_zoom``) and the GA ``computer_toolset_20260801`` (no header; each member is its own
tool name and carries ``toolset_name: "computer"``, which every result echoes). The declared
display is the screenshot exactly as sent, so Claude's coordinates are pixels of that image;
they are converted into the model space and mapped by the measured ratio like every step.
A coordinate outside the display is an error result, never a clamp.

Every native action is translated into the closed set before the guardrails see it
(:mod:`.anthropic_actions`). Results: one ``tool_result`` per ``tool_use``, in order: the note
as a text block, ``is_error`` for refusals, failures and skipped calls; the new screenshot
rides in the last successful result (else after the results); a zoom result carries its
crop. ``find_text``, ``read_text``, ``select``, ``hover`` and ``finished`` are custom tools
next to the computer tool; a turn that ends with text and no tool call is the answer too
(:mod:`.final_text`). History: screenshots leave in blocks (the text dialect's window)
and cache breakpoints sit on the system text and the recent and stable user turns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..core.config import AgentConfig
from ..core.errors import ConfigError
from ..core.stages import stage
from ..models.base import Model, SentImage, Usage
from ..models.sent import MAX_BREAKPOINTS
from .anthropic_actions import EXTRA_TOOLS, Translator
from .base import ActionResult, Call, Decision, Observation
from .final_text import final_text_call
from .native import (
    OMITTED,
    note_text,
    raw_json,
    stable_steps,
    system_text,
    task_text,
    window_start,
)
from .schema import tool_schemas

VERSIONS = {"computer_20250124": "computer-use-2025-01-24",
            "computer_20251124": "computer-use-2025-11-24",
            "computer_toolset_20260801": None}
DEFAULT_VERSION = "computer_20250124"
# Model names -> the newest tool version they take (the reference's table, 1.1): the GA
# toolset for the Claude 5 family and Opus 4.8 (which reject the older tools), zoom for
# Opus 4.5-4.7 and Sonnet 4.6; every other computer-use model takes computer_20250124.
_BY_MODEL = (("claude-opus-4-8", "computer_toolset_20260801"),
             ("claude-opus-5", "computer_toolset_20260801"),
             ("claude-sonnet-5", "computer_toolset_20260801"),
             ("claude-haiku-5", "computer_toolset_20260801"),
             ("claude-fable-5", "computer_toolset_20260801"),
             ("claude-mythos-5", "computer_toolset_20260801"),
             ("claude-opus-4-5", "computer_20251124"), ("claude-opus-4-6", "computer_20251124"),
             ("claude-opus-4-7", "computer_20251124"), ("claude-sonnet-4-6", "computer_20251124"))
TOOLSET = "computer_toolset_20260801"
CACHE = {"type": "ephemeral"}
INTRO = ("You are a web agent operating a real browser (one tab, one website) through "
         "screenshots and the computer tool. Several tool calls in one turn run in order and "
         "stop at the first that fails. Each result says in one sentence what the action did. "
         "Besides the computer tool: find_text and read_text read the page, select chooses an "
         "option in a dropdown (<select>, whose list never shows in screenshots), hover keeps "
         "the pointer on a point, and finished ends the task with the answer.")
STOPS = {"max_tokens": "Your reply was cut off at the token limit before a complete tool call.",
         "refusal": "The reply was a refusal and called no tool.",
         "pause_turn": "The turn was paused before any tool call."}
NO_CALL = ("Your reply called no tool and gave no answer. Act with the computer tool or the "
           "other tools; when you have the answer, call finished(content='the answer').")


@dataclass
class _Turn:
    step: int
    image: SentImage
    lead: list[dict[str, Any]]  # the blocks that open the step's user message (no image)
    reply: list[dict[str, Any]] | None = None  # the assistant's content blocks as received
    results: list[dict[str, Any]] = field(default_factory=list)  # tool_result blocks for it


def _image_block(image: SentImage) -> dict[str, Any]:
    import base64

    return {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                        "data": base64.b64encode(image.png).decode("ascii")}}


class AnthropicComputerDialect:
    name = "anthropic-computer"

    def __init__(self, model: Model, config: AgentConfig) -> None:
        from ..models.anthropic import AnthropicModel

        if not isinstance(model, AnthropicModel):
            raise ConfigError("the anthropic-computer dialect speaks the Anthropic Messages "
                              f"API: use an anthropic:<model> spec, not {model.name!r}")
        version = config.dialect_version or version_for(model.name)
        if version not in VERSIONS:
            raise ConfigError(f"unknown anthropic-computer version {version!r}: use one of "
                              f"{', '.join(VERSIONS)}")
        self.model, self.config, self.version = model, config, version
        self.betas = tuple(b for b in (VERSIONS[version],) if b)
        self.translator = Translator(version)
        self.turns: list[_Turn] = []
        self._pending: list[dict[str, Any]] = []  # the last reply's tool_use blocks

    # -- one step --------------------------------------------------------------------------

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        with stage("prompt"):
            self._answer(obs)
            body = self.body(obs)
        started = time.monotonic()
        message, usage = await self.model.send(body, timeout=timeout, betas=self.betas)
        seconds = time.monotonic() - started
        with stage("parse"):
            decision = self._decision(message.model_dump(exclude_none=True), obs)
        decision.usage, decision.model_seconds = usage, seconds
        decision.request_summary = self._summary(body)
        return decision

    def _answer(self, obs: Observation) -> None:
        """This step's user turn: a result per call of the last reply, or the task/feedback."""
        if obs.step == 1 or not self.turns:
            lead = [{"type": "text", "text": f"{task_text(obs.task)}\n\n{self._size(obs)}"}]
        elif not self._pending:
            lead = [{"type": "text", "text": f"{note_text(obs.note)}\n{self._size(obs)}"}]
        else:
            lead = []
            self.turns[-1].results = [self._result(use, r)
                                      for use, r in zip(self._pending, obs.results, strict=False)]
        self.turns.append(_Turn(obs.step, obs.image, lead))

    def _size(self, obs: Observation) -> str:
        return (f"The screenshot is {obs.image.width}x{obs.image.height} pixels, the size of "
                "the display; give coordinates in its pixels.")

    def _result(self, use: dict[str, Any], result: ActionResult) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": note_text(result.note)}]
        if result.image is not None:
            content.append(_image_block(result.image))
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": use["id"],
                                 "content": content}
        if result.error:
            block["is_error"] = True
        if use.get("toolset_name"):
            block["toolset_name"] = use["toolset_name"]
        return block

    def _decision(self, message: dict[str, Any], obs: Observation) -> Decision:
        content = [b for b in message.get("content") or [] if isinstance(b, dict)]
        uses = [b for b in content if b.get("type") == "tool_use"]
        thought = "\n".join(str(b.get("text", "")) for b in content if b.get("type") == "text")
        self.turns[-1].reply = content or [{"type": "text", "text": "(no reply)"}]
        self._pending = uses
        calls: list[Call] = [self.translator.call(use, obs) for use in uses]
        stop = str(message.get("stop_reason"))
        if not calls and stop not in STOPS:  # end_turn with text: Claude's last word
            calls = [c for c in (final_text_call(thought),) if c is not None]
        decision = Decision(raw=raw_json(message), thought=thought.strip(), calls=calls,
                            usage=Usage())
        if not calls:
            decision.parse_error = STOPS.get(stop, NO_CALL)
        return decision

    # -- the request -----------------------------------------------------------------------

    def tools(self, obs: Observation) -> list[dict[str, Any]]:
        if self.version == TOOLSET:
            computer: dict[str, Any] = {"type": TOOLSET}
        else:
            computer = {"type": self.version, "name": "computer",
                        "display_width_px": obs.image.width,
                        "display_height_px": obs.image.height}
            if self.version == "computer_20251124":
                computer["enable_zoom"] = True
        extra = [{"name": s.name, "description": s.description, "input_schema": s.input_schema}
                 for s in tool_schemas(EXTRA_TOOLS)]
        return [computer, *extra]

    def body(self, obs: Observation) -> dict[str, Any]:
        return {"max_tokens": self.config.max_tokens, **self.config.sampling,
                "system": [{"type": "text", "text": system_text(INTRO, obs.skills), "cache_control": CACHE}],
                "tools": self.tools(obs), "messages": self.messages()}

    def messages(self) -> list[dict[str, Any]]:
        step = self.turns[-1].step
        start = window_start(step, self.config)
        marked = stable_steps(step, self.config) | {step}
        users: list[tuple[int, list[dict[str, Any]]]] = []
        out: list[dict[str, Any]] = []
        for index, turn in enumerate(self.turns):
            previous = self.turns[index - 1] if index else None
            blocks = [*(previous.results if previous else []), *turn.lead]
            screen = _image_block(turn.image) if turn.step >= start else {
                "type": "text", "text": OMITTED}
            blocks = _with_screen(blocks, screen)
            out.append({"role": "user", "content": blocks})
            if turn.step in marked:
                users.append((len(out) - 1, blocks))
            if turn.reply is not None:
                out.append({"role": "assistant", "content": turn.reply})
        for _, blocks in users[-(MAX_BREAKPOINTS - 1):]:
            blocks[-1] = {**blocks[-1], "cache_control": CACHE}
        return out

    def _summary(self, body: dict[str, Any]) -> dict[str, Any]:
        step = self.turns[-1].step
        start = window_start(step, self.config)
        shown = [t for t in self.turns if t.step >= start]
        messages = body["messages"]
        texts = [t for m in messages for t in _texts(m["content"])]
        return {"system_chars": len(body["system"][0]["text"]), "turns": len(messages),
                "text_chars": sum(len(t) for t in texts),
                "images": [[t.image.width, t.image.height] for t in shown],
                "breakpoints": 1 + sum("cache_control" in m["content"][-1] for m in messages),
                "image_steps": [t.step for t in shown], "turn_text": "\n".join(
                    _texts(messages[-1]["content"])), "dialect": self.name,
                "version": self.version, "tools": [t.get("name") or t["type"]
                                                   for t in body["tools"]]}

    async def aclose(self) -> None:
        """Nothing to release: the model client belongs to the caller."""


def version_for(model: str) -> str:
    """The tool version for a model name (``anthropic:claude-opus-4-5`` -> computer_20251124)."""
    name = model.partition(":")[2] or model
    return next((v for prefix, v in _BY_MODEL if name.startswith(prefix)), DEFAULT_VERSION)


def _with_screen(blocks: list[dict[str, Any]], screen: dict[str, Any]) -> list[dict[str, Any]]:
    """The step's screenshot in the last successful tool_result without an image of its own,
    else after every block (tool_result blocks must come first in a user message)."""
    out = [dict(b) for b in blocks]
    last = out[-1] if out else None
    if (last is not None and last.get("type") == "tool_result" and not last.get("is_error")
            and all(c.get("type") != "image" for c in last["content"])):
        last["content"] = [*last["content"], screen]
        return out
    return [*out, screen]


def _texts(content: list[dict[str, Any]]) -> list[str]:
    out = []
    for block in content:
        if block.get("type") == "text":
            out.append(str(block.get("text", "")))
        elif block.get("type") == "tool_result":
            out.extend(_texts(block.get("content") or []))
    return out

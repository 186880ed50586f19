"""``tools``: the closed action set as JSON-schema functions, for any OpenAI-compatible
chat-completions server that parses tool calls (vLLM with ``--enable-auto-tool-choice``,
SGLang, Ollama, OpenAI itself).

Each step is a user message (the step's text and its screenshot), the assistant's message
with its ``tool_calls`` as received, and one ``tool`` message per call holding that call's
note (an error result says so in its text: chat completions has no error flag). Points are
``[x, y]`` in the space the prompt names (``--coords``), like the text dialect's. Screenshots
leave the history in blocks, as in the text dialect, so automatic prefix caching applies.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..actions.registry import Action, Point
from ..core.config import AgentConfig
from ..core.errors import ConfigError, ParseError
from ..core.stages import stage
from ..models.base import Model, SentImage, Usage
from ..models.openai_compat import OpenAICompatModel, data_url
from .base import ActionResult, Call, Decision, Observation
from .native import (
    OMITTED,
    note_text,
    raw_json,
    system_text,
    task_text,
    to_space,
    window_start,
)
from .schema import action_from_call, tool_schemas
from .text.prompt import asks_targets, coordinate_text, forms_text

INTRO = ("You are a web agent operating a real browser through screenshots. Each turn you see "
         "a screenshot of the page; act by calling the functions you are given (several calls "
         "in one turn run in order, stopping at the first that fails). Each call's result is "
         "one sentence saying what the action did.")
NO_CALL = ("Your reply called no function. Act by calling one of the functions; when you have "
           "the answer, call finished(content='the answer').")


@dataclass
class _Turn:
    step: int
    image: SentImage
    text: str
    reply: dict[str, Any] | None = None  # the assistant message as received
    answers: list[dict[str, Any]] = field(default_factory=list)  # its tool messages
    elements: str = ""  # --observation elements: sent with the screenshot, gone with it


def tool_definitions(forms: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": s.name, "description": s.description,
                                              "parameters": s.input_schema}}
            for s in tool_schemas(forms=forms)]


class ToolsDialect:
    name = "tools"

    def __init__(self, model: Model, config: AgentConfig) -> None:
        if not isinstance(model, OpenAICompatModel):
            raise ConfigError(f"the tools dialect speaks OpenAI chat completions with tool calls: "
                              f"use an openai:<model> spec, not {model.name!r}")
        self.model, self.config = model, config
        self.turns: list[_Turn] = []
        self.tools = tool_definitions(config.point_forms)
        self.offered = {t["function"]["name"] for t in self.tools}

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        with stage("prompt"):
            self._answer(obs.results)
            coords = coordinate_text(obs.space, obs.image.width, obs.image.height,
                                     self.config.coords,
                                     points=not asks_targets(self.config.point_forms))
            head = f"{task_text(obs.task)}\n\nStep 1." if obs.step == 1 else f"Step {obs.step}."
            answered = self.turns and self.turns[-1].answers
            if obs.step > 1 and obs.note and not answered:
                head += f" Feedback on your last reply: {note_text(obs.note)}"
            self.turns.append(_Turn(obs.step, obs.image, f"{head}\n{coords}",
                                    elements=obs.elements))
            messages = self.messages(obs.skills)
        started = time.monotonic()
        completion, usage = await self.model.send(
            messages, timeout=timeout, max_tokens=self.config.max_tokens,
            sampling=self.config.sampling, tools=self.tools)
        seconds = time.monotonic() - started
        with stage("parse"):
            message = completion.choices[0].message.model_dump(exclude_none=True)
            decision = self._decision(message, obs)
        decision.usage, decision.model_seconds = usage, seconds
        decision.request_summary = self._summary(messages)
        return decision

    def _decision(self, message: dict[str, Any], obs: Observation) -> Decision:
        thought = str(message.get("content") or "")
        raw_calls = [c for c in message.get("tool_calls") or [] if isinstance(c, dict)]
        calls = [self._call(c, i, obs) for i, c in enumerate(raw_calls)]
        reply: dict[str, Any] = {"role": "assistant", "content": thought or None}
        if calls:
            reply["tool_calls"] = [{"id": call.call_id, "type": "function",
                                    "function": {"name": call.native["name"],
                                                 "arguments": call.native["arguments"]}}
                                   for call in calls]
        self.turns[-1].reply = reply
        decision = Decision(raw=raw_json(message), thought=thought, calls=calls, usage=Usage())
        if not calls:
            decision.parse_error = NO_CALL
        return decision

    def _call(self, raw: dict[str, Any], index: int, obs: Observation) -> Call:
        function = raw.get("function") or {}
        arguments = function.get("arguments")
        native = {"name": str(function.get("name") or ""),
                  "arguments": arguments if isinstance(arguments, str)
                  else raw_json(arguments or {})}
        return translate(str(raw.get("id") or f"call_{obs.step}_{index}"), native, obs,
                         self.offered, self.config.point_forms)

    def _answer(self, results: tuple[ActionResult, ...]) -> None:
        """The previous turn's tool messages, one per call, in the calls' order."""
        if not self.turns or not results:
            return
        self.turns[-1].answers = [
            {"role": "tool", "tool_call_id": r.call_id,
             "content": f"Error: {note_text(r.note)}" if r.error else note_text(r.note)}
            for r in results]

    def messages(self, skills: str = "") -> list[Any]:
        start = window_start(self.turns[-1].step, self.config)
        intro = INTRO if not self.config.point_forms else (
            f"{INTRO}\n\n{forms_text(self.config.point_forms)}")
        out: list[Any] = [{"role": "system", "content": system_text(intro, skills)}]
        for turn in self.turns:
            shown = turn.step >= start
            text = turn.text if shown else f"{turn.text.rsplit(chr(10), 1)[0]}\n{OMITTED}"
            if shown and turn.elements:
                text = f"{text}\n{turn.elements}"
            parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
            if shown:
                parts.append({"type": "image_url", "image_url": {"url": data_url(turn.image)}})
            out.append({"role": "user", "content": parts})
            if turn.reply is not None:
                out.append(turn.reply)
                out.extend(turn.answers)
        return out

    def _summary(self, messages: list[Any]) -> dict[str, Any]:
        start = window_start(self.turns[-1].step, self.config)
        shown = [t for t in self.turns if t.step >= start]
        texts = [p.get("text", "") for m in messages[1:] for p in _parts(m)]
        return {"system_chars": len(messages[0]["content"]), "turns": len(messages) - 1,
                "text_chars": sum(len(t) for t in texts),
                "images": [[t.image.width, t.image.height] for t in shown], "breakpoints": 0,
                "image_steps": [t.step for t in shown], "turn_text": self.turns[-1].text,
                "dialect": self.name, "tools": sorted(self.offered)}

    async def aclose(self) -> None:
        """Nothing to release: the model client belongs to the caller."""


def translate(call_id: str | None, native: dict[str, Any], obs: Observation,
              offered: set[str] | None = None, forms: frozenset[str] = frozenset()) -> Call:
    """One function call (``{name, arguments}``, arguments as sent) as a closed-set action."""
    offered = offered if offered is not None else {t.name for t in tool_schemas()}
    name, arguments = str(native.get("name") or ""), native.get("arguments") or ""
    try:
        if name not in offered:
            raise ParseError(f"Malformed tool call: unknown function `{name[:60]}`; the "
                             f"functions are {', '.join(sorted(offered))}.")
        action = _inside(action_from_call(name, arguments, forms), obs)
    except ParseError as e:
        return Call(call_id, native, None, str(e))
    return Call(call_id, native, action)


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"text": content}]
    return [p for p in content or [] if isinstance(p, dict)]


def _inside(action: Action, obs: Observation) -> Action:
    """The action when its points lie in the image's space; ParseError otherwise (no clamp)."""
    grid = (obs.space.width, obs.space.height)
    for name, value in action.args.items():
        if isinstance(value, Point) and to_space(value.x, value.y, grid=grid,
                                                 space=obs.space) is None:
            raise ParseError(f"Malformed tool call: `{action.name}.{name}` [{value.x:g}, "
                             f"{value.y:g}] is outside the screenshot's space, which is "
                             f"{obs.space.width:g}x{obs.space.height:g}; give a point inside it.")
    return action

"""``openai-computer``: the OpenAI Responses API's computer-use tool (docs/dialects.md).

Two tool versions: ``preview`` (``computer_use_preview``, model ``computer-use-preview``,
one ``action`` per call, a declared display size: the sent image's) and ``ga`` (``{"type":
"computer"}``, gpt-5.4 and later, batched ``actions[]``). Either way the model answers in
pixels of the screenshot it got; :mod:`.openai_actions` maps them into the model space.

Chaining: ``previous_response_id`` (the API's stored conversation), so each request carries
only what is new: one ``computer_call_output`` per computer call (the screenshot after the
batch, with ``acknowledged_safety_checks`` when the user chose to acknowledge them), one
``function_call_output`` per function call, and one user message with the notes. The
reasoning items stay server-side (a full-input client must send them all back), the
screenshot is the only image uploaded per step, and the prefix the API caches is by
construction the same from one step to the next. The note rides in that user message:
``computer_call_output`` has no text or error field. A response with a ``message`` and no
call is the model's answer, as ``finished`` (:mod:`.final_text`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..core.config import AgentConfig, Size
from ..core.errors import ConfigError, ModelError, ParseError
from ..core.stages import stage
from ..models.base import Model, SentImage, Usage
from ..models.native_http import NativeClient, endpoint_of, shape_error
from ..models.retry import Endpoint
from .base import ActionResult, Call, Decision, Observation, SafetyCheck
from .final_text import final_text_call
from .native import note_text, system_text, task_text
from .openai_actions import from_openai
from .schema import action_from_call, tool_schemas

Version = Literal["preview", "ga"]
VERSIONS: tuple[Version, ...] = ("preview", "ga")
# Offered as functions next to the computer tool: what a screenshot hides (find_text,
# read_text), native <select>s (their popups do not show in headless screenshots), a field
# set with read-back (fill), and the answer (the protocol has no finish action).
EXTRAS = ("find_text", "read_text", "select", "fill", "finished")

INTRO = ("You are a web agent operating a real browser (one tab, one website) through "
         "screenshots and the computer tool; the actions of one computer call run in order "
         "and stop at the first that fails. After each call you get the new screenshot and "
         "one sentence per action saying what it did. Besides the computer tool: find_text "
         "and read_text read the page, select chooses an option in a dropdown (<select>, whose "
         "list never shows in screenshots), fill sets a field and reads its value back, and "
         "finished ends the task with the answer. Their points are pixels [x, y] of the latest "
         "screenshot.")
INSTRUCTIONS = system_text(INTRO)


def version_for(model: str, configured: str | None) -> Version:
    """The tool version: ``--dialect-version`` / the profile's, else by model name (the
    ``computer-use-preview`` models speak the preview tool; the GA models the GA one)."""
    if configured is not None:
        if configured not in VERSIONS:
            raise ConfigError(f"openai-computer has tool versions {', '.join(VERSIONS)}, not "
                              f"{configured!r}")
        return configured
    return "preview" if "computer-use-preview" in model else "ga"


@dataclass(frozen=True)
class _Asked:
    """What the last response asked: its id, and its calls in the Decision's order."""

    response_id: str
    kinds: tuple[tuple[str, str], ...]  # (call_id, "computer" | "function") per Call
    checks: Mapping[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)


class OpenAIComputerDialect:
    name = "openai-computer"

    def __init__(self, *, client: NativeClient, model: str, version: Version,
                 acknowledge_safety_checks: bool) -> None:
        self._client, self.model, self.version = client, model, version
        self._acknowledge = acknowledge_safety_checks
        self._asked: _Asked | None = None
        self._url = client.endpoint.base_url.rstrip("/") + "/responses"

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        with stage("prompt"):
            body, notes = self.request(obs)
        reply, usage, seconds = await self._client.exchange(self._url, body, timeout=timeout)
        with stage("parse"):
            decision = self.read(reply, obs, usage)
        decision.model_seconds = seconds
        decision.request_summary = _summary(body, obs, notes)
        return decision

    # -- the request ---------------------------------------------------------------------------

    def request(self, obs: Observation) -> tuple[dict[str, Any], str]:
        """This step's body and the text of its notes message."""
        instructions = f"{INSTRUCTIONS}\n\n{obs.skills}" if obs.skills else INSTRUCTIONS
        body: dict[str, Any] = {"model": self.model, "instructions": instructions,
                                "tools": self.tools(obs.image), "truncation": "auto",
                                "reasoning": {"summary": "concise"}, "store": True}
        if self._asked is None:
            body["input"] = [_message(task_text(obs.task), obs.image)]
            return body, ""
        body["previous_response_id"] = self._asked.response_id
        items, notes = self.answers(obs)
        body["input"] = items
        return body, notes

    def tools(self, image: SentImage) -> list[dict[str, Any]]:
        computer: dict[str, Any] = {"type": "computer"}
        if self.version == "preview":
            computer = {"type": "computer_use_preview", "display_width": image.width,
                        "display_height": image.height, "environment": "browser"}
        functions = [{"type": "function", "name": s.name, "description": s.description,
                      "parameters": s.input_schema, "strict": False}
                     for s in tool_schemas(EXTRAS)]
        return [computer, *functions]

    def answers(self, obs: Observation) -> tuple[list[dict[str, Any]], str]:
        """Each call of the last response answered, then the notes as one user message."""
        assert self._asked is not None
        items: list[dict[str, Any]] = []
        lines: list[str] = []
        answered: set[str] = set()
        computer = False
        for (call_id, kind), result in zip(self._asked.kinds, _padded(obs, self._asked), strict=True):
            if kind == "function":
                items.append({"type": "function_call_output", "call_id": call_id,
                              "output": note_text(_said(result))})
                continue
            computer = True
            lines.append(f"[{len(lines) + 1}] {note_text(_said(result))}")
            if call_id not in answered:
                answered.add(call_id)
                items.append(self._screenshot(call_id, obs))
        text = note_text(obs.note) if not self._asked.kinds else (
            "What your actions did:\n" + "\n".join(lines) if lines else "")
        if text or not computer:
            # After functions only (or no call at all), the new screenshot rides here.
            items.append(_message(text or "The page now:", None if computer else obs.image))
        return items, text

    def _screenshot(self, call_id: str, obs: Observation) -> dict[str, Any]:
        output: dict[str, Any] = {"type": "computer_screenshot", "image_url": _data_url(obs.image)}
        if self.version == "preview":
            output["current_url"] = obs.url  # read by the preview's domain checks (Azure docs)
        item: dict[str, Any] = {"type": "computer_call_output", "call_id": call_id,
                                "output": output}
        checks = self._asked.checks.get(call_id) if self._asked else None
        if checks and self._acknowledge:
            # The loop stops the task unless the user acknowledged checks; here they did.
            item["acknowledged_safety_checks"] = list(checks)
        return item

    # -- the reply -----------------------------------------------------------------------------

    def read(self, reply: Mapping[str, Any], obs: Observation, usage: Usage) -> Decision:
        endpoint = self._client.endpoint
        output, response_id = reply.get("output"), reply.get("id")
        if not isinstance(output, list) or not isinstance(response_id, str):
            raise shape_error(endpoint, "a response without `id` and `output`", reply)
        if reply.get("status") == "failed":
            raise ModelError(f"{endpoint.label()} failed the response: {reply.get('error')}")
        _add_usage(usage, reply.get("usage"))
        thoughts: list[str] = []
        calls: list[Call] = []
        kinds: list[tuple[str, str]] = []
        checks: dict[str, tuple[dict[str, Any], ...]] = {}
        safety: list[SafetyCheck] = []
        for item in output:
            if not isinstance(item, dict):
                continue
            thoughts += _texts(item)
            if item.get("type") == "computer_call":
                made = self._computer_calls(item, obs)
                call_id = str(item.get("call_id"))
                pending = tuple(c for c in item.get("pending_safety_checks") or ()
                                if isinstance(c, dict))
                checks[call_id] = pending
                safety += [SafetyCheck(str(c.get("code")), str(c.get("message") or ""),
                                       str(c.get("id"))) for c in pending]
                calls += made
                kinds += [(call_id, "computer")] * len(made)
            elif item.get("type") == "function_call":
                calls.append(_function_call(item))
                kinds.append((str(item.get("call_id")), "function"))
        if not calls and reply.get("status") != "incomplete":  # a message: the last word
            said = "\n".join(t for i in output if isinstance(i, dict) and i.get("type") == "message"
                             for t in _texts(i))
            calls = [c for c in (final_text_call(said),) if c is not None]
        self._asked = _Asked(response_id, tuple(kinds), checks)
        decision = Decision(raw=json.dumps(output), thought="\n".join(thoughts), calls=calls,
                            usage=usage, safety_checks=safety)
        if not calls:
            decision.parse_error = _no_call(reply)
        return decision

    def _computer_calls(self, item: Mapping[str, Any], obs: Observation) -> list[Call]:
        actions = item.get("actions")
        if not isinstance(actions, list):
            actions = [item.get("action")] if item.get("action") is not None else []
        call_id = str(item.get("call_id"))
        if not actions:
            return [Call(call_id, {"type": "computer_call"}, None,
                         "the computer_call has no action")]
        return [translate({"type": "computer_call", "call_id": call_id, "index": index,
                           "action": action}, obs) for index, action in enumerate(actions)]

    async def aclose(self) -> None:
        await self._client.aclose()


def _padded(obs: Observation, asked: _Asked) -> Sequence[ActionResult | None]:
    """One result per asked call; a call the loop never got to (the task ended) has none."""
    results: list[ActionResult | None] = list(obs.results[:len(asked.kinds)])
    return results + [None] * (len(asked.kinds) - len(results))


def _said(result: ActionResult | None) -> str:
    if result is None:
        return "Error: not executed."
    return f"Error: {result.note}" if result.error else result.note


def _message(text: str, image: SentImage | None) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "input_text", "text": text}]
    if image is not None:
        content.append({"type": "input_image", "image_url": _data_url(image), "detail": "high"})
    return {"type": "message", "role": "user", "content": content}


def _data_url(image: SentImage) -> str:
    return "data:image/png;base64," + base64.b64encode(image.png).decode("ascii")


def _texts(item: Mapping[str, Any]) -> list[str]:
    if item.get("type") == "reasoning":
        return [str(s.get("text", "")) for s in item.get("summary") or () if isinstance(s, dict)]
    if item.get("type") == "message":
        return [str(c.get("text", "")) for c in item.get("content") or ()
                if isinstance(c, dict) and c.get("type") == "output_text"]
    return []


def translate(native: Mapping[str, Any], obs: Observation) -> Call:
    """One recorded call (a computer action ``{type: computer_call, call_id, index, action}``
    or a ``function_call``) as a Call, with the current tables (also what ``replay``
    translates again)."""
    if native.get("type") == "function_call":
        return _function_call(native)
    call_id, action = str(native.get("call_id")), native.get("action")
    if not isinstance(action, dict):
        return Call(call_id, dict(native), None,
                    f"action {int(native.get('index') or 0) + 1} of the computer_call is not an "
                    "object")
    t = from_openai(action, image=Size(obs.image.width, obs.image.height), space=obs.space)
    return Call(call_id, dict(native), t.action, t.error, t.guardrail)


def _function_call(item: Mapping[str, Any]) -> Call:
    name, arguments = str(item.get("name")), item.get("arguments", "")
    native = {"type": "function_call", "call_id": item.get("call_id"), "name": name,
              "arguments": arguments}
    try:
        args = arguments if isinstance(arguments, str | dict) else json.dumps(arguments)
        return Call(str(item.get("call_id")), native, action_from_call(name, args))
    except ParseError as e:
        return Call(str(item.get("call_id")), native, None, str(e))


def _no_call(reply: Mapping[str, Any]) -> str:
    if reply.get("status") == "incomplete":
        return (f"Your reply was cut short ({(reply.get('incomplete_details') or {}).get('reason')})"
                " before any action. Act with one computer action, or call finished(content=...).")
    return ("Your reply has no computer action, no function call and no answer. Act on the "
            "page, or give the answer with finished(content=...).")


def _add_usage(usage: Usage, given: object) -> None:
    """``input_tokens`` counts the cached ones; Usage keeps them apart. Reasoning tokens are
    part of ``output_tokens`` (billed as output) and recorded on their own as well."""
    if not isinstance(given, dict):
        return
    details = given.get("input_tokens_details") or {}
    cached = int(details.get("cached_tokens") or 0)
    written = int(details.get("cache_write_tokens") or 0)
    usage.input_tokens += int(given.get("input_tokens") or 0) - cached - written
    usage.cache_read_tokens += cached
    usage.cache_write_tokens += written
    usage.output_tokens += int(given.get("output_tokens") or 0)
    usage.reasoning_tokens += int((given.get("output_tokens_details") or {}).get(
        "reasoning_tokens") or 0)


def _summary(body: Mapping[str, Any], obs: Observation, notes: str) -> dict[str, Any]:
    """What the step record keeps of the request (the viewer's "sent" panel, cost)."""
    items = body.get("input") or []
    images = sum(1 for i in items if i.get("type") == "computer_call_output") + sum(
        1 for i in items for c in i.get("content") or () if c.get("type") == "input_image")
    return {"dialect": "openai-computer", "tool": body["tools"][0]["type"],
            "previous_response_id": body.get("previous_response_id"),
            "items": [i.get("type") for i in items], "turns": len(items),
            "system_chars": len(body["instructions"]), "text_chars": len(notes),
            "images": [[obs.image.width, obs.image.height]] * images,
            "image_steps": [obs.step] if images else [], "turn_text": notes}


def openai_computer(model: Model, config: AgentConfig) -> OpenAIComputerDialect:
    """The factory ``--dialect openai-computer`` names: speaks to the ``openai:`` model's
    endpoint with the Responses API."""
    endpoint = endpoint_of(model, "openai", OpenAIComputerDialect.name)
    name = endpoint.model
    headers = {"authorization": f"Bearer {endpoint.secret or 'EMPTY'}"}
    client = NativeClient(Endpoint("OpenAI Responses", name, endpoint.base_url, endpoint.key_var,
                                   endpoint.secret), headers=headers)
    return OpenAIComputerDialect(client=client, model=name,
                                 version=version_for(name, config.dialect_version),
                                 acknowledge_safety_checks=config.acknowledge_safety_checks)

"""``gemini-computer``: Gemini's computer_use tool over ``generateContent`` (docs/dialects.md).

Two function vocabularies (:mod:`.gemini_actions`): ``legacy`` for the 2.5 computer-use
preview, 3-flash-preview and 3.1-pro-preview models, ``new`` for 3.5 and later. Points are on
the 0–999 grid over the screenshot.

The conversation is sent whole each step (the API keeps nothing). The model's turns go back
exactly as received (Gemini 3 rejects a function call turn without its thought signature);
each function call is answered by one ``functionResponse``, in order, all in one user turn:
``response`` holds ``url`` (the reference's key), ``note`` (the one-sentence feedback) and,
for a refused, failed or skipped call, ``error`` with the same sentence, plus
``safety_acknowledgement: "true"`` when the user chose to acknowledge a
``require_confirmation``; the screenshot after the batch rides in the last computer-use
response's ``parts``. Screenshots of older turns are dropped in blocks of five (between 5
and 9 kept), so the prefix stays byte-identical for four steps out of five and implicit
caching can read it. Text parts (not thoughts) with no function call, the turn finished
(``STOP``), are the model's answer, as ``finished`` (:mod:`.final_text`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.config import AgentConfig
from ..core.domains import DomainPolicy
from ..core.errors import ConfigError, ParseError
from ..core.stages import stage
from ..models.base import Model, SentImage, Usage
from ..models.native_http import NativeClient, endpoint_of, shape_error
from ..models.retry import Endpoint
from .base import ActionResult, Call, Decision, Observation, SafetyCheck
from .final_text import final_text_call
from .gemini_actions import FUNCTIONS, Vocabulary, from_gemini
from .native import note_text, system_text, task_text
from .schema import action_from_call, tool_schemas

VOCABULARIES: tuple[Vocabulary, ...] = ("legacy", "new")
LEGACY_MODELS = ("2.5", "3-flash-preview", "3.1-pro-preview")
KEEP_IMAGES = 5  # the prompt contract's minimum; dropped in blocks of this many
# As in openai_computer; hover is native here (hover_at / move). The legacy vocabulary's
# type_text_at is fill already.
EXTRAS: dict[Vocabulary, tuple[str, ...]] = {
    "legacy": ("find_text", "read_text", "select", "finished"),
    "new": ("find_text", "read_text", "select", "fill", "finished")}

INTRO = ("You are a web agent operating a real browser (one tab, one website) through "
         "screenshots and the computer-use actions; several calls in one turn run in order "
         "and stop at the first that fails. Each function response says in `note` what the "
         "action did (and in `error` why it was refused or failed). Besides the computer-use "
         "actions: find_text and read_text read the page, select chooses an option in a "
         "dropdown (<select>, whose list never shows in screenshots){fill}, and finished ends "
         "the task with the answer. Their points are pixels [x, y] of the latest screenshot "
         "({width}x{height}); the computer-use actions keep their 0-999 grid.")


def vocabulary_for(model: str, configured: str | None) -> Vocabulary:
    """``--dialect-version`` / the profile's, else by model id (the reference's rule)."""
    if configured is not None:
        if configured not in VOCABULARIES:
            raise ConfigError(f"gemini-computer has vocabularies {', '.join(VOCABULARIES)}, not "
                              f"{configured!r}")
        return configured
    return "legacy" if any(m in model for m in LEGACY_MODELS) else "new"


@dataclass
class _UserTurn:
    """A user turn as sent, its screenshot apart so old ones can be dropped."""

    parts: list[dict[str, Any]]
    image: SentImage | None = None
    image_at: int = -1  # index of the part that carries the image; -1: a part of its own


@dataclass
class _Asked:
    """The last model turn's calls, one entry per Call, in order."""

    calls: list[tuple[int, str, bool]] = field(default_factory=list)  # (index, name, computer)
    confirm: set[int] = field(default_factory=set)  # indexes asking for confirmation


class GeminiComputerDialect:
    name = "gemini-computer"

    def __init__(self, *, client: NativeClient, model: str, vocabulary: Vocabulary,
                 acknowledge_safety_checks: bool, allow_domains: tuple[str, ...] = ()) -> None:
        self._client, self.model, self.vocabulary = client, model, vocabulary
        self._acknowledge, self._allow = acknowledge_safety_checks, allow_domains
        self._policy: DomainPolicy | None = None
        self._history: list[dict[str, Any] | _UserTurn] = []
        self._asked: _Asked | None = None
        base = client.endpoint.base_url.rstrip("/")
        self._url = f"{base}/v1beta/models/{model}:generateContent"

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        if self._policy is None:  # the first page is the task's entry: the lock's site
            self._policy = DomainPolicy.for_task(obs.url, self._allow)
        with stage("prompt"):
            turn = self.answers(obs)
            self._history.append(turn)
            body = self.request(obs)
        reply, usage, seconds = await self._client.exchange(self._url, body, timeout=timeout)
        with stage("parse"):
            decision = self.read(reply, obs, usage)
        decision.model_seconds = seconds
        decision.request_summary = _summary(body, obs, turn)
        return decision

    # -- the request ---------------------------------------------------------------------------

    def request(self, obs: Observation) -> dict[str, Any]:
        fill = ", fill sets a field and reads its value back" if "fill" in EXTRAS[self.vocabulary] else ""
        system = system_text(INTRO.format(fill=fill, width=obs.image.width,
                                          height=obs.image.height), obs.skills)
        functions = [{"name": s.name, "description": s.description,
                      "parameters": _openapi(s.input_schema)}
                     for s in tool_schemas(EXTRAS[self.vocabulary])]
        return {"systemInstruction": {"parts": [{"text": system}]},
                "contents": self.contents(),
                "tools": [{"computerUse": {"environment": "ENVIRONMENT_BROWSER"}},
                          {"functionDeclarations": functions}]}

    def contents(self) -> list[dict[str, Any]]:
        """The history with the screenshots of the kept turns only (dropped in blocks)."""
        with_images = [i for i, t in enumerate(self._history)
                       if isinstance(t, _UserTurn) and t.image is not None]
        dropped = max(0, len(with_images) - KEEP_IMAGES) // KEEP_IMAGES * KEEP_IMAGES
        keep = set(with_images[dropped:])
        return [t if isinstance(t, dict) else _rendered(t, i in keep)
                for i, t in enumerate(self._history)]

    def answers(self, obs: Observation) -> _UserTurn:
        """This step's user turn: the task, or one function response per call of the last
        model turn (the screenshot in the last computer-use one), or the note."""
        if self._asked is None:
            return _UserTurn([{"text": task_text(obs.task)}], obs.image)
        if not self._asked.calls:
            return _UserTurn([{"text": note_text(obs.note) or "The page now:"}], obs.image)
        merged = _merged(self._asked, obs.results)
        parts = [{"functionResponse": {"name": name, "response": self._response(
                     obs, index, computer, results)}}
                 for (index, name, computer), results in merged.items()]
        last_computer = max((n for n, (_, _, computer) in enumerate(merged) if computer),
                            default=-1)
        if last_computer < 0:  # functions only: the new screenshot in a part of its own
            return _UserTurn(parts, obs.image)
        return _UserTurn(parts, obs.image, last_computer)

    def _response(self, obs: Observation, index: int, computer: bool,
                  results: list[ActionResult | None]) -> dict[str, Any]:
        notes = [note_text(r.note) if r is not None else "not executed." for r in results]
        error = any(r is None or r.error for r in results)
        response: dict[str, Any] = {"note": " ".join(notes)}
        if computer:
            response = {"url": obs.url, **response}
        if error:
            response["error"] = response["note"]
        if self._asked is not None and index in self._asked.confirm and self._acknowledge:
            response["safety_acknowledgement"] = "true"
        return response

    # -- the reply -----------------------------------------------------------------------------

    def read(self, reply: Mapping[str, Any], obs: Observation, usage: Usage) -> Decision:
        endpoint = self._client.endpoint
        candidates = reply.get("candidates")
        if not isinstance(candidates, list) or not candidates or not isinstance(candidates[0], dict):
            raise shape_error(endpoint, "a response without candidates", reply)
        _add_usage(usage, reply.get("usageMetadata"))
        candidate = candidates[0]
        content = candidate.get("content") or {}
        parts = [p for p in content.get("parts") or () if isinstance(p, dict)]
        if parts:
            self._history.append({"role": "model", "parts": parts})  # exactly as received
        thoughts, calls, safety = [], [], []
        asked = _Asked()
        for index, part in enumerate(parts):
            if isinstance(part.get("text"), str):
                thoughts.append(part["text"])
            call = part.get("functionCall")
            if not isinstance(call, dict):
                continue
            made, check, intent = self._calls(index, call, obs)
            thoughts += [intent] if intent else []
            if check is not None:
                safety.append(check)
                asked.confirm.add(index)
            computer = str(call.get("name")) in FUNCTIONS[self.vocabulary]
            asked.calls += [(index, str(call.get("name")), computer)] * len(made)
            calls += made
        if not calls and candidate.get("finishReason") in (None, "STOP"):  # the last word
            said = "\n".join(p["text"] for p in parts
                             if isinstance(p.get("text"), str) and not p.get("thought"))
            calls = [c for c in (final_text_call(said),) if c is not None]
        self._asked = asked
        decision = Decision(raw=json.dumps(parts), thought="\n".join(thoughts), calls=calls,
                            usage=usage, safety_checks=safety)
        if not calls:
            decision.parse_error = _no_call(candidate)
        return decision

    def _calls(self, index: int, call: Mapping[str, Any], obs: Observation
               ) -> tuple[list[Call], SafetyCheck | None, str]:
        name, args = str(call.get("name")), call.get("args") or {}
        native = {"index": index, "name": name, "args": args}
        if not isinstance(args, dict):
            return [Call(f"{index}:{name}", native, None,
                         f"the arguments of {name} must be an object")], None, ""
        decision = args.get("safety_decision") or {}
        check = None
        if isinstance(decision, dict) and decision.get("decision") == "require_confirmation":
            check = SafetyCheck("require_confirmation", str(decision.get("explanation", "")), name)
        made = translate(native, obs, vocabulary=self.vocabulary, policy=self._policy)
        return made, check, str(args.get("intent") or "")

    async def aclose(self) -> None:
        await self._client.aclose()


def translate(native: Mapping[str, Any], obs: Observation, *, vocabulary: Vocabulary,
              policy: DomainPolicy | None) -> list[Call]:
    """One recorded function call (``{index, name, args}``) as Calls, with the current tables
    (also what ``replay`` translates again). A call that became two actions (type_text_at
    without clearing) records which one each Call is as ``part``."""
    name, args = str(native.get("name")), native.get("args") or {}
    given = {k: v for k, v in args.items() if k not in ("safety_decision", "intent")}
    call_id = f"{native.get('index')}:{name}"
    base = {k: v for k, v in native.items() if k != "part"}
    if name not in FUNCTIONS[vocabulary]:
        try:
            return [Call(call_id, base, action_from_call(name, given))]
        except ParseError as e:
            return [Call(call_id, base, None, str(e))]
    made = from_gemini(name, given, vocabulary=vocabulary, space=obs.space, policy=policy)
    if len(made) == 1:
        return [Call(call_id, base, made[0].action, made[0].error, made[0].guardrail)]
    return [Call(call_id, {**base, "part": i}, t.action, t.error, t.guardrail)
            for i, t in enumerate(made)]


def translate_recorded(native: Mapping[str, Any], obs: Observation,
                       version: str | None) -> Call:
    """A step record's call translated again (``replay``): its vocabulary is the recorded
    version, else the one its function belongs to; the lock's site is the step's page."""
    name = str(native.get("name"))
    vocabulary: Vocabulary = "legacy" if version == "legacy" or (
        version is None and name in FUNCTIONS["legacy"] and name not in FUNCTIONS["new"]) else "new"
    made = translate(native, obs, vocabulary=vocabulary,
                     policy=DomainPolicy.for_task(obs.url) if obs.url else None)
    return made[min(int(native.get("part") or 0), len(made) - 1)]


def _merged(asked: _Asked, results: tuple[ActionResult, ...]
            ) -> dict[tuple[int, str, bool], list[ActionResult | None]]:
    """The results of each model call (type_text_at may have run as two actions), in order;
    a call the loop never got to has None."""
    merged: dict[tuple[int, str, bool], list[ActionResult | None]] = {}
    for n, key in enumerate(asked.calls):
        merged.setdefault(key, []).append(results[n] if n < len(results) else None)
    return merged


def _rendered(turn: _UserTurn, with_image: bool) -> dict[str, Any]:
    parts = [dict(p) for p in turn.parts]
    if turn.image is not None and with_image:
        inline = {"inlineData": {"mimeType": "image/png",
                                 "data": base64.b64encode(turn.image.png).decode("ascii")}}
        if turn.image_at >= 0:
            response = dict(parts[turn.image_at]["functionResponse"])
            parts[turn.image_at] = {"functionResponse": {**response, "parts": [inline]}}
        else:
            parts.append(inline)
    return {"role": "user", "parts": parts}


def _openapi(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON schema in the OpenAPI subset function declarations accept (no
    additionalProperties, no defaults, no minimum on items)."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("additionalProperties", "default", "minimum"):
            continue
        if isinstance(value, dict):
            value = {k: _openapi(v) if isinstance(v, dict) else v for k, v in value.items()} \
                if key == "properties" else _openapi(value)
        out[key] = value
    return out


def _no_call(candidate: Mapping[str, Any]) -> str:
    reason = candidate.get("finishReason")
    if reason == "MALFORMED_FUNCTION_CALL":
        return ("Your function call was malformed (finishReason MALFORMED_FUNCTION_CALL). Call "
                "one computer-use action, or finished(content=...).")
    return ("Your reply has no function call and no answer. Act on the page, or give the answer "
            "with finished(content=...).")


def _add_usage(usage: Usage, given: object) -> None:
    """``promptTokenCount`` includes the cached tokens; thoughts are billed as output but
    reported apart from ``candidatesTokenCount``."""
    if not isinstance(given, dict):
        return
    cached = int(given.get("cachedContentTokenCount") or 0)
    thoughts = int(given.get("thoughtsTokenCount") or 0)
    usage.input_tokens += int(given.get("promptTokenCount") or 0) - cached
    usage.cache_read_tokens += cached
    usage.output_tokens += int(given.get("candidatesTokenCount") or 0) + thoughts
    usage.reasoning_tokens += thoughts


def _summary(body: Mapping[str, Any], obs: Observation, turn: _UserTurn) -> dict[str, Any]:
    contents = body["contents"]
    images = sum(1 for c in contents for p in c["parts"]
                 if "inlineData" in p or "parts" in p.get("functionResponse", {}))
    text = "\n".join(json.dumps(p.get("functionResponse", {}).get("response")) if
                     "functionResponse" in p else str(p.get("text", "")) for p in turn.parts)
    return {"dialect": "gemini-computer", "turns": len(contents),
            "system_chars": len(body["systemInstruction"]["parts"][0]["text"]),
            "text_chars": len(text), "images": [[obs.image.width, obs.image.height]] * images,
            "image_steps": [obs.step], "turn_text": text}


def gemini_computer(model: Model, config: AgentConfig) -> GeminiComputerDialect:
    """The factory ``--dialect gemini-computer`` names."""
    endpoint = endpoint_of(model, "gemini", GeminiComputerDialect.name)
    name = endpoint.model
    client = NativeClient(Endpoint("Gemini", name, endpoint.base_url, endpoint.key_var,
                                   endpoint.secret),
                          headers={"x-goog-api-key": endpoint.secret or ""})
    return GeminiComputerDialect(client=client, model=name,
                                 vocabulary=vocabulary_for(name, config.dialect_version),
                                 acknowledge_safety_checks=config.acknowledge_safety_checks,
                                 allow_domains=config.allow_domains)

"""``POST /v1beta/models/{model}:generateContent``: the Gemini API as the fake provider speaks it.

Shapes follow the Gemini REST API (camelCase; snake_case is read too, as the API accepts
both): ``candidates[0].content.parts`` of ``text`` and ``functionCall`` (with a
``thoughtSignature`` that must come back with the model turn, as Gemini 3 requires),
``finishReason``, and ``usageMetadata`` whose ``promptTokenCount`` includes
``cachedContentTokenCount`` (implicit caching: every prefix seen before is read) and whose
``thoughtsTokenCount`` is apart from ``candidatesTokenCount``. The key travels in
``x-goog-api-key`` (or ``?key=``).

It answers 400 in the API's error form (``{"error": {"code", "message", "status"}}``) for a
function call turn not followed by one function response per call, for a function call
whose ``safety_decision`` asked for confirmation and whose response does not acknowledge
it, and for a model turn echoed without its thought signature.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from PIL import Image

from ...models.prefix_cache import Block, PrefixCache
from .fake_tools import FakeReply
from .fake_wire import (
    Failure,
    FakeRequest,
    FakeTurn,
    Response,
    Server,
    count_text_tokens,
    fit_within,
    image_tokens,
    open_image,
)
from .native_reply import native_items

GEMINI_PATH = re.compile(r"^/v1(?:beta)?/models/(?P<model>[^/:]+):generateContent$")
PROVIDER = "gemini"
STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
          404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}


class Rejected(Exception):
    """A request the real API refuses with 400."""


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    cache: dict[str, PrefixCache] = field(default_factory=dict)
    signatures: set[str] = field(default_factory=set)  # thought signatures handed out


_STATES: weakref.WeakKeyDictionary[Server, _State] = weakref.WeakKeyDictionary()
_STATES_LOCK = threading.Lock()


def _state(fp: Server) -> _State:
    with _STATES_LOCK:
        return _STATES.setdefault(fp, _State())


def error(status: int, message: str) -> Response:

    return Response(status, {"error": {"code": status, "message": message,
                                        "status": STATUS.get(status, "UNKNOWN")}})


def answer(fp: Server, path: str, headers: Mapping[str, str], raw: bytes) -> Response:
    state = _state(fp)
    match = GEMINI_PATH.match(path.split("?", 1)[0])
    assert match is not None  # the route was chosen by this very pattern
    model = match.group("model")
    try:
        body = json.loads(raw)
        if not isinstance(body, dict):
            raise Rejected("the body must be a JSON object")
        contents = _contents(body)
        _check_turns(state, contents)
        request, blocks = _decode(fp, model, body, contents, headers)
    except (Rejected, ValueError) as bad:
        return error(400, str(bad))
    number, failure = fp.admit(request)
    refused = _refused(fp, model, path, headers, failure)
    if refused is not None:
        return refused
    try:
        reply = fp.policy(request)
        parts, finish = _parts(state, body, reply, number)
    except Exception as bad:
        return error(400, f"policy failed: {type(bad).__name__}: {bad}")
    return _respond(state, model, parts, finish, (blocks, fp.cache_min_tokens), number)


def _refused(fp: Server, model: str, path: str, headers: Mapping[str, str],
             failure: Failure | None) -> Response | None:

    if failure is not None:
        headers_out = {} if failure.retry_after is None else {"Retry-After": failure.retry_after}
        if isinstance(failure.body, bytes | Mapping):
            return Response(failure.status, failure.body, headers_out)
        response = error(failure.status, failure.body or f"injected HTTP {failure.status}")
        return Response(response.status, response.payload, headers_out)
    lower = {k.lower(): v for k, v in headers.items()}
    key = lower.get("x-goog-api-key") or parse_qs(urlsplit(path).query).get("key", [None])[0]
    if fp.api_key is not None and key != fp.api_key:
        return error(400, "API key not valid. Please pass a valid API key.")
    if fp.models is not None and model not in fp.models:
        return error(404, f"models/{model} is not found for API version v1beta, or is not "
                          "supported for generateContent.")
    return None


# -- the conversation and its rules -----------------------------------------------------------


def _get(part: Mapping[str, Any], camel: str) -> Any:
    """A field by its camelCase name or its snake_case one."""
    snake = "".join("_" + c.lower() if c.isupper() else c for c in camel)
    return part.get(camel, part.get(snake))


def _contents(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        raise Rejected("* GenerateContentRequest.contents: contents is not specified")
    for content in contents:
        if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
            raise Rejected("each content must be an object with a list of parts")
        if content.get("role", "user") not in ("user", "model"):
            raise Rejected(f"Please use a valid role: user, model (got {content.get('role')!r}).")
    return contents


def _calls(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [c for p in content["parts"] if isinstance(c := _get(p, "functionCall"), dict)]


def _responses(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [r for p in content["parts"] if isinstance(r := _get(p, "functionResponse"), dict)]


def _check_turns(state: _State, contents: Sequence[Mapping[str, Any]]) -> None:
    for i, content in enumerate(contents):
        calls = _calls(content) if content.get("role") == "model" else []
        if not calls:
            continue
        _check_signature(state, content)
        following = contents[i + 1] if i + 1 < len(contents) else None
        answers = _responses(following) if following is not None else []
        if len(answers) != len(calls):
            raise Rejected("Please ensure that the number of function response parts is equal to "
                           "the number of function call parts of the function call turn.")
        for call, response in zip(calls, answers, strict=True):
            if response.get("name") != call.get("name"):
                raise Rejected(f"The function response for {call.get('name')!r} is named "
                               f"{response.get('name')!r}; answer each call in order.")
            _check_safety(call, response)


def _check_signature(state: _State, content: Mapping[str, Any]) -> None:
    signatures = [s for p in content["parts"] if (s := _get(p, "thoughtSignature"))]
    with state.lock:
        known = bool(signatures) and all(s in state.signatures for s in signatures)
    if not known:
        raise Rejected("Function call is missing a thought_signature in functionCall parts. "
                       "Send the model's turn back exactly as it was received.")


def _check_safety(call: Mapping[str, Any], response: Mapping[str, Any]) -> None:
    decision = (call.get("args") or {}).get("safety_decision") or {}
    if decision.get("decision") != "require_confirmation":
        return
    ack = (response.get("response") or {}).get("safety_acknowledgement")
    if str(ack).lower() != "true":
        raise Rejected(f"The safety decision from function call {call.get('name')} must be "
                       "acknowledged in the corresponding function response.")


# -- decoding for the policy ------------------------------------------------------------------


def _decode(fp: Server, model: str, body: Mapping[str, Any],
            contents: Sequence[Mapping[str, Any]],
            headers: Mapping[str, str]) -> tuple[Any, list[Block]]:

    sizes: list[tuple[int, int]] = []
    system = "\n".join(str(p.get("text", "")) for p in
                       (_get(body, "systemInstruction") or {}).get("parts") or ())
    blocks = [_block("tools", body.get("tools") or [], 0)]
    if system:
        blocks.append(_block("system", system, count_text_tokens(system)))
    turns: list[FakeTurn] = []
    for content in contents:
        turn = _turn(content, fp.resize_images_to, sizes, blocks)
        turns.append(turn)
    config = _get(body, "generationConfig") or {}
    max_tokens = _get(config, "maxOutputTokens")
    request = FakeRequest(PROVIDER, model, system, tuple(turns),  # type: ignore[arg-type]
                          max_tokens if isinstance(max_tokens, int) else None, tuple(sizes),
                          {k.lower(): v for k, v in headers.items()}, tuple(blocks),
                          tools=tuple(body.get("tools") or ()), body=body)
    return request, blocks


def _turn(content: Mapping[str, Any], resize_to: tuple[int, int] | None,
          sizes: list[tuple[int, int]], blocks: list[Block]) -> FakeTurn:

    role = "assistant" if content.get("role") == "model" else "user"
    texts: list[str] = []
    images: list[Image.Image] = []
    for part in content["parts"]:
        inline, response = _get(part, "inlineData"), _get(part, "functionResponse")
        found: list[Image.Image] = []
        if inline is not None:
            found = [_image(inline, resize_to, sizes)]
            text = ""
        elif isinstance(response, dict):
            # The response's keys (url, note, error…) are what the model reads as text.
            text = json.dumps({"name": response.get("name"), **(response.get("response") or {})})
            found = [_image(_get(p, "inlineData"), resize_to, sizes)
                     for p in response.get("parts") or () if _get(p, "inlineData")]
        elif "text" in part:
            text = str(part["text"])
        else:
            text = json.dumps(part, sort_keys=True)
        texts += [text] if text else []
        images += found
        tokens = count_text_tokens(text) + sum(_image_tokens(i) for i in found)
        blocks.append(_block(role, part, tokens))
    return FakeTurn(role, "\n".join(texts), tuple(images))


def _image(inline: Mapping[str, Any], resize_to: tuple[int, int] | None,
           sizes: list[tuple[int, int]]) -> Image.Image:

    if not str(_get(inline, "mimeType") or "").startswith("image/"):
        raise Rejected("inlineData.mimeType must be an image type such as image/png")
    image = open_image(str(inline.get("data", "")))
    sizes.append(image.size)
    return fit_within(image, resize_to) if resize_to else image


def _image_tokens(image: Image.Image) -> int:

    return image_tokens(image.width, image.height)


def _block(role: str, content: object, tokens: int) -> Block:
    key = hashlib.sha256(json.dumps([role, content], sort_keys=True).encode()).hexdigest()
    return Block(key, tokens, False, role)


# -- the reply --------------------------------------------------------------------------------


def _declared(body: Mapping[str, Any]) -> tuple[bool, set[str]]:
    """Whether the computer_use tool is on, and the custom functions' names."""
    computer, names = False, set()
    for tool in body.get("tools") or ():
        if not isinstance(tool, dict):
            continue
        computer = computer or _get(tool, "computerUse") is not None
        names |= {str(f.get("name")) for f in _get(tool, "functionDeclarations") or ()}
    return computer, names


def _parts(state: _State, body: Mapping[str, Any], reply: str | FakeReply,
           number: int) -> tuple[list[dict[str, Any]], str]:
    items, finish = native_items(reply, "gemini")
    computer, functions = _declared(body)
    parts: list[dict[str, Any]] = []
    for part in items:
        call = part.get("functionCall")
        if isinstance(call, dict):
            name = str(call.get("name"))
            if name not in functions and not computer:
                raise ValueError(f"the function {name!r} is not declared in the request's tools")
            part = {**part}
            if not any("thoughtSignature" in p for p in parts):  # on the first call, as Gemini 3
                part["thoughtSignature"] = f"sig-fake-{number}"
                with state.lock:
                    state.signatures.add(part["thoughtSignature"])
        parts.append(dict(part))
    return parts, finish


def _respond(state: _State, model: str, parts: list[dict[str, Any]], finish: str,
             prompt_blocks: tuple[list[Block], int], number: int) -> Response:

    blocks, min_tokens = prompt_blocks
    with state.lock:
        cache = state.cache.setdefault(model, PrefixCache("automatic", min_tokens=min_tokens))
        charge = cache.charge(blocks)
    thoughts = sum(count_text_tokens(str(p.get("text", ""))) for p in parts if p.get("thought"))
    visible = sum(count_text_tokens(json.dumps(p)) for p in parts if not p.get("thought"))
    prompt = charge.input_tokens + charge.cache_read_tokens
    usage: dict[str, Any] = {"promptTokenCount": prompt, "candidatesTokenCount": visible,
                             "totalTokenCount": prompt + visible + thoughts}
    if charge.cache_read_tokens:
        usage["cachedContentTokenCount"] = charge.cache_read_tokens
    if thoughts:
        usage["thoughtsTokenCount"] = thoughts
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts},
                                 "finishReason": finish, "index": 0}
    if not parts:
        candidate["content"] = {"role": "model", "parts": []}
    return Response(200, {"candidates": [candidate], "usageMetadata": usage,
                           "modelVersion": model, "responseId": f"fake-{number}"})

"""``POST /v1/responses``: the OpenAI Responses API as the fake provider speaks it.

Shapes follow the openai-python types (``Response``, ``ResponseComputerToolCall``,
``ResponseUsage``): ids ``resp_…``, ``cu_…``/``call_…``, ``fc_…``, ``msg_…``, ``rs_…``,
``cu_sc_…``; usage with ``input_tokens_details.cached_tokens`` (automatic caching: every
prefix seen before is read) and ``output_tokens_details.reasoning_tokens``.

Like the real API it keeps every response (``store`` defaults to true) so a request may
chain with ``previous_response_id`` and send only new items, or send the full history;
and it answers 400 for an unknown previous response, a tool call left without its output,
an output for no call, and a computer call whose pending safety checks the output does not
acknowledge.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from ...models.prefix_cache import Block, PrefixCache
from .fake_tools import FakeReply
from .fake_wire import (
    FakeRequest,
    FakeTurn,
    Response,
    Server,
    count_text_tokens,
    error_response,
    fit_within,
    image_tokens,
    injected,
    open_image,
)
from .native_reply import native_items

PATH = "/v1/responses"
PROVIDER = "openai-responses"
COMPUTER_TOOLS = ("computer", "computer_use_preview")


class Rejected(Exception):
    """A request the real API refuses: answered with HTTP 400 and this message."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class _Call:
    kind: str  # computer_call / function_call
    checks: tuple[str, ...] = ()  # pending safety check ids


@dataclass
class _Stored:
    items: list[dict[str, Any]]  # the whole conversation up to and including this response
    pending: dict[str, _Call]  # its calls, which the next request must answer


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    responses: dict[str, _Stored] = field(default_factory=dict)
    cache: dict[str, PrefixCache] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


_STATES: weakref.WeakKeyDictionary[Server, _State] = weakref.WeakKeyDictionary()
_STATES_LOCK = threading.Lock()


def _state(fp: Server) -> _State:
    with _STATES_LOCK:
        return _STATES.setdefault(fp, _State())


def answer(fp: Server, path: str, headers: Mapping[str, str], raw: bytes) -> Response:

    state = _state(fp)
    try:
        body = json.loads(raw)
        if not isinstance(body, dict) or not isinstance(body.get("model"), str):
            raise Rejected("the body must be a JSON object with a string `model`", "model")
        history, pending = _chain(state, body)
        items = _input_items(body)
        _check_answers(pending, items)
        request, blocks = _decode(fp, body, history + items, headers)
    except (Rejected, ValueError) as error:
        return error_response("openai", 400, str(error))
    number, failure = fp.admit(request)
    if failure is not None:
        return injected("openai", failure)
    refused = fp.checked(request, None)
    if refused is not None:
        return refused
    try:
        reply = fp.policy(request)
        output = _output(body, reply, number)
    except Exception as error:
        return error_response("openai", 400, f"policy failed: {type(error).__name__}: {error}")
    return _respond(state, body, history + items, output, (blocks, fp.cache_min_tokens))


# -- the conversation and its rules -----------------------------------------------------------


def _chain(state: _State, body: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, _Call]]:
    previous = body.get("previous_response_id")
    if previous is None:
        return [], {}
    with state.lock:
        stored = state.responses.get(str(previous))
    if stored is None:
        raise Rejected(f"Previous response with id '{previous}' not found.", "previous_response_id")
    return list(stored.items), dict(stored.pending)


def _input_items(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    given = body.get("input")
    if isinstance(given, str):
        return [{"type": "message", "role": "user", "content": given}]
    if not isinstance(given, list) or not all(isinstance(i, dict) for i in given):
        raise Rejected("`input` must be a string or a list of items", "input")
    return [dict(i) for i in given]


def _check_answers(pending: Mapping[str, _Call], items: Sequence[Mapping[str, Any]]) -> None:
    """Every call (of the previous response, or earlier in a full input) answered once, its
    safety checks acknowledged; no output without its call."""
    open_calls = dict(pending)
    for item in items:
        kind = _kind(item)
        if kind in ("computer_call", "function_call"):
            checks = tuple(str(c.get("id")) for c in item.get("pending_safety_checks") or ())
            open_calls[str(item.get("call_id"))] = _Call(kind, checks)
        elif kind in ("computer_call_output", "function_call_output"):
            call_id = str(item.get("call_id"))
            call = open_calls.pop(call_id, None)
            expected = kind.removesuffix("_output")
            if call is None or call.kind != expected:
                raise Rejected(f"No tool call found for {expected.replace('_', ' ')} output with "
                               f"call_id {call_id}.", "input")
            if kind == "computer_call_output":
                _check_screenshot(item)
                acked = {str(c.get("id")) for c in item.get("acknowledged_safety_checks") or ()}
                missing = [c for c in call.checks if c not in acked]
                if missing:
                    raise Rejected(f"Computer tool has unacknowledged safety check for {missing}",
                                   "input")
    if open_calls:
        call_id, call = next(iter(open_calls.items()))
        raise Rejected(f"No tool output found for {call.kind.replace('_', ' ')} {call_id}.", "input")


def _kind(item: Mapping[str, Any]) -> str:
    return str(item.get("type") or ("message" if "role" in item else ""))


def _check_screenshot(item: Mapping[str, Any]) -> None:
    output = item.get("output")
    if not isinstance(output, dict) or output.get("type") not in ("computer_screenshot",
                                                                   "input_image"):
        raise Rejected("computer_call_output.output must be {type: computer_screenshot, "
                       "image_url}", "input")
    if not str(output.get("image_url", "")).startswith("data:image/"):
        raise Rejected("computer_call_output.output.image_url must be a data URL (the fake "
                       "keeps no files)", "input")


# -- decoding for the policy ------------------------------------------------------------------


def _decode(fp: Server, body: Mapping[str, Any], items: Sequence[Mapping[str, Any]],
            headers: Mapping[str, str]) -> tuple[Any, list[Block]]:

    sizes: list[tuple[int, int]] = []
    turns: list[FakeTurn] = []
    blocks = [_block("tools", body.get("tools") or [], 0)]
    instructions = str(body.get("instructions") or "")
    if instructions:
        blocks.append(_block("system", instructions, count_text_tokens(instructions)))
    for item in items:
        turn, tokens = _turn(item, fp.resize_images_to, sizes)
        turns.append(turn)
        blocks.append(_block(turn.role, item, tokens))
    max_tokens = body.get("max_output_tokens")
    request = FakeRequest(PROVIDER, str(body["model"]), instructions, tuple(turns),  # type: ignore[arg-type]
                          max_tokens if isinstance(max_tokens, int) else None, tuple(sizes),
                          {k.lower(): v for k, v in headers.items()}, tuple(blocks),
                          tools=tuple(body.get("tools") or ()), body=body)
    return request, blocks


def _turn(item: Mapping[str, Any], resize_to: tuple[int, int] | None,
          sizes: list[tuple[int, int]]) -> tuple[FakeTurn, int]:

    kind = _kind(item)
    if kind == "message":
        role = str(item.get("role", "user"))
        texts, images = _content(item.get("content"), resize_to, sizes)
        text = "\n".join(texts)
        return FakeTurn(role, text, tuple(images)), count_text_tokens(text) + _image_cost(images)
    if kind == "computer_call_output":
        image = _image(str(item["output"]["image_url"]), resize_to, sizes)
        return FakeTurn("tool", "", (image,)), _image_cost([image])
    if kind == "function_call_output":
        text = str(item.get("output", ""))
        return FakeTurn("tool", text), count_text_tokens(text)
    text = json.dumps(item, sort_keys=True)  # the model's own items, as a policy may read them
    return FakeTurn("assistant", text), count_text_tokens(text)


def _content(content: object, resize_to: tuple[int, int] | None,
             sizes: list[tuple[int, int]]) -> tuple[list[str], list[Image.Image]]:
    if isinstance(content, str):
        return [content], []
    if not isinstance(content, list):
        raise Rejected("message content must be a string or a list of parts", "input")
    texts: list[str] = []
    images: list[Image.Image] = []
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in ("input_text", "output_text"):
            texts.append(str(part.get("text", "")))
        elif kind == "input_image":
            images.append(_image(str(part.get("image_url", "")), resize_to, sizes))
        else:
            raise Rejected(f"unsupported content part type {kind!r}", "input")
    return texts, images


def _image(url: str, resize_to: tuple[int, int] | None,
           sizes: list[tuple[int, int]]) -> Image.Image:

    prefix, _, data = url.partition(";base64,")
    if not prefix.startswith("data:image/"):
        raise Rejected("image_url must be a base64 data URL (data:image/...;base64,...)", "input")
    image = open_image(data)
    sizes.append(image.size)
    return fit_within(image, resize_to) if resize_to else image


def _image_cost(images: Sequence[Image.Image]) -> int:

    return sum(image_tokens(i.width, i.height) for i in images)


def _block(role: str, content: object, tokens: int) -> Block:

    key = hashlib.sha256(json.dumps([role, content], sort_keys=True).encode()).hexdigest()
    return Block(key, tokens, False, role)


# -- the reply --------------------------------------------------------------------------------


def _computer_version(body: Mapping[str, Any]) -> str | None:
    for tool in body.get("tools") or ():
        if isinstance(tool, dict) and tool.get("type") in COMPUTER_TOOLS:
            return str(tool["type"])
    return None


def _functions(body: Mapping[str, Any]) -> set[str]:
    return {str(t.get("name")) for t in body.get("tools") or ()
            if isinstance(t, dict) and t.get("type") == "function"}


def _output(body: Mapping[str, Any], reply: str | FakeReply, number: int) -> list[dict[str, Any]]:
    items, _ = native_items(reply, "responses")
    return [_item(body, dict(item), number, i) for i, item in enumerate(items)]


def _item(body: Mapping[str, Any], item: dict[str, Any], number: int, i: int) -> dict[str, Any]:
    kind, tag = item.get("type"), f"{number}_{i}"
    if kind == "message":
        return {"type": "message", "id": f"msg_fake_{tag}", "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": str(item.get("text", "")),
                             "annotations": []}]}
    if kind == "reasoning":
        return {"type": "reasoning", "id": f"rs_fake_{tag}",
                "summary": [{"type": "summary_text", "text": str(item.get("text", ""))}]}
    if kind == "function_call":
        name = str(item.get("name"))
        if name not in _functions(body):
            raise ValueError(f"the function {name!r} is not among the request's tools")
        arguments = item.get("arguments", {})
        return {"type": "function_call", "id": f"fc_fake_{tag}", "call_id": f"call_fake_{tag}",
                "name": name, "status": "completed",
                "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}
    if kind == "computer_call":
        return _computer_call(body, item, tag)
    raise ValueError(f"unknown output item type {kind!r}")


def _computer_call(body: Mapping[str, Any], item: Mapping[str, Any], tag: str) -> dict[str, Any]:
    version = _computer_version(body)
    actions = list(item.get("actions") or [])
    if version is None:
        raise ValueError("a computer_call needs a computer tool in the request")
    checks = [{"id": f"cu_sc_fake_{tag}_{j}", "code": c.get("code"), "message": c.get("message")}
              for j, c in enumerate(item.get("pending_safety_checks") or ())]
    out: dict[str, Any] = {"type": "computer_call", "id": f"cu_fake_{tag}",
                           "call_id": f"call_fake_{tag}", "status": "completed",
                           "pending_safety_checks": checks}
    if version == "computer_use_preview":
        if len(actions) != 1:
            raise ValueError("the preview computer tool sends exactly one action per call")
        out["action"] = actions[0]
    else:
        out["actions"] = actions
    return out


def _respond(state: _State, body: Mapping[str, Any], conversation: list[dict[str, Any]],
             output: list[dict[str, Any]], prompt_blocks: tuple[list[Block], int]) -> Response:

    blocks, min_tokens = prompt_blocks
    with state.lock:
        response_id = f"resp_fake_{next(state.ids)}"
        cache = state.cache.setdefault(str(body["model"]),
                                       PrefixCache("automatic", min_tokens=min_tokens))
        charge = cache.charge(blocks)
        pending = {str(o["call_id"]): _Call(str(o["type"]), tuple(
            c["id"] for c in o.get("pending_safety_checks") or ()))
            for o in output if o["type"] in ("computer_call", "function_call")}
        if body.get("store", True):
            state.responses[response_id] = _Stored(conversation + output, pending)
    reasoning = sum(count_text_tokens(s["text"]) for o in output if o["type"] == "reasoning"
                    for s in o["summary"])
    visible = sum(count_text_tokens(json.dumps(o)) for o in output if o["type"] != "reasoning")
    prompt = charge.input_tokens + charge.cache_read_tokens
    usage = {"input_tokens": prompt,
             "input_tokens_details": {"cached_tokens": charge.cache_read_tokens,
                                      "cache_write_tokens": 0},
             "output_tokens": visible + reasoning,
             "output_tokens_details": {"reasoning_tokens": reasoning},
             "total_tokens": prompt + visible + reasoning}
    return Response(200, {
        "id": response_id, "object": "response", "created_at": int(time.time()),
        "status": "completed", "model": body["model"], "output": output, "error": None,
        "incomplete_details": None, "instructions": body.get("instructions"),
        "metadata": {}, "parallel_tool_calls": True, "temperature": 1.0, "top_p": 1.0,
        "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
        "previous_response_id": body.get("previous_response_id"),
        "truncation": body.get("truncation", "disabled"), "usage": usage})

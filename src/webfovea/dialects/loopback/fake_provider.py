"""A real local HTTP server that speaks the OpenAI and Anthropic wire formats.

It lets you smoke-test a provider setup, the model clients and a whole agent run
offline: the official SDKs talk HTTP to it exactly as they would to a hosted API.

    with FakeProvider(ScriptedPolicy(["Thought: done\\nAction: finished(content='42')"])) as fp:
        model = load_model("openai:any", base_url=fp.base_url)

Endpoints: ``POST /v1/chat/completions`` (OpenAI; use ``fp.base_url``) and
``POST /v1/messages`` (Anthropic; use ``fp.anthropic_base_url``, the SDK appends
``/v1/messages`` itself). Each request is decoded into a :class:`FakeRequest`
(images as PIL images) and handed to the policy, whose return value is the reply
text, or a :class:`~.fake_tools.FakeReply` with tool calls, which go out in the
provider's own shapes (``tool_calls`` / ``tool_use`` blocks, their ids and stop reasons).
Requests are checked like the real APIs check them (:mod:`.fake_tools`: every tool call
answered, toolset names echoed, beta headers present), a violation answered with HTTP 400.
Like hosted APIs, ``resize_images_to`` silently shrinks larger images
before the policy sees them, so the policy answers in the resized space.
"""

from __future__ import annotations

import functools
import hashlib
import json
import ssl
import threading
import time
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from PIL import Image

from ...models.prefix_cache import Block, CacheMode, Charge, PrefixCache
from .fake_tools import (
    FakeReply,
    ProtocolError,
    ToolResult,
    ToolUse,
    anthropic_content,
    anthropic_use,
    check_anthropic,
    check_openai,
    openai_message,
    openai_uses,
    reply_of,
)
from .fake_wire import (
    BadRequest,
    Failure,
    FakeRequest,
    FakeTurn,
    Policy,
    Provider,
    Response,
    count_text_tokens,
    error_response,
    fit_within,
    image_tokens,
    injected,
    open_image,
)
from .native_routes import native_route

# The wire records are re-exported: users' tests name them from here (the module docstring).
__all__ = ["ROUTES", "BadRequest", "FakeProvider", "FakeRequest", "FakeTurn", "Policy",
           "Provider", "ScriptedPolicy", "anthropic_message", "count_input_tokens",
           "count_text_tokens", "decode_request", "fit_within", "image_tokens",
           "openai_completion"]

ROUTES: dict[str, Provider] = {"/v1/chat/completions": "openai", "/v1/messages": "anthropic"}


class ScriptedPolicy:
    """A policy returning ``replies`` in order (thread-safe); raises once they run out."""

    def __init__(self, replies: Iterable[str]) -> None:
        self._replies = deque(replies)
        self._lock = threading.Lock()

    def __call__(self, request: FakeRequest) -> str:
        with self._lock:
            if not self._replies:
                raise LookupError("ScriptedPolicy has no replies left")
            return self._replies.popleft()


class FakeProvider:
    """The fake provider server; start it with ``with`` (or :meth:`start`/:meth:`close`).

    ``models``: when given, other model names get HTTP 404 like a real server.
    ``api_key``: when given, requests carrying another key get HTTP 401.
    ``delay_seconds``: every reply waits this long (settable while running).
    ``cache_min_tokens``: the smallest prefix the simulated prompt cache keeps (1024, as
    Anthropic's larger models and OpenAI); usage fields report its reads and writes.
    ``listing``: the status ``GET /v1/models`` answers with (404 or 405: a gateway or a
    minimal server that serves completions but lists no models; 401: a rejected key).
    ``port``: 0 for any free one, else that one (a server that comes up where a client
    already looks for it).
    ``tls``: a server context (its certificate for 127.0.0.1) to serve https instead.
    The policy runs on the server's handler threads, possibly several at once.
    A policy that raises is answered with HTTP 400 carrying the exception text,
    so the failure surfaces at once instead of being retried.
    """

    def __init__(self, policy: Policy, *, resize_images_to: tuple[int, int] | None = None,
                 delay_seconds: float = 0.0, models: Collection[str] | None = None,
                 api_key: str | None = None, cache_min_tokens: int = 1024, listing: int = 200,
                 port: int = 0, tls: ssl.SSLContext | None = None) -> None:
        self.policy = policy
        self._tls = tls
        self.listing = listing
        self._port = port
        self.cache_min_tokens = cache_min_tokens
        self._caches: dict[tuple[str, str], PrefixCache] = {}
        self.resize_images_to = resize_images_to
        self.delay_seconds = delay_seconds
        self.models = models
        self.api_key = api_key
        self._lock = threading.Lock()
        self._requests: list[FakeRequest] = []
        self._failures: deque[Failure] = deque()
        self._stalls: deque[float] = deque()
        self._closing = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> FakeProvider:
        self._server = _Server(("127.0.0.1", self._port), _Handler, self)
        if self._tls is not None:
            self._server.socket = self._tls.wrap_socket(self._server.socket, server_side=True)
        # A short poll interval keeps close() quick (shutdown waits for one poll).
        serve = functools.partial(self._server.serve_forever, poll_interval=0.05)
        self._thread = threading.Thread(target=serve, name="fake-provider", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeProvider:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeProvider is not started; use `with FakeProvider(...)`")
        return int(self._server.server_address[1])

    @property
    def _scheme(self) -> str:
        return "http" if self._tls is None else "https"

    @property
    def base_url(self) -> str:
        """Base URL for OpenAI-compatible clients (``.../v1``)."""
        return f"{self._scheme}://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        """Base URL for the Anthropic SDK, which appends ``/v1/messages`` itself."""
        return f"{self._scheme}://127.0.0.1:{self.port}"

    # -- scripting failures and assertions ---------------------------------------------------

    def fail_next(self, status: int = 429, *, times: int = 1,
                  retry_after: float | str | None = None,
                  body: str | Mapping[str, object] | bytes | None = None) -> None:
        """Answer the next ``times`` requests with HTTP ``status``.

        ``retry_after`` becomes the Retry-After header (seconds, or an HTTP date
        string). ``body``: a message to put in the provider's error format, a
        mapping sent verbatim as the JSON body, or bytes sent as they are (with
        ``status=200``, a malformed reply: HTML, a JSON array, invalid UTF-8).
        """
        header = None if retry_after is None else str(retry_after)
        with self._lock:
            self._failures.extend(Failure(status, header, body) for _ in range(times))

    def stall_next(self, seconds: float, *, times: int = 1) -> None:
        """Make the next ``times`` requests wait ``seconds`` before being answered."""
        with self._lock:
            self._stalls.extend([seconds] * times)

    @property
    def requests(self) -> list[FakeRequest]:
        """Every decodable request received so far, including those answered with a failure."""
        with self._lock:
            return list(self._requests)

    # -- answering ---------------------------------------------------------------------------

    def _answer(self, path: str, headers: Mapping[str, str], raw: bytes) -> Response:
        """The response to one POST (called on the server's handler threads)."""
        native = native_route(path)
        if native is not None:  # OpenAI Responses, Gemini generateContent
            return native(self, path, headers, raw)
        provider = ROUTES.get(path.split("?", 1)[0])
        if provider is None:
            return error_response("openai", 404, f"no route for POST {path}")
        try:
            request = decode_request(provider, json.loads(raw), headers, self.resize_images_to)
        except (BadRequest, ValueError) as error:
            return error_response(provider, 400, str(error))
        number, failure = self.admit(request)
        return self.checked(request, failure) or self._reply(request, number)

    def admit(self, request: FakeRequest) -> tuple[int, Failure | None]:
        """Record a decoded request and wait out its stall: its number and scripted failure."""
        with self._lock:
            self._requests.append(request)
            number = len(self._requests)
            stall = self._stalls.popleft() if self._stalls else self.delay_seconds
            failure = self._failures.popleft() if self._failures else None
        self._closing.wait(stall)
        return number, failure

    def _listing(self, path: str) -> Response:
        """``GET /v1/models`` as both APIs answer it: the served models (``models``; an
        empty list when any name is accepted), or the ``listing`` status. Other paths: 404."""
        if path.split("?", 1)[0] != "/v1/models":
            return error_response("openai", 404, f"no route for GET {path}")
        if self.listing != 200:
            return error_response("openai", self.listing, f"GET {path} is not served here")
        names = sorted(self.models or ())
        return Response(200, {"object": "list", "has_more": False,
                               "data": [{"id": n, "object": "model", "type": "model"}
                                        for n in names]})

    def checked(self, request: FakeRequest, failure: Failure | None) -> Response | None:
        if failure is not None:
            return injected(request.provider, failure)
        if self.api_key is not None and request.api_key != self.api_key:
            return error_response(request.provider, 401, "invalid x-api-key / bearer token")
        if self.models is not None and request.model not in self.models:
            return error_response(request.provider, 404, f"The model `{request.model}` does not exist")
        return None

    def _reply(self, request: FakeRequest, number: int) -> Response:
        try:
            reply = reply_of(self.policy(request))
        except Exception as error:
            return error_response(request.provider, 400, f"policy failed: {type(error).__name__}: {error}")
        tokens_out = count_text_tokens(reply.text) + sum(
            count_text_tokens(json.dumps(c.arguments)) + 1 for c in reply.calls)
        charge = self._cache_for(request).charge(request.blocks)
        if request.provider == "openai":
            return Response(200, openai_completion(request.model, reply, charge, tokens_out,
                                                    number))
        return Response(200, anthropic_message(request.model, reply, charge, tokens_out, number))

    def _cache_for(self, request: FakeRequest) -> PrefixCache:
        """One prompt cache per provider and model, as hosted APIs keep them."""
        with self._lock:
            key = (request.provider, request.model)
            if key not in self._caches:
                mode: CacheMode = "automatic" if request.provider == "openai" else "explicit"
                self._caches[key] = PrefixCache(mode, min_tokens=self.cache_min_tokens)
            return self._caches[key]


# -- decoding ---------------------------------------------------------------------------------


def decode_request(provider: Provider, body: Any, headers: Mapping[str, str],
                   resize_to: tuple[int, int] | None) -> FakeRequest:
    if not isinstance(body, dict) or not isinstance(body.get("model"), str):
        raise BadRequest("the body must be a JSON object with a string `model`")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("`messages` must be a non-empty list")
    lower = {name.lower(): value for name, value in headers.items()}
    tools = body.get("tools") or []
    if not isinstance(tools, list):
        raise BadRequest("`tools` must be a list")
    try:
        if provider == "anthropic":
            betas = {b.strip() for b in lower.get("anthropic-beta", "").split(",") if b.strip()}
            check_anthropic(messages, tools, betas)
        else:
            check_openai([m for m in messages if isinstance(m, dict)])
    except ProtocolError as error:
        raise BadRequest(str(error)) from None
    sizes: list[tuple[int, int]] = []
    blocks: list[Block] = []
    system_parts: list[str] = []
    if provider == "anthropic":
        system_parts = _system_parts(body.get("system"))
        blocks.extend(_system_blocks(body.get("system")))
    blocks.extend(_block("tools", tool, i == 0, count_text_tokens(json.dumps(tool)))
                  for i, tool in enumerate(tools) if isinstance(tool, dict))
    turns: list[FakeTurn] = []
    for message in messages:
        role, content = _role_and_content(message)
        decoded = _decode_content(provider, content, sizes, resize_to, (role, blocks))
        if role in ("system", "developer") and provider == "openai":
            system_parts.extend(decoded.texts)
            continue
        uses = decoded.uses
        if provider == "openai" and role == "assistant":
            uses = openai_uses(message)
            blocks.extend(_block(role, {"tool_calls": c}, False, 8)
                          for c in message.get("tool_calls") or [])
        results = decoded.results
        if provider == "openai" and role == "tool":
            results = (ToolResult(str(message.get("tool_call_id")), "\n".join(decoded.texts)),)
        turns.append(FakeTurn(role, "\n".join(decoded.texts), tuple(decoded.images), uses,
                              results))
    max_tokens = body.get("max_completion_tokens") or body.get("max_tokens")
    return FakeRequest(provider, body["model"], "\n".join(system_parts), tuple(turns),
                       max_tokens if isinstance(max_tokens, int) else None, tuple(sizes),
                       lower, tuple(blocks), tuple(tools), body)


def _block(role: str, part: Mapping[str, Any], first: bool, tokens: int) -> Block:
    """A content part as the prompt cache sees it: its exact JSON without the marker."""
    bare = {k: v for k, v in part.items() if k != "cache_control"}
    key = json.dumps([role, first, bare], sort_keys=True)
    return Block(hashlib.sha256(key.encode()).hexdigest(), tokens, "cache_control" in part, role,
                 first)


def _system_blocks(system: object) -> list[Block]:
    if isinstance(system, str):
        system = [{"type": "text", "text": system}]
    if not isinstance(system, list):
        return []
    return [_block("system", part, i == 0, count_text_tokens(str(part.get("text", ""))))
            for i, part in enumerate(system) if isinstance(part, dict)]


def _system_parts(system: object) -> list[str]:
    if system is None:
        return []
    if isinstance(system, str):
        return [system]
    if isinstance(system, list):
        return [str(block.get("text", "")) for block in system if isinstance(block, dict)]
    raise BadRequest("`system` must be a string or a list of text blocks")


def _role_and_content(message: object) -> tuple[str, object]:
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        raise BadRequest("each message must be an object with a string `role`")
    return str(message["role"]), message.get("content")


@dataclass
class _Decoded:
    texts: list[str] = field(default_factory=list)
    images: list[Image.Image] = field(default_factory=list)
    uses: tuple[ToolUse, ...] = ()
    results: tuple[ToolResult, ...] = ()


def _decode_content(provider: Provider, content: object, sizes: list[tuple[int, int]],
                    resize_to: tuple[int, int] | None,
                    out: tuple[str, list[Block]]) -> _Decoded:
    """The texts, images and tool blocks of one message; its blocks are appended to ``out``."""
    role, blocks = out
    if content is None and role == "assistant" and provider == "openai":
        content = []  # an assistant message that only calls tools
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise BadRequest("message content must be a string or a list of parts")
    decoded = _Decoded()
    uses: list[ToolUse] = []
    results: list[ToolResult] = []
    for index, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text":
            decoded.texts.append(str(part.get("text", "")))
            tokens = count_text_tokens(decoded.texts[-1])
        elif kind in ("image_url", "image"):
            tokens = _decode_image(provider, part, sizes, resize_to, decoded.images)
        elif provider == "anthropic" and kind == "tool_use" and role == "assistant":
            uses.append(anthropic_use(part))
            tokens = count_text_tokens(json.dumps(part.get("input"))) + 8
        elif provider == "anthropic" and kind == "tool_result" and role == "user":
            result, tokens = _tool_result(part, sizes, resize_to, decoded.images)
            results.append(result)
        elif provider == "anthropic" and kind in ("thinking", "redacted_thinking"):
            tokens = count_text_tokens(str(part.get("thinking", "")))
        else:
            raise BadRequest(f"unsupported content part type {kind!r}")
        blocks.append(_block(role, part, index == 0, tokens))
    decoded.uses, decoded.results = tuple(uses), tuple(results)
    return decoded


def _decode_image(provider: Provider, part: dict[str, Any], sizes: list[tuple[int, int]],
                  resize_to: tuple[int, int] | None, images: list[Image.Image]) -> int:
    image = open_image(_image_data(provider, part))
    sizes.append(image.size)
    images.append(fit_within(image, resize_to) if resize_to else image)
    return image_tokens(images[-1].width, images[-1].height)


def _tool_result(part: dict[str, Any], sizes: list[tuple[int, int]],
                 resize_to: tuple[int, int] | None,
                 images: list[Image.Image]) -> tuple[ToolResult, int]:
    """An Anthropic tool_result: its text and images (a string or a list of blocks)."""
    content = part.get("content", "")
    inner = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(inner, list):
        raise BadRequest("tool_result.content must be a string or a list of blocks")
    texts, tokens, count = [], 0, 0
    for block in inner:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            texts.append(str(block.get("text", "")))
            tokens += count_text_tokens(texts[-1])
        elif kind == "image":
            tokens += _decode_image("anthropic", block, sizes, resize_to, images)
            count += 1
        else:
            raise BadRequest(f"unsupported tool_result content block type {kind!r}")
    result = ToolResult(str(part.get("tool_use_id")), "\n".join(texts),
                        bool(part.get("is_error", False)), part.get("toolset_name"), count)
    return result, tokens


def _image_data(provider: Provider, part: dict[str, Any]) -> str:
    if provider == "openai":
        url = str((part.get("image_url") or {}).get("url", ""))
        prefix, _, data = url.partition(";base64,")
        if not prefix.startswith("data:image/"):
            raise BadRequest("image_url must be a base64 data URL (data:image/...;base64,...)")
        return data
    source = part.get("source") or {}
    if source.get("type") != "base64" or not str(source.get("media_type", "")).startswith("image/"):
        raise BadRequest("image source must be {type: base64, media_type: image/..., data}")
    return str(source.get("data", ""))


# -- encoding ---------------------------------------------------------------------------------


def count_input_tokens(request: FakeRequest) -> int:
    """Every block of the request: words of text, width*height/750 per image (as seen)."""
    return sum(block.tokens for block in request.blocks)


def openai_completion(model: str, reply: FakeReply | str, charge: Charge, tokens_out: int,
                      number: int) -> dict[str, object]:
    """``prompt_tokens`` includes the cached ones, reported under ``prompt_tokens_details``."""
    prompt = charge.input_tokens + charge.cache_read_tokens + charge.cache_write_tokens
    message, finish = openai_message(reply_of(reply), number)
    return {
        "id": f"chatcmpl-fake-{number}", "object": "chat.completion",
        "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "finish_reason": finish, "logprobs": None, "message": message}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": tokens_out,
                  "total_tokens": prompt + tokens_out,
                  "prompt_tokens_details": {"cached_tokens": charge.cache_read_tokens}},
    }


def anthropic_message(model: str, reply: FakeReply | str, charge: Charge, tokens_out: int,
                      number: int) -> dict[str, object]:
    """``input_tokens`` excludes cache reads and writes, as the Messages API reports them."""
    content, stop = anthropic_content(reply_of(reply), number)
    return {
        "id": f"msg_fake_{number}", "type": "message", "role": "assistant", "model": model,
        "content": content, "stop_reason": stop, "stop_sequence": None,
        "usage": {"input_tokens": charge.input_tokens, "output_tokens": tokens_out,
                  "cache_read_input_tokens": charge.cache_read_tokens,
                  "cache_creation_input_tokens": charge.cache_write_tokens,
                  "cache_creation": {"ephemeral_5m_input_tokens": charge.cache_write_tokens,
                                     "ephemeral_1h_input_tokens": 0},
                  "service_tier": "standard"},
    }


# -- HTTP plumbing ----------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Idle keep-alive connections must not hold up close().
    block_on_close = False

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 provider: FakeProvider) -> None:
        super().__init__(address, handler)
        self.provider = provider


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._send(self.server.provider._answer(self.path, dict(self.headers.items()), raw))

    def do_GET(self) -> None:
        self._send(self.server.provider._listing(self.path))

    def _send(self, response: Response) -> None:
        payload = response.payload
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up (its timeout) while we stalled; nothing to tell it.
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log lines."""

"""The MCP server on the official SDK: stdio (one client per process) or streamable HTTP on
loopback (one run per MCP session, each in its own browser context).

The browser starts on the first tool call, so a client that only lists the tools (desktop
hosts start every configured server) never waits for Chromium.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .. import __version__
from ..browser.session import BrowserSession
from ..console import interrupts
from .replies import Reply
from .run import SessionRun
from .settings import HttpAddress, ServeSettings
from .tools import tool_list

INSTRUCTIONS = (
    "A real Chromium browser under webfovea's guardrails. Every action tool answers with one "
    "sentence saying what the action did (or 'no detectable change') and the screenshot after "
    "it; points are pixels of the last screenshot returned, whose size each result states. "
    "Stay on the task's site; end with finish(answer).")
_KEY = "webfovea.run"  # the session's run in the SDK connection's per-connection state

RunFor = Callable[[ServerRequestContext[Any]], Awaitable[SessionRun]]


class Runs:
    """The server's sessions and the one browser they share (a context each)."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.browser = BrowserSession(settings.browser)
        self._started = False
        self._starting = asyncio.Lock()
        self._numbers = itertools.count(1)
        self.open: set[SessionRun] = set()

    async def new(self) -> SessionRun:
        async with self._starting:
            if not self._started:
                await self.browser.start()
                self._started = True
        name = f"session-{time.strftime('%Y%m%d-%H%M%S')}-{next(self._numbers)}"
        run = SessionRun(self.settings, self.browser, name=name)
        self.open.add(run)
        return run

    async def close(self, run: SessionRun) -> None:
        self.open.discard(run)
        await run.close()

    async def aclose(self) -> None:
        for run in list(self.open):
            await self.close(run)
        if self._started:
            await self.browser.close()


def build_server(run_for: RunFor, *, stateful_http: bool = False) -> Server[Any]:
    tools = [types.Tool(name=t.name, description=t.description, input_schema=t.input_schema)
             for t in tool_list()]

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext[Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        run = await run_for(ctx)
        return _result(await run.call(params.name, dict(params.arguments or {})))

    server: Server[Any] = Server("webfovea", version=__version__, instructions=INSTRUCTIONS,
                                 on_list_tools=list_tools, on_call_tool=call_tool)
    if stateful_http:
        server.add_request_handler("server/discover", types.RequestParams, _no_discover)
    return server


async def _no_discover(ctx: ServerRequestContext[Any], params: types.RequestParams) -> None:
    """A browser session lives as long as an MCP session: over HTTP that is the handshake
    era's ``Mcp-Session-Id`` (2026-07-28 requests are self-contained), so a client probing
    for the newer era is sent back to the ``initialize`` handshake."""
    raise MCPError(types.METHOD_NOT_FOUND, "webfovea serves MCP sessions: use initialize")


def _result(reply: Reply) -> types.CallToolResult:
    content: list[types.ContentBlock] = [types.TextContent(text=reply.text)]
    content += [types.ImageContent(data=base64.b64encode(png).decode("ascii"),
                                   mime_type="image/png") for png in reply.images]
    return types.CallToolResult(content=content, structured_content=reply.data,
                                is_error=reply.error)


# --- stdio: the process is the session ----------------------------------------------------


async def serve_stdio(settings: ServeSettings) -> None:
    runs = Runs(settings)
    run: SessionRun | None = None
    made = asyncio.Lock()

    async def the_run(ctx: ServerRequestContext[Any]) -> SessionRun:
        nonlocal run
        async with made:
            if run is None:
                run = await runs.new()
        return run

    server = build_server(the_run)
    try:
        # Chromium starts inside: stdio_server points fd 1 at stderr, off the wire.
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await runs.aclose()  # the client closed stdin: a run still going is interrupted


# --- streamable HTTP: one run per MCP session ------------------------------------------------


def _http_run_for(runs: Runs) -> RunFor:
    async def run_for(ctx: ServerRequestContext[Any]) -> SessionRun:
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise MCPError(types.INVALID_REQUEST, "webfovea keeps a browser per MCP session: "
                           "connect with the initialize handshake (protocol 2025-11-25)")
        # The SDK's place for per-connection state and teardown (its Connection) is reached
        # from a low-level handler through the request's session.
        connection = ctx.session._connection
        run: SessionRun | None = connection.state.get(_KEY)
        if run is None:
            run = connection.state[_KEY] = await runs.new()
            connection.exit_stack.push_async_callback(runs.close, run)
        return run

    return run_for


async def serve_http(settings: ServeSettings, address: HttpAddress) -> None:
    import uvicorn

    runs = Runs(settings)
    server = build_server(_http_run_for(runs), stateful_http=True)
    app = server.streamable_http_app(host=address.host)
    family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((address.host, address.port))
    sock.listen(128)  # a client may connect as soon as the URL is printed: it waits in the backlog
    port = sock.getsockname()[1]
    shown = HttpAddress(address.host, port)
    print(f"webfovea mcp: serving {shown.url}", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    try:
        await uvicorn.Server(config).serve(sockets=[sock])
    finally:
        sock.close()
        await runs.aclose()


def serve(settings: ServeSettings) -> int:
    """Serve until the client leaves (stdio) or the process is stopped (HTTP)."""
    if settings.http is None:
        interrupts.run(serve_stdio(settings))
    else:
        interrupts.run(serve_http(settings, settings.http))
    return 0

"""Driving ``webfovea mcp`` as an MCP host does, for tests and benchmarks: a client from the
official SDK over stdio (the server as a subprocess) or streamable HTTP (a server process on
loopback), and the offline suite's reference policy as the host's agent.

:class:`McpOracle` plans like the oracle (:class:`webfovea.suite.policy.PlanRunner` on the
layout the suite's pages report), but it looks at each screenshot at a size of its own, as a
host whose model provider resizes images does; it answers in that image and maps its points
back by the size the server stated it sent. So it can only be right if the stated size is the
size sent and the server maps points by the measured ratio.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any

from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ImageContent, TextContent
from PIL import Image

from ..actions.registry import Point
from ..core.config import Size
from ..suite.layout import Layout
from ..suite.policy import PlanRunner, PlanStuck, to_action
from ..suite.spec import SuiteTask

FAST = ("--time-limit", "300")


def stdio_client(*args: str) -> Client:
    """A client that launches ``webfovea mcp ARGS`` and talks over its stdin/stdout."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "webfovea", "mcp", *args],
                                   env=dict(os.environ))
    return Client(params, read_timeout_seconds=240)


@contextlib.contextmanager
def http_server(*args: str) -> Iterator[str]:
    """``webfovea mcp --http 127.0.0.1:0 ARGS`` running; yields its URL, stops it after."""
    proc = subprocess.Popen([sys.executable, "-m", "webfovea", "mcp", "--http", "127.0.0.1:0",
                             *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # the server's first words: where it listens
        found = re.search(r"serving (http://\S+)", line)
        assert found, line + proc.stderr.read()
        yield found.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def data(result: CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict), result
    return result.structured_content


def image(result: CallToolResult, index: int = -1) -> Image.Image:
    """An image a result carries, decoded: the screenshot (the last one) by default."""
    blocks = [c for c in result.content if isinstance(c, ImageContent)]
    assert blocks and blocks[index].mime_type == "image/png", result
    return Image.open(io.BytesIO(base64.b64decode(blocks[index].data)))



MAX_CALLS = 60


class McpOracle:
    def __init__(self, layout_url: str, *, seen: Size) -> None:
        self.layout_url = layout_url
        self.seen = seen  # the size the host's model sees every screenshot at
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def layout(self) -> Layout:
        def get() -> Any:
            with urllib.request.urlopen(f"{self.layout_url}?settle=0.15", timeout=30) as r:
                return json.load(r)

        return Layout.model_validate(await asyncio.to_thread(get))

    async def solve(self, client: Client, task: SuiteTask) -> CallToolResult:
        """One suite task in one MCP session; returns the result of the last call."""
        runner = PlanRunner(task)
        result = await client.call_tool("open", {"url": task.url})
        for _ in range(MAX_CALLS):
            said = data(result)
            if "status" in said:  # the run ended
                return result
            if said.get("note"):
                runner.note(said["note"])
            name, arguments = await self.next_call(runner, result)
            self.calls.append((name, arguments))
            result = await client.call_tool(name, arguments)
        raise AssertionError(f"{task.id}: no answer after {MAX_CALLS} calls")

    async def next_call(self, runner: PlanRunner,
                        result: CallToolResult) -> tuple[str, dict[str, Any]]:
        stated = data(result)["image"]
        shown = image(result).resize((self.seen.width, self.seen.height))
        layout = await self.layout()
        try:
            move = runner.next_move(layout)
        except PlanStuck as e:
            return "finish", {"answer": f"stuck: {e}"}
        action = to_action(move, scale_x=shown.width / layout.viewport_w,
                           scale_y=shown.height / layout.viewport_h)
        if action.name == "finished":
            return "finish", {"answer": action.text("content")}
        back_x, back_y = stated["width"] / shown.width, stated["height"] / shown.height
        arguments: dict[str, Any] = {
            k: [v.x * back_x, v.y * back_y] if isinstance(v, Point) else v
            for k, v in action.args.items()}
        return action.name, arguments

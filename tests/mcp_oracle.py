"""The offline suite's reference policy as an MCP host's agent (the test client's side).

It plans like the oracle (:class:`webfovea.suite.policy.PlanRunner` on the layout the suite's
pages report), but it looks at each screenshot at a size of its own, as a host whose model
provider resizes images does; it answers in that image and maps its points back by the size
the server stated it sent. So it can only be right if the server's stated size is the size
it sent and the server maps points by the measured ratio.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

from mcp import Client
from mcp_types import CallToolResult

from mcp_helpers import data, image
from webfovea.actions import Point
from webfovea.config import Size
from webfovea.suite.layout import Layout
from webfovea.suite.policy import PlanRunner, PlanStuck, to_action
from webfovea.suite.spec import SuiteTask

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

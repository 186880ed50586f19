"""Runs browser-use's own Agent on a local page with a scripted chat model and saves its
history with ``AgentHistoryList.save_to_file``: the real writer of the file that
``webfovea import-trajectory --from browser-use`` reads.

Run by tests/test_import_browser_use.py with the Python of a separate virtual environment
that has browser-use installed (its pins clash with webfovea's): never imported by webfovea
or its tests. ``python browser_use_agent.py URL HISTORY.json CHROMIUM``
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from browser_use import Agent, BrowserProfile, BrowserSession, Tools
from browser_use.llm.messages import BaseMessage
from browser_use.llm.views import ChatInvokeCompletion

BLANK = (1850, 60)  # shop.html: empty space, a click there changes nothing


class ScriptedModel:
    """browser-use's chat-model protocol (``browser_use.llm.base.BaseChatModel``), replying
    with one scripted step per call; the element to click is found in the browser state the
    agent sent, by its text, as a model would."""

    model = "scripted"
    _verified_api_keys = True

    def __init__(self) -> None:
        self.turn = 0

    @property
    def provider(self) -> str:
        return "scripted"

    @property
    def name(self) -> str:
        return "scripted"

    @property
    def model_name(self) -> str:
        return self.model

    async def ainvoke(self, messages: list[BaseMessage], output_format: Any = None,
                      **kwargs: Any) -> ChatInvokeCompletion[Any]:
        state = messages[-1].text if messages else ""
        step = self._step(state)
        self.turn += 1
        return ChatInvokeCompletion(completion=output_format.model_validate(step), usage=None)

    def _step(self, state: str) -> dict[str, Any]:
        goals = ["Reveal the total.", "Click beside the button.", "Search the page for it.",
                 "Report the total."]
        turn = min(self.turn, len(goals) - 1)
        actions: list[dict[str, Any]] = [
            [{"click": {"index": _index(state, "Reveal total")}}],
            [{"click": {"coordinate_x": BLANK[0], "coordinate_y": BLANK[1]}}],
            [{"search_page": {"pattern": "Total"}}],
            [{"done": {"text": "The total is 48,210.", "success": True}}],
        ][turn]
        return {"evaluation_previous_goal": "Unknown" if turn == 0 else "Success",
                "memory": f"step {turn + 1}", "next_goal": goals[turn], "action": actions}


def _index(state: str, label: str) -> int:
    """The element index browser-use gave the element whose text is ``label``."""
    found = re.search(r"\[(\d+)\]<[^>]*>\s*" + re.escape(label), state)
    if found is None:
        raise SystemExit(f"no element {label!r} in the browser state:\n{state[:3000]}")
    return int(found.group(1))


async def main(url: str, out: str, chromium: str) -> None:
    profile = BrowserProfile(executable_path=chromium, headless=True, chromium_sandbox=False,
                             viewport={"width": 1920, "height": 1080},
                             window_size={"width": 1920, "height": 1080},
                             enable_default_extensions=False, user_data_dir=None)
    tools = Tools()
    tools.set_coordinate_clicking(True)
    agent = Agent(task=f"What is the total on the shop page? Open {url}", llm=ScriptedModel(),
                  browser_session=BrowserSession(browser_profile=profile), tools=tools,
                  use_judge=False, message_compaction=False, enable_planning=False,
                  directly_open_url=True, max_actions_per_step=1)
    history = await agent.run(max_steps=6)
    history.save_to_file(out)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))

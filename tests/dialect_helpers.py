"""Speaking each function-calling dialect in tests: scripted tool calls through the fake
provider's real wire format, and one real run of the agent loop with them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.dialects.loopback.fake_tools import FakeCall, FakeReply
from webfovea.loop.agent import run_task
from webfovea.models.base import Model
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord, StepRecord

# offsite.html in the 1440x810 image of the 1920x1080 viewport (x 0.75).
FIELD, LINK, FINE = (218, 240), (218, 94), (60, 382)


@dataclass(frozen=True)
class Speaker:
    """One dialect (and version) as a test's model speaks it."""

    dialect: str
    version: str | None = None

    @property
    def anthropic(self) -> bool:
        return self.dialect == "anthropic-computer"

    def computer(self, action: str, **params: Any) -> FakeCall:
        if self.version == "computer_toolset_20260801":
            return FakeCall(action, params, toolset="computer")
        return FakeCall("computer", {"action": action, **params})

    def click(self, point: tuple[float, float]) -> FakeCall:
        if self.anthropic:
            return self.computer("left_click", coordinate=list(point))
        return FakeCall("click", {"start_box": list(point)})

    def type(self, text: str) -> FakeCall:
        return self.computer("type", text=text) if self.anthropic else FakeCall(
            "type", {"content": text})

    def key(self, xdotool: str, ours: str) -> FakeCall:
        return self.computer("key", text=xdotool) if self.anthropic else FakeCall(
            "hotkey", {"key": ours})

    def finish(self, answer: str) -> FakeCall:
        return FakeCall("finished", {"content": answer})

    def model(self, fake: FakeProvider) -> Model:
        if self.anthropic:
            return load_model("anthropic:claude-test", base_url=fake.anthropic_base_url)
        return load_model("openai:qwen-test", base_url=fake.base_url)


SPEAKERS = [Speaker("tools"), Speaker("anthropic-computer", "computer_20250124"),
            Speaker("anthropic-computer", "computer_20251124"),
            Speaker("anthropic-computer", "computer_toolset_20260801")]
IDS = ["tools", "computer_20250124", "computer_20251124", "toolset"]


class Turns:
    """Scripted replies, one FakeReply per model turn."""

    def __init__(self, replies: list[tuple[FakeCall, ...]]) -> None:
        self.replies = list(replies)

    def __call__(self, request: FakeRequest) -> FakeReply:
        return FakeReply("Next.", self.replies.pop(0))


async def run(speaker: Speaker, session: BrowserSession, out: Path, url: str,
               replies: list[tuple[FakeCall, ...]], **config: Any
               ) -> tuple[ResultRecord, list[StepRecord], list[FakeRequest]]:
    with FakeProvider(Turns(replies)) as fake:
        model = speaker.model(fake)
        agent = AgentConfig(**{"max_steps": 8, **config}, dialect=speaker.dialect,
                            dialect_version=speaker.version)
        result = await run_task(Task("find the fine print", url), model=model,
                                session=session, config=agent, out=out)
        await model.aclose()
    return result, read_steps(out), fake.requests



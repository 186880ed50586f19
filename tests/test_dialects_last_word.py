"""Issue 29 item 2: a native model's last word. In anthropic-computer, openai-computer and
gemini-computer, a turn that ends with text and no tool call is the answer (``finished`` with
that text, judged by grounding like any answer); text that says nothing stays a parse error.
Real Chromium, the fake provider's real Anthropic, Responses and generateContent routes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.dialects.loopback.fake_tools import FakeCall, FakeReply
from webfovea.dialects.loopback.native_reply import NativeReply
from webfovea.loop.agent import run_task
from webfovea.models import load_model
from webfovea.models.base import Model
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord, StepRecord
from webfovea.tools.replay import replay

ANSWER = "The page has three buttons: A, B and C."


@dataclass(frozen=True)
class Native:
    """One native dialect as a scripted model speaks it."""

    dialect: str
    version: str
    text: Callable[[str], FakeReply]  # a turn of text and no tool call
    finished: Callable[[str], FakeReply]  # a call of the finished tool

    def model(self, fp: FakeProvider) -> Model:
        if self.dialect == "anthropic-computer":
            return load_model("anthropic:claude-test", base_url=fp.anthropic_base_url)
        if self.dialect == "openai-computer":
            return load_model("openai:gpt-5.4", base_url=fp.base_url)
        return load_model("gemini:gemini-3.5-flash", base_url=f"http://127.0.0.1:{fp.port}")


NATIVES = [
    # Claude: a text block, stop_reason end_turn (the fake's stop reason for a reply without calls).
    Native("anthropic-computer", "computer_20250124", lambda text: FakeReply(text),
           lambda answer: FakeReply("", (FakeCall("finished", {"content": answer}),))),
    # OpenAI Responses: a reasoning summary, then a message with output_text.
    Native("openai-computer", "ga",
           lambda text: NativeReply(items=({"type": "reasoning", "text": "I read the page."},
                                           {"type": "message", "text": text})),
           lambda answer: NativeReply(items=({"type": "function_call", "name": "finished",
                                              "arguments": {"content": answer}},))),
    # Gemini: a thought part, then a text part, no functionCall (finishReason STOP).
    Native("gemini-computer", "new",
           lambda text: NativeReply(items=({"text": "I read the page.", "thought": True},
                                           {"text": text})),
           lambda answer: NativeReply(items=({"functionCall": {"name": "finished",
                                                               "args": {"content": answer}}},))),
]
IDS = [n.dialect for n in NATIVES]


async def _run(native: Native, browser: BrowserSession, out: Path, url: str,
               replies: list[FakeReply], **config: Any
               ) -> tuple[ResultRecord, list[StepRecord], FakeProvider]:
    with FakeProvider(ScriptedPolicy(replies)) as fp:  # type: ignore[arg-type]
        model = native.model(fp)
        agent = AgentConfig(**{"max_steps": 4, **config}, dialect=native.dialect,
                            dialect_version=native.version)
        result = await run_task(Task("how many buttons does the page have?", url), model=model,
                                session=browser, config=agent, out=out)
        await model.aclose()
    return result, read_steps(out), fp


def _said(fp: FakeProvider, index: int) -> str:
    """Everything request ``index`` said to the model in text."""
    return "\n".join(t.text for t in fp.requests[index].turns)


@pytest.mark.parametrize("native", NATIVES, ids=IDS)
async def test_text_without_a_tool_call_is_the_answer_and_grounding_judges_it(
        native: Native, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    # Answered before any action: grounding sends it back once; the same text again stands.
    replies = [native.text(f"  {ANSWER}\n"), native.text(ANSWER)]
    result, steps, fp = await _run(native, browser, tmp_path,
                                   pages.url("computer_use/page.html"), replies)
    assert result.status == "finished", (result.error, [s.note for s in steps])
    assert result.answer == ANSWER and len(steps) == 2
    first = steps[0]
    assert first.parse_error is None and first.outcome != "parse_error", first.note
    assert first.action == {"name": "finished", "content": ANSWER}
    assert first.guardrail == "answer_grounding"  # judged as any answer is
    assert [c["native"] for c in first.calls] == [{"final_text": ANSWER}]
    assert result.grounding is not None
    # The challenge reached the model in the protocol's own form (the fake server checks it).
    assert first.note in _said(fp, 1)
    assert steps[1].action == {"name": "finished", "content": ANSWER}
    report = replay(tmp_path)  # the recorded text endings read back as the same finished
    assert report.steps == 2 and report.changes == [], report.changes


@pytest.mark.parametrize("native", NATIVES, ids=IDS)
async def test_blank_text_stays_a_parse_error_and_the_finished_tool_still_ends(
        native: Native, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = [native.text(" \n "), native.finished(ANSWER)]
    result, steps, fp = await _run(native, browser, tmp_path,
                                   pages.url("computer_use/page.html"), replies, grounding="off")
    assert [s.outcome for s in steps][:1] == ["parse_error"]
    said = steps[0].parse_error or ""
    assert steps[0].action is None and "finished(content=" in said
    assert said in _said(fp, 1)  # said back to the model
    assert result.status == "finished" and result.answer == ANSWER and len(steps) == 2
    assert steps[1].calls[0]["native"] != {"final_text": ANSWER}  # the tool call, recorded

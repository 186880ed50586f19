"""A page or a model cannot flood the prompt: notes, dialog texts, tab lists and thoughts
carried in the history are capped (counted, "… and N more"), so every request's text
stays bounded. Real Chromium on a flood page; the fake provider sees each request."""

from __future__ import annotations

from pathlib import Path

from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import AgentConfig
from webfovea.models.loader import load_model
from webfovea.prompt import ACTION_CAP, NOTE_CAP, THOUGHT_CAP
from webfovea.task import Task
from webfovea.testing.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.testing.local_server import LocalServer
from webfovea.trajectory import read_steps

# The buttons sit at page (140,70) and (140,170); the 1920x1080 viewport is sent as
# 1440x810, so a model points at three quarters of that.
ALERTS = "Thought: press it.\nAction: click(start_box='(105,52)')"
TABS = "Thought: and this.\nAction: click(start_box='(105,127)')"
HUGE = "Thought: " + "very long reasoning " * 50_000 + "\nAction: type(content='" + "y" * 20_000 + "')"
WAIT = "Thought: look.\nAction: wait()"


def _text_chars(request: FakeRequest) -> int:
    return len(request.system) + sum(len(t.text) for t in request.turns)


async def test_a_flood_page_and_a_huge_thought_leave_every_request_bounded(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = [ALERTS, HUGE, TABS, *[WAIT] * 5]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:m", base_url=fp.base_url)
        await run_task(Task("flood", pages.url("models/flood.html")), model=model,
                       session=browser, config=AgentConfig(max_steps=len(replies)), out=tmp_path)
        await model.aclose()
        requests = fp.requests
    steps = read_steps(tmp_path)
    assert len(steps) == len(replies)
    # The page really flooded: 2,000 dialogs after the first click.
    assert "more page events" in steps[0].note and len(steps[0].note) < 2_000
    assert "1,995 more page events" in steps[0].note, steps[0].note
    assert len(steps[1].thought) > 900_000  # the record keeps everything the model said
    last = requests[-1]
    carried = "\n".join(t.text for t in last.turns)
    assert "more characters" in carried and "very long reasoning" in carried
    # Whatever the page and the model produced, a request's text is bounded by the caps:
    # the system text plus, per step, one note, one thought and one action at most.
    bound = len(last.system) + len(replies) * (NOTE_CAP + THOUGHT_CAP + ACTION_CAP + 400)
    assert max(_text_chars(r) for r in requests) < bound
    assert max(_text_chars(r) for r in requests) < 40_000

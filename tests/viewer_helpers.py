"""Recording real runs for the view/replay/diagnose tests.

A run here is the real agent loop: real Chromium on tests/pages/viewer served from 127.0.0.1,
the OpenAI client talking HTTP to FakeProvider, whose policy reacts to the feedback note the
harness sent — so a deliberately broken harness (a fix ablated, ``ablate``) really changes the run.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import Page

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.ablations import parse_ablate
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.trajectory import ResultRecord
from webfovea.testing import FakeProvider, FakeRequest, ScriptedPolicy

NOTE = "Feedback on your last action: "
# Targets on tests/pages/viewer/shop.html in the sent image's pixels (page x 0.75).
SEARCH = (300, 127.5)
REVEAL = (1275, 630)
FRAME_BAR = (262.5, 435)
BAIT = (975, 123.75)
HELP = (810, 243.75)
SALES = (825, 465)  # a bar whose value shows only while it is hovered


def reply(action: str, thought: str = "Next step.") -> str:
    return f"Thought: {thought}\nAction: {action}"


def click(point: tuple[float, float]) -> str:
    return f"click(start_box='({point[0]:g},{point[1]:g})')"


def hover(point: tuple[float, float]) -> str:
    return f"hover(start_box='({point[0]:g},{point[1]:g})')"


def note(req: FakeRequest) -> str:
    """The feedback note the harness sent with this request ('' on the first step)."""
    for line in req.turns[-1].text.splitlines():
        if NOTE in line:
            return line.split(NOTE, 1)[1]
    return ""


def reveal_policy(req: FakeRequest) -> str:
    """Click 'Reveal total'; read the total once the click took effect; answer it."""
    said = note(req)
    if said.startswith("The read_text") and "48,210" in said:
        return reply("finished(content='48,210')", "The total is 48,210.")
    if said.startswith("The click") and "took effect" in said:
        return reply("read_text(label='Total')", "The total should be showing now.")
    return reply(click(REVEAL), "The Reveal total button is at the bottom right.")


def search_policy(content: str) -> Callable[[FakeRequest], str]:
    """Search by filling the box (content ends with \\n: Enter); read the price; answer it."""
    fill = f"fill(start_box='({SEARCH[0]:g},{SEARCH[1]:g})', content='{content}')"

    def policy(req: FakeRequest) -> str:
        said = note(req)
        if said.startswith("The read_text") and "Price: 1,234" in said:
            return reply("finished(content='1,234')", "The laptop costs 1,234.")
        if said.startswith("The fill"):
            return reply("read_text(label='Price')", "The results should be listed now.")
        return reply(fill, "I search for the laptop.")

    return policy


def frame_policy(req: FakeRequest) -> str:
    """Hover the bar inside the iframe; once its tooltip showed, read the value; answer it."""
    said = note(req)
    if "Frame value: 77" in said:
        return reply("finished(content='77')", "The widget shows 77.")
    if "took effect" in said:
        return reply("read_text(label='Frame value')", "The tooltip should be showing.")
    return reply(hover(FRAME_BAR), "The chart's value appears when the bar is hovered.")


def scripted(replies: Sequence[str]) -> ScriptedPolicy:
    return ScriptedPolicy(replies)


async def record(browser: BrowserSession, server: LocalServer, out: Path,
                 policy: Callable[[FakeRequest], str], *, task: str = "Find the value.",
                 task_id: str | None = None, max_steps: int = 4, ablate: str = "",
                 budgets: dict[str, int] | None = None) -> ResultRecord:
    """One real run of ``policy`` on shop.html into ``out``, with the fixes in ``ablate``
    (comma-separated, webfovea.core.ablations) turned off."""
    if out.exists():
        shutil.rmtree(out)
    # Answer grounding records but never sends an answer back: these recordings show the
    # viewer, diagnose and replay each step as scripted (the challenge: test_answers*.py).
    config = AgentConfig(max_steps=max_steps, time_limit=120.0, settle_cap=2.0,
                         grounding="record", ablate=parse_ablate(ablate),
                         **({"action_budgets": budgets} if budgets else {}))
    with FakeProvider(policy) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        try:
            return await run_task(Task(task, server.url("viewer/shop.html"), id=task_id or out.name),
                                  model=model, session=browser, config=config, out=out)
        finally:
            await model.aclose()


@asynccontextmanager
async def opened(browser: BrowserSession, report: Path, fragment: str = "", *, height: int = 1000
                 ) -> AsyncIterator[tuple[Page, list[str]]]:
    """The page loaded from disk; the list collects console errors and failed loads."""
    context = await browser.browser.new_context(viewport={"width": 1400, "height": height})
    page = await context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed to load {r.url}"))
    try:
        await page.goto(report.as_uri() + fragment)
        yield page, problems
    finally:
        await context.close()

"""What the gallery's grounder and marks tests share (issue 33): a perfect grounding model
over real HTTP that finds the described element in the live page when it is asked, and a
whole agent run with a scripted planner that never writes a coordinate.

The fake grounder runs on the fake server's handler thread; it measures the element with
Playwright on the test's event loop, which is free while the agent awaits the grounder's
reply, so the box is the one on screen when the screenshot it got was taken.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Locator, Page

from webfovea.actions.geometry import smart_resize
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.core.config import AgentConfig, GrounderConfig, ObservationMode, Size
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import StepRecord

Box = tuple[float, float, float, float]  # x, y, width, height in page CSS pixels
Targets = dict[str, Callable[[Page], Locator]]  # a description -> the element it means


_RECT = "e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"
_CONTENT = "e => { const r = e.getBoundingClientRect(); return [r.x + e.clientLeft, r.y + e.clientTop]; }"


async def css_box(locator: Locator) -> Box:
    """The element's box in top-level viewport CSS pixels, by the page's own geometry (a
    child frame's box moved by its iframe's content origin). Playwright's bounding_box
    leaves out the iframe's border for a frame of another origin: a screenshot shows such
    an element 2 px right of it behind a 2 px border."""
    handle = await locator.element_handle()
    x, y, w, h = await handle.evaluate(_RECT)
    frame = await handle.owner_frame()
    while frame is not None and frame.parent_frame is not None:
        dx, dy = await (await frame.frame_element()).evaluate(_CONTENT)
        x, y, frame = x + dx, y + dy, frame.parent_frame
    await handle.dispose()
    return x, y, w, h


@dataclass
class DomGrounder:
    """Answers a grounding request with the described element's centre, in ``coords``
    (norm1000, or smart_resize pixels of the image it received); keeps each box it used."""

    page: Page
    targets: Targets
    coords: str
    loop: asyncio.AbstractEventLoop
    viewport: Size
    boxes: list[tuple[str, Box]] = field(default_factory=list)

    def __call__(self, request: FakeRequest) -> str:
        text = request.turns[-1].text
        description = next(d for d in self.targets if d in text)
        box = asyncio.run_coroutine_threadsafe(
            css_box(self.targets[description](self.page)), self.loop).result(10)
        self.boxes.append((description, box))
        fx = (box[0] + box[2] / 2) / self.viewport.width
        fy = (box[1] + box[3] / 2) / self.viewport.height
        if self.coords == "norm1000":
            return f"<|box_start|>({round(fx * 1000)},{round(fy * 1000)})<|box_end|>"
        width, height = request.received_sizes[0]
        grid = smart_resize(Size(width, height), GrounderConfig("x").smart_resize)
        return f"click(start_box='({round(fx * grid.width)},{round(fy * grid.height)})')"


def clicks(descriptions: list[str], answer: str) -> list[str]:
    """The planner's replies: one click per description, named and never placed, then done."""
    return [f"Thought: next.\nAction: click(target='{d}')" for d in descriptions] + [
        f"Thought: done.\nAction: finished(content='{answer}')"]


@dataclass
class GroundedRun:
    steps: list[StepRecord]
    planner: list[FakeRequest]
    grounder: list[FakeRequest]
    boxes: list[tuple[str, Box]]


async def grounded_run(session: BrowserSession, tabs: Tabs, targets: Targets, plan: list[str], out: Path, *,
                       coords: str, viewport: Size, api_key: str | None = None,
                       key_env: str | None = None,
                       observation: ObservationMode = "screenshot") -> GroundedRun:
    """``plan`` run on ``tabs`` with the planner and the DomGrounder as two fake servers
    (the grounder's refusing any key but ``api_key`` when one is given)."""
    grounder = DomGrounder(tabs.page, targets, coords, asyncio.get_running_loop(), viewport)
    with FakeProvider(ScriptedPolicy(plan)) as fp, FakeProvider(grounder, api_key=api_key) as gp:
        config = AgentConfig(max_steps=len(plan), observation=observation,
                             grounder=GrounderConfig(
                                 "openai:ui-tars-test", gp.base_url, coords=coords,  # type: ignore[arg-type]
                                 image_cap=Size(1280, 720), attempts=1, timeout=20.0,
                                 api_key_env=key_env))
        model = load_model("openai:planner-test", base_url=fp.base_url)
        try:
            await run_task(Task("choose", tabs.page.url), model=model, session=session,
                           config=config, out=out, tabs=tabs)
        finally:
            await model.aclose()
        return GroundedRun(read_steps(out), fp.requests, gp.requests, grounder.boxes)


def inside(point: tuple[float, float], box: Box, slack: float = 1.0) -> bool:
    x, y = point
    return (box[0] - slack <= x <= box[0] + box[2] + slack and
            box[1] - slack <= y <= box[1] + box[3] + slack)

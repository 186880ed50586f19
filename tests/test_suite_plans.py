"""Suite answers are reachable: tasks solved by following their plans on real Chromium.

The driver below plays the oracle's part with Playwright: it reads the layout the
pages report to the suite server, asks ``PlanRunner`` for the next move and
performs it with the mouse and keyboard at the reported coordinates. The answer
comes from text displayed on the page (or returned by read_text), never from the
site's data, and must equal the task's programmatic answer.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.suite import SuiteServer, SuiteTask, tasks
from webfovea.suite.layout import Layout
from webfovea.suite.policy import Move, PlanRunner

SEED = 7
# One task per obstacle the suite must prove reachable; the rest run with -m slow.
QUICK = ("stats-production-cell", "stats-total-decade", "charts-difference", "energy-value",
         "filings-capacity")
ALL = tuple(t.id for t in tasks(SEED))


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=SEED) as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def suite_browser(suite: SuiteServer) -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(),
                                           args=launch_args(host_rules=suite.host_rules()))
        yield browser
        await browser.close()


class Driver:
    """Performs PlanRunner moves on a real page, as a harness would."""

    def __init__(self, context: BrowserContext, suite: SuiteServer) -> None:
        self.context = context
        self.layout_url = suite.layout_url()
        self.finds: dict[str, int] = {}

    @property
    def page(self) -> Page:
        return self.context.pages[-1]  # a new tab becomes the active one

    async def layout(self) -> Layout:
        async with httpx.AsyncClient() as client:
            for _ in range(40):
                resp = await client.get(self.layout_url, params={"settle": "0.15"})
                if resp.status_code == 200:
                    layout = Layout.model_validate(resp.json())
                    if layout.url == self.page.url:
                        return layout
                await asyncio.sleep(0.1)
        raise AssertionError(f"no layout report for {self.page.url}")

    async def solve(self, task: SuiteTask, *, max_moves: int = 150) -> str:
        page = await self.context.new_page()
        await page.goto(task.url)
        runner = PlanRunner(task)
        for _ in range(max_moves):
            move = runner.next_move(await self.layout())
            if move.kind == "finished":
                return move.text
            note = await self.perform(move)
            if move.kind == "read_text":
                runner.note(note)
            await asyncio.sleep(0.1)
            await self.page.wait_for_load_state()
        raise AssertionError(f"{task.id}: no answer after {max_moves} moves")

    async def perform(self, move: Move) -> str:
        page, point = self.page, move.point
        if move.kind in ("click", "hover", "fill", "select", "scroll"):
            assert point is not None
            x, y = point
            await page.mouse.move(x, y)
            if move.kind == "click":
                await page.mouse.click(x, y)
            elif move.kind == "fill":
                await page.mouse.click(x, y)
                await page.keyboard.press("Control+A")
                await page.keyboard.type(move.text.rstrip("\n"))
                if move.text.endswith("\n"):
                    await page.keyboard.press("Enter")
            elif move.kind == "select":
                await self._select_at(x, y, move.text)
            elif move.kind == "scroll":
                await page.mouse.wheel(0, 500 if move.direction == "down" else -500)
        elif move.kind == "find_text":
            await self._find(move.text)
        elif move.kind == "read_text":
            return await self._read_text(move.text)
        elif move.kind == "wait":
            await asyncio.sleep(0.5)
        return ""

    async def _select_at(self, x: float, y: float, option: str) -> None:
        for select in await self.page.locator("select").all():
            box = await select.bounding_box()
            if box and box["x"] <= x <= box["x"] + box["width"] and \
                    box["y"] <= y <= box["y"] + box["height"]:
                await select.select_option(label=option)
                return
        raise AssertionError(f"no <select> at ({x}, {y})")

    async def _find(self, text: str) -> None:
        matches = [loc for frame in self.page.frames
                   for loc in await frame.get_by_text(text).all()]
        assert matches, f"find_text: {text!r} not on the page"
        index = self.finds.get(text, 0) % len(matches)
        self.finds[text] = index + 1
        await matches[index].scroll_into_view_if_needed()

    async def _read_text(self, label: str) -> str:
        """Up to 600 characters of DOM text around the label (from the parent of the element
        holding it), private-use glyphs shown as '?', like the harness's read_text."""
        for frame in self.page.frames:
            found = frame.get_by_text(label).first
            if await found.count():
                text = " ".join((await found.locator("xpath=..").text_content() or "").split())
                start = max(0, text.lower().find(label.lower()) - 150)
                return re.sub(r"[\ue000-\uf8ff]", "?", text[start:start + 600])
        return ""


async def _solve(suite: SuiteServer, browser: Browser, task_id: str) -> tuple[SuiteTask, str]:
    task = next(t for t in suite.tasks() if t.id == task_id)
    context = await browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        answer = await Driver(context, suite).solve(task)
    finally:
        await context.close()
    return task, answer


@pytest.mark.parametrize("task_id", QUICK)
async def test_plan_reaches_the_programmatic_answer(suite: SuiteServer, suite_browser: Browser,
                                                    task_id: str) -> None:
    task, answer = await _solve(suite, suite_browser, task_id)
    assert answer == task.answer
    assert not suite.app.errors


@pytest.mark.slow
@pytest.mark.parametrize("task_id", [t for t in ALL if t not in QUICK])
async def test_every_plan_reaches_its_answer(suite: SuiteServer, suite_browser: Browser,
                                            task_id: str) -> None:
    task, answer = await _solve(suite, suite_browser, task_id)
    assert answer == task.answer

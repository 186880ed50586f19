"""Settling is adaptive: a page that updates every 60 ms still settles once its noise is known."""

from __future__ import annotations

import time

from webfovea.actions.registry import Action, Point
from webfovea.browser import fingerprint
from webfovea.browser.capture import capture
from webfovea.browser.executor import Executor
from webfovea.browser.local_server import LocalServer
from webfovea.browser.scripts import evaluate_watched
from webfovea.browser.session import BrowserSession, settle
from webfovea.core.config import AgentConfig


async def test_a_fast_ticker_does_not_hold_every_action_to_the_cap(
        browser: BrowserSession, pages: LocalServer) -> None:
    tabs = await browser.new_tabs()
    try:
        await tabs.page.goto(pages.url("settle/ticker.html"))
        screen = await capture(tabs.page, cap=AgentConfig().image_cap)
        await fingerprint.watch(tabs.page)
        await tabs.page.wait_for_timeout(1500)  # the model's thinking time: the watcher learns
        executor = Executor(tabs, AgentConfig())
        started = time.monotonic()
        note = await executor.execute(Action("click", {"start_box": Point(525, 322)}), screen)
        took = time.monotonic() - started
        assert note.outcome == "changed", note.text
        assert took < AgentConfig().settle_cap * 0.6, took
        assert await settle(tabs, cap=3.0)
    finally:
        await tabs.close()


async def test_a_frame_without_the_watcher_gets_it_on_the_first_settle(
        browser: BrowserSession, pages: LocalServer) -> None:
    """The lean script (no watcher source) serves frames the init script ran in; a frame it
    missed (here a context opened without it) is settled and fingerprinted all the same,
    with the watcher installed on the way."""
    context = await browser.browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(pages.url("settle/ticker.html"))
        has_watcher = "() => Boolean(window[Symbol.for('webfovea.watch')])"
        assert not await page.evaluate(has_watcher)
        result = await evaluate_watched(page.main_frame, "settle", {"capMs": 3000})
        assert set(result) >= {"quiet", "held", "ms"}, result
        assert await page.evaluate(has_watcher)
        print_ = await evaluate_watched(page.main_frame, "fingerprint", {
            "x": None, "y": None, "phase": "watch", "quietMs": 0, "capMs": 0})
        assert isinstance(print_, dict), print_
    finally:
        await context.close()

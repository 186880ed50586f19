"""When a tab's page fired its load event: the start of "how long until the first model
call", shared by the live-pages test and benchmark."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from playwright.async_api import Error as PlaywrightError

from webfovea.browser.scripts import js
from webfovea.browser.session import BrowserSession


async def load_event(session: BrowserSession, url: str, found: threading.Event) -> float:
    """Epoch seconds of the load event of the first tab (in any context) showing ``url``.
    ``found`` is set when this returns, so a fake model can keep the tab open until then."""
    try:
        while True:
            for context in session.browser.contexts:
                for page in context.pages:
                    if page.url == url:
                        with contextlib.suppress(PlaywrightError):
                            at = await page.evaluate(js("load_event"))
                            if at:
                                return float(at) / 1000
            await asyncio.sleep(0.01)
    finally:
        found.set()

"""When a tab's page fired its load event: the start of "how long until the first model
call", shared by the live-pages test and benchmark."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from webfovea.browser.errors import translated
from webfovea.browser.scripts import js
from webfovea.browser.session import BrowserSession
from webfovea.core.errors import BrowserError


async def load_event(session: BrowserSession, url: str, found: threading.Event) -> float:
    """Epoch seconds of the load event of the first tab (in any context) showing ``url``.
    ``found`` is set when this returns, so a fake model can keep the tab open until then."""
    try:
        while True:
            for context in session.browser.contexts:
                for page in context.pages:
                    if page.url == url:
                        with contextlib.suppress(BrowserError), translated():
                            at = await page.evaluate(js("load_event"))
                            if at:
                                return float(at) / 1000
            await asyncio.sleep(0.01)
    finally:
        found.set()

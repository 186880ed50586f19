"""The tab's session history, read from Chromium (CDP ``Page.getNavigationHistory``).

A task's tab starts on ``about:blank`` and then loads the entry URL, so a plain browser
back from the entry page would strand the agent on that blank page for the rest of the
task; the executor asks here first whether there is a real page to go back to.
"""

from __future__ import annotations

from playwright.async_api import Page

_NOTHING = ("", "about:blank")


async def pages_behind(page: Page) -> int:
    """How many real pages (not the initial blank one) lie behind the current entry."""
    cdp = await page.context.new_cdp_session(page)
    try:
        history = await cdp.send("Page.getNavigationHistory")
    finally:
        await cdp.detach()
    earlier = history["entries"][:history["currentIndex"]]
    return sum(1 for entry in earlier if entry["url"] not in _NOTHING)

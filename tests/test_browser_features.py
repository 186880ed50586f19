"""The browsers we launch draw no UI nobody sees, and keep every feature Playwright turns off.

Chromium honours only the last ``--disable-features``; a switch of ours that dropped
Playwright's list would quietly change its screenshots and routing, so the one switch is
checked on the real command lines of our browser and of a plain Playwright one (issue 29,
item 6).
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Browser

from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.browser.features import UNSEEN_UI
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession, shared_driver

FLAG = "--disable-features="


async def test_a_task_context_starts_no_address_bar_popup(
    browser: BrowserSession, pages: LocalServer
) -> None:
    cdp = await browser.browser.new_browser_cdp_session()
    tabs = await browser.new_tabs()
    try:
        await tabs.page.goto(pages.url("roundtrip/form.html"))
        await asyncio.sleep(0.5)  # the popup's renderer came up just after the context
        targets = (await cdp.send("Target.getTargets"))["targetInfos"]
    finally:
        await tabs.close()
        await cdp.detach()
    urls = [t["url"] for t in targets]
    assert pages.url("roundtrip/form.html") in urls, urls
    assert not [u for u in urls if u.startswith("chrome://omnibox-popup")], urls


async def test_one_switch_holds_playwrights_features_and_ours(browser: BrowserSession) -> None:
    ours = [a for a in await command_line(browser.browser) if a.startswith(FLAG)]
    async with shared_driver() as pw:
        plain = await pw.chromium.launch(executable_path=find_chromium(), args=launch_args())
        try:
            theirs = [a for a in await command_line(plain) if a.startswith(FLAG)]
        finally:
            await plain.close()
    assert len(ours) == 1 and len(theirs) == 1, (ours, theirs)
    playwrights = theirs[0].removeprefix(FLAG).split(",")
    assert len(playwrights) >= 3, playwrights  # Playwright 1.4x–1.5x pass about a dozen
    assert ours[0].removeprefix(FLAG).split(",") == [*playwrights, *UNSEEN_UI]


async def command_line(browser: Browser) -> list[str]:
    """The browser's arguments as its process was started, read where a user reads them."""
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto("chrome://version")
        return (await page.inner_text("#command_line")).split()
    finally:
        await context.close()

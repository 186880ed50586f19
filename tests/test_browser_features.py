"""The browsers we launch draw no UI nobody sees, and keep every feature Playwright turns off.

Chromium honours only the last ``--disable-features``; a list of ours that dropped
Playwright's would quietly change its screenshots and routing, so both halves are checked on
the browser's real command line (issue 29, item 6).
"""

from __future__ import annotations

import asyncio

from webfovea.browser.features import UNSEEN_UI, playwright_disabled_features
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession, shared_driver


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
    assert any(u == pages.url("roundtrip/form.html") for u in urls), urls
    assert not [u for u in urls if u.startswith("chrome://omnibox-popup")], urls


async def test_playwrights_disabled_features_are_kept_beside_ours(browser: BrowserSession) -> None:
    arguments = await command_line(browser)
    flags = [a for a in arguments if a.startswith("--disable-features=")]
    assert flags, arguments
    def features(flag: str) -> set[str]:
        return set(flag.removeprefix("--disable-features=").split(","))

    playwrights, honoured = features(flags[0]), features(flags[-1])
    assert len(playwrights) >= 3, playwrights  # Playwright 1.4x–1.5x pass about a dozen
    assert playwrights <= honoured, playwrights - honoured
    assert set(UNSEEN_UI) <= honoured, honoured


async def test_playwrights_list_is_read_from_a_real_launch(browser: BrowserSession) -> None:
    arguments = await command_line(browser)
    async with shared_driver() as pw:
        read = await playwright_disabled_features(pw)
    playwrights = next(a for a in arguments if a.startswith("--disable-features="))
    assert ",".join(read) == playwrights.removeprefix("--disable-features=")


async def command_line(browser: BrowserSession) -> list[str]:
    """The browser's arguments as its process was started, read where a user reads them."""
    tabs = await browser.new_tabs()
    try:
        await tabs.page.goto("chrome://version")
        return (await tabs.page.inner_text("#command_line")).split()
    finally:
        await tabs.close()

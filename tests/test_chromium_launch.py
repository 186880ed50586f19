"""How Chromium is launched: read back from the running browser's own command line."""

from __future__ import annotations

import os

from test_bench_support import browser_pids, cmdline
from webfovea.browser.session import BrowserSession


async def test_one_disable_features_switch_reaches_the_browser(browser: BrowserSession) -> None:
    # Chromium keeps only the last --disable-features: a second one of ours would silently
    # switch back on every feature Playwright turns off (paint holding, HTTPS upgrades, …).
    assert browser.browser.is_connected()
    pids = browser_pids(os.getpid())
    assert pids, "the session's Chromium runs under this process"
    for pid in pids:
        switches = [a for a in cmdline(pid) if a.startswith("--disable-features=")]
        assert len(switches) == 1, switches
        assert "MediaRouter" in switches[0] and "OptimizationHints" in switches[0]

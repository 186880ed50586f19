"""Screenshots of a page served live and replayed from a snapshot, and how far they differ."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from webfovea.browser.domain_lock import DomainLock
from webfovea.browser.evidence import PageEvent
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.sites import SiteOptions, SiteRecord
from webfovea.snapshot.session import SiteSession

VIEWPORT = {"width": 1920, "height": 1080}  # BrowserConfig's default, as replays get
_FONTS_READY = "document.fonts.ready.then(() => document.fonts.size)"


@dataclass
class Replayed:
    png: bytes
    url: str  # where the tab ended (after redirects)
    status: int | None
    record: SiteRecord
    events: list[PageEvent] = field(default_factory=list)
    fonts_loaded: bool = False
    text: str = ""  # the page's visible text


async def live_shot(browser: BrowserSession, url: str) -> bytes:
    """The page from its server (a self-signed https one accepted)."""
    context = await browser.browser.new_context(viewport=VIEWPORT, ignore_https_errors=True)
    try:
        page = await context.new_page()
        await page.goto(url, wait_until="load")
        await page.evaluate(_FONTS_READY)
        return await page.screenshot()
    finally:
        await context.close()


async def replay_shot(browser: BrowserSession, snap: Path, url: str, out: Path) -> Replayed:
    """The page replayed from ``snap`` behind the domain lock, as a task's tab gets it."""
    out.mkdir(parents=True, exist_ok=True)
    session = SiteSession(SiteOptions("replay", str(snap)), "t", url, out)
    tabs = await browser.new_tabs()
    try:
        await DomainLock.for_task(tabs, url, AgentConfig().allow_domains,
                                  downstream=await session.attach(tabs))
        response = await tabs.page.goto(url, wait_until="load")
        await tabs.page.evaluate(_FONTS_READY)
        loaded = await tabs.page.evaluate("document.fonts.check('64px Archived')")
        return Replayed(await tabs.page.screenshot(), tabs.page.url,
                        response.status if response else None, session.record,
                        list(tabs.events), bool(loaded), await tabs.page.inner_text("body"))
    finally:
        await session.close()
        await tabs.close()


def unmatched(record: SiteRecord) -> list[str]:
    """What the replay could not answer, but the browser's own favicon request: crawls
    rarely capture it, and the page never asked for it."""
    return [u.url for u in record.unmatched_shown if not u.url.endswith("/favicon.ico")]


def difference(a: bytes, b: bytes) -> float:
    """Mean absolute difference of two same-size screenshots, in % of full scale."""
    x = np.asarray(Image.open(io.BytesIO(a)).convert("RGB"), dtype=np.float64)
    y = np.asarray(Image.open(io.BytesIO(b)).convert("RGB"), dtype=np.float64)
    assert x.shape == y.shape, (x.shape, y.shape)
    return float(np.abs(x - y).mean() / 255 * 100)

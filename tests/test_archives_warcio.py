"""warcio-written WARCs: two crawls of one site a year apart, deduplicated with revisits.

Day 1 (2020-01-15) captures page.html, its red stylesheet (sent gzip-compressed and
stored so) and the logo. Day 2 (2021-06-01) captures them again (page.html and the logo
unchanged: revisit records; the stylesheet now blue) and news.html, new that day. A
replay must resolve the revisits to their payloads, give each page the stylesheet of its
own day, start each page's clock at its capture, and keep the domain lock: a page of
another site that the archive holds is still refused.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from archive_replay import difference, live_shot, replay_shot, unmatched
from archive_site import SiteServer, WarcioCrawl, build_site, page
from counting_site import Counter, counting_site
from webfovea.browser.domain_lock import DomainLock
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.sites import SiteOptions
from webfovea.snapshot.session import SiteSession

DAY1, DAY2 = "2020-01-15T09:30:00Z", "2021-06-01T17:05:00Z"
RED, BLUE = (192, 57, 43), (46, 134, 193)
CLOCK = ("<p id=when></p><script>document.getElementById('when').textContent = "
         "'Printed ' + new Date().toISOString().slice(0, 10)</script>")


@dataclass
class Crawls:
    server: SiteServer
    warc: Path
    crawler: WarcioCrawl
    away: str
    away_hits: type[Counter]


def _day(root: Path, colour: tuple[int, int, int]) -> None:
    css = (root / "style.css").read_text(encoding="utf-8")
    (root / "style.css").write_text(css.replace("background: #f3efe4",
                                                f"background: rgb{colour}"), "utf-8")


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawls]:
    root = tmp_path_factory.mktemp("warcio")
    day1, day2 = build_site(root / "day1"), build_site(root / "day2")
    _day(day1, RED)
    _day(day2, BLUE)
    for day in (day1, day2):
        (day / "page.html").write_text(page("Timetable", "/news.html", "News") + CLOCK, "utf-8")
    (day2 / "news.html").write_text(page("News", "/page.html", "Back") + CLOCK, "utf-8")
    server = SiteServer(day1)
    crawler = WarcioCrawl(root / "crawls.warc.gz")
    with counting_site() as (away, hits):
        urls = [server.url("page.html"), server.url("style.css"), server.url("logo.png"),
                server.url("fonts/inter.woff2"), away]
        crawler.crawl(urls, DAY1)
        server.root = day2
        crawler.crawl([*urls[:4], server.url("news.html")], DAY2)
        yield Crawls(server, crawler.path, crawler, away, hits)
    server.stop()


def _import(warc: Path, snap: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "import", str(warc),
                           str(snap), "--format", "json"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def _background(png: bytes) -> tuple[int, int, int]:
    pixel = Image.open(io.BytesIO(png)).convert("RGB").getpixel((1900, 1000))
    assert isinstance(pixel, tuple)
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))


def test_import_resolves_the_revisits(crawls: Crawls, tmp_path: Path) -> None:
    report = _import(crawls.warc, tmp_path / "snap")
    assert crawls.crawler.revisits >= 3  # page.html, logo.png, the font, unchanged on day 2
    assert report["revisits"] == crawls.crawler.revisits and report["skipped"] == []
    assert report["responses"] == 10
    assert report["first_ms"] < report["last_ms"]  # type: ignore[operator]
    table = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "import",
                            str(crawls.warc), str(tmp_path / "again")], capture_output=True,
                           text=True, timeout=60).stdout
    assert "captured 2020-01-15T09:30:00+00:00 to 2021-06-01T17:05:00+00:00" in table
    assert f"{crawls.crawler.revisits} revisit records resolved" in table


async def test_each_page_gets_its_own_days_resources_and_clock(
        browser: BrowserSession, crawls: Crawls, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    _import(crawls.warc, snap)
    url = crawls.server.url
    first = await replay_shot(browser, snap, url("page.html"), tmp_path / "page")
    assert unmatched(first.record) == [] and first.fonts_loaded
    assert _background(first.png) == RED  # day 1's stylesheet, decoded from gzip
    assert "Printed 2020-01-15" in first.text  # its clock at its capture
    news = await replay_shot(browser, snap, url("news.html"), tmp_path / "news")
    assert unmatched(news.record) == [] and _background(news.png) == BLUE
    assert "Printed 2021-06-01" in news.text
    # The logo and font came from revisit records: the page renders as served live (day 2).
    live_news = await live_shot(browser, url("news.html"))
    assert difference(news.png, live_news) < 0.5
    assert difference(first.png, live_news) > 3.0  # day 1's page is another page


async def test_the_domain_lock_judges_archived_urls_as_live_ones(
        browser: BrowserSession, crawls: Crawls, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    _import(crawls.warc, snap)
    entry = crawls.server.url("page.html")
    out = tmp_path / "rep"
    out.mkdir()
    session = SiteSession(SiteOptions("replay", str(snap)), "t", entry, out)
    tabs = await browser.new_tabs()
    hits = crawls.away_hits.hits
    try:
        lock = await DomainLock.for_task(tabs, entry, AgentConfig().allow_domains,
                                         downstream=await session.attach(tabs))
        await tabs.open(entry)
        await tabs.page.evaluate("url => { location.href = url; }", crawls.away)
        for _ in range(200):
            if lock.blocked:
                break
            await tabs.page.wait_for_timeout(50)
        assert [(b.kind, b.url) for b in lock.blocked] == [("navigation", crawls.away)]
        assert tabs.page.url == entry  # the archive holds the other site's page: refused
    finally:
        await session.close()
        await tabs.close()
    assert crawls.away_hits.hits == hits

"""The suite server on real Chromium: every site under its host name, nothing fetched from
anywhere else, and layout reports whose rects agree with Playwright's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, Request, async_playwright

from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.suite import SuiteServer
from webfovea.suite.layout import Layout

# Entry pages, plus pages that load more assets (fonts, icon font, charts, iframes).
PAGES = (
    ("stats.fovea.test", "/table/AGR01?region=Eastern&q=Barley"),
    ("energy.fovea.test", "/"),
    ("charts.fovea.test", "/chart/co2-emissions"),
    ("filings.fovea.test", "/"),
    ("rankings.fovea.test", "/"),
    ("forms.fovea.test", "/"),
    ("news.fovea.test", "/"),
    ("news.fovea.test", "/archive"),
    ("search.fovea-external.test", "/search?q=corven"),
    ("api.fovea-external.test", "/"),
)
TITLES = {"stats.fovea.test": "Fovea Statistics Office", "energy.fovea.test": "Fovea Energy",
          "charts.fovea.test": "Fovea Charts", "filings.fovea.test": "Fovea Filings Registry",
          "rankings.fovea.test": "Fovea World University Rankings",
          "forms.fovea.test": "Fovea Rail", "news.fovea.test": "Fovea Daily",
          "search.fovea-external.test": "Foogle",
          "api.fovea-external.test": "Fovea Open Data API"}


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=3) as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def suite_browser(suite: SuiteServer) -> AsyncIterator[Browser]:
    # Anything the suite does not map must fail to resolve, so a stray fetch cannot succeed.
    rules = (*suite.host_rules(), "MAP * ~NOTFOUND")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(),
                                           args=launch_args(host_rules=rules))
        yield browser
        await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page(suite_browser: Browser) -> AsyncIterator[Page]:
    context = await suite_browser.new_context(viewport={"width": 1920, "height": 1080})
    yield await context.new_page()
    await context.close()


async def _layout(suite: SuiteServer, page: Page) -> Layout:
    async with httpx.AsyncClient() as client:
        for _ in range(50):
            resp = await client.get(suite.layout_url(), params={"settle": "0.15"})
            if resp.status_code == 200:
                layout = Layout.model_validate(resp.json())
                if layout.url == page.url:
                    return layout
            await asyncio.sleep(0.1)
    raise AssertionError(f"no layout report for {page.url}")


async def _layout_showing(suite: SuiteServer, page: Page, fid: str) -> Layout:
    """The layout once it places ``fid`` where the page has it.

    Until the new page's first report arrives, the server may still hold an earlier page at
    the same URL (one closed without a pagehide, or reported before its web fonts loaded);
    clicking by that report's coordinates can miss.
    """
    box = await page.locator(f"[data-fovea='{fid}']").bounding_box()
    assert box is not None, fid
    for _ in range(50):
        layout = await _layout(suite, page)
        el = layout.get(fid)
        if el is not None and abs(el.x - box["x"]) < 1 and abs(el.y - box["y"]) < 1:
            return layout
        await asyncio.sleep(0.1)
    raise AssertionError(f"the layout never placed {fid} at {box}")


def _allowed(url: str) -> bool:
    parts = urlsplit(url)
    host = parts.hostname or ""
    return parts.scheme == "data" or host.endswith((".fovea.test", ".fovea-external.test"))


async def test_every_site_is_served_under_its_host_and_only_locally(
        suite: SuiteServer, page: Page) -> None:
    requested: list[str] = []
    failed: list[str] = []

    def on_request(request: Request) -> None:
        requested.append(request.url)

    def on_failed(request: Request) -> None:
        failed.append(f"{request.url} {request.failure}")

    page.context.on("request", on_request)
    page.context.on("requestfailed", on_failed)
    for host, path in PAGES:
        response = await page.goto(suite.url(host, path))
        assert response is not None and response.ok, f"{host}{path}"
        await page.wait_for_load_state("networkidle")
        assert TITLES[host] in await page.title()
    assert requested and not failed
    assert [u for u in requested if not _allowed(u)] == []
    served = {(h, p) for h, p in suite.app.served}
    for url in requested:
        parts = urlsplit(url)
        if parts.scheme != "data":
            assert (parts.hostname, parts.path) in served, url
    fonts = [u for u in requested if u.endswith(".woff2")]
    assert any("fa-solid-900" in u for u in fonts) and any("inter-latin" in u for u in fonts)
    assert not suite.app.errors


async def test_reported_rects_match_playwright_bounding_boxes(suite: SuiteServer,
                                                               page: Page) -> None:
    await page.set_viewport_size({"width": 1600, "height": 700})
    await page.goto(suite.url("stats.fovea.test", "/table/AGR01?region=Eastern&q=Barley"))
    await page.mouse.move(800, 400)
    await page.mouse.wheel(0, 300)
    layout = await _layout(suite, page)
    for _ in range(30):  # a wheel scroll animates: wait until two reports agree
        await asyncio.sleep(0.1)
        again = await _layout(suite, page)
        if again.scroll_y == layout.scroll_y > 0:
            break
        layout = again
    assert layout.viewport_w == 1600 and layout.viewport_h == 700 and layout.scroll_y > 0
    for fid in ("region-filter", "search-box", "cell-eastern-barley-2019", "page-2"):
        box = await page.locator(f"[data-fovea='{fid}']").bounding_box()
        el = layout.get(fid)
        assert box is not None and el is not None, fid
        assert abs(el.x - box["x"]) < 1 and abs(el.y - box["y"]) < 1, fid
        assert abs(el.w - box["width"]) < 1 and abs(el.h - box["height"]) < 1, fid
    region = layout.get("region-filter")
    assert region is not None and region.value == "Eastern"


async def test_child_frame_rects_are_shifted_into_the_top_viewport(suite: SuiteServer,
                                                                    page: Page) -> None:
    await page.goto(suite.url("energy.fovea.test"))
    frame = page.frame(name="dash-frame")
    assert frame is not None
    await frame.get_by_text("Monthly electricity generation").wait_for()
    layout = await _layout(suite, page)
    legend = layout.get("legend-solar")
    box = await frame.locator("[data-fovea='legend-solar']").bounding_box()
    assert legend is not None and box is not None
    assert legend.frame == "dash-frame" and legend.in_view
    assert abs(legend.x - box["x"]) < 1 and abs(legend.y - box["y"]) < 1
    # A canvas bar is a region the chart reports; hovering its centre shows its tooltip.
    bar = layout.get("dash-bar-mar")
    canvas = await frame.locator("canvas").bounding_box()
    assert bar is not None and canvas is not None
    x, y = bar.centre
    assert canvas["x"] <= x <= canvas["x"] + canvas["width"]
    await page.mouse.move(x, y)
    await frame.wait_for_selector(".tooltip.shown")
    tip = (await _layout(suite, page)).get("dash-tooltip")
    assert tip is not None and tip.visible and "March 2024" in tip.text


async def test_hidden_tooltip_has_no_text_until_hovered(suite: SuiteServer, page: Page) -> None:
    await page.goto(suite.url("charts.fovea.test", "/chart/co2-emissions?country=brevia"))
    await page.wait_for_selector("[data-fovea='bar-2017']")
    before = (await _layout(suite, page)).get("chart-tooltip")
    assert before is not None and not before.visible and before.text == ""
    bar = (await _layout(suite, page)).get("bar-2017")
    assert bar is not None
    await page.mouse.move(*bar.centre)
    await page.wait_for_selector(".tooltip.shown")
    after = (await _layout(suite, page)).get("chart-tooltip")
    assert after is not None and after.visible and after.text.startswith("2017: ")


async def test_cookie_banner_is_reported_as_covering_rows(suite: SuiteServer,
                                                          page: Page) -> None:
    await page.goto(suite.url("rankings.fovea.test"))
    layout = await _layout_showing(suite, page, "cookie-accept")
    covered = layout.get("r15-name")
    assert covered is not None and covered.in_view and covered.hit is False
    accept = layout.get("cookie-accept")
    assert accept is not None
    await page.mouse.click(*accept.centre)
    await page.wait_for_selector(".cookie-banner", state="detached")
    after = (await _layout(suite, page)).get("r15-name")
    assert after is not None and after.hit is True

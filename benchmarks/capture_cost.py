"""What the screenshot the model gets costs, before and after issue 35's fix, in one run.

On a long page scrolled to the middle, at both screen sizes, each round times (alternating,
so the ratios hold on a loaded machine):

- ``before``: the capture as it was (a scaled clip at the document's origin, which drew the
  top of the document, not the screen): timed only, its pixels were wrong;
- ``after``: :func:`webfovea.browser.capture.capture` (the clip follows the visual viewport);
- ``full+downsample``: a full-size Playwright screenshot downsampled in Python (what a
  capture that cannot be made correct at the sent size would cost);
- ``bare``: a plain Playwright ``page.screenshot()`` at full size (the floor).

Each line also gives the mean pixel difference of the method's image from the bare
screenshot scaled to the sent size (0-255; about 0.1 is resampling only).

    python benchmarks/capture_cost.py [--shots 20]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from PIL import Image, ImageChops, ImageStat
from playwright.async_api import CDPSession, Page

from webfovea.browser.capture import capture, downsample
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import BrowserConfig, Size

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
CAP = Size(1440, 810)
SIZES = ((Size(1920, 1080), 1.0), (Size(1280, 720), 2.0))


_sessions: dict[Page, CDPSession] = {}


async def before(page: Page) -> bytes:
    """The defect's capture: the same scaled clip, placed at the document's origin (one
    DevTools session per page, as capture keeps one)."""
    width, height, ratio = await page.evaluate("() => [innerWidth, innerHeight, devicePixelRatio]")
    if page not in _sessions:
        _sessions[page] = await page.context.new_cdp_session(page)
    reply = await _sessions[page].send("Page.captureScreenshot", {
        "format": "png", "optimizeForSpeed": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height,
                 "scale": CAP.width / (width * ratio)}})
    return base64.b64decode(reply["data"])


async def after(page: Page) -> bytes:
    return (await capture(page, cap=CAP)).png


async def full_downsample(page: Page) -> bytes:
    return downsample(await page.screenshot(type="png"), CAP)[0]


async def bare(page: Page) -> bytes:
    return await page.screenshot(type="png")


METHODS: dict[str, Callable[[Page], Awaitable[bytes]]] = {
    "before": before, "after": after, "full+downsample": full_downsample, "bare": bare}


def difference(png: bytes, reference: bytes) -> float:
    with Image.open(io.BytesIO(png)) as a, Image.open(io.BytesIO(reference)) as b:
        mine = a.convert("RGB")
        theirs = b.convert("RGB").resize(mine.size, Image.Resampling.LANCZOS)
    return sum(ImageStat.Stat(ImageChops.difference(mine, theirs)).mean) / 3


async def measure(server: LocalServer, viewport: Size, scale: float, shots: int) -> None:
    async with BrowserSession(BrowserConfig(viewport=viewport, device_scale_factor=scale)) as s:
        tabs = await s.new_tabs()
        await tabs.open(server.url("viewport/long.html"))
        page = tabs.page
        await page.evaluate("window.scrollTo(0, 4321)")
        times: dict[str, list[float]] = {name: [] for name in METHODS}
        cpu: dict[str, list[float]] = {name: [] for name in METHODS}
        images: dict[str, bytes] = {}
        for _ in range(shots):
            for name, method in METHODS.items():
                wall, proc = time.perf_counter(), time.process_time()
                images[name] = await method(page)
                times[name].append((time.perf_counter() - wall) * 1000)
                cpu[name].append((time.process_time() - proc) * 1000)
        reference = images["bare"]
        floor = statistics.median(times["bare"])
        print(f"{viewport.width}x{viewport.height}@{scale:g} (sent {CAP.width}x{CAP.height}):")
        for name in METHODS:
            median = statistics.median(times[name])
            print(f"  {name:16s} {median:7.1f} ms median  {median / floor:5.2f}x bare  "
                  f"python CPU {statistics.median(cpu[name]):6.1f} ms  "
                  f"pixel difference {difference(images[name], reference):6.2f}")
        await tabs.close()


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=20)
    args = parser.parse_args(argv)
    with LocalServer(PAGES) as server:
        for viewport, scale in SIZES:
            await measure(server, viewport, scale, args.shots)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))

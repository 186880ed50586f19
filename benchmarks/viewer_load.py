"""The viewer's size and load time on a real run directory.

    .venv/bin/python benchmarks/viewer_load.py RUN_DIR [--loads 5]

Writes the pages (timing ``write_report``), then prints: the bytes of the index and of the task
pages (the pages alone; screenshots are linked, not copied, and are counted apart), and the
median load time of the index and of the largest task page in headless Chromium (navigation
start to the end of the load event, the viewer's script having drawn the page), over
``--loads`` fresh loads each. Numbers depend on the machine and its load: compare them as
ratios within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from webfovea.browser.session import BrowserSession
from webfovea.core.config import BrowserConfig
from webfovea.rundir.store import load_run
from webfovea.viewer.report import TASK_PAGE, write_report


async def load_ms(session: BrowserSession, page_file: Path, loads: int) -> float:
    times = []
    for _ in range(loads):
        context = await session.browser.new_context(viewport={"width": 1400, "height": 900})
        page = await context.new_page()
        await page.goto(page_file.as_uri(), wait_until="load")
        times.append(await page.evaluate(
            "(() => { const n = performance.getEntriesByType('navigation')[0];"
            " return n.loadEventEnd - n.startTime; })()"))
        await context.close()
    return statistics.median(times)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--loads", type=int, default=5)
    ns = parser.parse_args()
    t0 = time.perf_counter()
    index = write_report(ns.run_dir)
    written = time.perf_counter() - t0
    run = load_run(ns.run_dir)
    pages = [t.dir / TASK_PAGE for t in run.tasks]
    shots = sum(p.stat().st_size for t in run.tasks for p in (t.dir / "screens").glob("*.png"))
    largest = max(pages, key=lambda p: p.stat().st_size)
    steps = sum(len(t.steps) for t in run.tasks)
    print(f"run: {ns.run_dir} ({len(run.tasks)} tasks, {steps} steps)")
    print(f"write_report: {written:.2f} s")
    print(f"index: {index.stat().st_size / 1024:.1f} KiB; task pages: "
          f"{sum(p.stat().st_size for p in pages) / 1024:.1f} KiB in total, largest "
          f"{largest.stat().st_size / 1024:.1f} KiB ({largest.parent.name}); "
          f"screenshots (linked): {shots / 2**20:.1f} MiB")
    async with BrowserSession(BrowserConfig()) as session:
        print(f"load, median of {ns.loads}: index {await load_ms(session, index, ns.loads):.0f} ms, "
              f"largest task page {await load_ms(session, largest, ns.loads):.0f} ms")


if __name__ == "__main__":
    asyncio.run(main())

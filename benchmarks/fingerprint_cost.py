"""What fingerprinting costs per step on a heavy page, in milliseconds.

A generated page with thousands of nodes (a 1,500-row table and a ticking clock) and two
frames (one same-origin, one cross-origin, each ~1,200 nodes), served on 127.0.0.1 and
localhost, in real headless Chromium. One step's cost is ``fingerprint.before`` plus
``fingerprint.after`` around no action at all (the executor's settle is not included);
the watchers are given their baseline first, as the model's thinking time would.

    python benchmarks/fingerprint_cost.py [--repeats 40] [--rows 1500]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from webfovea.browser import fingerprint
from webfovea.browser.local_server import LocalServer
from webfovea.browser.locate import hit_test
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.core.config import BrowserConfig

CLOCK = "<span id=clock></span><script>setInterval(() => { clock.textContent = Date.now(); }, 1000)</script>"


def _table(rows: int) -> str:
    body = "".join(f"<tr><td>{i}</td><td>Item {i}</td><td><a href='#r{i}'>open</a></td>"
                   f"<td><input value='{i * 7}'></td><td><span>{i * 3.5:.1f}</span></td></tr>"
                   for i in range(rows))
    return f"<table>{body}</table>"


def write_pages(root: Path, rows: int, other: str) -> None:
    (root / "frame.html").write_text(f"<!doctype html><title>frame</title>{_table(rows // 6)}")
    (root / "heavy.html").write_text(
        "<!doctype html><title>heavy</title><div style='height:300px;overflow:auto'>"
        f"{_table(rows)}</div>{CLOCK}"
        "<iframe src='frame.html' width=600 height=300></iframe>"
        f"<iframe src='{other}/frame.html' width=600 height=300></iframe>")


async def measure(tabs: Tabs, repeats: int) -> dict[str, list[float]]:
    point = (200, 150)
    hit = await hit_test(tabs.page, *point)
    await fingerprint.watch(tabs.page)
    await asyncio.sleep(fingerprint.BASELINE_CAP_MS / 1000)  # the model "thinks"
    times: dict[str, list[float]] = {"before": [], "after": [], "step": []}
    for _ in range(repeats):
        t0 = time.perf_counter()
        before = await fingerprint.before(tabs, point=point, hit=hit)
        t1 = time.perf_counter()
        after = await fingerprint.after(tabs, point=point, hit=hit, canvas=None)
        t2 = time.perf_counter()
        assert not fingerprint.diff(before, after, text=True), "a no-op must compare equal"
        times["before"].append((t1 - t0) * 1000)
        times["after"].append((t2 - t1) * 1000)
        times["step"].append((t2 - t0) * 1000)
    return times


async def main(repeats: int, rows: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with LocalServer(root) as here, LocalServer(root, host="localhost") as there:
            write_pages(root, rows, f"http://localhost:{there.port}")
            async with BrowserSession(BrowserConfig()) as session:
                tabs = await session.new_tabs()
                await tabs.open(here.url("heavy.html"))
                nodes = [await f.evaluate("document.getElementsByTagName('*').length")
                         for f in tabs.page.frames]
                times = await measure(tabs, repeats)
                await tabs.close()
    print(f"page: {nodes[0]} nodes in the main frame, frames {nodes[1:]}; {repeats} repeats")
    for name, values in times.items():
        print(f"{name:>6}: median {statistics.median(values):6.1f} ms  "
              f"(min {min(values):.1f}, max {max(values):.1f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--rows", type=int, default=1500)
    ns = parser.parse_args()
    asyncio.run(main(ns.repeats, ns.rows))

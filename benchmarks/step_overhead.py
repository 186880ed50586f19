"""Harness time per step vs a bare Playwright screenshot + click, on one static page.

Prints medians over repeated steps measured in the same run (ratios, not absolute
targets: machines here are noisy). Usage: python benchmarks/step_overhead.py [STEPS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import AgentConfig, BrowserConfig
from webfovea.models.scripted import ScriptedModel
from webfovea.task import Task
from webfovea.testing.local_server import LocalServer
from webfovea.rundir import read_steps

PAGE = """<!doctype html><html><head><title>Static</title></head><body style="margin:0">
<h1>Static page</h1><p>Nothing here changes.</p>
<button style="position:absolute;left:800px;top:500px;width:200px;height:80px">Inert</button>
</body></html>"""


async def bare(session: BrowserSession, url: str, steps: int) -> list[float]:
    tabs = await session.new_tabs()
    await tabs.page.goto(url)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        await tabs.page.screenshot(type="png")
        await tabs.page.mouse.click(900, 540)
        times.append(time.perf_counter() - t0)
    await tabs.close()
    return times


async def harness(session: BrowserSession, url: str, steps: int, out: Path) -> list[float]:
    replies = ["Thought: click.\nAction: click(start_box='(675,405)')"] * steps
    model = ScriptedModel([*replies, "Thought: done.\nAction: finished(content='x')"])
    await run_task(Task("bench", url), model=model, session=session,
                   config=AgentConfig(max_steps=steps + 1), out=out)
    return [s.harness_seconds for s in read_steps(out)[:steps]]


async def main(steps: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "static.html").write_text(PAGE)
        with LocalServer(root) as server:
            url = server.url("static.html")
            async with BrowserSession(BrowserConfig()) as session:
                await bare(session, url, 3)  # warm up
                b = await bare(session, url, steps)
                h = await harness(session, url, steps, root / "run")
    mb, mh = statistics.median(b), statistics.median(h)
    print(f"steps: {steps}")
    print(f"bare Playwright screenshot+click   median {mb * 1000:7.1f} ms")
    print(f"webfovea harness per step          median {mh * 1000:7.1f} ms")
    print(f"ratio harness/bare                 {mh / mb:7.2f}x")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))

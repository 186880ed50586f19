"""Harness time and CPU per step against the same browser's floor, per page kind, with stages.

The floor ("same-flag floor") is a viewport screenshot + a click at the same point on the
same page in the very Chromium the harness drives (launched by ``BrowserSession``: the
same executable, the same flags, the same ``--disable-features`` switch), in a context of
its own with the same viewport and device scale factor but no init script (no page
watcher): the bare work of a step in the same browser. The harness step is a real
``run_task`` step with an instant scripted model clicking an inert spot (so every step is
captured, fingerprinted, settled and reported as "no detectable change").

Two reference lines: "watched" (the floor's screenshot + click in a context carrying the
page watcher, as every task's does) and "bare Playwright" (a second Chromium launched by
plain Playwright with none of webfovea's flags: no ``--disable-gpu``, so on a machine
without a GPU its screenshots are slower and a ratio against it flatters the harness).

Each round measures one block of each, alternating (floor, watched, bare Playwright,
harness), so the ratios hold on a loaded machine even when absolute times do not;
compare ratios from one run, never absolute times across runs. Page kinds: a static page,
a heavy page (>= 10,000 DOM nodes) and a page with two iframes, one of them cross-origin.
The first harness step of each task is left out: it pays the fingerprint's one-off
baseline wait, which real runs pay while the model thinks.

CPU per step is read for the same steps the wall time is (a logging handler on the
agent's step events marks the harness's window; the floor's is its loop): Chromium's
(the browser's whole process tree, reaped children included), this Python process's
and the Playwright driver's (Node). CPU time holds on a loaded machine far better than
wall time. Numbers are medians over the steps of all rounds; each round's own ratio is
printed too.

    python benchmarks/step_overhead.py [--steps 10] [--rounds 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from webfovea.browser.chromium import find_chromium
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.rundir import events
from webfovea.rundir.store import read_steps

STAGES = ("capture", "encode", "prompt", "parse", "execute", "settle", "fingerprints",
          "trajectory_write")
KINDS = ("floor", "watched", "plain", "harness")  # plain: the bare Playwright browser
LABELS = {"floor": "same-flag floor", "watched": "floor + watcher",
          "plain": "bare Playwright", "harness": "harness"}
CONFIG = BrowserConfig()
VIEWPORT = CONFIG.viewport
CLICK = (900, 540)  # page pixels: an inert spot on every page (1920x1080 viewport)
BUTTON = ('<button style="position:absolute;left:800px;top:500px;width:200px;height:80px">'
          'Inert</button>')

STATIC = f"""<!doctype html><html><head><title>Static</title></head><body style="margin:0">
<h1>Static page</h1><p>Nothing here changes.</p>{BUTTON}</body></html>"""


def heavy_page(rows: int = 2000) -> str:
    cells = "".join(f"<tr><td>{i}</td><td>Item {i}</td><td><b>{i * 7 % 1000}</b></td>"
                    f"<td><a href='#r{i}'>row {i}</a></td><td>{i % 13}</td></tr>"
                    for i in range(rows))
    return (f"<!doctype html><html><head><title>Heavy</title></head><body style='margin:0'>"
            f"<h1>Heavy page</h1>{BUTTON}<table>{cells}</table></body></html>")


def frames_page(other_origin: str) -> str:
    return (f"<!doctype html><html><head><title>Frames</title></head><body style='margin:0'>"
            f"<h1>Two frames</h1>{BUTTON}"
            f"<iframe src='child.html' style='position:absolute;left:40px;top:120px;"
            f"width:600px;height:400px'></iframe>"
            f"<iframe src='{other_origin}/child.html' style='position:absolute;left:1200px;"
            f"top:120px;width:600px;height:400px'></iframe></body></html>")


CHILD = ("<!doctype html><html><body><h2>Child frame</h2><p>Some text in a frame.</p>"
         "<ul>" + "".join(f"<li>entry {i}</li>" for i in range(50)) + "</ul></body></html>")


# --- CPU time --------------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _comm(pid: int) -> str:
    return Path(f"/proc/{pid}/comm").read_text().strip()


def _processes() -> dict[int, tuple[int, str]]:
    """Every process: pid → (parent, program)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                found[int(entry)] = (int(_stat(int(entry))[1]), _comm(int(entry)))
            except (OSError, IndexError, ValueError):
                continue
    return found


def _cpu(pid: int) -> float:
    """CPU seconds of ``pid`` with the children it reaped."""
    try:
        return sum(int(v) for v in _stat(pid)[11:15]) / _TICK  # utime stime cutime cstime
    except (OSError, IndexError, ValueError):
        return 0.0


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its live descendants, with the children they reaped."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in _processes().items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += _cpu(pid)
        todo += children.get(pid, [])
    return total


@dataclass(frozen=True)
class Roots:
    """The processes whose CPU is read: each browser's main process, the driver."""

    ours: int  # the Chromium BrowserSession launched (floor, watched, harness)
    plain: int  # the Chromium plain Playwright launched
    driver: int  # the Playwright driver (Node), shared by both


@dataclass(frozen=True)
class Clock:
    """CPU seconds so far: the browser's tree, this Python process, the driver."""

    chromium: float
    python: float
    driver: float

    @staticmethod
    def read(browser: int, roots: Roots) -> Clock:
        return Clock(tree_cpu(browser), time.process_time(), _cpu(roots.driver))

    def minus(self, start: Clock, steps: int) -> dict[str, float]:
        """CPU ms per step since ``start``."""
        return {"chromium": (self.chromium - start.chromium) * 1000 / steps,
                "python": (self.python - start.python) * 1000 / steps,
                "driver": (self.driver - start.driver) * 1000 / steps}


def _new_browsers(before: set[int]) -> list[int]:
    """Main processes of the Chromiums the driver started since ``before`` (the driver's
    own Chromium children: other programs on the machine start Chromiums too)."""
    driver = _driver()
    return sorted(p for p, (parent, name) in _processes().items()
                  if parent == driver and "chrom" in name and p not in before)


def _driver() -> int:
    """The Playwright driver: this process's Node child."""
    return next(p for p, (parent, name) in _processes().items()
                if parent == os.getpid() and "node" in name)


# --- the blocks ------------------------------------------------------------------------

@dataclass
class Block:
    """One block's step times (s) and CPU ms per step by program."""

    times: list[float]
    cpu: dict[str, float]
    stages: list[dict[str, float]] = field(default_factory=list)


async def screenshot_clicks(page: Page, url: str, steps: int, clock: Callable[[], Clock]
                            ) -> Block:
    await page.goto(url, wait_until="load", timeout=180_000)  # loaded machines
    times = []
    start = clock()
    for _ in range(steps):
        t0 = time.perf_counter()
        await page.screenshot(type="png")
        await page.mouse.click(*CLICK)
        times.append(time.perf_counter() - t0)
    return Block(times, clock().minus(start, steps))


async def in_context(context: BrowserContext, url: str, steps: int,
                     clock: Callable[[], Clock], page: Page | None = None) -> Block:
    try:
        return await screenshot_clicks(page or await context.new_page(), url, steps, clock)
    finally:
        await context.close()


async def floor(session: BrowserSession, url: str, steps: int, clock: Callable[[], Clock]
                ) -> Block:
    """The floor: webfovea's browser, a context like a task's without the page watcher."""
    context = await session.browser.new_context(
        viewport={"width": VIEWPORT.width, "height": VIEWPORT.height},
        device_scale_factor=CONFIG.device_scale_factor)
    return await in_context(context, url, steps, clock)


async def watched(session: BrowserSession, url: str, steps: int, clock: Callable[[], Clock]
                  ) -> Block:
    """The floor's work in a task's own context: the page watcher runs in it."""
    tabs = await session.new_tabs()
    return await in_context(tabs.context, url, steps, clock, tabs.page)


async def plain(browser: Browser, url: str, steps: int, clock: Callable[[], Clock]) -> Block:
    """Plain Playwright: its own browser without webfovea's flags, only the viewport set."""
    context = await browser.new_context(viewport={"width": VIEWPORT.width,
                                                  "height": VIEWPORT.height})
    return await in_context(context, url, steps, clock)


class StepClock(logging.Handler):
    """Reads the CPU clock when the harness's steps end: the window of the measured steps."""

    def __init__(self, clock: Callable[[], Clock], first: int, last: int) -> None:
        super().__init__()
        self.clock, self.first, self.last = clock, first, last
        self.marks: dict[int, Clock] = {}

    def emit(self, record: logging.LogRecord) -> None:
        event = events.event_of(record)
        if event and event.kind == "step_done" and event.step in (self.first, self.last):
            self.marks[event.step] = self.clock()


async def harness(session: BrowserSession, url: str, steps: int, out: Path,
                  clock: Callable[[], Clock]) -> Block:
    x, y = round(CLICK[0] * 0.75), round(CLICK[1] * 0.75)  # in the 1440x810 image sent
    replies = [f"Thought: click.\nAction: click(start_box='({x},{y})')"] * (steps + 1)
    model = ScriptedModel([*replies, "Thought: done.\nAction: finished(content='x')"])
    marks = StepClock(clock, 1, steps + 1)  # step 1 pays the one-off fingerprint baseline
    events.logger.addHandler(marks)
    level = events.logger.level
    events.logger.setLevel(logging.INFO)
    try:
        await run_task(Task("bench", url), model=model, session=session,
                       config=AgentConfig(max_steps=steps + 2), out=out)
    finally:
        events.logger.removeHandler(marks)
        events.logger.setLevel(level)
    records = read_steps(out)[1:steps + 1]
    return Block([s.harness_seconds for s in records],
                 marks.marks[steps + 1].minus(marks.marks[1], steps),
                 [dict(getattr(s, "stage_seconds", {}) or {}) for s in records])


# --- the report ------------------------------------------------------------------------

def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def summary(blocks: dict[str, list[Block]]) -> dict[str, Any]:
    ms = 1000.0
    times = {k: [t for b in bs for t in b.times] for k, bs in blocks.items()}
    median = {k: statistics.median(v) for k, v in times.items()}
    stages = [s for b in blocks["harness"] for s in b.stages]
    rounds = [statistics.median(h.times) / statistics.median(f.times)
              for f, h in zip(blocks["floor"], blocks["harness"], strict=True)]
    cpu = {k: {prog: statistics.median(b.cpu[prog] for b in bs)
               for prog in ("chromium", "python", "driver")} for k, bs in blocks.items()}
    return {**{f"{k}_ms": {"median": median[k] * ms, "p90": p90(v) * ms}
               for k, v in times.items()},
            "ratio": median["harness"] / median["floor"],
            "ratio_rounds": rounds,
            "ratio_watched": median["harness"] / median["watched"],
            "ratio_bare_playwright": median["harness"] / median["plain"],
            "cpu_ms_per_step": cpu,
            "cpu_ratio": sum(cpu["harness"].values()) / max(sum(cpu["floor"].values()), 1e-9),
            "stages_ms": {name: statistics.median([s.get(name, 0.0) for s in stages]) * ms
                          for name in STAGES} if any(stages) else {},
            "samples": {k: len(v) for k, v in times.items()}}


def show(kind: str, row: dict[str, Any], load: float) -> None:
    f, h = row["floor_ms"], row["harness_ms"]
    print(f"{kind:7} harness {h['median']:6.1f} ms (p90 {h['p90']:6.1f})  same-flag floor "
          f"(screenshot + click) {f['median']:6.1f} ms (p90 {f['p90']:6.1f})  "
          f"ratio {row['ratio']:4.2f}x  [rounds: "
          + ", ".join(f"{r:.2f}x" for r in row["ratio_rounds"]) + f"]  load {load:.2f}")
    print("        stages (median ms): " + "  ".join(
        f"{name} {ms:.1f}" for name, ms in row["stages_ms"].items() if ms >= 0.05))
    for k in ("floor", "harness"):
        c = row["cpu_ms_per_step"][k]
        print(f"        CPU ms/step {LABELS[k]:15}: Chromium {c['chromium']:5.1f}  Python "
              f"{c['python']:5.1f}  driver {c['driver']:5.1f}  total {sum(c.values()):5.1f}")
    print(f"        CPU ratio {row['cpu_ratio']:.2f}x;  reference: floor + watcher "
          f"{row['watched_ms']['median']:.1f} ms ({row['ratio_watched']:.2f}x), bare Playwright "
          f"without our flags {row['plain_ms']['median']:.1f} ms "
          f"({row['ratio_bare_playwright']:.2f}x, flattering)")


async def measure(url: str, session: BrowserSession, browser: Browser, steps: int,
                  rounds: int, work: Path, roots: Roots) -> dict[str, Any]:
    def clock(root: int) -> Callable[[], Clock]:
        return lambda: Clock.read(root, roots)

    ours, theirs = clock(roots.ours), clock(roots.plain)
    run: dict[str, Callable[[int], Awaitable[Block]]] = {
        "floor": lambda n: floor(session, url, n, ours),
        "watched": lambda n: watched(session, url, n, ours),
        "plain": lambda n: plain(browser, url, n, theirs)}
    for warm in run.values():  # caches, fonts, the first paint
        await warm(3)
    blocks: dict[str, list[Block]] = {k: [] for k in KINDS}
    for r in range(rounds):
        for k, block in run.items():
            blocks[k].append(await block(steps))
        blocks["harness"].append(await harness(session, url, steps, work / f"run-{r}", ours))
    return summary(blocks)


async def main(ns: argparse.Namespace) -> None:
    results: dict[str, Any] = {"steps": ns.steps, "rounds": ns.rounds, "kinds": {}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "child.html").write_text(CHILD)
        with LocalServer(root) as server, LocalServer(root, host="localhost") as other:
            (root / "static.html").write_text(STATIC)
            (root / "heavy.html").write_text(heavy_page())
            (root / "frames.html").write_text(frames_page(other.url("").rstrip("/")))
            async with async_playwright() as pw, BrowserSession(CONFIG, driver=pw) as session:
                [ours] = _new_browsers(set())
                browser = await pw.chromium.launch(executable_path=find_chromium(),
                                                   headless=True)
                [theirs] = _new_browsers({ours})
                roots = Roots(ours, theirs, _driver())
                for kind in ns.kinds:
                    row = await measure(server.url(f"{kind}.html"), session, browser,
                                        ns.steps, ns.rounds, root / kind, roots)
                    row["load_average"] = os.getloadavg()[0]
                    results["kinds"][kind] = row
                    show(kind, row, row["load_average"])
                    if ns.json:  # after each kind: a later failure keeps the earlier numbers
                        ns.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=10, help="steps per block")
    parser.add_argument("--rounds", type=int, default=3, help="alternating blocks per kind")
    parser.add_argument("--kinds", nargs="+", default=["static", "heavy", "frames"],
                        choices=["static", "heavy", "frames"])
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    asyncio.run(main(parser.parse_args()))

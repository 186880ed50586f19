"""Harness time per step against the bare browser's floor, per page kind, with stages.

The floor is a Playwright viewport screenshot + click on the same page at the same point,
in a plain Playwright browser and context of its own: launched with no flags of ours, no
init scripts (no page watcher), only the same viewport. The harness step is a real
``run_task`` step with an instant scripted model clicking an inert spot (so every step is
captured, fingerprinted, settled and reported as "no detectable change"). For reference
the same screenshot + click also runs inside webfovea's own context ("instrumented":
our flags and the page watcher, which every page of a task carries).

Each round measures a block of each, alternating (bare, instrumented, harness), so the
ratios hold on a loaded machine even when absolute times do not; compare ratios from one
run, never absolute times across runs. Page kinds: a static page, a heavy page (>= 10,000
DOM nodes) and a page with two iframes, one of them cross-origin. The first harness step
of each task is left out: it pays the fingerprint's one-off baseline wait, which real
runs pay while the model thinks.

Each block also reads the CPU time its Chromium spent (the browser's whole process tree:
browser, GPU/utility and renderer processes, reaped children included), so the step's
browser CPU is compared with the floor's screenshot + click too ("CPU ms/step"); CPU time
holds on a loaded machine far better than wall time.

    python benchmarks/step_overhead.py [--steps 10] [--rounds 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, async_playwright

from webfovea.browser.chromium import find_chromium
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.rundir.store import read_steps

STAGES = ("capture", "encode", "prompt", "parse", "execute", "settle", "fingerprints",
          "trajectory_write")
VIEWPORT = BrowserConfig().viewport
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


async def screenshot_clicks(page: Page, url: str, steps: int) -> list[float]:
    await page.goto(url, wait_until="load", timeout=180_000)  # loaded machines
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        await page.screenshot(type="png")
        await page.mouse.click(*CLICK)
        times.append(time.perf_counter() - t0)
    return times


async def bare(browser: Browser, url: str, steps: int) -> list[float]:
    """The floor: a plain context of a plain browser, only the viewport set."""
    context = await browser.new_context(viewport={"width": VIEWPORT.width,
                                                  "height": VIEWPORT.height})
    try:
        return await screenshot_clicks(await context.new_page(), url, steps)
    finally:
        await context.close()


async def instrumented(session: BrowserSession, url: str, steps: int) -> list[float]:
    """The same in webfovea's context: its flags and its page watcher, no harness step."""
    tabs = await session.new_tabs()
    try:
        return await screenshot_clicks(tabs.page, url, steps)
    finally:
        await tabs.close()


async def harness(session: BrowserSession, url: str, steps: int, out: Path
                  ) -> tuple[list[float], list[dict[str, float]]]:
    x, y = round(CLICK[0] * 0.75), round(CLICK[1] * 0.75)  # in the 1440x810 image sent
    replies = [f"Thought: click.\nAction: click(start_box='({x},{y})')"] * (steps + 1)
    model = ScriptedModel([*replies, "Thought: done.\nAction: finished(content='x')"])
    await run_task(Task("bench", url), model=model, session=session,
                   config=AgentConfig(max_steps=steps + 2), out=out)
    records = read_steps(out)[1:steps + 1]  # step 1 pays the one-off fingerprint baseline
    return ([s.harness_seconds for s in records],
            [dict(getattr(s, "stage_seconds", {}) or {}) for s in records])


_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def chromium_pids() -> set[int]:
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if "chrom" in Path(f"/proc/{entry}/comm").read_text():
                    pids.add(int(entry))
            except OSError:
                continue
    return pids


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its live descendants, with the children they reaped."""
    children: dict[int, list[int]] = {}
    total = 0.0
    for pid in chromium_pids():
        try:
            children.setdefault(int(_stat(pid)[1]), []).append(pid)
        except OSError:
            continue
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            f = _stat(pid)
        except OSError:
            continue
        total += sum(int(v) for v in f[11:15]) / _TICK  # utime stime cutime cstime
        todo += children.get(pid, [])
    return total


def _ours(pid: int) -> bool:
    """Whether ``pid`` descends from this process (other programs start Chromiums too)."""
    while pid > 1:
        if pid == os.getpid():
            return True
        try:
            pid = int(_stat(pid)[1])
        except OSError:
            return False
    return False


def browser_root(before: set[int]) -> int:
    """The main process of the Chromium this process started since ``before`` (its parent
    is no Chromium)."""
    every = chromium_pids()
    return min(p for p in every - before if _ours(p) and int(_stat(p)[1]) not in every)


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def summary(times: dict[str, list[float]], stages: list[dict[str, float]]) -> dict[str, Any]:
    ms = 1000.0
    breakdown = {name: statistics.median([s.get(name, 0.0) for s in stages]) * ms
                 for name in STAGES} if any(stages) else {}
    median = {kind: statistics.median(values) for kind, values in times.items()}
    return {**{f"{kind}_ms": {"median": median[kind] * ms, "p90": p90(values) * ms}
               for kind, values in times.items()},
            "ratio": median["harness"] / median["bare"],
            "ratio_instrumented": median["harness"] / median["instrumented"],
            "stages_ms": breakdown,
            "samples": {kind: len(values) for kind, values in times.items()}}


async def measure(url: str, browser: Browser, session: BrowserSession, steps: int, rounds: int,
                  work: Path, roots: tuple[int, int]) -> dict[str, Any]:
    times: dict[str, list[float]] = {"bare": [], "instrumented": [], "harness": []}
    cpu: dict[str, list[float]] = {"bare": [], "harness": []}
    stages: list[dict[str, float]] = []
    await bare(browser, url, 3)  # warm up: caches, fonts, the first paint
    await instrumented(session, url, 3)
    for r in range(rounds):
        start = tree_cpu(roots[0])
        times["bare"] += await bare(browser, url, steps)
        cpu["bare"].append((tree_cpu(roots[0]) - start) / steps)
        times["instrumented"] += await instrumented(session, url, steps)
        start = tree_cpu(roots[1])
        t, s = await harness(session, url, steps, work / f"run-{r}")
        # The harness block runs steps + 2 model turns (the baseline step, the answer).
        cpu["harness"].append((tree_cpu(roots[1]) - start) / (steps + 2))
        times["harness"] += t
        stages += s
    row = summary(times, stages)
    row["chromium_cpu_ms_per_step"] = {k: statistics.median(v) * 1000 for k, v in cpu.items()}
    return row


def show(kind: str, row: dict[str, Any]) -> None:
    b, i, h = row["bare_ms"], row["instrumented_ms"], row["harness_ms"]
    print(f"{kind:8} bare floor {b['median']:6.1f} ms (p90 {b['p90']:6.1f})  instrumented "
          f"{i['median']:6.1f} ms  harness {h['median']:6.1f} ms (p90 {h['p90']:6.1f})  "
          f"ratio {row['ratio']:4.2f}x bare, {row['ratio_instrumented']:4.2f}x instrumented")
    c = row["chromium_cpu_ms_per_step"]
    print(f"         Chromium CPU ms/step: bare {c['bare']:.1f}  harness {c['harness']:.1f}  "
          f"({c['harness'] / max(c['bare'], 1e-9):.2f}x)")
    if row["stages_ms"]:
        print("         stages (median ms): " + "  ".join(
            f"{name} {ms:.1f}" for name, ms in row["stages_ms"].items()))


async def main(ns: argparse.Namespace) -> None:
    results: dict[str, Any] = {"steps": ns.steps, "rounds": ns.rounds,
                               "load_average": os.getloadavg(), "kinds": {}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "child.html").write_text(CHILD)
        with LocalServer(root) as server, LocalServer(root, host="localhost") as other:
            (root / "static.html").write_text(STATIC)
            (root / "heavy.html").write_text(heavy_page())
            (root / "frames.html").write_text(frames_page(other.url("").rstrip("/")))
            before = chromium_pids()
            async with async_playwright() as pw, BrowserSession(BrowserConfig()) as session:
                ours = browser_root(before)
                before = chromium_pids()
                plain = await pw.chromium.launch(executable_path=find_chromium(), headless=True)
                roots = (browser_root(before), ours)
                for kind in ns.kinds:
                    row = await measure(server.url(f"{kind}.html"), plain, session, ns.steps,
                                        ns.rounds, root / kind, roots)
                    results["kinds"][kind] = row
                    show(kind, row)
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

"""The floor of a bench's throughput: a bare Playwright loop doing a task's work, no harness.

``bench_workers.py`` runs this right after each harness run, with the same workers, on a
plan read from that run: the same tasks (their URLs), each with the number of steps the
harness took and the seconds each step waited on the model. Each worker launches its own
browser (the same Chromium with the same flags as webfovea's, one launch at a time, as the
bench's local pool starts them) and opens each task in a fresh context with the same
viewport; per step it takes a viewport screenshot, waits for the model and clicks an
inert spot. The model wait is a real request to the same fake model server (the
screenshot sent in an OpenAI-protocol chat request, answered after the same latency), or,
without one, a sleep of the seconds the harness's step waited.

    python benchmarks/bare_loop.py PLAN.json --workers N --out DIR   # writes DIR/bare.json
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import urllib.request
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Playwright, async_playwright

from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.browser.features import disable_features
from webfovea.core.config import BrowserConfig

CLICK = (5, 5)  # page pixels: the page's top-left corner, inert on the demo page
CONFIG = BrowserConfig()


@dataclass(frozen=True)
class PlannedTask:
    url: str
    waits: tuple[float, ...]  # one per step: the seconds the harness's step waited


@dataclass(frozen=True)
class Model:
    base_url: str  # the fake provider's OpenAI-protocol base URL
    name: str


def read_plan(path: Path) -> tuple[list[PlannedTask], Model | None]:
    plan = json.loads(path.read_text())
    model = plan.get("model")
    return ([PlannedTask(t["url"], tuple(t["waits"])) for t in plan["tasks"]],
            Model(model["base_url"], model["name"]) if model else None)


def ask(model: Model, png: bytes, step: int) -> None:
    """One chat request carrying the screenshot, as an agent sends it; the reply is read
    and dropped."""
    image = "data:image/png;base64," + base64.b64encode(png).decode()
    body = json.dumps({"model": model.name, "messages": [{"role": "user", "content": [
        {"type": "text", "text": f"Step {step}: what next?"},
        {"type": "image_url", "image_url": {"url": image}}]}]}).encode()
    request = urllib.request.Request(f"{model.base_url.rstrip('/')}/chat/completions",
                                     data=body, headers={"Content-Type": "application/json",
                                                         "Authorization": "Bearer bare-loop"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        reply.read()


async def run_task(browser: Browser, task: PlannedTask, model: Model | None) -> None:
    context = await browser.new_context(
        viewport={"width": CONFIG.viewport.width, "height": CONFIG.viewport.height},
        device_scale_factor=CONFIG.device_scale_factor)
    try:
        page = await context.new_page()
        await page.goto(task.url, wait_until="load")
        for step, wait in enumerate(task.waits, 1):
            png = await page.screenshot(type="png")
            if model is None:
                await asyncio.sleep(wait)
            else:
                await asyncio.to_thread(ask, model, png, step)
            await page.mouse.click(*CLICK)
    finally:
        await context.close()


async def launch(pw: Playwright) -> Browser:
    """The same Chromium with the same flags as ``BrowserSession`` launches."""
    features = await disable_features(pw)
    return await pw.chromium.launch(executable_path=CONFIG.executable or find_chromium(),
                                    headless=CONFIG.headless,
                                    args=[*launch_args(), *features.args],
                                    ignore_default_args=features.replaced)


async def worker(pw: Playwright, queue: deque[PlannedTask], model: Model | None,
                 launching: asyncio.Lock) -> int:
    async with launching:
        browser = await launch(pw)
    done = 0
    try:
        while queue:
            await run_task(browser, queue.popleft(), model)
            done += 1
    finally:
        await browser.close()
    return done


async def main(ns: argparse.Namespace) -> dict[str, Any]:
    tasks, model = read_plan(ns.plan)
    queue = deque(tasks)
    launching = asyncio.Lock()
    async with async_playwright() as pw:
        done = await asyncio.gather(*(worker(pw, queue, model, launching)
                                      for _ in range(min(ns.workers, len(tasks)))))
    return {"tasks": sum(done), "steps": sum(len(t.waits) for t in tasks)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plan", type=Path)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="writes bare.json here")
    ns = parser.parse_args()
    ns.out.mkdir(parents=True, exist_ok=True)
    (ns.out / "bare.json").write_text(json.dumps(asyncio.run(main(ns))))

"""Input cost per step of the two history layouts on a recorded 40-step run.

Records a real run first: headless Chromium on a long local page at 1440x810 (so every
screenshot is sent at 1440x810), 40 scripted steps with thoughts and notes of a
realistic length, the Anthropic Messages protocol spoken to the local fake provider
(which reports cache reads and writes the way the API does). Then prices the run
as ``webfovea cost`` does: every request rebuilt from the step records under each
layout, charged against Anthropic's documented cache (image tokens = w*h/750, cache
reads 10 % and writes 125 % of the input price), at Claude Sonnet 4.5 prices.

    python benchmarks/cache_cost.py [--steps 40] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from dataclasses import replace
from pathlib import Path

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.cli.cost import load_task
from webfovea.core.config import AgentConfig, BrowserConfig, Size
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.models.prices import find_price
from webfovea.tools.estimate import layout_cost

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
MODEL = "anthropic:claude-sonnet-4-5"
THOUGHT = ("The list is long and the row I need is not visible yet; the last rows I saw were "
           "about other items, so I keep scrolling down the main column, checking each heading "
           "against the task's wording before I decide anything. Step {n}.")


def replies(steps: int) -> list[str]:
    out = []
    for n in range(1, steps + 1):
        direction = "down" if n % 4 else "up"
        out.append(f"Thought: {THOUGHT.format(n=n)}\n"
                   f"Action: scroll(start_box='(700,400)', direction='{direction}')")
    return out


async def record(out: Path, steps: int) -> None:
    price = find_price(MODEL)
    browser = BrowserConfig(viewport=Size(1440, 810))
    with LocalServer(PAGES) as pages, FakeProvider(ScriptedPolicy(replies(steps))) as fp:
        model = load_model(f"{MODEL}-fake", base_url=fp.anthropic_base_url)
        async with BrowserSession(browser) as session:
            await run_task(Task("Find the last line of the long page",
                                pages.url("feedback/long.html")),
                           model=model, session=session,
                           config=AgentConfig(max_steps=steps, price=price), out=out)
        await model.aclose()


def report(out: Path) -> None:
    price = find_price(MODEL)
    assert price is not None
    task = load_task(out)
    n = len(task.steps)
    recorded = task.recorded_cost or 0.0
    print(f"recorded run: {n} steps, screenshots {set(s.image for s in task.steps)}")
    print(f"fake provider's usage, blocks layout as run: ${recorded / n:.5f} per step "
          f"(input+output)")
    config = AgentConfig(history_block=task.history_block, history_images=task.history_images)
    costs = {layout: layout_cost(task.task, task.steps, config, layout, price)
             for layout in ("rolling", "blocks")}
    for layout, c in costs.items():
        tokens = c.tokens()
        print(f"{layout:8} input per step ${c.per_step:.5f}  (tokens: {tokens[0]} input, "
              f"{tokens[1]} cache-read, {tokens[2]} cache-write over the run)")
    saving = 1 - costs["blocks"].per_step / costs["rolling"].per_step
    print(f"blocks vs rolling: {saving:.1%} lower input cost per step")
    # How far the block size moves it: a block boundary rewrites the screenshots still kept,
    # a long block keeps more screenshots to read, so the saving peaks in between.
    for block in (5, 8, 10, 12, 15, 20):
        c = layout_cost(task.task, task.steps, replace(config, history_block=block), "blocks",
                        price)
        print(f"  block of {block:2}: {1 - c.per_step / costs['rolling'].per_step:.1%} lower")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "run"
        asyncio.run(record(out, args.steps))
        report(out)


if __name__ == "__main__":
    main()

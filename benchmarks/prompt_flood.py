"""Prompt size under a flood: a page raising 2,000 alert()s, then opening 300 tabs, and a
model whose second reply carries a 1 MB thought. Prints each request's text size as
the provider received it (system text plus every turn), and the largest.

    python benchmarks/prompt_flood.py [--alerts 2000] [--tabs 300]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
REPLIES = [
    "Thought: press it.\nAction: click(start_box='(105,52)')",
    "Thought: " + "x" * 1_000_000 + "\nAction: wait()",
    "Thought: and this.\nAction: click(start_box='(105,127)')",
    *["Thought: look.\nAction: wait()"] * 3,
]


def text_chars(request: FakeRequest) -> int:
    return len(request.system) + sum(len(t.text) for t in request.turns)


async def flood(alerts: int, tabs: int, out: Path) -> None:
    with LocalServer(PAGES) as pages, FakeProvider(ScriptedPolicy(REPLIES)) as fp:
        model = load_model("openai:m", base_url=fp.base_url)
        async with BrowserSession(BrowserConfig()) as session:
            url = pages.url(f"models/flood.html?alerts={alerts}&tabs={tabs}")
            result = await run_task(Task("flood", url), model=model, session=session,
                                    config=AgentConfig(max_steps=len(REPLIES)), out=out)
        await model.aclose()
        sizes = [text_chars(r) for r in fp.requests]
    steps = read_steps(out)
    print(f"status {result.status}, {len(steps)} steps")
    for step, size in zip(steps, sizes, strict=False):
        print(f"step {step.step}: request text {size:,} chars; note {len(step.note):,} chars; "
              f"thought {len(step.thought):,} chars")
    print(f"largest request text: {max(sizes):,} chars")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alerts", type=int, default=2000)
    parser.add_argument("--tabs", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(flood(args.alerts, args.tabs, Path(tmp)))


if __name__ == "__main__":
    main()

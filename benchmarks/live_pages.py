"""Live-page gallery: time from the page's load event to the first model call, and harness
time per step, per page of tests/pages/live (issue 10).

Each run is one real ``run_task`` on real Chromium with a local model endpoint
(``FakeProvider``) that answers at once: ``--steps`` clicks on empty space, then
``finished``. Medians over ``--runs`` runs (first call) and over all steps (harness time,
settle time). Prints a table and writes JSON. Numbers measured on a loaded machine are
only comparable within one run.

    python benchmarks/live_pages.py [--runs 10] [--steps 10] [--pages ticker,form] [--out F]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps
from webfovea.testing.timing import load_event

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
# Empty space on each gallery page, in the 1440x810 image the model receives.
BLANK = {"ticker": (975, 375), "carousel": (450, 600), "cookie": (375, 225),
         "toasts": (375, 375), "chat": (375, 375), "shop": (375, 525), "drawer": (300, 375),
         "feed": (37, 525), "sticky": (300, 337), "dialog": (300, 375), "video": (900, 225),
         "sparkline": (900, 225), "typeahead": (900, 225), "hover": (900, 375),
         "form": (900, 225), "countdown": (900, 225)}
async def one_run(session: BrowserSession, url: str, point: tuple[int, int], steps: int
                  ) -> tuple[float, list[dict[str, Any]]]:
    asked: list[float] = []
    found = threading.Event()
    replies = [f"Thought: nothing.\nAction: click(start_box='({point[0]},{point[1]})')"] * steps
    replies.append("Thought: done.\nAction: finished(content='ok')")

    def policy(request: FakeRequest) -> str:
        asked.append(time.time())
        found.wait(30)
        return replies[len(asked) - 1]

    loaded = asyncio.ensure_future(load_event(session, url, found))
    with FakeProvider(policy) as fp, tempfile.TemporaryDirectory() as out:
        model = load_model("openai:fake", base_url=fp.base_url)
        await run_task(Task("bench", url), model=model, session=session,
                       config=AgentConfig(max_steps=steps + 1), out=Path(out))
        await model.aclose()
        records = [{"harness": s.harness_seconds, "outcome": s.outcome,
                    "settle_ms": (s.details.get("settle") or {}).get("ms")}
                   for s in read_steps(Path(out))[:steps]]
    return asked[0] - await asyncio.wait_for(loaded, 5), records


async def bench(names: list[str], runs: int, steps: int) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    with LocalServer(PAGES) as pages, LocalServer(PAGES, host="localhost") as other:
        async with BrowserSession(BrowserConfig()) as session:
            for name in names:
                url = pages.url(f"live/{name}.html?other=http://localhost:{other.port}")
                firsts, records = [], []
                for _ in range(runs):
                    first, recs = await one_run(session, url, BLANK[name], steps)
                    firsts.append(first)
                    records.extend(recs)
                settles = [r["settle_ms"] for r in records if r["settle_ms"] is not None]
                results[name] = {
                    "first_call_s": statistics.median(firsts),
                    "harness_step_s": statistics.median(r["harness"] for r in records),
                    "settle_ms": statistics.median(settles) if settles else None,
                    "no_change": sum(r["outcome"] == "no_change" for r in records),
                    "steps": len(records), "runs": runs,
                }
                print(_row(name, results[name]), flush=True)
    return results


def _row(name: str, r: dict[str, Any]) -> str:
    settle = f"{r['settle_ms']:8.0f}" if r["settle_ms"] is not None else "       -"
    return (f"{name:<10} {r['first_call_s']:10.2f} {r['harness_step_s']:12.3f} {settle} "
            f"{r['no_change']:>4}/{r['steps']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--pages", default=",".join(BLANK))
    parser.add_argument("--out", type=Path, default=Path("live_pages.json"))
    ns = parser.parse_args()
    names = [n for n in ns.pages.split(",") if n]
    unknown = [n for n in names if n not in BLANK]
    if unknown:
        parser.error(f"unknown gallery pages: {', '.join(unknown)}")
    print(f"{'page':<10} {'first call':>10} {'harness/step':>12} {'settle':>8} no-op ok")
    print(f"{'':<10} {'(s, med)':>10} {'(s, median)':>12} {'(ms)':>8}")
    results = asyncio.run(bench(names, ns.runs, ns.steps))
    ns.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"written to {ns.out}")


if __name__ == "__main__":
    main()

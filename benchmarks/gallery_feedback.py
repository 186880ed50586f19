"""Real-component gallery (issue 20): harness time per step and settle time, per component.

Each run is one real ``run_task`` on real Chromium against tests/gallery (built by
scripts/build_gallery.sh; Streamlit from the ``gallery`` extra, behind 100 ms of latency
each way) with a local model endpoint (``FakeProvider``) that answers at once, finding
colours in the image it received: the component's real action and a click on empty space,
alternately, ``--steps`` times, then ``finished``. Medians over all steps, read from
steps.jsonl (``harness_seconds``, ``stage_seconds["settle"]``). Numbers measured on a
loaded machine are only comparable within one run.

    python benchmarks/gallery_feedback.py [--steps 6] [--small] [--only chartjs,pdfjs]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from gallery_helpers import LARGE, SMALL  # noqa: E402
from gallery_support import ColourPolicy, Look, pdf_bytes  # noqa: E402
from streamlit_support import streamlit_app  # noqa: E402
from webfovea.browser.local_server import LocalServer  # noqa: E402
from webfovea.browser.session import BrowserSession  # noqa: E402
from webfovea.core.config import AgentConfig  # noqa: E402
from webfovea.core.task import Task  # noqa: E402
from webfovea.dialects.loopback.fake_provider import FakeProvider  # noqa: E402
from webfovea.loop.agent import run_task  # noqa: E402
from webfovea.models.loader import load_model  # noqa: E402
from webfovea.rundir.store import read_steps  # noqa: E402

GALLERY = TESTS / "gallery"
CLICK = "click(start_box='({x},{y})')"
BLANK = Look(CLICK, (255, 255, 255), (0.8, 0.5, 0.95, 0.7))
REAL = {
    "chartjs": ("/pages/chartjs_bars.html", Look(CLICK, (230, 40, 40), (0, 0, 1, 0.12))),
    "plotly": ("/pages/plotly_line.html", Look("hover(start_box='({x},{y})')", (0, 150, 60), pick="top")),
    "leaflet": ("/pages/leaflet_map.html", Look(CLICK, (200, 0, 160))),
    "pdfjs": ("/pages/pdfjs_viewer.html", Look(CLICK, (187, 187, 187), (0, 0.3, 0.25, 0.6))),
    "streamlit": ("", Look("drag(start_box='({x},{y})', end_box='({x2},{y})')", (197, 57, 72),
                           (0, 0.2, 1, 0.5), pick="right", shift=40)),
}


@contextlib.contextmanager
def servers(only: list[str]) -> Iterator[dict[str, str]]:
    """URLs of the components asked for (the gallery server, Streamlit when asked)."""
    (GALLERY / "dist" / "report.pdf").write_bytes(pdf_bytes())
    with LocalServer(GALLERY) as gallery, contextlib.ExitStack() as stack:
        urls = {name: gallery.url(path) for name, (path, _) in REAL.items() if path}
        if "streamlit" in only:
            urls["streamlit"] = stack.enter_context(streamlit_app())
        yield urls


async def measure(name: str, url: str, session: BrowserSession, steps: int) -> dict[str, float]:
    real = REAL[name][1]
    looks = [real if i % 2 == 0 else BLANK for i in range(steps)]
    policy = ColourPolicy(looks, lambda _: "done")
    with tempfile.TemporaryDirectory() as tmp, FakeProvider(policy) as fp:
        model = load_model("openai:fake", base_url=fp.base_url)
        await run_task(Task(name, url), model=model, session=session,
                       config=AgentConfig(max_steps=steps + 2), out=Path(tmp))
        await model.aclose()
        records = read_steps(Path(tmp))
    for r in records:  # what each step was told, to read the counts below by
        print(f"  {name} step {r.step}: {r.outcome}: {r.note[:160]}", file=sys.stderr)
    acting = [r for r in records if "settle" in r.stage_seconds]
    return {
        "steps": len(records),
        "harness_median_s": round(statistics.median(r.harness_seconds for r in records), 3),
        "settle_median_s": round(statistics.median(r.stage_seconds["settle"] for r in acting), 3),
        "settle_max_s": round(max(r.stage_seconds["settle"] for r in acting), 3),
        "no_change": sum(r.outcome == "no_change" for r in records),
        "changed": sum(r.outcome == "changed" for r in records),
        "unknown": sum(r.outcome == "unknown" for r in records),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--small", action="store_true", help="1280x720 at device scale factor 2")
    parser.add_argument("--only", default=",".join(REAL))
    args = parser.parse_args()
    only = args.only.split(",")
    display = SMALL if args.small else LARGE
    results: dict[str, dict[str, float]] = {}
    with servers(only) as urls:
        async with BrowserSession(display.config) as session:
            for name in only:
                results[name] = await measure(name, urls[name], session, args.steps)
                print(name, json.dumps(results[name]), flush=True)
    print(json.dumps({"display": display.name, "results": results}, indent=1))


if __name__ == "__main__":
    asyncio.run(main())

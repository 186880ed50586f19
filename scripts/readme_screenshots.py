"""Regenerate the README's viewer pictures from real bench runs of the offline suite.

Runs the oracle twice on the same suite tasks — once through a harness that sends full-size
images to a "provider" that shrinks them (clicks land short: the paper's failure), once as
shipped — then writes the viewer pages and photographs them in headless Chromium:

    docs/viewer-index.png   the bench index of the good run
    docs/viewer-task.png    a task page of the broken run, at the step the diagnosis blames
    docs/viewer-pair.png    the two runs side by side
    docs/score-chart.svg    `webfovea score --chart` of the good run

Usage: .venv/bin/python scripts/readme_screenshots.py [--limit 6] [--work DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from webfovea.browser.session import BrowserSession
from webfovea.core.config import BrowserConfig

DOCS = Path(__file__).resolve().parents[1] / "docs"


def webfovea(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"webfovea {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout.strip()


def blamed_task(run: Path) -> tuple[str, int]:
    """A failed task of ``run`` and the step its diagnosis blames."""
    found = json.loads(webfovea("diagnose", str(run), "--json"))
    for task in found["failures"]:
        if task.get("step"):
            return task["task"], int(task["step"])
    raise SystemExit(f"no task of {run} was blamed on a step; try a larger --limit")


async def photograph(pages: list[tuple[Path, str, Path, bool]]) -> None:
    async with BrowserSession(BrowserConfig()) as session:
        for page_file, fragment, out, full in pages:
            context = await session.browser.new_context(viewport={"width": 1400, "height": 900},
                                                        device_scale_factor=1)
            page = await context.new_page()
            await page.goto(page_file.as_uri() + fragment)
            await page.wait_for_load_state("load")
            await page.screenshot(path=str(out), full_page=full)
            await context.close()
            print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=6, help="suite tasks per run")
    parser.add_argument("--work", type=Path, help="keep the runs here (default: a temp dir)")
    ns = parser.parse_args()
    work = ns.work or Path(tempfile.mkdtemp(prefix="webfovea-shots-"))
    good, broken = work / "shipped", work / "full-size-images"
    for run in (good, broken):
        shutil.rmtree(run, ignore_errors=True)
    webfovea("suite", "run", "--limit", str(ns.limit), "--out", str(broken),
             "--oracle-provider-resize", "--image-cap", "none", "--max-steps", "6")
    webfovea("suite", "run", "--limit", str(ns.limit), "--out", str(good))
    index = Path(webfovea("view", str(good)))
    pair = Path(webfovea("view", str(broken), str(good)))
    task, step = blamed_task(broken)
    webfovea("view", str(broken))
    DOCS.mkdir(exist_ok=True)
    webfovea("score", str(good), "--chart", str(DOCS / "score-chart.svg"))
    asyncio.run(photograph([
        (index, "", DOCS / "viewer-index.png", False),
        (broken / "tasks" / task / "view.html", f"#step-{step}", DOCS / "viewer-task.png", False),
        (pair, "", DOCS / "viewer-pair.png", False),
    ]))
    print(f"runs kept in {work}")


if __name__ == "__main__":
    main()

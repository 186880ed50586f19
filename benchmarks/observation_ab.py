"""The four observation modes on the offline suite with the oracle, for the A/B the paper
asks for (a hybrid observation is measured, not assumed): score, steps, input tokens per step,
harness time per step and what the marks cost, one `webfovea suite run` process per mode, run
one after another on the same machine so the times compare.

    python benchmarks/observation_ab.py                          # all four modes, 6 tasks
    python benchmarks/observation_ab.py --limit 14 --dialect tools --workers 2

The oracle reads the page's layout, not the image, so its score says the modes keep the
round trip intact; what a model gains from marks or the element list is the paired A/B a
real model's `bench --observation X` + `compare` gives. Tokens are the fake provider's count
of what was sent (the element list is text, the marks are pixels on the same-size image), so
the default dialect is `tools`, whose requests go through that provider. "marks ms" is the
median of the step's `marks` stage (collecting the elements and drawing their labels).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from webfovea.rundir.store import load_run

MODES = ("screenshot", "marks", "elements", "marks+elements")


def run(mode: str, out: Path, *, limit: int, workers: int, dialect: str) -> float:
    command = [sys.executable, "-m", "webfovea", "suite", "run", "--model", "oracle",
               "--dialect", dialect, "--observation", mode, "--workers", str(workers),
               "--limit", str(limit), "--out", str(out)]
    started = time.monotonic()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def summary(mode: str, out: Path, wall: float) -> str:
    tasks = load_run(out).tasks
    correct = sum(t.verdict == "correct" for t in tasks)
    steps = [s for t in tasks for s in t.steps]
    harness = statistics.median(s.harness_seconds for s in steps) if steps else 0.0
    tokens = sum(s.usage.prompt_tokens for s in steps) / len(steps) if steps else 0.0
    marks = [s.stage_seconds["marks"] * 1000 for s in steps if "marks" in s.stage_seconds]
    marks_ms = f"{statistics.median(marks):.0f}" if marks else "-"
    return (f"{mode:<16} {correct:>3}/{len(tasks):<3} {len(steps):>6} {tokens:>10.0f} "
            f"{harness:>10.3f} {marks_ms:>9} {wall:>7.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated")
    parser.add_argument("--limit", type=int, default=6)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--dialect", default="tools")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            out = Path(tmp) / mode.replace("+", "_")
            wall = run(mode, out, limit=args.limit, workers=args.workers, dialect=args.dialect)
            rows.append(summary(mode, out, wall))
    print(f"{'observation':<16} {'score':>7} {'steps':>6} {'in tok/st':>10} {'harness s':>10} "
          f"{'marks ms':>9} {'wall s':>7}")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

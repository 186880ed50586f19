"""The offline suite with the oracle in each dialect: score, harness time per step, input
tokens per step and the cache's share, one `webfovea suite run` process per dialect, run one
after another on the same machine so the harness times compare.

    python benchmarks/dialect_suite.py                        # text, tools, anthropic-computer
    python benchmarks/dialect_suite.py --dialects text,tools --limit 8 --workers 2

"harness s/step" is the median over all steps of the step's wall time minus the time spent
waiting on the model (for a native dialect the model call includes the fake provider's
loopback round trip and the oracle's layout read, as for text).
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

DEFAULT = ("text", "tools", "anthropic-computer")


def run(dialect: str, out: Path, *, limit: int | None, workers: int,
        version: str | None) -> float:
    command = [sys.executable, "-m", "webfovea", "suite", "run", "--model", "oracle",
               "--dialect", dialect, "--workers", str(workers), "--out", str(out)]
    if limit:
        command += ["--limit", str(limit)]
    if version:
        command += ["--dialect-version", version]
    started = time.monotonic()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def summary(label: str, out: Path, wall: float) -> str:
    tasks = load_run(out).tasks
    correct = sum(t.verdict == "correct" for t in tasks)
    steps = [s for t in tasks for s in t.steps]
    harness = statistics.median(s.harness_seconds for s in steps) if steps else 0.0
    prompt = sum(s.usage.prompt_tokens for s in steps)
    read = sum(s.usage.cache_read_tokens for s in steps)
    per_step = prompt / len(steps) if steps else 0.0
    share = read / prompt if prompt else 0.0
    batches = sum(len(s.calls) > 1 for s in steps)
    return (f"{label:<40} {correct:>3}/{len(tasks):<3} {len(steps):>6} {harness:>10.3f} "
            f"{per_step:>10.0f} {share:>7.1%} {batches:>8} {wall:>7.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dialects", default=",".join(DEFAULT),
                        help="comma-separated; NAME@VERSION picks a tool version")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for entry in args.dialects.split(","):
            dialect, _, version = entry.partition("@")
            out = Path(tmp) / entry.replace("@", "_")
            wall = run(dialect, out, limit=args.limit, workers=args.workers,
                       version=version or None)
            rows.append(summary(entry, out, wall))
    print(f"{'dialect':<40} {'score':>7} {'steps':>6} {'harness s':>10} {'in tok/st':>10} "
          f"{'cached':>7} {'batches':>8} {'wall s':>7}")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

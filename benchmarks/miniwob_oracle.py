"""Per-task success of miniwob-oracle (the harness's ceiling on MiniWoB) and harness time per step.

Usage: python benchmarks/miniwob_oracle.py [--episodes 20] [--workers 2] [--tasks A,B] [--out DIR]
                                          [--time-limit-scale 1]
       python benchmarks/miniwob_oracle.py --summarise RUN_DIR   (an existing `webfovea miniwob` run)

Runs `webfovea miniwob --model miniwob-oracle` (at each task's own time limit) and prints, per
task, successes / episodes and the mean raw reward, then the median harness seconds per step
(everything but the model call) over all steps. Numbers depend on machine load: report it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def summarise(run: Path) -> None:
    episodes = [json.loads(p.read_text()) for p in sorted(run.glob("tasks/*/miniwob.json"))]
    by_task: dict[str, list[dict[str, object]]] = {}
    for e in episodes:
        by_task.setdefault(str(e["task"]), []).append(e)
    print(f"{'task':24} {'success':>9} {'raw reward':>10}")
    for task, group in sorted(by_task.items()):
        wins = sum(float(str(e["raw"])) > 0 for e in group)
        mean = statistics.fmean(float(str(e["raw"])) for e in group)
        print(f"{task:24} {wins:>4}/{len(group):<4} {mean:>10.2f}")
    steps = [float(s) for e in episodes for s in e["harness_seconds"]]  # type: ignore[attr-defined]
    wins = sum(float(str(e["raw"])) > 0 for e in episodes)
    print(f"overall: {wins}/{len(episodes)} episodes, {len(by_task)} tasks")
    if steps:
        print(f"harness seconds per step: median {statistics.median(steps):.3f} "
              f"over {len(steps)} steps")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--episodes", type=int, default=20)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--tasks", default=None, help="default: every task the oracle plays")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--time-limit-scale", default="1", help="1 = each task's own limit")
    p.add_argument("--summarise", type=Path, default=None)
    ns = p.parse_args()
    if ns.summarise:
        summarise(ns.summarise)
        return 0
    out = ns.out or Path(tempfile.mkdtemp(prefix="miniwob-oracle-")) / "run"
    which = ["--tasks", ns.tasks] if ns.tasks else ["--oracle-tasks"]
    subprocess.run([sys.executable, "-m", "webfovea", "miniwob", *which, "--episodes",
                    str(ns.episodes), "--workers", str(ns.workers),
                    "--time-limit-scale", ns.time_limit_scale, "--model", "miniwob-oracle",
                    "--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    summarise(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

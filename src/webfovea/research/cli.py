"""``webfovea ablation``: the research commands' parsers (handlers import what they run)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

Handler = Callable[[argparse.Namespace], int]


def register(subparsers: Any) -> dict[str, Handler]:
    p = subparsers.add_parser(
        "ablation", help="run the full harness and each fix turned off on the same tasks",
        description="Run TASKS with the full harness and once per fix with --ablate FIX, "
                    "into OUT/<variant>, then print success per variant with the paired "
                    "difference against full, tasks fixed/broken, steps and cost.")
    p.add_argument("tasks", metavar="TASKS",
                   help="a task file, 'suite' (the offline suite) or 'miniwob:TASK,…'")
    p.add_argument("--model", required=True, help="a model spec (oracle, miniwob-oracle, …)")
    p.add_argument("--out", type=Path, required=True, help="one run directory per variant")
    p.add_argument("--fixes", default="all", help="all (default) or a comma-separated list")
    p.add_argument("--trials", type=int, default=1, help="trials per task (MiniWoB: episodes)")
    p.add_argument("--replay-sites", metavar="DIR", help="replay recorded site snapshots")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-steps", type=int, help="per task (default: the run's)")
    p.add_argument("--only", help="suite: comma-separated task ids")
    p.add_argument("--limit", type=int, help="suite: at most N tasks, spread over the sites")
    p.add_argument("--time-limit-scale", type=float, help="MiniWoB: scale each task's timer")
    return {"ablation": cmd_ablation}


def cmd_ablation(ns: argparse.Namespace) -> int:
    from rich.console import Console

    from .ablation import AblationOptions, Source, chosen_fixes, print_table, run_ablation

    options = AblationOptions(
        source=Source.parse(ns.tasks), model=ns.model, out=ns.out, fixes=chosen_fixes(ns.fixes),
        trials=ns.trials, replay_sites=ns.replay_sites, workers=ns.workers,
        max_steps=ns.max_steps, only=ns.only, limit=ns.limit,
        time_limit_scale=ns.time_limit_scale)
    print_table(run_ablation(options), Console(width=120))
    print(f"table: {ns.out / 'ablation.json'}")
    return 0

"""``webfovea miniwob``: MiniWoB++ tasks through the normal round trip, into a bench run."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from ..console import inputs, interrupts
from ..console.interrupts import Interrupted
from ..console.options import RunFlags, add_run_options, flags_from
from ..core.errors import ConfigError
from . import ORACLE, assets

# The handler imports what it runs when called (see webfovea.cli.main): parsing stays light.

# MiniWoB's own window (500x320, the 160x210 task area at its top left), zoomed 2x. Pages lay
# out against the window: in a 160-px window jQuery UI moves its dialogs off-screen
# (click-dialog: 0/10 episodes at 160x210 vs 3/3 at 500x320).
VIEWPORT, ZOOM = "500x320", 2.0


def register(subparsers: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    p = subparsers.add_parser("miniwob", help="run MiniWoB++ tasks (pip install 'webfovea[miniwob]')")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--tasks", help="comma-separated task names, e.g. click-button,choose-list")
    which.add_argument("--all", action="store_true", help="every installed task")
    which.add_argument("--oracle-tasks", action="store_true",
                       help=f"every task {ORACLE} has a policy for")
    p.add_argument("--list", action="store_true", help="list the installed tasks and exit")
    p.add_argument("--episodes", type=int, default=1, help="episodes per task (default 1)")
    p.add_argument("--seed", type=int, default=0, help="episode k of a task is seeded with S+k")
    p.add_argument("--time-limit-scale", type=float, default=1.0,
                   help="multiply each task's own time limit (for slow models; recorded)")
    p.add_argument("--workers", type=int, default=1, help="parallel browsers (tasks are split)")
    p.add_argument("--out", type=Path, help="run directory (like bench's)")
    add_run_options(p)
    p.set_defaults(viewport=VIEWPORT, device_scale_factor=ZOOM)
    return {"miniwob": cmd_miniwob}


def cmd_miniwob(ns: argparse.Namespace) -> int:
    from ..bench.report import build_report, print_table
    from ..bench.store import Store
    from ..viewer.report import write_report
    from .catalog import POLICIES
    from .runner import SUMMARY, Settings, run, summarise

    if ns.list:
        for name in assets.task_names():
            print(f"{name}{'  (oracle)' if name in POLICIES else ''}")
        return 0
    if ns.out is None or not ns.model:
        raise ConfigError(f"give --out RUN_DIR and --model SPEC ({ORACLE} for the reference policy)")
    if ns.episodes < 1 or ns.workers < 1 or ns.time_limit_scale <= 0:
        raise ConfigError("--episodes and --workers must be at least 1, --time-limit-scale positive")
    inputs.out_dir(ns.out)
    if (ns.out / "results.sqlite").exists():
        raise ConfigError(f"{ns.out} already holds a run; choose a new --out")
    names = (sorted(POLICIES) if ns.oracle_tasks else None if ns.all
             else [t.strip() for t in (ns.tasks or "click-button").split(",") if t.strip()])
    tasks = assets.resolve(names)
    if ns.model == ORACLE:
        missing = [t for t in tasks if t not in POLICIES]
        if missing:
            raise ConfigError(f"{ORACLE} has no policy for: {', '.join(missing)}")
    flags = flags_from(ns)
    if ns.model == ORACLE:  # a policy of this command's own, not a model profile or spec
        flags["model"] = "oracle"
    options = RunFlags(**flags).options()
    settings = Settings(tasks=tuple(tasks), episodes=ns.episodes, seed=ns.seed, model=ns.model,
                        base_url=ns.base_url, time_limit_scale=ns.time_limit_scale,
                        workers=ns.workers, agent=options.agent, browser=options.browser)
    console = Console(stderr=True)
    try:
        episodes = interrupts.run(run(settings, ns.out, console=console))
    except Interrupted as e:  # the run so far is a bench run directory: score/view read it
        raise Interrupted(e.signum, f"the partial run is in {ns.out}") from None
    store = Store.open_existing(ns.out)
    try:
        report = build_report(store, str(ns.out))
        write_report(ns.out)
        print_table(report, Console())
    finally:
        store.close()
    _print_tasks(summarise(episodes), Console())
    print(f"per-task rewards: {ns.out / SUMMARY}")
    return 0


def _print_tasks(summary: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    table = Table("task", "episodes", "success", "mean raw reward", "mean steps")
    for name, s in summary["tasks"].items():
        table.add_row(name, str(s["episodes"]), f"{s['successes']}/{s['episodes']}",
                      f"{s['mean_raw_reward']:.2f}", f"{s['mean_steps']:.1f}")
    console.print(table)

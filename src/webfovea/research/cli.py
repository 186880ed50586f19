"""``webfovea ablation``: the research commands' parsers (handlers import what they run)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError

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
    _export_parser(subparsers.add_parser(
        "export", help="write run directories' steps as a training set (hf, openai-jsonl) "
                       "or as WebRetriever's run layout (webretriever)",
        description="Each step of the runs as one training example: the request as the "
                    "model saw it (system, task, history, the images as sent), the reply as "
                    "target, the coordinate space and image size declared. Typed secrets "
                    "and keys are redacted. --format webretriever writes instead each task as "
                    "the WebRetriever reference runner does (<task_idx>_<task_id>/ with "
                    "result.json, capture.json, trajectory/, trajectory_visual/, and "
                    "logs/summary.json), which the benchmark's NavEval reads."))
    p = subparsers.add_parser(
        "import-trajectory", help="another agent's trajectory as a run directory",
        description="Read a browser-use, OpenAI computer-use or Anthropic computer-use "
                    "trajectory into RUN_DIR (steps, screenshots, actions, the answer) for "
                    "view and diagnose; or, with --from webretriever, the WebRetriever "
                    "reference runner's output (a folder of <task_idx>_<task_id>/ task "
                    "folders, or one of them) into a bench-shaped RUN_DIR/tasks/<task_id>/, "
                    "its capture.json as network.jsonl.")
    p.add_argument("file", type=Path, metavar="PATH",
                   help="the trajectory file; for webretriever the output folder or a task "
                        "folder")
    p.add_argument("--from", dest="source", required=True,
                   choices=("browser-use", "openai-cua", "anthropic-cu", "webretriever"))
    p.add_argument("--out", type=Path, required=True, metavar="RUN_DIR")
    return {"ablation": cmd_ablation, "export": cmd_export,
            "import-trajectory": cmd_import_trajectory}


def cmd_import_trajectory(ns: argparse.Namespace) -> int:
    from ..console import inputs
    from .trajectories import read_trajectory
    from .trajectories.record import write

    inputs.out_dir(ns.out)
    if ns.source == "webretriever":
        return _import_webretriever(ns.file, ns.out)
    result = write(read_trajectory(ns.file, ns.source), ns.out)
    print(f"imported {result.steps} steps ({result.status}) into {ns.out}")
    return 0


def _import_webretriever(path: Path, out: Path) -> int:
    from .webretriever.importer import import_webretriever

    done = import_webretriever(path, out)
    for warning in done.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for t in done.tasks:
        requests = "no capture.json" if t.requests is None else f"{t.requests} requests"
        print(f"  {t.task_id}: {t.steps} steps, {t.source_status or 'no status'} -> "
              f"{t.status}, {requests}")
    print(f"imported {len(done.tasks)} task(s) into {out / 'tasks'}")
    return 0


def _export_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="bench run directories or task directories")
    p.add_argument("--out", type=Path, required=True, help="the dataset directory")
    p.add_argument("--format", choices=("hf", "openai-jsonl", "webretriever"), default="hf")
    p.add_argument("--only", choices=("correct",), help="only tasks scored correct")
    p.add_argument("--navigation", action="store_true",
                   help="webretriever: the reference runner's statuses for Protocols I and II "
                        "(finished() without an answer SUCCESS, call_user() FAIL_CALL_USER), "
                        "which NavEval judges; without it a task is SUCCESS only with an "
                        "answer, else FAIL, which NavEval skips")
    p.add_argument("--dialect", choices=("text",), default="text",
                   help="the request format examples are written in (text: the default "
                        "dialect's, rebuilt from the run)")


def cmd_export(ns: argparse.Namespace) -> int:
    if ns.format == "webretriever":
        return _export_webretriever(ns)
    if ns.navigation:
        raise ConfigError("--navigation is for --format webretriever")
    from .export import export

    done = export(ns.run_dirs, ns.out, fmt=ns.format, only_correct=ns.only == "correct")
    print(f"exported {done.examples} examples of {done.tasks} tasks ({done.bytes:,} bytes) "
          f"to {ns.out}" + (f"; {done.unfaithful} differ from the recorded request text"
                            if done.unfaithful else ""))
    if done.left_out:
        print(f"left out {len(done.left_out)} steps whose request carried a missing or "
              f"unreadable screenshot: {', '.join(e.id for e in done.left_out)}")
    for path in done.files:
        print(f"  {path}")
    return 0


def _export_webretriever(ns: argparse.Namespace) -> int:
    from ..console import inputs
    from .webretriever.export import export_webretriever

    if ns.only is not None:
        raise ConfigError("--only correct is for the training-set formats; --format "
                          "webretriever exports every task, as NavEval judges them all")
    inputs.out_dir(ns.out)
    done = export_webretriever(ns.run_dirs, ns.out, navigation=ns.navigation)
    for warning in done.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    requests = sum(t.requests for t in done.tasks)
    print(f"exported {len(done.tasks)} task(s) to {ns.out} ({done.success} SUCCESS, "
          f"{len(done.tasks) - done.success} FAIL, {requests} requests in capture.json)")
    other = done.not_final_last()
    if other:
        print(f"note: on this file system NavEval would take another step's screenshot as the "
              f"final one for {len(other)} task(s) (it takes os.listdir's last entry of "
              "trajectory/; logs/summary.json names it per task)", file=sys.stderr)
    return 0


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

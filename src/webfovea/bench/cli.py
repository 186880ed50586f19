"""The ``bench``, ``score`` and ``compare`` subcommands (DESIGN's command line contract).

``webfovea.cli`` adds them with :func:`register`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from ..errors import ConfigError
from ..models.loader import load_model
from .charts import compare_chart, score_chart, write_chart
from .compare import compare, print_comparison
from .execute import Job
from .html_report import write_html
from .judge import Judge
from .report import Prices, build_report, print_table, to_csv
from .runner import FREE_SETTINGS, Launch, plan, rescore, resolve_settings, run
from .store import DB_NAME, Store
from .tasks import Split, TaskFile, read_tasks

Handler = Callable[[argparse.Namespace], int]
# Bench options recorded with the run (besides the run options of ``webfovea run``).
BENCH_SETTINGS = ("judge", "judge_base_url", "split", "part", "host_resolver_rules")


def register(subparsers: Any) -> dict[str, Handler]:
    """Add ``bench``, ``score`` and ``compare`` to ``webfovea``'s subparsers."""
    _bench_parser(subparsers.add_parser(
        "bench", help="run a task file: parallel, resumable, scored",
        description="Run every task of TASKS (JSON Lines) into RUN_DIR, score the answers and "
                    "report. Settings are recorded with the run; --resume continues it."))
    score = subparsers.add_parser("score", help="report a bench run")
    score.add_argument("run_dir", type=Path)
    score.add_argument("--format", choices=("table", "json", "csv"), default="table")
    score.add_argument("--rescore", action="store_true",
                       help="score the answers again with the current matchers")
    score.add_argument("--judge", help="model spec of a judge for semantic equivalence "
                                       "(implies --rescore)")
    score.add_argument("--judge-base-url")
    score.add_argument("--chart", type=Path, metavar="FILE.svg|FILE.png",
                       help="also draw the run's charts (success by site and tag, outcomes)")
    _add_prices(score)
    cmp = subparsers.add_parser("compare", help="compare two bench runs task by task")
    cmp.add_argument("run_a", type=Path)
    cmp.add_argument("run_b", type=Path)
    cmp.add_argument("--format", choices=("table", "json"), default="table")
    cmp.add_argument("--chart", type=Path, metavar="FILE.svg|FILE.png",
                     help="also draw both runs' success and the paired tasks' moves")
    return {"bench": cmd_bench, "score": cmd_score, "compare": cmd_compare}


def _bench_parser(p: argparse.ArgumentParser) -> None:
    from ..cli import add_run_options

    p.add_argument("tasks", type=Path, help="task file, JSON Lines")
    p.add_argument("--out", type=Path, required=True, help="the run directory")
    p.add_argument("--workers", type=int, default=1, help="tasks run at once")
    p.add_argument("--executor", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address", help="an existing Ray cluster (default: start a local Ray)")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run")
    p.add_argument("--split", help="named parts by a stable hash of the id, e.g. dev:70,holdout:30")
    p.add_argument("--part", help="the part of --split to run")
    p.add_argument("--judge", help="model spec of a judge for semantic equivalence "
                                   "(off by default)")
    p.add_argument("--judge-base-url")
    p.add_argument("--host-resolver-rules", action="append", metavar="RULES",
                   help="Chromium host resolver rules, e.g. 'MAP *.fovea.test 127.0.0.1:8001'; "
                        "repeat to give each worker its own (worker i uses the i-th)")
    _add_prices(p)
    add_run_options(p)
    # Recorded settings default to "not given", so --resume can tell what was typed.
    # (set_defaults cannot do this: argparse would put the SUPPRESS marker in the namespace.)
    recorded = set(_recorded_dests())
    for action in p._actions:
        if action.dest in recorded:
            action.default = argparse.SUPPRESS


def _add_prices(p: argparse.ArgumentParser) -> None:
    p.add_argument("--price-input", type=float, help="USD per million input tokens")
    p.add_argument("--price-output", type=float, help="USD per million output tokens")


def _run_option_defaults() -> dict[str, Any]:
    from ..cli import add_run_options

    probe = argparse.ArgumentParser(add_help=False)
    add_run_options(probe)
    for dest in BENCH_SETTINGS:
        probe.add_argument(f"--{dest.replace('_', '-')}")
    probe.set_defaults(host_resolver_rules=[])
    return vars(probe.parse_args([]))


def _recorded_dests() -> list[str]:
    return list(_run_option_defaults())


# -- bench ------------------------------------------------------------------------------------


def cmd_bench(ns: argparse.Namespace) -> int:
    if ns.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {ns.workers}")
    given = {k: getattr(ns, k) for k in _recorded_dests() if hasattr(ns, k)}
    store = Store.open_existing(ns.out) if ns.resume else None
    if store is None:
        _check_fresh(ns.out)
    recorded = store.get_meta("settings") if store else None
    settings = resolve_settings(recorded, given=given, defaults=_run_option_defaults())
    job = _job(settings)
    split = Split.parse(settings["split"]) if settings.get("split") else None
    task_file = read_tasks(ns.tasks)
    for problem in task_file.problems:
        print(f"webfovea: {ns.tasks} {problem}", file=sys.stderr)
    asyncio.run(_check_models(job, settings))
    if store is None:
        ns.out.mkdir(parents=True, exist_ok=True)
        store = Store(ns.out / DB_NAME)
        store.set_meta("judge", settings.get("judge"))
    store.set_meta("settings", settings)
    try:
        return _bench(ns, store, settings, job, task_file, split)
    finally:
        store.close()


def _check_fresh(out: Path) -> None:
    if (out / DB_NAME).is_file():
        raise ConfigError(f"{out} already holds a bench run: add --resume to continue it, or "
                          "choose another --out")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out {out} exists and is not an empty directory")


def _job(settings: dict[str, Any]) -> Job:
    from ..cli import agent_config, browser_config

    if not settings.get("model"):
        raise ConfigError("give --model (openai:<name>, anthropic:<name>, oracle or "
                          "scripted:<file>), or set WEBFOVEA_MODEL")
    options = argparse.Namespace(**settings)
    rules = tuple(tuple(r.strip() for r in entry.split(",") if r.strip())
                  for entry in settings.get("host_resolver_rules") or [])
    return Job(model=settings["model"], base_url=settings.get("base_url"),
               agent=agent_config(options), browser=browser_config(options), host_rules=rules)


async def _check_models(job: Job, settings: dict[str, Any]) -> None:
    """Fail before the run on a model spec that can never work (bad spec, missing key)."""
    await load_model(job.model, base_url=job.model_base_url(job.browser_for(0))).aclose()
    if settings.get("judge"):
        await load_model(settings["judge"], base_url=settings.get("judge_base_url")).aclose()


def _bench(ns: argparse.Namespace, store: Store, settings: dict[str, Any], job: Job,
           task_file: TaskFile, split: Split | None) -> int:
    prices = _prices(ns)
    if prices is not None:
        store.set_meta("prices", {"input": prices.input, "output": prices.output})
    selected, todo = plan(store, task_file, split=split, part=settings.get("part"))
    launch = Launch(executor=ns.executor, workers=ns.workers, ray_address=ns.ray_address,
                    command=shlex.join(sys.argv),
                    invocation={"executor": ns.executor, "workers": ns.workers,
                                "ray_address": ns.ray_address, "tasks_file": str(ns.tasks),
                                "tasks_sha256": task_file.sha256,
                                **{k: settings.get(k) for k in sorted(FREE_SETTINGS)}})
    err = Console(stderr=True)
    if len(todo) < len(selected):
        err.print(f"resuming: {len(selected) - len(todo)} of {len(selected)} tasks already done",
                  highlight=False)
    try:
        asyncio.run(run(store, ns.out, todo, total=len(selected), job=job, launch=launch,
                        judge_spec=settings.get("judge"),
                        judge_base_url=settings.get("judge_base_url"), console=err))
    except KeyboardInterrupt:
        err.print(f"interrupted: continue with --resume (webfovea bench {ns.tasks} --out "
                  f"{ns.out} --resume)", highlight=False)
        return 130
    report = build_report(store, str(ns.out))
    write_html(report, ns.out, {r.task_id: r.dir for r in store.rows()})
    print_table(report, _stdout())
    return 0


def _prices(ns: argparse.Namespace) -> Prices | None:
    if ns.price_input is None and ns.price_output is None:
        return None
    if ns.price_input is None or ns.price_output is None:
        raise ConfigError("give both --price-input and --price-output (USD per million tokens)")
    if ns.price_input < 0 or ns.price_output < 0:
        raise ConfigError("prices must not be negative")
    return Prices(ns.price_input, ns.price_output)


# -- score and compare ------------------------------------------------------------------------


def cmd_score(ns: argparse.Namespace) -> int:
    store = Store.open_existing(ns.run_dir)
    try:
        if ns.rescore or ns.judge:
            asyncio.run(_rescore(store, ns.judge, ns.judge_base_url))
        report = build_report(store, str(ns.run_dir), prices=_prices(ns))
        if ns.rescore or ns.judge:
            write_html(report, ns.run_dir, {r.task_id: r.dir for r in store.rows()})
        if ns.chart:
            _chart(score_chart(report, store.rows()), ns.chart)
    finally:
        store.close()
    if ns.format == "json":
        print(json.dumps(report.to_json(), indent=2, default=str))
    elif ns.format == "csv":
        sys.stdout.write(to_csv(report))
    else:
        print_table(report, _stdout())
    return 0


async def _rescore(store: Store, judge_spec: str | None, judge_base_url: str | None) -> None:
    judge = Judge(load_model(judge_spec, base_url=judge_base_url)) if judge_spec else None
    try:
        await rescore(store, judge=judge)
    finally:
        if judge is not None:
            await judge.aclose()
    store.set_meta("judge", judge_spec)


def cmd_compare(ns: argparse.Namespace) -> int:
    stores = [Store.open_existing(ns.run_a), Store.open_existing(ns.run_b)]
    try:
        result = compare(stores[0].rows(), stores[1].rows(), run_a=str(ns.run_a),
                         run_b=str(ns.run_b))
    finally:
        for store in stores:
            store.close()
    if ns.chart:
        _chart(compare_chart(result), ns.chart)
    if ns.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        print_comparison(result, _stdout())
    return 0


def _chart(chart: str, path: Path) -> None:
    print(f"chart: {write_chart(chart, path)}", file=sys.stderr)


def _stdout() -> Console:
    """Standard output; piped into a file or CI log, tables get room instead of 80 columns."""
    console = Console()
    return console if console.is_terminal else Console(width=120)


"""The ``bench``, ``score`` and ``compare`` subcommands (DESIGN's command line contract).

``webfovea.cli`` adds them with :func:`register`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shlex
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console

from .. import inputs, interrupts
from ..errors import ConfigError
from ..interrupts import Interrupted
from ..model_options import preflight_or_skip
from ..models.loader import load_model
from ..snapshot.compare import snapshot_note
from .compare import compare, print_comparison
from .execute import Job
from .html_report import write_html
from .judge import Judge
from .lock import LOCK_NAME, RunLock
from .report import Prices, build_report, print_table, to_csv
from .resume import check_same_tasks
from .runner import FREE_SETTINGS, Launch, plan, rescore, resolve_settings, run
from .store import DB_NAME, Store
from .tasks import Split, TaskFile, pick, read_tasks

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
    _add_prices(score)
    cmp = subparsers.add_parser("compare", help="compare two bench runs task by task")
    cmp.add_argument("run_a", type=Path)
    cmp.add_argument("run_b", type=Path)
    cmp.add_argument("--format", choices=("table", "json"), default="table")
    return {"bench": cmd_bench, "score": cmd_score, "compare": cmd_compare}


def _bench_parser(p: argparse.ArgumentParser) -> None:
    from ..cli import add_run_options

    p.add_argument("tasks", type=Path, help="task file, JSON Lines")
    p.add_argument("--out", type=Path, required=True, help="the run directory")
    p.add_argument("--workers", type=int, default=1, help="tasks run at once")
    p.add_argument("--executor", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address", help="an existing Ray cluster (default: start a local Ray)")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run")
    p.add_argument("--force", action="store_true",
                   help="with --resume: accept a task file that differs from the run's")
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
    inputs.out_dir(ns.out)
    if not ns.resume:
        _check_fresh(ns.out)
    elif not (ns.out / DB_NAME).is_file():
        raise ConfigError(f"{ns.out} holds no bench run (no {DB_NAME}): nothing to --resume")
    with RunLock(ns.out) if ns.resume else contextlib.nullcontext() as lock:
        store = Store.open_existing(ns.out) if ns.resume else None
        try:
            return _prepare_and_run(ns, store, lock)
        finally:
            if store is not None:
                store.close()


def _prepare_and_run(ns: argparse.Namespace, store: Store | None, lock: RunLock | None) -> int:
    """Every check before the store of a new run is created, so a refused command leaves
    nothing behind that would block its corrected retry."""
    given = {k: getattr(ns, k) for k in _recorded_dests() if hasattr(ns, k)}
    recorded = store.get_meta("settings") if store else None
    settings = resolve_settings(recorded, given=given, defaults=_run_option_defaults())
    job = _job(settings)
    split = Split.parse(settings["split"]) if settings.get("split") else None
    task_file = read_tasks(ns.tasks)
    for problem in task_file.problems:
        print(f"webfovea: {ns.tasks} {problem}", file=sys.stderr)
    if not pick(task_file.tasks, split=split, part=settings.get("part")):
        raise ConfigError(f"no task to run in {ns.tasks}")
    if store is not None:
        check_same_tasks(store, task_file, force=ns.force)
    asyncio.run(_check_models(job, settings))
    if not settings.get("no_preflight"):
        preflight_or_skip(argparse.Namespace(model=job.model,
                                             base_url=job.model_base_url(job.browser_for(0))))
    if store is None:
        ns.out.mkdir(parents=True, exist_ok=True)
        with RunLock(ns.out):
            store = Store(ns.out / DB_NAME)
            try:
                store.set_meta("judge", settings.get("judge"))
                store.set_meta("settings", settings)
                return _bench(ns, store, settings, job, task_file, split)
            finally:
                store.close()
    store.set_meta("settings", settings)
    return _bench(ns, store, settings, job, task_file, split)


def _check_fresh(out: Path) -> None:
    if (out / DB_NAME).is_file():
        raise ConfigError(f"{out} already holds a bench run: add --resume to continue it, or "
                          "choose another --out")
    # A lock file alone is what a refused first attempt may leave: not a run.
    if out.exists() and (not out.is_dir() or any(p.name != LOCK_NAME for p in out.iterdir())):
        raise ConfigError(f"--out {out} exists and is not an empty directory")


def _job(settings: dict[str, Any]) -> Job:
    from ..cli import agent_config, browser_config

    options = argparse.Namespace(**settings)
    inputs.check_run_options(options)
    inputs.base_url(settings.get("judge_base_url"), flag="--judge-base-url")
    rules = tuple(tuple(r.strip() for r in entry.split(",") if r.strip())
                  for entry in settings.get("host_resolver_rules") or [])
    cdp_urls = tuple(u.strip() for u in (settings.get("cdp_url") or "").split(",") if u.strip())
    agent = agent_config(options)  # resolves a profile: options.model is a spec after this
    agent = replace(agent, site=replace(agent.site, per_task=True))  # DIR/<task id> each
    return Job(model=options.model, base_url=options.base_url,
               agent=agent, browser=browser_config(options), host_rules=rules,
               cdp_urls=cdp_urls)


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
        interrupts.run(run(store, ns.out, todo, total=len(selected), job=job, launch=launch,
                           judge_spec=settings.get("judge"),
                           judge_base_url=settings.get("judge_base_url"), console=err))
    except Interrupted as e:
        raise Interrupted(e.signum, f"continue with --resume (webfovea bench {ns.tasks} --out "
                                    f"{ns.out} --resume)") from None
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
    note = snapshot_note(ns.run_a, ns.run_b)
    if ns.format == "json":
        print(json.dumps({**result.to_json(), "snapshots": note}, indent=2))
    else:
        print_comparison(result, _stdout())
        if note:
            print(note)
    return 0


def _stdout() -> Console:
    """Standard output; piped into a file or CI log, tables get room instead of 80 columns."""
    console = Console()
    return console if console.is_terminal else Console(width=120)


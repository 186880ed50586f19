"""``run_bench``: one bench invocation from its typed options (the CLI, ``suite run`` and
the demo call it alike): settings resolved against a resumed run, the store, the plan, the
run, the report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from rich.console import Console

from ..console import inputs, interrupts
from ..console.interrupts import Interrupted
from ..console.options import BenchOptions, BenchSettings, default_settings
from ..core.errors import EXIT_CODES, ConfigError, ModelError
from ..models.loader import load_model
from ..models.model_options import preflight_or_skip
from ..viewer.report import write_report
from .budgets import StepBudget
from .execute import Job
from .lanes import check_lanes
from .lock import LOCK_NAME, RunLock
from .presets import Preset, load_preset
from .report import build_report, print_table
from .resume import check_same_settings, check_same_tasks, effective_settings
from .runner import FREE_SETTINGS, Launch, plan, resolve_settings, run
from .store import DB_NAME, Store
from .tasks import Split, TaskFile, pick, read_tasks


def run_bench(options: BenchOptions) -> int:
    """Run (or resume) the bench ``options`` describe; the exit code. One process per run
    directory (``bench.lock``); every check comes before the store of a new run exists, so a
    refused command leaves nothing behind that would block its corrected retry."""
    inputs.out_dir(options.out)
    if not options.resume:
        _check_fresh(options.out)
    elif not (options.out / DB_NAME).is_file():
        raise ConfigError(f"{options.out} holds no bench run (no {DB_NAME}): nothing to --resume")
    with RunLock(options.out) if options.resume else contextlib.nullcontext():
        store = Store.open_existing(options.out) if options.resume else None
        try:
            return _prepare_and_run(options, store)
        finally:
            if store is not None:
                store.close()


def _prepare_and_run(options: BenchOptions, store: Store | None) -> int:
    recorded = store.get_meta("settings") if store else None
    given = {k: v for k, v in _jsonable(options.settings).items() if k in options.given}
    settings = BenchSettings.from_json(resolve_settings(
        recorded, given=given, defaults=_jsonable(default_settings())))
    preset = load_preset(settings.preset) if settings.preset else None
    if preset is not None:
        settings = _within(preset, settings, options, new=recorded is None)
    job = _job(settings, preset)
    check_lanes(job, options.workers)  # two browsers on one suite lane: before any browser
    task_file = read_tasks(options.tasks, fmt=options.task_format,  # type: ignore[arg-type]
                           references=options.references)
    for problem in task_file.problems:
        print(f"webfovea: {options.tasks} {problem}", file=sys.stderr)
    split = Split.parse(settings.split) if settings.split else None
    if not pick(task_file.tasks, split=split, part=settings.part):
        raise ConfigError(f"no task to run in {options.tasks}")
    if store is not None:
        check_same_tasks(store, task_file, force=options.force)
        check_same_settings(store, effective_settings(job), force=options.force)
    asyncio.run(_check_models(job, settings))
    asyncio.run(_preflight(job, settings))
    if preset is not None:
        print(f"webfovea: {preset.announcement(max_steps=settings.max_steps, workers=options.workers)}",
              file=sys.stderr)
    if store is None:
        options.out.mkdir(parents=True, exist_ok=True)
        with RunLock(options.out):
            store = Store(options.out / DB_NAME)
            try:
                store.set_meta("judge", settings.judge)
                store.set_meta("settings", _jsonable(settings))
                return _bench(options, store, settings, job, task_file)
            finally:
                store.close()
    store.set_meta("settings", _jsonable(settings))
    return _bench(options, store, settings, job, task_file)


def _jsonable(settings: BenchSettings) -> dict[str, Any]:
    """As recorded in the store: tuples become lists."""
    data: dict[str, Any] = json.loads(json.dumps(asdict(settings)))
    return data


def _check_fresh(out: Path) -> None:
    if (out / DB_NAME).is_file():
        raise ConfigError(f"{out} already holds a bench run: add --resume to continue it, or "
                          "choose another --out")
    # A lock file alone is what a refused first attempt may leave: not a run.
    if out.exists() and (not out.is_dir() or any(p.name != LOCK_NAME for p in out.iterdir())):
        raise ConfigError(f"--out {out} exists and is not an empty directory")


def _within(preset: Preset, settings: BenchSettings, options: BenchOptions, *,
            new: bool) -> BenchSettings:
    """The settings under ``preset``'s ceilings: a new run not given --max-steps takes the
    preset's; asking for more steps or workers than it allows is refused."""
    if new and "max_steps" not in options.given:
        settings = replace(settings, max_steps=preset.max_steps)
    preset.check_steps(settings.max_steps)
    preset.check_workers(options.workers)
    return settings


def _job(settings: BenchSettings, preset: Preset | None = None) -> Job:
    inputs.base_url(settings.judge_base_url, flag="--judge-base-url")
    run_options = settings.options(per_task=True)  # site snapshots: DIR/<task id> each
    cdp_urls = tuple(u.strip() for u in (settings.cdp_url or "").split(",") if u.strip())
    agent = replace(run_options.agent, keytra=not settings.no_keytra,
                    **(preset.agent_settings() if preset else {}))
    budget = StepBudget.parse(settings.step_budget) if settings.step_budget else None
    return Job(model=run_options.model, base_url=run_options.base_url, agent=agent,
               browser=run_options.browser, host_rules=settings.host_rules(), cdp_urls=cdp_urls,
               step_budget=budget)


async def _check_models(job: Job, settings: BenchSettings) -> None:
    """Fail before the run on a model spec that can never work (bad spec, missing key)."""
    await load_model(job.model, base_url=job.base_url,
                     host_rules=job.browser_for(0).host_rules).aclose()
    if settings.judge:
        await load_model(settings.judge, base_url=settings.judge_base_url).aclose()


async def _preflight(job: Job, settings: BenchSettings) -> None:
    """The endpoint check. An endpoint that stays unreachable through the retries ends no
    bench (a provider outage ends tasks, never the run): the tasks run, each retrying its
    own model calls, and end as model_error while it stays down."""
    try:
        await preflight_or_skip(job.model, job.base_url, time_limit=job.agent.time_limit,
                                skip=settings.no_preflight)
    except ModelError as error:
        print(f"webfovea: pre-flight: {error}; the tasks run anyway and end as model_error "
              "while it stays unreachable", file=sys.stderr)


def _exit_code(store: Store, run_id: int) -> int:
    """0, or 3 (as ``run``) when every task this invocation ran ended as model_error: the
    model could not be used at all."""
    statuses = {row.status for row in store.rows() if row.run_id == run_id}
    if statuses == {"model_error"}:
        print("webfovea: no task could use the model (every one ended as model_error); see "
              "the errors in the report", file=sys.stderr)
        return EXIT_CODES["model_error"]
    return 0


def _bench(options: BenchOptions, store: Store, settings: BenchSettings, job: Job,
           task_file: TaskFile) -> int:
    if options.prices is not None:
        store.set_meta("prices", {"input": options.prices.input,
                                  "output": options.prices.output})
    split = Split.parse(settings.split) if settings.split else None
    selected, todo = plan(store, task_file, split=split, part=settings.part,
                          trials=settings.trials)
    recorded = _jsonable(settings)
    launch = Launch(executor=options.executor,  # type: ignore[arg-type]  # argparse choices
                    workers=options.workers, ray_address=options.ray_address,
                    command=options.command,
                    invocation={"executor": options.executor, "workers": options.workers,
                                "ray_address": options.ray_address,
                                "tasks_file": str(options.tasks),
                                "tasks_sha256": task_file.sha256,
                                "effective": effective_settings(job),
                                **({"preset": load_preset(settings.preset).record()}
                                   if settings.preset else {}),
                                **{k: recorded.get(k) for k in sorted(FREE_SETTINGS)}})
    err = Console(stderr=True)
    total = len(selected) * settings.trials
    if len(todo) < total:
        err.print(f"resuming: {total - len(todo)} of {total} "
                  f"{'trials' if settings.trials > 1 else 'tasks'} already done", highlight=False)
    try:
        run_id = interrupts.run(run(store, options.out, todo, total=total, job=job, launch=launch,
                                    judge_spec=settings.judge,
                                    judge_base_url=settings.judge_base_url, console=err,
                                    trials=settings.trials))
    except Interrupted as e:
        raise Interrupted(e.signum, f"continue with --resume (webfovea bench {options.tasks} "
                                    f"--out {options.out} --resume)") from None
    report = build_report(store, str(options.out))
    print_table(report, stdout())
    print(f"report: {write_report(options.out, keep_current=True)}")
    return _exit_code(store, run_id)


def stdout() -> Console:
    """Standard output; piped into a file or CI log, tables get room instead of 80 columns."""
    console = Console()
    return console if console.is_terminal else Console(width=120)

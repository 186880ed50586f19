"""The ``bench``, ``score`` and ``compare`` subcommands (the command line contract, docs/contracts.md).

``webfovea.cli.main`` adds them with :func:`register`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..console.options import BenchOptions, BenchSettings, Prices, add_run_options, flags_from
from ..core.errors import ConfigError
from .formats import TASK_FORMATS
from .presets import PRESETS

if TYPE_CHECKING:
    from ..rundir.images import RunImages
    from .store import Store
    from .task_score import TaskScore

# Handlers import what they run when called (see webfovea.cli.main): parsing stays light.

Handler = Callable[[argparse.Namespace], int]


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
                       help="score the answers again with the current matchers and say "
                            "which verdicts changed")
    score.add_argument("--judge", help="model spec of a judge that decides the answers the "
                                       "typed rules leave undecided (implies --rescore)")
    score.add_argument("--judge-base-url")
    score.add_argument("--judge-evidence", metavar="SPEC",
                       help="a model (spec or profile) that judges whether each finished task's "
                            "evidence (screenshots, page text, last steps) supports its answer; "
                            "separates stale references from wrong answers")
    score.add_argument("--judge-evidence-base-url", metavar="URL")
    score.add_argument("--chart", type=Path, metavar="FILE.svg|FILE.png",
                       help="also draw the run's charts (success by site and tag, outcomes)")
    score.add_argument("--answer", metavar="TEXT",
                       help="one task's run directory (a run, an imported trajectory): the "
                            "reference answer to score it against")
    score.add_argument("--answer-type", choices=("auto", "text", "number", "date"),
                       help="one task's run directory: how to compare (default: the task's, "
                            "else auto)")
    score.add_argument("--task", type=Path, metavar="FILE",
                       help="one task's run directory: a task file holding its line (the "
                            "line with its id, or the only one), reference included")
    _add_prices(score)
    cmp = subparsers.add_parser("compare", help="compare two bench runs task by task")
    cmp.add_argument("run_a", type=Path)
    cmp.add_argument("run_b", type=Path)
    cmp.add_argument("--format", choices=("table", "json"), default="table")
    cmp.add_argument("--chart", type=Path, metavar="FILE.svg|FILE.png",
                     help="also draw both runs' success and the paired tasks' moves")
    return {"bench": cmd_bench, "score": cmd_score, "compare": cmd_compare}


def _bench_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("tasks", type=Path, help="task file: JSON Lines, or a published benchmark's "
                                            "(WebVoyager, Online-Mind2Web, AssistantBench, "
                                            "WebRetriever)")
    p.add_argument("--format", dest="task_format", default="auto", choices=TASK_FORMATS,
                   help="the task file's shape (default: told by its fields)")
    p.add_argument("--references", type=Path, metavar="FILE",
                   help="WebVoyager's reference answers (default: reference_answer.json "
                        "beside the task file)")
    p.add_argument("--out", type=Path, required=True, help="the run directory")
    p.add_argument("--workers", type=int, default=1, help="tasks run at once")
    p.add_argument("--executor", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address", help="an existing Ray cluster (default: start a local Ray)")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run")
    p.add_argument("--force", action="store_true",
                   help="with --resume: accept a task file or effective settings (config "
                        "file, profile) that differ from the run's")
    # The settings recorded with the run have no defaults here, so --resume can tell what
    # was typed; BenchSettings holds their defaults.
    hidden = argparse.SUPPRESS
    p.add_argument("--trials", type=int, default=hidden,
                   help="run every task N times (default 1): each trial in "
                        "tasks/<id>/<trial>/, scored on its own")
    p.add_argument("--split", default=hidden,
                   help="named parts by a stable hash of the id, e.g. dev:70,holdout:30")
    p.add_argument("--part", default=hidden, help="the part of --split to run")
    p.add_argument("--judge", default=hidden,
                   help="model spec of a judge that decides the answers the typed rules "
                        "leave undecided (off by default)")
    p.add_argument("--judge-base-url", default=hidden)
    p.add_argument("--preset", default=hidden, metavar="NAME", choices=PRESETS,
                   help="a benchmark's rules as one switch: webretriever-2026 (the 2026 "
                        "WebRetriever Challenge: at most 100 steps, a model request at most "
                        "180 s, no model retries, at most 8 workers, search engines refused); "
                        "see docs/task-files.md")
    p.add_argument("--no-keytra", action="store_true", default=hidden,
                   help="leave the task file's keytra (WebRetriever's operational "
                        "documentation, Protocol II) out of the prompt: Protocol I on the "
                        "same file")
    p.add_argument("--step-budget", default=hidden, metavar="reference_length[*K]",
                   help="each task's step limit from its reference_length (K times it, rounded "
                        "up), at most --max-steps; tasks without one keep --max-steps")
    p.add_argument("--host-resolver-rules", action="append", metavar="RULES", default=hidden,
                   help="Chromium host resolver rules, e.g. 'MAP *.fovea.test 127.0.0.1:8001'; "
                        "repeat to give each worker its own (worker i uses the i-th)")
    _add_prices(p)
    add_run_options(p, recorded=True)


def _add_prices(p: argparse.ArgumentParser) -> None:
    p.add_argument("--price-input", type=float, help="USD per million input tokens")
    p.add_argument("--price-output", type=float, help="USD per million output tokens")


def bench_options(ns: argparse.Namespace) -> BenchOptions:
    """The typed options of a ``bench`` command line."""
    given = flags_from(ns, BenchSettings)
    return BenchOptions(tasks=ns.tasks, out=ns.out, settings=BenchSettings(**given),
                        given=frozenset(given), workers=ns.workers, executor=ns.executor,
                        ray_address=ns.ray_address, resume=ns.resume, force=ns.force,
                        prices=_prices(ns), command=shlex.join(sys.argv),
                        task_format=ns.task_format, references=ns.references)


def cmd_bench(ns: argparse.Namespace) -> int:
    from .command import run_bench

    return run_bench(bench_options(ns))


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
    from ..rundir.images import RunImages
    from ..viewer.report import write_report
    from .charts import score_chart
    from .command import stdout
    from .report import build_report, print_table, to_csv
    from .store import DB_NAME, Store

    if (ns.run_dir / "result.json").is_file():  # one task, no bench store
        return _score_task(ns)
    if ns.task is not None and not (ns.run_dir / DB_NAME).is_file() \
            and (ns.run_dir / "tasks").is_dir():  # bench-shaped, no store: imported runs
        return _score_tasks(ns)
    if ns.answer is not None or ns.task is not None or ns.answer_type is not None:
        raise ConfigError("--answer, --answer-type and --task score one task's run directory "
                          f"(with result.json); {ns.run_dir} is not one")
    store = Store.open_existing(ns.run_dir)
    images = RunImages()  # the judge and the report: a damaged image is named once
    try:
        if ns.rescore or ns.judge:
            asyncio.run(_rescore(store, ns.run_dir, ns.judge, ns.judge_base_url))
        if ns.judge_evidence:
            asyncio.run(_judge_evidence(ns.run_dir, ns.judge_evidence,
                                        ns.judge_evidence_base_url, images))
        if ns.rescore or ns.judge or ns.judge_evidence:
            write_report(ns.run_dir, images=images)
        report = build_report(store, str(ns.run_dir), prices=_prices(ns))
        if ns.chart:
            _chart(score_chart(report, store.rows()), ns.chart)
    finally:
        store.close()
    if ns.format == "json":
        print(json.dumps(report.to_json(), indent=2, default=str))
    elif ns.format == "csv":
        sys.stdout.write(to_csv(report))
    else:
        print_table(report, stdout())
    return 0


def _score_task(ns: argparse.Namespace) -> int:
    from .task_score import score_task_dir

    if ns.judge_evidence or ns.chart or ns.format == "csv":
        raise ConfigError("--judge-evidence, --chart and --format csv read a bench run; "
                          f"{ns.run_dir} is one task's run directory")
    judge = None
    if ns.judge:
        from ..models.loader import load_model
        from .judge import Judge

        judge = Judge(load_model(ns.judge, base_url=ns.judge_base_url))

    async def scored() -> TaskScore:
        try:
            return await score_task_dir(ns.run_dir, answer=ns.answer, answer_type=ns.answer_type,
                                        task_file=ns.task, judge=judge)
        finally:
            if judge is not None:
                await judge.aclose()

    done = asyncio.run(scored())
    print(json.dumps(done.to_json(), indent=2) if ns.format == "json" else done.line())
    return 0


def _score_tasks(ns: argparse.Namespace) -> int:
    """Each task directory of a bench-shaped run without a store (one that
    ``import-trajectory --from webretriever`` wrote) scored against its line of --task;
    a task the file has no line for is said and left unscored."""
    from ..rundir.store import load_run
    from .task_score import score_task_dir

    if ns.answer is not None or ns.judge or ns.judge_evidence or ns.chart or ns.rescore:
        raise ConfigError(f"{ns.run_dir} has tasks/ but no bench store: it is scored task by "
                          "task from --task FILE alone")
    done: list[TaskScore] = []
    for task in load_run(ns.run_dir).tasks:
        try:
            done.append(asyncio.run(score_task_dir(task.dir, answer=None,
                                                   answer_type=ns.answer_type,
                                                   task_file=ns.task, judge=None)))
        except ConfigError as e:
            print(f"{task.label}: not scored: {e}")
    if ns.format == "json":
        print(json.dumps([d.to_json() for d in done], indent=2))
    else:
        for d in done:
            print(d.line())
        words = [d.word for d in done]
        print(f"{len(done)} scored: {words.count('correct')} correct, "
              f"{words.count('wrong')} wrong, {words.count('unscored')} unscored")
    return 0


async def _rescore(store: Store, run_dir: Path, judge_spec: str | None,
                   judge_base_url: str | None) -> None:
    from ..models.loader import load_model
    from .judge import Judge
    from .runner import rescore

    judge = Judge(load_model(judge_spec, base_url=judge_base_url)) if judge_spec else None
    try:
        done = await rescore(store, run_dir, judge=judge)
    finally:
        if judge is not None:
            await judge.aclose()
    store.set_meta("judge", judge_spec)
    changed = [r for r in done if r.changed]
    print(f"rescored {len(done)} verdicts: {len(changed)} changed", file=sys.stderr)
    for r in changed:
        print(f"  {r.line()}", file=sys.stderr)


async def _judge_evidence(run_dir: Path, spec: str, base_url: str | None,
                          images: RunImages) -> None:
    from ..answers.evidence_judge import judge_run
    from ..models.loader import load_model
    from ..models.profiles import load_config, resolve_other

    model_spec, url, _ = resolve_other(spec, base_url, load_config())
    model = load_model(model_spec, base_url=url)
    try:
        await judge_run(run_dir, model, images=images)
    finally:
        await model.aclose()


def cmd_compare(ns: argparse.Namespace) -> int:
    from ..snapshot.compare import snapshot_note
    from .charts import compare_chart
    from .command import stdout
    from .compare import compare, compare_evidence, print_comparison
    from .store import Store

    stores = [Store.open_existing(ns.run_a), Store.open_existing(ns.run_b)]
    try:
        names = _labelled([ns.run_a, ns.run_b], [s.get_meta("settings") for s in stores])
        result = compare(stores[0].rows(), stores[1].rows(), run_a=names[0], run_b=names[1])
    finally:
        for store in stores:
            store.close()
    from .roles import compare_lines

    note = snapshot_note(ns.run_a, ns.run_b)
    evidence = compare_evidence(ns.run_a, ns.run_b)
    roles = compare_lines(ns.run_a, ns.run_b)
    if ns.chart:
        _chart(compare_chart(result), ns.chart)
    if ns.format == "json":
        print(json.dumps({**result.to_json(), "snapshots": note,
                          "evidence": asdict(evidence), "roles": roles}, indent=2))
    else:
        print_comparison(result, stdout())
        for line in [*evidence.lines(), *roles]:
            print(line)
        if note:
            print(note)
    return 0


def _labelled(dirs: list[Path], settings: list[Any]) -> list[str]:
    """Run names for a comparison, each labelled with its ablated fixes (``full`` or
    ``-ratio``) when either run ablated any (webfovea.core.ablations)."""
    from ..core.ablations import run_label

    labels = [run_label(s) for s in settings]
    if all(label == "full" for label in labels):
        return [str(d) for d in dirs]
    return [f"{d} ({label})" for d, label in zip(dirs, labels, strict=True)]


def _chart(chart: str, path: Path) -> None:
    from .charts import write_chart

    print(f"chart: {write_chart(chart, path)}", file=sys.stderr)


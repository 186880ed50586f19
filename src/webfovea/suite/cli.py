"""``webfovea suite serve|list|export|run``: the offline site suite from the command line.

``run`` is the one-command path: it serves the suite with one lane per worker,
writes the chosen tasks as a task file and runs them with ``webfovea bench``,
each worker's browser mapped to its own lane (the oracle reads that lane's
layout).
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..console import inputs
from ..console.interrupts import Interrupted
from ..console.options import BenchOptions, BenchSettings, add_ablate_option, add_dialect_options
from ..core.config import COORD_SPACES, GROUNDING_POLICIES, OBSERVATION_MODES
from ..core.errors import ConfigError

if TYPE_CHECKING:
    from .spec import SuiteTask

# Handlers import what they run when called (see webfovea.cli.main): parsing stays light.

Handler = Callable[[argparse.Namespace], int]


def register(subparsers: Any) -> dict[str, Handler]:
    suite = subparsers.add_parser("suite", help="the offline site suite: serve, list, export, run")
    sub = suite.add_subparsers(dest="suite_command", required=True)
    p = sub.add_parser("serve", help="serve the suite's sites on 127.0.0.1 until interrupted")
    _seed(p)
    p.add_argument("--port", type=int, default=0, help="first lane's port (0: any free one)")
    p.add_argument("--lanes", type=int, default=1, help="one per concurrent browser")
    p = sub.add_parser("list", help="list the tasks")
    _seed(p)
    p.add_argument("--answers", action="store_true", help="show each task's answer for the seed")
    p = sub.add_parser("export", help="write the task file (JSON Lines)")
    _seed(p)
    p.add_argument("--out", type=Path, help="file to write (default: standard output)")
    _run_parser(sub.add_parser("run", help="serve the suite and bench a model on it"))
    return {"suite": cmd_suite}


def _seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="data seed: answers change with it")


def _run_parser(p: argparse.ArgumentParser) -> None:
    _seed(p)
    p.add_argument("--out", type=Path, default=Path("runs/suite"), help="the bench run directory")
    p.add_argument("--model", default="oracle", help="oracle (default), oracle:provider-resize, "
                                                     "or any model spec")
    p.add_argument("--oracle-provider-resize", action="store_true",
                   help="the oracle shrinks images as hosted APIs do before answering")
    p.add_argument("--base-url", help="endpoint of an openai:/anthropic: model")
    p.add_argument("--only", help="comma-separated task ids")
    p.add_argument("--limit", type=int, help="at most N tasks, spread over the sites")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--max-steps", type=int)
    p.add_argument("--time-limit", type=float)
    p.add_argument("--image-cap", help="WxH, or none for full-size images")
    p.add_argument("--record-sites", dest="record_site", metavar="DIR",
                   help="record a site snapshot per task")
    p.add_argument("--replay-sites", dest="replay_site", metavar="DIR",
                   help="replay the snapshots of --record-sites")
    add_dialect_options(p)
    p.add_argument("--grounding", choices=GROUNDING_POLICIES,
                   help="answer grounding: off, record, challenge (default)")
    p.add_argument("--verifier", metavar="SPEC", help="an independent model that checks answers")
    p.add_argument("--verifier-base-url", metavar="URL", help="the verifier's endpoint")
    p.add_argument("--verifier-rejections", type=int, metavar="N",
                   help="rejections before an answer stands as disputed (default 2)")
    p.add_argument("--verifier-timeout", type=float, metavar="S",
                   help="seconds for one verdict (default 120)")
    p.add_argument("--grounder", metavar="SPEC", help="a model that places the planner's "
                   "target='…' (oracle:grounder with --model oracle:targets)")
    p.add_argument("--grounder-coords", choices=COORD_SPACES, help="the grounder's coordinates")
    p.add_argument("--observation", choices=OBSERVATION_MODES,
                   help="screenshot (default), marks, elements, marks+elements")
    p.add_argument("--skills", metavar="DIR", help="site notes and task checklists")
    add_ablate_option(p, lambda _: None)


def cmd_suite(ns: argparse.Namespace) -> int:
    from .commands import export, list_tasks, serve

    if ns.suite_command == "serve":
        serve(seed=ns.seed, port=ns.port, lanes=ns.lanes, out=sys.stdout)
    elif ns.suite_command == "list":
        list_tasks(seed=ns.seed, out=sys.stdout, answers=ns.answers)
    elif ns.suite_command == "export":
        if ns.out is None:
            export(seed=ns.seed, out=sys.stdout)
        else:
            with ns.out.open("w", encoding="utf-8") as fh:
                count = export(seed=ns.seed, out=fh)
            print(f"wrote {count} tasks to {ns.out}", file=sys.stderr)
    else:
        return run_suite(SuiteOptions.from_args(ns))
    return 0


def choose(found: list[SuiteTask], *, only: str | None, limit: int | None) -> list[SuiteTask]:
    """The tasks to run: named ones, or the first ``limit`` taking each site in turn."""
    if only:
        wanted = [t.strip() for t in only.split(",") if t.strip()]
        by_id = {t.id: t for t in found}
        unknown = [t for t in wanted if t not in by_id]
        if unknown:
            raise ConfigError(f"no suite task {', '.join(unknown)}; see `webfovea suite list`")
        return [by_id[t] for t in wanted]
    if limit is None:
        return found
    if limit < 1:
        raise ConfigError(f"--limit must be at least 1, got {limit}")
    sites: dict[str, list[SuiteTask]] = {}
    for t in found:
        sites.setdefault(t.site, []).append(t)
    spread = [t for row in itertools.zip_longest(*sites.values()) for t in row if t is not None]
    return spread[:limit]


@dataclass(frozen=True)
class SuiteOptions:
    """``suite run``: which tasks, which model, and the few run options it passes on."""

    out: Path = Path("runs/suite")
    seed: int = 0
    model: str = "oracle"
    base_url: str | None = None
    only: str | None = None
    limit: int | None = None
    workers: int = 2
    resume: bool = False
    max_steps: int | None = None
    time_limit: float | None = None
    image_cap: str | None = None
    record_site: str | None = None  # --record-sites DIR: one snapshot per task
    replay_site: str | None = None  # --replay-sites DIR
    dialect: str | None = None
    dialect_version: str | None = None
    acknowledge_safety_checks: bool = False
    grounding: str | None = None
    verifier: str | None = None
    verifier_base_url: str | None = None
    verifier_rejections: int | None = None
    verifier_timeout: float | None = None
    grounder: str | None = None
    grounder_coords: str | None = None
    observation: str | None = None
    skills: str | None = None
    ablate: tuple[str, ...] | None = None  # --ablate (webfovea.core.ablations)

    @classmethod
    def from_args(cls, ns: argparse.Namespace) -> SuiteOptions:
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in vars(ns).items() if k in names}
        values["ablate"] = tuple(ns.ablate) if ns.ablate else None
        if ns.oracle_provider_resize:
            values["model"] = "oracle:provider-resize"
        return cls(**values)


def run_suite(options: SuiteOptions) -> int:
    """Serve the suite, one lane per worker, and bench the chosen tasks on it."""
    from ..bench.command import run_bench
    from .catalog import tasks
    from .server import SuiteServer

    inputs.out_dir(options.out)  # before the suite's servers start (run_bench checks it too)
    chosen = choose(tasks(options.seed), only=options.only, limit=options.limit)
    with SuiteServer(seed=options.seed) as server, tempfile.TemporaryDirectory() as tmp:
        for _ in range(max(1, options.workers) - 1):
            server.add_lane()
        task_file = Path(tmp) / f"suite-seed{options.seed}.jsonl"
        task_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in chosen), "utf-8")
        rules = tuple(",".join(server.host_rules(lane=lane)) for lane in server.lanes)
        given: dict[str, Any] = {"model": options.model, "host_resolver_rules": rules,
                 **{k: v for k, v in (("base_url", options.base_url),
                                      ("max_steps", options.max_steps),
                                      ("time_limit", options.time_limit),
                                      ("image_cap", options.image_cap),
                                      ("record_site", options.record_site),
                                      ("replay_site", options.replay_site),
                                      ("dialect", options.dialect),
                                      ("dialect_version", options.dialect_version),
                                      ("acknowledge_safety_checks",
                                       options.acknowledge_safety_checks or None),
                                      ("ablate", options.ablate),
                                      *_answer_checks(options), *_roles(options))
                    if v is not None}}
        try:
            return run_bench(BenchOptions(
                tasks=task_file, out=options.out, settings=BenchSettings(**given),
                given=frozenset(given), workers=options.workers, resume=options.resume,
                command=shlex.join(sys.argv)))
        except Interrupted as e:  # bench's hint names the task file, a temporary one here
            raise Interrupted(e.signum, f"continue with --resume ({resume_command(options)})"
                              ) from None


def _answer_checks(options: SuiteOptions) -> tuple[tuple[str, object], ...]:
    """The answer checks' settings (webfovea.answers), passed on to the bench as given."""
    return (("grounding", options.grounding), ("verifier", options.verifier),
            ("verifier_base_url", options.verifier_base_url),
            ("verifier_rejections", options.verifier_rejections),
            ("verifier_timeout", options.verifier_timeout))


def _roles(options: SuiteOptions) -> tuple[tuple[str, object], ...]:
    """The grounder, the observation mode and the skills (issue 33), passed on as given."""
    return (("grounder", options.grounder), ("grounder_coords", options.grounder_coords),
            ("observation", options.observation), ("skills", options.skills))


def resume_command(options: SuiteOptions) -> str:
    """The ``suite run`` that continues this run: the same tasks (seed, choice) and model;
    the rest comes from the run directory."""
    words = ["webfovea", "suite", "run", "--out", str(options.out)]
    for flag, value, default in (("--seed", options.seed, 0), ("--only", options.only, None),
                                 ("--limit", options.limit, None),
                                 ("--model", options.model, "oracle"),
                                 ("--base-url", options.base_url, None)):
        if value != default:
            words += [flag, str(value)]
    return shlex.join([*words, "--resume"])

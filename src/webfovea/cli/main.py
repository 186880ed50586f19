"""The ``webfovea`` command (the command line contract, docs/contracts.md).

Building the parser imports only the option modules; each command's handler imports what it
runs when it is called, so ``--help``, ``view`` or ``score`` never load the browser, the model
SDKs or Ray (about half of the start-up of every ``webfovea`` process). The text ``--help``
shows is ``ABOUT`` and ``EXAMPLES``, written for users.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..answers import cli as answers_cli
from ..bench import cli as bench_cli
from ..console import inputs, interrupts
from ..console import step_view as live
from ..console.interrupts import Interrupted
from ..console.options import RunFlags, RunOptions, add_run_options, flags_from
from ..core.errors import ModelError, WebfoveaError, error_exit, exit_code
from ..mcp import cli as mcp_cli
from ..miniwob import cli as miniwob_cli
from ..research import cli as research_cli
from ..snapshot import cli as snapshot_cli
from ..suite import cli as suite_cli
from ..viewer import cli as viewer_cli
from . import check as check_cli
from . import cost as cost_cli

if TYPE_CHECKING:
    from ..core.task import Task
    from ..rundir.trajectory import ResultRecord

Command = Callable[[argparse.Namespace], int]

ABOUT = """\
webfovea drives a real Chromium for a vision-based web agent: the model sees screenshots
and answers with one action in pixel coordinates; webfovea parses it, carries it out on the
page, tells the model what changed, and keeps the run inside guardrails (step and time
budgets, the site's domain). Every run leaves a run directory you can score and view."""

EXAMPLES = """\
common commands (one example each):
  webfovea demo                                    try it offline: the built-in policy on a
                                                   few tasks of the bundled site suite
  webfovea run --url https://example.com --task "What is the page's heading?" \\
      --model openai:gpt-4o                        one task (OPENAI_API_KEY in the environment)
  webfovea check --model openai:gpt-4o             is the endpoint, key and model right?
  webfovea bench tasks.jsonl --out runs/b1 --model anthropic:claude-opus-4-6 --workers 2
                                                   a task file, scored, resumable (--resume)
  webfovea score runs/b1                           the success rate, by site and tag
  webfovea view runs/b1                            an HTML report of a run, step by step
  webfovea compare runs/b1 runs/b2                 two runs, task by task
  webfovea suite run --model openai:gpt-4o --workers 2
                                                   the offline site suite, scored

Each command has its own help: webfovea run --help.
Exit codes: 0 answered, 1 no answer, 2 usage or configuration error, 3 model unreachable
after retries, 4 site or browser failure.
Documentation: the docs/ folder of the webfovea source (a site: make docs) and README.md;
exit codes, the endpoint check before a run, --no-preflight: docs/exit-codes-and-preflight.md."""


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    """The parser and the handler of each subcommand (feature packages register their own)."""
    parser = argparse.ArgumentParser(prog="webfovea", description=ABOUT, epilog=EXAMPLES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"webfovea {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Command] = {"run": cmd_run, "demo": cmd_demo,
                                    "calibrate": check_cli.cmd_calibrate}
    run = sub.add_parser("run", help="run one task")
    run.add_argument("--url", required=True)
    run.add_argument("--task", required=True)
    run.add_argument("--out", type=Path, default=None, help="run directory (default runs/<time>)")
    add_run_options(run)
    live.add_options(run)
    cal = sub.add_parser("calibrate", help="measure the coordinate space a model answers in")
    cal.add_argument("--model", required=True)
    cal.add_argument("--base-url")
    cal.add_argument("--size", default="1440x810", help="size of the synthetic image sent")
    check_cli.add_calibration_options(cal)
    commands.update(bench_cli.register(sub))
    commands.update(suite_cli.register(sub))
    commands.update(viewer_cli.register(sub))
    commands.update(cost_cli.register(sub))
    commands.update(snapshot_cli.register(sub))
    commands.update(check_cli.register(sub))
    commands.update(miniwob_cli.register(sub))
    commands.update(mcp_cli.register(sub))
    commands.update(answers_cli.register(sub))
    commands.update(research_cli.register(sub))
    d = sub.add_parser("demo", help="the built-in default: the oracle on a few offline-suite "
                                     "tasks (--scripted: one bundled page, a scripted model)")
    d.add_argument("--out", type=Path, default=None, help="default runs/demo-<time>")
    d.add_argument("--tasks", type=int, default=6, help="how many suite tasks (spread over sites)")
    d.add_argument("--scripted", action="store_true",
                   help="instead: the bundled page driven by the scripted model")
    return parser, commands


async def run_one(task: Task, options: RunOptions, out: Path, *,
                  record_preflight: bool = False) -> ResultRecord:
    """One task with its own browser and model: what ``run`` and the scripted demo do.
    ``record_preflight``: a pre-flight that ends the run still writes ``out``'s result.json."""
    from ..browser.session import BrowserSession
    from ..loop.agent import run_task
    from ..models.loader import load_model, retry_policy
    from ..snapshot.session import check_snapshot

    check_snapshot(options.agent.site)
    model = load_model(options.model, base_url=options.base_url,
                       timeout=options.agent.model_timeout,
                       host_rules=options.browser.host_rules, retry=retry_policy(options.agent))
    try:
        await _preflight(task, options, model.name, out if record_preflight else None)
        async with BrowserSession(options.browser) as session:
            return await run_task(task, model=model, session=session, config=options.agent,
                                  out=out)
    finally:
        await model.aclose()


async def _preflight(task: Task, options: RunOptions, model: str, out: Path | None) -> None:
    """The endpoint check before the browser starts. When it ends the run (the endpoint
    unreachable after retries: exit 3) and ``out`` is given, ``out`` records that ending as
    every ending is recorded: result.json with status ``model_error`` and the message."""
    from ..loop.agent import new_result
    from ..models.model_options import preflight_or_skip
    from ..rundir.store import TrajectoryWriter

    started = time.monotonic()
    try:
        await preflight_or_skip(options.model, options.base_url,
                                time_limit=options.agent.time_limit, skip=not options.preflight)
    except ModelError as e:
        if out is not None:
            result = new_result(task, model, options.agent)
            result.status, result.error = e.status, str(e)
            result.elapsed = time.monotonic() - started
            TrajectoryWriter(out).write_result(result)
        raise


def _report(result: ResultRecord, out: Path) -> None:
    from ..models.prices import cost_text

    print(f"status: {result.status}")
    if result.answer is not None:
        print(f"answer: {result.answer}")
    if result.error:
        print(f"error: {result.error}", file=sys.stderr)
    u = result.usage
    print(f"steps: {result.steps}  elapsed: {result.elapsed:.1f}s  tokens: {u.input_tokens} in"
          f" + {u.cache_read_tokens} cache-read + {u.cache_write_tokens} cache-write / "
          f"{u.output_tokens} out  cost: {cost_text(u.cost)}")
    print(f"run directory: {out}")


def cmd_run(ns: argparse.Namespace) -> int:
    from ..core.task import Task

    inputs.check_run(ns)
    out = inputs.out_dir(ns.out or Path("runs") / time.strftime("run-%Y%m%d-%H%M%S"))
    task = Task(instruction=ns.task, url=ns.url)
    options = RunFlags(**flags_from(ns)).options()  # every flag checked before anything runs
    with live.step_view(live.view_for(ns)):
        try:
            result = interrupts.run(run_one(task, options, out,
                                            record_preflight=ns.out is not None))
        except Interrupted as e:
            raise Interrupted(e.signum, f"the partial run is in {out}") from None
    _report(result, out)
    return exit_code(result.status)


REAL_MODEL_HINT = """To drive a real model instead, for example:
  OPENAI_API_KEY=... webfovea suite run --model openai:gpt-4o          # the whole offline suite
  OPENAI_API_KEY=... webfovea run --url URL --task TEXT --model openai:gpt-4o
  webfovea run --url URL --task TEXT --model openai:ui-tars-1.5-7b --coords smart_resize \\
      --base-url http://127.0.0.1:8000/v1                              # your vLLM server
  ANTHROPIC_API_KEY=... webfovea run --url URL --task TEXT --model anthropic:claude-opus-4-6"""


def cmd_demo(ns: argparse.Namespace) -> int:
    from .. import demo
    from ..browser.local_server import LocalServer
    from ..core.task import Task

    out = inputs.out_dir(ns.out or Path("runs") / time.strftime("demo-%Y%m%d-%H%M%S"))
    if ns.scripted:
        options = RunFlags(model=f"scripted:{demo.replies_file()}").options()
        with LocalServer(demo.root()) as server:
            task = Task(instruction=demo.TASK, url=server.url("index.html"), id="demo")
            try:
                result = interrupts.run(run_one(task, options, out))
            except Interrupted as e:
                raise Interrupted(e.signum, f"the partial run is in {out}") from None
        _report(result, out)
        print(f"expected answer: {demo.ANSWER}")
        code = exit_code(result.status)
    else:
        print(f"webfovea demo: the oracle on {ns.tasks} offline-suite tasks, through the same "
              "round trip a real model uses")
        code = suite_cli.run_suite(suite_cli.SuiteOptions(out=out, limit=ns.tasks))
        print(f"see the trajectories: webfovea view {out}")
    print(REAL_MODEL_HINT)
    return code


def main(argv: Sequence[str] | None = None) -> None:
    try:
        # From here a stop unwinds (finally blocks run): SIGINT raises KeyboardInterrupt,
        # SIGTERM its kin Terminated; event loops replace both with cancellation.
        interrupts.install_handlers()
        parser, commands = build_parser()
        ns = parser.parse_args(argv)
        code = commands[ns.command](ns)
    except SystemExit as e:  # argparse's --help and usage errors print too
        sys.exit(interrupts.flush_stdout() or e.code)
    except Interrupted as e:
        print(f"webfovea: {e}", file=sys.stderr)
        code = e.code
    except KeyboardInterrupt as e:  # a stop outside the event loop (no run directory open yet)
        signum = signal.SIGTERM if isinstance(e, interrupts.Terminated) else signal.SIGINT
        print(f"webfovea: {Interrupted(signum)}", file=sys.stderr)
        code = 128 + signum
    except BrokenPipeError:  # stdout closed early, e.g. `webfovea score RUN | head`
        code = interrupts.closed_stdout()
    except WebfoveaError as e:
        said, code = error_exit(e)
        print(f"webfovea: {said}", file=sys.stderr)
    sys.exit(interrupts.flush_stdout() or code)

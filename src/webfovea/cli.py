"""The ``webfovea`` command (DESIGN's command line contract)."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from . import check_cli, cost_cli, demo, inputs, interrupts, live, model_options, profiles
from .actions import REGISTRY
from .agent import run_task
from .bench import cli as bench_cli
from .browser.session import BrowserSession
from .calibrate import Calibration, calibrate
from .config import COORD_SPACES, DEFAULT_ACTION_BUDGETS, AgentConfig, BrowserConfig, Size
from .errors import ConfigError, ModelError, WebfoveaError, exit_code
from .interrupts import Interrupted
from .models.loader import load_model
from .models.prices import cost_text
from .snapshot import cli as snapshot_cli
from .snapshot.session import check_snapshot
from .suite import cli as suite_cli
from .task import Task
from .testing.local_server import LocalServer
from .trajectory import ResultRecord
from .viewer import cli as viewer_cli


def add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default=os.environ.get("WEBFOVEA_MODEL"),
                   help="openai:<name> | anthropic:<name> | oracle | scripted:<file>")
    p.add_argument("--base-url", help="provider endpoint (else OPENAI_BASE_URL / ANTHROPIC_BASE_URL)")
    p.add_argument("--max-steps", type=int, default=80)
    p.add_argument("--time-limit", type=float, default=1800.0, help="seconds per task")
    p.add_argument("--image-cap", default=None,
                   help="WxH, or 'none' for full-size images (default: the profile's, else 1440x810)")
    p.add_argument("--viewport", default="1920x1080")
    p.add_argument("--device-scale-factor", type=float, default=1.0)
    p.add_argument("--coords", choices=COORD_SPACES, default=None,
                   help="the space the model answers in (default: the profile's, else image)")
    p.add_argument("--cdp-url", help="attach to a running Chromium instead of launching one; "
                                     "bench: a comma-separated list, worker i uses the i-th")
    p.add_argument("--headed", action="store_true", help="show the browser window")
    p.add_argument("--allow-domain", action="append", default=[],
                   help="another site top-level navigation may go to (repeatable)")
    p.add_argument("--budget", action="append", default=[], metavar="CLASS=N",
                   help="per-task budget of an action class: reload, hotkey, go_back, "
                        "pointer, keyboard, observe, wait (repeatable; e.g. reload=5)")
    p.add_argument("--allow-downloads", action="store_true", help="let pages download files")
    snapshot_cli.add_site_options(p)
    model_options.add_options(p)


Command = Callable[[argparse.Namespace], int]


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    """The parser and the handler of each subcommand (feature packages register their own)."""
    parser = argparse.ArgumentParser(prog="webfovea", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Command] = {"run": cmd_run, "demo": cmd_demo, "calibrate": cmd_calibrate}
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
    commands.update(bench_cli.register(sub))
    commands.update(suite_cli.register(sub))
    commands.update(viewer_cli.register(sub))
    commands.update(cost_cli.register(sub))
    commands.update(snapshot_cli.register(sub))
    commands.update(check_cli.register(sub))
    d = sub.add_parser("demo", help="the built-in default: the oracle on a few offline-suite "
                                     "tasks (--scripted: one bundled page, a scripted model)")
    d.add_argument("--out", type=Path, default=None, help="default runs/demo-<time>")
    d.add_argument("--tasks", type=int, default=6, help="how many suite tasks (spread over sites)")
    d.add_argument("--scripted", action="store_true",
                   help="instead: the bundled page driven by the scripted model")
    return parser, commands


def agent_config(ns: argparse.Namespace) -> AgentConfig:
    r = profiles.apply(ns)  # fills ns.model, ns.base_url, ns.coords, ... by precedence
    cap = None if ns.image_cap.lower() == "none" else Size.parse(ns.image_cap, flag="--image-cap")
    return AgentConfig(max_steps=ns.max_steps, time_limit=ns.time_limit, image_cap=cap,
                       coords=ns.coords, allow_domains=tuple(ns.allow_domain),
                       action_budgets={**DEFAULT_ACTION_BUDGETS, **_budgets(ns.budget)},
                       site=snapshot_cli.site_options(ns),
                       **r.agent_settings())


def _budgets(items: list[str]) -> dict[str, int]:
    known = {spec.budget for spec in REGISTRY.values()} - {"finish"}
    out: dict[str, int] = {}
    for item in items:
        name, _, value = item.partition("=")
        if name not in known or not value.isdigit():
            raise ConfigError(f"--budget takes CLASS=N with CLASS one of {', '.join(sorted(known))} "
                              f"and N a whole number, got {item!r}")
        out[name] = int(value)
    return out


def browser_config(ns: argparse.Namespace, *, host_rules: tuple[str, ...] = ()) -> BrowserConfig:
    if ns.device_scale_factor <= 0:
        raise ConfigError(f"--device-scale-factor must be positive, got {ns.device_scale_factor}")
    return BrowserConfig(headless=not ns.headed, cdp_url=ns.cdp_url, downloads=ns.allow_downloads,
                         viewport=Size.parse(ns.viewport, flag="--viewport"),
                         device_scale_factor=ns.device_scale_factor, host_rules=host_rules)


async def _run_one(task: Task, ns: argparse.Namespace, out: Path) -> ResultRecord:
    config, browser = agent_config(ns), browser_config(ns)  # validate flags before anything runs
    check_snapshot(config.site)
    model = load_model(ns.model, base_url=ns.base_url)
    model_options.preflight_or_skip(ns)
    try:
        async with BrowserSession(browser) as session:
            return await run_task(task, model=model, session=session, config=config, out=out)
    finally:
        await model.aclose()


def _report(result: ResultRecord, out: Path) -> None:
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
    inputs.check_run(ns)
    out = ns.out or Path("runs") / time.strftime("run-%Y%m%d-%H%M%S")
    task = Task(instruction=ns.task, url=ns.url)
    with live.step_view(live.view_for(ns)):
        try:
            result = interrupts.run(_run_one(task, ns, out))
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
    out = ns.out or Path("runs") / time.strftime("demo-%Y%m%d-%H%M%S")
    if ns.scripted:
        args = build_parser()[0].parse_args(["run", "--url", "x", "--task", "x",
                                          "--model", f"scripted:{demo.replies_file()}"])
        with LocalServer(demo.root()) as server:
            task = Task(instruction=demo.TASK, url=server.url("index.html"), id="demo")
            result = asyncio.run(_run_one(task, args, out))
        _report(result, out)
        print(f"expected answer: {demo.ANSWER}")
        code = exit_code(result.status)
    else:
        print(f"webfovea demo: the oracle on {ns.tasks} offline-suite tasks, through the same "
              "round trip a real model uses")
        code = suite_cli.cmd_suite(build_parser()[0].parse_args(
            ["suite", "run", "--limit", str(ns.tasks), "--out", str(out)]))
        print(f"see the trajectories: webfovea view {out}")
    print(REAL_MODEL_HINT)
    return code


def cmd_calibrate(ns: argparse.Namespace) -> int:
    size = Size.parse(ns.size, flag="--size")
    model = load_model(ns.model, base_url=ns.base_url)

    async def go() -> Calibration:
        try:
            return await calibrate(model, size=size)
        finally:
            await model.aclose()

    result = asyncio.run(go())
    print("\n".join(result.lines()))
    return 0 if result.reliable else 1


def main(argv: Sequence[str] | None = None) -> None:
    interrupts.install_sigterm()
    parser, commands = build_parser()
    try:
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
    except ConfigError as e:
        print(f"webfovea: {e}", file=sys.stderr)
        code = 2
    except ModelError as e:
        print(f"webfovea: model error: {e}", file=sys.stderr)
        code = 3
    except WebfoveaError as e:  # a browser that cannot start, a site that cannot be served
        print(f"webfovea: {e}", file=sys.stderr)
        code = exit_code(e.status)
    sys.exit(interrupts.flush_stdout() or code)

"""``webfovea cost RUN_DIR``: what a recorded run cost, and what its input would cost
under each history layout (blocks vs rolling) at a given price."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.config import AgentConfig
from ..core.errors import ConfigError
from ..models.prices import Price, cost_text, find_price
from ..rundir.trajectory import UsageRecord

if TYPE_CHECKING:
    from ..tools.estimate import LayoutCost, StepSent

# The handler imports what it runs when called (see webfovea.cli.main): parsing stays light.

Command = Callable[[argparse.Namespace], int]
# The Anthropic rule when only input/output prices are given.
READ_SHARE, WRITE_SHARE = 0.10, 1.25


@dataclass(frozen=True)
class TaskRun:
    path: Path
    task: str
    model: str
    steps: tuple[StepSent, ...]
    recorded: tuple[int, int, int, int]  # input, cache read, cache write, output tokens
    recorded_cost: float | None
    history_block: int
    history_images: int
    verifier: UsageRecord | None = None  # the independent verifier's calls (webfovea.answers)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> dict[str, Command]:
    p = subparsers.add_parser("cost", help="a recorded run's cost, and its input cost under "
                                           "each history layout (blocks vs rolling)")
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    p.add_argument("--price", metavar="SPEC", help="price from the table for this model spec "
                                                   "(default: the run's model)")
    p.add_argument("--price-input", type=float, help="USD per million input tokens")
    p.add_argument("--price-output", type=float, help="USD per million output tokens")
    return {"cost": cmd_cost}


def task_dirs(run_dir: Path) -> list[Path]:
    """Every task directory in a run: the run itself, or a bench's tasks (and trials)."""
    if not run_dir.is_dir():
        raise ConfigError(f"{run_dir} is not a run directory")
    found = sorted(p.parent for p in run_dir.rglob("steps.jsonl") if (p.parent / "result.json").exists())
    if not found:
        raise ConfigError(f"{run_dir} holds no recorded task (no steps.jsonl with a result.json)")
    return found


def load_task(path: Path) -> TaskRun:
    from ..rundir.store import read_result, read_steps
    from ..tools.estimate import StepSent

    result, steps = read_result(path), read_steps(path)
    sent = tuple(StepSent(s.step, s.sent_size, s.thought, s.action_source or "(none)", s.note)
                 for s in steps)
    u = result.usage
    config = result.config
    return TaskRun(path, result.task, result.model, sent,
                   (u.input_tokens, u.cache_read_tokens, u.cache_write_tokens, u.output_tokens),
                   u.cost, int(config.get("history_block", AgentConfig.history_block)),
                   int(config.get("history_images", AgentConfig.history_images)),
                   result.verifier.usage if result.verifier else None)


def chosen_price(ns: argparse.Namespace, model: str) -> Price:
    if ns.price_input is not None or ns.price_output is not None:
        if ns.price_input is None or ns.price_output is None or min(ns.price_input,
                                                                    ns.price_output) < 0:
            raise ConfigError("give both --price-input and --price-output, not negative "
                              "(USD per million tokens)")
        return Price(ns.price_input, ns.price_output, ns.price_input * READ_SHARE,
                     ns.price_input * WRITE_SHARE)
    spec = ns.price or model
    price = find_price(spec)
    if price is None:
        raise ConfigError(f"no price known for {spec!r}: give --price-input and --price-output, "
                          "or --price with a model from the table")
    return price


def cmd_cost(ns: argparse.Namespace) -> int:
    from ..tools.estimate import layout_cost

    dirs = task_dirs(ns.run_dir)
    tasks = [load_task(p) for p in dirs]
    price = chosen_price(ns, tasks[0].model)
    totals: dict[str, list[LayoutCost]] = {"blocks": [], "rolling": []}
    for t in tasks:
        if not t.steps:
            continue
        config = AgentConfig(history_block=t.history_block, history_images=t.history_images)
        for layout in ("blocks", "rolling"):
            totals[layout].append(layout_cost(t.task, t.steps, config, layout, price))
    for line in [*report_lines(tasks, totals, price), *role_lines(dirs)]:
        print(line)
    return 0


def role_lines(dirs: list[Path]) -> list[str]:
    """Usage per model role (planner, grounder, verifier; result.json's ``usage.by_role``),
    when a run had more than one role."""
    from ..rundir.store import read_result

    roles: dict[str, list[UsageRecord]] = {}
    for path in dirs:
        for role, usage in read_result(path).usage.by_role.items():
            roles.setdefault(role, []).append(usage)
    if len(roles) < 2:
        return []
    return ["by role:", *(f"  {role_line(role, usages)}" for role, usages in roles.items())]


def role_line(role: str, usages: list[UsageRecord]) -> str:
    calls = sum(u.calls for u in usages)
    tokens_in = sum(u.prompt_tokens for u in usages)
    tokens_out = sum(u.output_tokens for u in usages)
    costs = [u.cost for u in usages]
    cost = None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)
    return (f"{role}: {calls} call(s) on {len(usages)} task(s), {tokens_in} input and "
            f"{tokens_out} output tokens; cost {cost_text(cost)}")


def report_lines(tasks: list[TaskRun], totals: dict[str, list[LayoutCost]], price: Price) -> list[str]:
    steps = sum(len(t.steps) for t in tasks)
    recorded = [sum(t.recorded[i] for t in tasks) for i in range(4)]
    costs = [t.recorded_cost for t in tasks]
    known = None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)
    repriced = price.cost(input_tokens=recorded[0], output_tokens=recorded[3],
                          cache_read_tokens=recorded[1], cache_write_tokens=recorded[2])
    lines = [f"{len(tasks)} task(s), {steps} step(s); price per million tokens: input "
             f"${price.input:g}, output ${price.output:g}, cache read ${price.cache_read:g}, "
             f"cache write ${price.cache_write:g}",
             f"recorded: {recorded[0]} input, {recorded[1]} cache-read, {recorded[2]} "
             f"cache-write, {recorded[3]} output tokens; recorded cost {cost_text(known)}",
             # Whatever the dialect, what the provider reported, cache reads and writes
             # each at their own rate.
             f"recorded tokens at this price: ${repriced:.4f}"]
    per_step: dict[str, float] = {}
    for layout, results in totals.items():
        cost = sum(r.input_cost for r in results)
        tokens = [sum(r.tokens()[i] for r in results) for i in range(3)]
        per_step[layout] = cost / steps if steps else 0.0
        lines.append(f"{layout:8} estimated input: {tokens[0]} input, {tokens[1]} cache-read, "
                     f"{tokens[2]} cache-write tokens; ${cost:.4f} in all, "
                     f"${per_step[layout]:.5f} per step")
    if per_step.get("rolling"):
        saving = 1 - per_step["blocks"] / per_step["rolling"]
        lines.append(f"blocks vs rolling: input cost per step {saving:.1%} lower")
    verified = [t.verifier for t in tasks if t.verifier is not None]
    if verified:
        lines.append(verifier_line(verified))
    return lines


def verifier_line(usages: list[UsageRecord]) -> str:
    """The verifier's share (``--verifier``): calls, tokens and cost, in all and per task."""
    calls = sum(u.calls for u in usages)
    tokens_in = sum(u.prompt_tokens for u in usages)
    tokens_out = sum(u.output_tokens for u in usages)
    costs = [u.cost for u in usages]
    cost = None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)
    per_task = "" if cost is None else f", ${cost / len(usages):.5f} per task"
    return (f"verifier: {calls} call(s) on {len(usages)} task(s), {tokens_in} input and "
            f"{tokens_out} output tokens; cost {cost_text(cost)}{per_task}")

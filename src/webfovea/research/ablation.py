"""``webfovea ablation``: the full harness and each fix turned off, on the same tasks.

Every variant is a run of the ordinary command (``bench``, ``suite run`` or ``miniwob``)
with ``--ablate FIX`` into ``OUT/<variant>``, so each is a bench run directory that
``score``, ``view``, ``compare`` and ``diagnose`` read as any other. The table pairs each
variant's tasks with the full harness's (webfovea.bench.compare): success, the paired
difference with its 95 % interval, tasks fixed and broken, mean steps and cost.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.table import Table

from ..bench.compare import compare
from ..bench.store import Store, TaskRow
from ..core.ablations import ABLATIONS, parse_ablate
from ..core.errors import ConfigError, WebfoveaError
from ..rundir.store import read_result

FULL = "full"
Z95 = 1.96  # the normal quantile of a two-sided 95 % interval


@dataclass(frozen=True)
class Source:
    """Where the tasks come from: a task file, the offline suite, or MiniWoB++ tasks."""

    kind: str  # "file" | "suite" | "miniwob"
    value: str = ""  # the file, or MiniWoB's comma-separated task names

    @classmethod
    def parse(cls, text: str) -> Source:
        if text == "suite":
            return cls("suite")
        if text == "miniwob" or text.startswith("miniwob:"):
            names = text.partition(":")[2]
            return cls("miniwob", names or "click-button")
        if not Path(text).is_file():
            raise ConfigError(f"TASKS must be a task file, 'suite' or 'miniwob:TASK,…'; "
                              f"{text} is not a file")
        return cls("file", text)


@dataclass(frozen=True)
class AblationOptions:
    source: Source
    model: str
    out: Path
    fixes: tuple[str, ...]
    trials: int = 1
    replay_sites: str | None = None
    workers: int = 1
    max_steps: int | None = None
    only: str | None = None  # suite: task ids
    limit: int | None = None  # suite: at most N tasks
    time_limit_scale: float | None = None  # miniwob

    def __post_init__(self) -> None:
        if self.trials < 1 or self.workers < 1:
            raise ConfigError("--trials and --workers must be at least 1")
        if self.source.kind == "suite" and self.trials > 1:
            raise ConfigError("--trials applies to a task file or MiniWoB (episodes); the "
                              "offline suite's tasks are deterministic")
        if (self.only or self.limit) and self.source.kind != "suite":
            raise ConfigError("--only and --limit choose offline-suite tasks (TASKS 'suite')")


def chosen_fixes(text: str) -> tuple[str, ...]:
    """``--fixes all`` or a comma-separated list, in the registry's order."""
    chosen = parse_ablate(text)
    return tuple(n for n in ABLATIONS if n in chosen)


def command(options: AblationOptions, fix: str | None, out: Path) -> list[str]:
    """The ordinary webfovea command that runs one variant (``fix`` None: the full harness)."""
    o, src = options, options.source
    if src.kind == "file":
        words = ["bench", src.value, "--out", str(out), "--model", o.model,
                 "--workers", str(o.workers), "--trials", str(o.trials)]
    elif src.kind == "suite":
        words = ["suite", "run", "--out", str(out), "--model", o.model,
                 "--workers", str(o.workers)]
        words += ["--only", o.only] if o.only else []
        words += ["--limit", str(o.limit)] if o.limit else []
    else:
        words = ["miniwob", "--tasks", src.value, "--episodes", str(o.trials), "--model",
                 o.model, "--out", str(out), "--workers", str(o.workers)]
        if o.time_limit_scale:
            words += ["--time-limit-scale", str(o.time_limit_scale)]
    if o.max_steps:
        words += ["--max-steps", str(o.max_steps)]
    if o.replay_sites:
        words += ["--replay-sites", o.replay_sites]
    if fix:
        words += ["--ablate", fix]
    return [sys.executable, "-m", "webfovea", *words]


@dataclass(frozen=True)
class Line:
    """One variant's row of the table."""

    variant: str
    run_dir: str
    scored: int
    success: float | None  # share of paired tasks correct
    difference: float | None  # variant − full on the paired tasks
    low: float | None  # the difference's 95 % interval
    high: float | None
    p_value: float | None
    fixed: list[str]
    broken: list[str]
    mean_steps: float
    cost: float | None  # USD over the variant's tasks; None when any price is unknown


def run_variant(options: AblationOptions, fix: str | None) -> Path:
    """Run one variant into ``OUT/<name>``; a variant already there is kept (rerun the
    command to finish an interrupted table)."""
    out = options.out / (fix or FULL)
    if (out / "results.sqlite").is_file():
        return out
    done = subprocess.run(command(options, fix, out), capture_output=True, text=True)
    if not (out / "results.sqlite").is_file():
        raise WebfoveaError(f"the {fix or FULL} variant did not run (exit {done.returncode}): "
                            f"{done.stderr.strip()[-800:]}")
    return out


def rows(run_dir: Path) -> list[TaskRow]:
    store = Store.open_existing(run_dir)
    try:
        return store.rows()
    finally:
        store.close()


def line(variant: str, run_dir: Path, full: list[TaskRow], mine: list[TaskRow]) -> Line:
    c = compare(full, mine, run_a=FULL, run_b=variant)
    diff, se = c.difference, c.stderr
    # The normal interval of a paired difference, kept within what a difference can be.
    low = None if diff is None or se is None else max(-1.0, diff - Z95 * se)
    high = None if diff is None or se is None else min(1.0, diff + Z95 * se)
    return Line(variant, str(run_dir), c.paired,
                c.correct_b / c.paired if c.paired else None, diff, low, high,
                None if variant == FULL else c.p_value, c.fixed, c.broken,
                sum(r.steps for r in mine) / len(mine) if mine else 0.0,
                _cost(run_dir, mine))


def _cost(run_dir: Path, mine: list[TaskRow]) -> float | None:
    total = 0.0
    for r in mine:
        task_dir = Path(r.dir) if Path(r.dir).is_absolute() else run_dir / r.dir
        try:
            cost = read_result(task_dir).usage.cost
        except (OSError, WebfoveaError):
            return None
        if cost is None:
            return None
        total += cost
    return total


def run_ablation(options: AblationOptions, progress: TextIO = sys.stderr) -> list[Line]:
    """Every variant (the full harness first), then the table's lines; written to
    ``OUT/ablation.json`` too."""
    options.out.mkdir(parents=True, exist_ok=True)
    full_dir = _announce(options, None, progress)
    full = rows(full_dir)
    lines = [line(FULL, full_dir, full, full)]
    for fix in options.fixes:
        run_dir = _announce(options, fix, progress)
        lines.append(line(fix, run_dir, full, rows(run_dir)))
    (options.out / "ablation.json").write_text(json.dumps(
        {"model": options.model, "tasks": asdict(options.source), "trials": options.trials,
         "lines": [asdict(x) for x in lines]}, indent=2, ensure_ascii=False), "utf-8")
    return lines


def _announce(options: AblationOptions, fix: str | None, progress: TextIO) -> Path:
    print(f"ablation: {'-' + fix if fix else FULL} …", file=progress, flush=True)
    return run_variant(options, fix)


def print_table(lines: list[Line], console: Console) -> None:
    """The paper-style table: one row per variant, the full harness first."""
    table = Table("variant", "success", "Δ vs full (95% CI)", "p", "fixed", "broken",
                  "steps", "cost", title="ablation: each fix turned off")
    for x in lines:
        share = "–" if x.success is None else f"{100 * x.success:.1f}% ({x.scored})"
        delta = ("–" if x.variant == FULL or x.difference is None else
                 f"{_points(x.difference)} [{_points(x.low)}, {_points(x.high)}]")
        table.add_row(x.variant if x.variant == FULL else f"-{x.variant}", share, delta,
                      "–" if x.p_value is None else f"{x.p_value:.3g}",
                      str(len(x.fixed)), str(len(x.broken)), f"{x.mean_steps:.1f}",
                      "unknown" if x.cost is None else f"${x.cost:.4f}")
    console.print(table)
    for x in lines:
        if x.broken:
            console.print(f"-{x.variant} broke: {', '.join(x.broken)}", highlight=False)


def _points(value: float | None) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:+.1f}"

"""Offline parser replay: would the current parser read the recorded replies differently?

Every raw reply in a run is parsed again and the resulting action compared with the one
recorded. After a parser change this says exactly which steps the change touches, without a
browser or a model (the paper's 7,705-step replay: 551 modified, 7,154 untouched).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from ..core.errors import ParseError
from ..dialects.recorded import Retranslate, retranslator
from ..dialects.text.parse import ParsedReply, parse_reply
from ..rundir.store import load_run
from ..rundir.trajectory import StepRecord

ParseFn = Callable[[str], ParsedReply]
ChangeKind = Literal["changed", "now_parses", "now_fails"]


@dataclass(frozen=True)
class ReplayChange:
    task: str
    step: int
    kind: ChangeKind
    before: str  # the recorded action, or "parse error: ..."
    after: str


@dataclass(frozen=True)
class ReplayReport:
    parser: str
    tasks: int
    steps: int
    changes: list[ReplayChange]

    @property
    def untouched(self) -> int:
        return self.steps - len(self.changes)

    def to_json(self) -> dict[str, Any]:
        return {"parser": self.parser, "tasks": self.tasks, "steps": self.steps,
                "changed": len(self.changes), "untouched": self.untouched,
                "changes": [asdict(c) for c in self.changes]}


def replay(run_dir: Path, *, parse: ParseFn = parse_reply) -> ReplayReport:
    """Parse every recorded reply in ``run_dir`` (a task or a bench run) with ``parse``; a
    native dialect's recorded tool calls are translated again with the current tables."""
    run = load_run(run_dir)
    changes: list[ReplayChange] = []
    steps = 0
    for task in run.tasks:
        config = task.result.config
        again = retranslator(str(config.get("dialect") or "text"), config.get("dialect_version"))
        for record in task.steps:
            steps += 1
            change = (compare_calls(task.id, record, again) if again is not None and record.calls
                      else compare_step(task.id, record, parse))
            if change is not None:
                changes.append(change)
    return ReplayReport(parser=getattr(parse, "__name__", repr(parse)), tasks=len(run.tasks),
                        steps=steps, changes=changes)


def compare_step(task: str, record: StepRecord, parse: ParseFn) -> ReplayChange | None:
    """How ``parse`` reads the step's reply differently from the run, or None if alike."""
    # A step that gave point forms (target=, mark=) ran with them enabled: read it so again.
    forms = frozenset(str(f["form"]) for f in record.point_forms)
    try:
        parsed = parse_reply(record.raw_reply, forms) if forms else parse(record.raw_reply)
    except ParseError as e:
        if record.action is None:
            return None  # failed then, fails now: the same step either way
        return ReplayChange(task, record.step, "now_fails", record.action_source,
                            f"parse error: {e}")
    after = parsed.action.source()
    if record.action is None:
        return ReplayChange(task, record.step, "now_parses",
                            f"parse error: {record.parse_error}", after)
    # Through JSON, so the recorded lists and the fresh tuples/floats compare alike.
    if json.loads(json.dumps(parsed.action.to_json())) == record.action:
        return None
    return ReplayChange(task, record.step, "changed", record.action_source, after)


def compare_calls(task: str, record: StepRecord, again: Retranslate) -> ReplayChange | None:
    """How the current translation reads the step's recorded tool calls differently."""
    before = [_shown(c.get("action"), c.get("action_source"), c.get("error"))
              for c in record.calls]
    after = []
    for entry in record.calls:
        call = again(entry, record)
        action = json.loads(json.dumps(call.action.to_json())) if call.action else None
        after.append(_shown(action, call.action.source() if call.action else "", call.error))
    if before == after:
        return None
    failed_then = all(c.get("action") is None for c in record.calls)
    failed_now = all(a.startswith("error: ") for a in after)
    kind: ChangeKind = ("now_parses" if failed_then and not failed_now
                        else "now_fails" if failed_now and not failed_then else "changed")
    return ReplayChange(task, record.step, kind, " ; ".join(before), " ; ".join(after))


def _shown(action: object, source: object, error: object) -> str:
    return str(source) if action is not None else f"error: {error}"


def format_report(report: ReplayReport) -> str:
    lines = [f"replayed {report.steps} steps of {report.tasks} task(s) with {report.parser}: "
             f"{len(report.changes)} would parse to a different action, "
             f"{report.untouched} untouched"]
    for c in report.changes:
        lines += [f"  {c.task} step {c.step}: {c.kind.replace('_', ' ')}",
                  f"    before: {_one_line(c.before)}", f"    after:  {_one_line(c.after)}"]
    return "\n".join(lines)


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."

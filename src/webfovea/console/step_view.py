"""The live step view of ``webfovea run``: each step printed as it ends, on standard error.

A :class:`StepView` is a logging handler on the ``webfovea`` logger that draws the step
events of :mod:`webfovea.rundir.events`. On a terminal it uses colour; otherwise (a pipe, a CI log,
``--quiet``) it prints the same lines as plain text. Everything recorded from a page or a model
is drawn as text, never parsed as console markup.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from rich.console import Console
from rich.text import Text

from ..rundir.events import StepEvent, event_of
from ..rundir.trajectory import StepRecord, UsageRecord

THOUGHT_CHARS = 160
PACKAGE_LOGGER = "webfovea"
_TONES = {"changed": "green", "answer": "green", "no_change": "yellow", "unknown": "yellow"}


def one_line(text: str, limit: int = THOUGHT_CHARS) -> str:
    """``text`` on one line, whitespace collapsed, cut at ``limit`` characters with '…'."""
    flat = re.sub(r"\s+", " ", text).strip()
    return flat if len(flat) <= limit else flat[:limit - 1].rstrip() + "…"


def landed(record: StepRecord) -> str:
    """Where the action landed: its page points, and the element there when recorded."""
    if not record.page_points:
        return ""
    points = ", ".join(f"({x},{y})" for x, y in record.page_points)
    element = _element(record.details.get("element"))
    return f"page {points}" + (f" on {element}" if element else "")


def _element(value: Any) -> str:
    if isinstance(value, dict):
        tag = str(value.get("tag") or value.get("name") or "")
        label = one_line(str(value.get("text") or value.get("label") or ""), 60)
        return " ".join(p for p in (f"<{tag}>" if tag else "", f'"{label}"' if label else "") if p)
    return one_line(str(value), 80) if value else ""


def usage_line(record: StepRecord, total: UsageRecord | None) -> str:
    """Time split of the step, and tokens (and cost, when known) of the task so far."""
    parts = [f"model {record.model_seconds:.1f}s · harness {record.harness_seconds:.1f}s"]
    if total is not None:
        parts.append(f"tokens so far {total.input_tokens:,} in / {total.output_tokens:,} out")
        cost = cost_of(total)
        if cost is not None:
            parts.append(f"cost so far ${cost:.4f}")
    return " · ".join(parts)


def cost_of(usage: UsageRecord) -> float | None:
    """The usage's cost in USD, for usage records that carry one (priced models)."""
    value = getattr(usage, "cost", None)
    return float(value) if isinstance(value, (int, float)) else None


def step_text(event: StepEvent, *, verbose: bool) -> Text:
    """One finished step as a few lines of text, styled for a terminal."""
    record = event.record
    assert record is not None
    head = Text.assemble((f"step {record.step}", "bold"), "  ")
    head.append(record.action_source or "(no action)", style="cyan")
    if where := landed(record):
        head.append(f"  → {where}")
    rows = [head]
    if record.thought:
        rows.append(_row("thought", one_line(record.thought)))
    note = _row("note", record.note or record.parse_error or "—")
    note.append(f"  [{record.outcome}]", style=_TONES.get(record.outcome, "red"))
    rows.append(note)
    if record.guardrail:
        rows.append(_row("refused", f"by {record.guardrail}", "red"))
    rows.append(_row("time", usage_line(record, event.usage), "dim"))
    if verbose:
        rows.append(_row("reply", record.raw_reply.rstrip().replace("\n", "\n           ")))
    return Text("\n").join(rows)


def _row(label: str, value: str, style: str = "") -> Text:
    return Text.assemble(("  " + label.ljust(9), "dim"), (value, style))


def step_json(event: StepEvent) -> str:
    """One finished step as a JSON line: the step record and the task's usage so far."""
    assert event.record is not None
    data = {"event": event.kind, "task_id": event.task_id,
            "step": event.record.model_dump(mode="json"),
            "usage_so_far": event.usage.model_dump(mode="json") if event.usage else None}
    return json.dumps(data, ensure_ascii=False)


Mode = Literal["full", "line", "json"]


class StepView(logging.Handler):
    """Draws step events on ``console`` — a few lines per step (``full``), one line
    (``line``) or one JSON object (``json``) — and other webfovea log records as plain lines."""

    def __init__(self, console: Console, *, mode: Mode = "full", verbose: bool = False) -> None:
        super().__init__(logging.INFO)
        self.console, self.mode, self.verbose = console, mode, verbose

    def emit(self, record: logging.LogRecord) -> None:
        try:
            event = event_of(record)
            if event is None:
                self._plain(f"{record.levelname.lower()}: {record.getMessage()}")
            elif event.kind == "step_done" and event.record is not None:
                self._step(event)
        except Exception:  # a display problem must never end a run
            self.handleError(record)

    def _step(self, event: StepEvent) -> None:
        if self.mode == "json":
            self._plain(step_json(event))
        elif self.mode == "line":
            self._plain(event.line(with_task=False))
        else:
            self.console.print(step_text(event, verbose=self.verbose), soft_wrap=True)

    def _plain(self, line: str) -> None:
        self.console.print(Text(line), soft_wrap=True)


def add_options(p: argparse.ArgumentParser) -> None:
    """``run``'s flags for the live step view."""
    p.add_argument("-v", "--verbose", action="store_true", help="also show each raw model reply")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="one plain line per step")
    shown.add_argument("--json-lines", action="store_true",
                       help="one JSON object per step on standard error")


def view_for(ns: argparse.Namespace, console: Console | None = None) -> StepView:
    """The step view the command line asked for; on standard error by default."""
    mode: Mode = "json" if ns.json_lines else "line" if ns.quiet else "full"
    return StepView(console or Console(stderr=True), mode=mode, verbose=ns.verbose)


@contextmanager
def step_view(view: StepView) -> Iterator[StepView]:
    """Show the package's step events through ``view`` while the block runs."""
    logger = logging.getLogger(PACKAGE_LOGGER)
    level = logger.level
    logger.addHandler(view)
    logger.setLevel(logging.INFO)
    try:
        yield view
    finally:
        logger.removeHandler(view)
        logger.setLevel(level)

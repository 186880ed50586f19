"""What every importer reads out of a foreign trajectory, and its run directory.

An imported step holds what the other agent's log shows: the screenshot the model was
shown before it acted, its thought, the native call and the closed-set action it means (or
why it means none). What the log cannot show is left unsaid: the page's size, the DOM, the
harness's own feedback. A step's outcome is judged only from the screenshots: the next
one identical to this one is "no_change", another is "changed", none is "unknown" (an
importer may say what "identical" allows for: browser-use's own click highlight). An action
the other agent's tool reported failing is "error"; one it ran that our closed set has no
name for is recorded as the agent's, not as a call that meant nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...actions.registry import Action
from ...browser.capture import png_size
from ...rundir.store import TrajectoryWriter
from ...rundir.trajectory import Outcome, ResultRecord, StepRecord

IMPORTED = "imported"  # result.config key: which agent's log the run came from


@dataclass
class ForeignStep:
    native: dict[str, Any]  # the call as the other agent's log has it
    screenshot: bytes | None  # what the model was shown before this call
    thought: str = ""
    action: Action | None = None
    error: str | None = None  # the call means no action of ours: why
    outside: str | None = None  # the agent ran it, but our closed set has no name for it
    failed: str | None = None  # the agent's own tool reported the action failing: how
    url: str = ""  # the page's address before the call, when the log has it
    reply: str | None = None  # the model's whole reply, when the log keeps it
    # The size of the space the call's points are in (screen or viewport pixels), when it
    # is not the screenshot's own: the screenshot is then drawn scaled to it.
    space: tuple[int, int] | None = None


def identical(before: bytes, after: bytes) -> bool:
    return before == after


@dataclass
class Foreign:
    source: str  # browser-use | openai-cua | anthropic-cu
    task: str
    steps: list[ForeignStep] = field(default_factory=list)
    answer: str | None = None  # the agent's final text, when it gave one
    last_screenshot: bytes | None = None  # after the last call, when the log has one
    url: str = ""
    gave_up: str | None = None  # the agent ended saying it did not succeed: its words
    # How the run ended when it gave no answer, if the log says (finished, gave_up,
    # step_limit); None: gave_up. ``gave_up`` then holds why.
    ended: str | None = None
    config: dict[str, Any] = field(default_factory=dict)  # more for result.config
    unchanged: Callable[[bytes, bytes], bool] = identical  # before, after: nothing changed
    unchanged_note: str = "identical to the one before"


def materialised(value: Any) -> Any:
    """A value an SDK TypeAdapter returned, every lazily validated iterable (the SDKs type
    content lists as ``Iterable``) drawn out into a list: that is when it is validated."""
    if isinstance(value, dict):
        return {k: materialised(v) for k, v in value.items()}
    if isinstance(value, list | tuple) or type(value).__name__ == "ValidatorIterator":
        return [materialised(v) for v in value]
    return value


def write(foreign: Foreign, out: Path) -> ResultRecord:
    """``out`` as a run directory (docs/contracts.md) that view, diagnose and score read."""
    writer = TrajectoryWriter(out)
    shots = [s.screenshot for s in foreign.steps] + [foreign.last_screenshot]
    for i, step in enumerate(foreign.steps, 1):
        writer.append_step(_record(writer, i, step, shots[i], foreign))
    result = ResultRecord(task=foreign.task, url=foreign.url, task_id=out.name,
                          model=f"{foreign.source} (imported)", steps=len(foreign.steps),
                          config={IMPORTED: foreign.source, "dialect": foreign.source,
                                  **foreign.config},
                          started_at=time.time())
    if foreign.answer is not None and foreign.answer.strip():
        result.status, result.answer = "finished", foreign.answer
    elif foreign.ended is not None:
        result.status, result.error = foreign.ended, foreign.gave_up
    else:
        result.status = "gave_up"
        result.error = foreign.gave_up or "the trajectory ends without an answer"
    if foreign.last_screenshot is not None:
        result.evidence = writer.write_evidence(foreign.last_screenshot)
    writer.write_result(result)
    return result


def _record(writer: TrajectoryWriter, step: int, s: ForeignStep, after: bytes | None,
            foreign: Foreign) -> StepRecord:
    reply = s.reply if s.reply is not None else json.dumps(s.native, ensure_ascii=False)
    record = StepRecord(step=step, started_at=time.time(), url=s.url, raw_reply=reply,
                        thought=s.thought)
    if s.screenshot is not None:
        record.screenshot = writer.write_screen(step, s.screenshot)
        size = png_size(s.screenshot)
        record.sent_size = record.model_size = (size.width, size.height)
    if s.space is not None:
        record.model_size = record.page_size = s.space
    if s.action is None and s.outside is not None:
        record.outcome, record.note = "unknown", f"imported: {s.outside}"
        record.details = {"imported": True, "outside": s.outside}
        return record
    if s.action is None:
        record.parse_error = s.error or "the call means no action"
        record.outcome, record.note = "parse_error", record.parse_error
        return record
    record.action, record.action_source = s.action.to_json(), s.action.source()
    record.outcome, note = _outcome(s, s.action, after, foreign)
    record.note, record.details = f"imported: {note}", {"imported": True}
    if record.outcome == "no_change":  # what "unchanged" allowed for, for diagnose to say
        record.details["unchanged"] = foreign.unchanged_note
    if record.outcome == "error":
        record.details["failed"] = s.failed
    return record


def _outcome(s: ForeignStep, action: Action, after: bytes | None, foreign: Foreign
             ) -> tuple[Outcome, str]:
    if action.spec.ends_task:
        return "answer", "the agent's answer"
    if s.failed is not None:
        return "error", f"the agent's tool failed: {s.failed}"
    if s.screenshot is None or after is None:
        return "unknown", "no screenshot on both sides"
    if foreign.unchanged(s.screenshot, after):
        return "no_change", f"the screenshot after the action is {foreign.unchanged_note}"
    return "changed", "the screenshot changed"

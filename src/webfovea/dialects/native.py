"""What the function-calling dialects share: the system text, coordinates from a protocol's
space into the model space, the history window of screenshots, and the recorded form of
a call."""

from __future__ import annotations

import json
from typing import Any

from ..actions.geometry import ModelSpace
from ..actions.registry import Point
from ..core.config import AgentConfig
from .text.prompt import CONSTRAINTS, NOTE_CAP, TASK_CAP, clip, first_shown

# The text prompt's rules minus the reply format, which a function-calling protocol replaces.
RULES = tuple(c for c in CONSTRAINTS if not c.startswith(("Reply with", "When you have the answer")))
FINISH_RULE = "When you have the answer, call finished(content='the answer'), on the page that shows it."
OMITTED = "(screenshot no longer shown)"


def system_text(intro: str, skills: str = "") -> str:
    """The protocol's system text; ``skills`` (the task's skills section) ends it."""
    rules = "\n".join(f"{i}. {c}" for i, c in enumerate((*RULES, FINISH_RULE), 1))
    text = f"{intro}\n\nRules:\n{rules}"
    return f"{text}\n\n{skills}" if skills else text


def task_text(task: str) -> str:
    return f"Task: {clip(task, TASK_CAP)}"


def note_text(note: str) -> str:
    return clip(note, NOTE_CAP)


def to_space(x: float, y: float, *, grid: tuple[float, float], space: ModelSpace) -> Point | None:
    """A point of a protocol's grid (declared display, screenshot pixels) in the model space
    of the image it refers to; None when it lies outside the grid (never clamped)."""
    width, height = grid
    if not (0 <= x <= width and 0 <= y <= height):
        return None
    fx, fy = x * space.width / width, y * space.height / height
    # An identity mapping keeps integers integers, so the recorded action reads as sent.
    return Point(float(round(fx)) if abs(fx - round(fx)) < 1e-9 else fx,
                 float(round(fy)) if abs(fy - round(fy)) < 1e-9 else fy)


def from_space(point: Point, *, grid: tuple[float, float], space: ModelSpace) -> tuple[float, float]:
    """The inverse of :func:`to_space` (for notes that quote the model's own coordinates)."""
    return point.x * grid[0] / space.width, point.y * grid[1] / space.height


def window_start(step: int, config: AgentConfig) -> int:
    """The oldest step whose screenshot a request still carries (the text dialect's rule:
    screenshots leave in blocks, so the prefix stays byte-identical between boundaries)."""
    return first_shown(step, config)


def stable_steps(step: int, config: AgentConfig) -> set[int]:
    """Steps whose turn gets a cache breakpoint: the last one before the window (unchanged
    until the next boundary) and the one a block earlier, as the text dialect marks them."""
    start = window_start(step, config)
    return {start - 1, start - 1 - config.history_block}


def raw_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)

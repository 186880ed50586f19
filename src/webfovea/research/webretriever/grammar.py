"""The UI-TARS call syntax of the reference runner's ``result.json`` ``actions``, both ways.

The reference agent writes each action as UI-TARS grammar with its points already mapped to
screen pixels: ``click(start_box='<|box_start|>(640,360)<|box_end|>')``, ``type(content='…')``,
``scroll(start_box=…, direction='down')``, ``hotkey(key='enter')``, ``wait()``,
``finished()``, ``call_user()``. Export writes a recorded step that way with its points in the
page's CSS pixels; an action the UI-TARS action space has no name for (``fill``, ``select``,
``find_text``, …) keeps webfovea's name in the same syntax. Import reads such a string back
into the closed action set with webfovea's own reply parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...actions.registry import REGISTRY, Action, Point
from ...core.errors import ParseError
from ...dialects.text.parse import parse_reply
from ...rundir.trajectory import StepRecord

_ACTION = re.compile(r"Action\s*:\s*", re.I)
# The reference agent's own names for what the closed set calls otherwise.
_ALIASES = {"doubleclick": "left_double", "finish": "finished"}
_BARE = re.compile(r"^\s*([a-z_]+)\s*\(\s*\)\s*$")
_SCROLL_NO_POINT = re.compile(r"^\s*scroll\(\s*direction\s*=\s*['\"](\w+)['\"]\s*\)\s*$")
CALL_USER = "call_user()"


def export_action(step: StepRecord) -> str:
    """The step's action in UI-TARS syntax, points in page CSS pixels; a step whose reply
    meant no action keeps what the model wrote after ``Action:`` (``call_user()`` stays so)."""
    if step.action is None:
        return written_action(step.raw_reply)
    name = str(step.action["name"])
    spec = REGISTRY.get(name)
    if spec is None:
        return written_action(step.raw_reply)
    points = _page_points(step)
    parts: list[str] = []
    for arg in spec.args:
        if arg.kind == "point":
            point = points.pop(0) if points else None
            if point is not None:
                parts.append(f"{arg.name}='<|box_start|>({point[0]},{point[1]})<|box_end|>'")
            continue
        value = step.action.get(arg.name)
        if value is None or (arg.default is not None and value == arg.default):
            continue
        parts.append(f"{arg.name}='{quoted(str(value))}'")
    if name == "finished" and not str(step.action.get("content") or "").strip():
        return "finished()"  # navigation only (Protocols I and II): the grammar's own ending
    return f"{name}({', '.join(parts)})"


def quoted(text: str) -> str:
    """Text inside single quotes as UI-TARS escapes it (``\\'``, ``\\n``)."""
    return text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")


def written_action(reply: str) -> str:
    """What a reply wrote after its last ``Action:``, first line only; '' when none."""
    found = list(_ACTION.finditer(reply))
    if not found:
        return ""
    rest = reply[found[-1].end():].strip()
    return rest.splitlines()[0].strip() if rest else ""


def _page_points(step: StepRecord) -> list[tuple[int, int]]:
    """The page points the step acted on, else its model points mapped by the measured
    ratio, in the order of the action's point arguments."""
    if step.page_points:
        return [(round(x), round(y)) for x, y in step.page_points]
    spec = REGISTRY[str((step.action or {})["name"])]
    (mw, mh), (pw, ph) = step.model_size, step.page_size
    out = []
    for arg in spec.args:
        value = (step.action or {}).get(arg.name)
        if arg.kind != "point" or not isinstance(value, list | tuple):
            continue
        x, y = float(value[0]), float(value[1])
        if mw and mh and pw and ph:
            x, y = x * pw / mw, y * ph / mh
        out.append((round(x), round(y)))
    return out


@dataclass(frozen=True)
class Read:
    """One ``actions`` entry read: an action of the closed set, the agent calling for a
    person, or why it means no action."""

    action: Action | None = None
    call_user: bool = False
    error: str | None = None


def read_action(text: str, *, centre: Point) -> Read:
    """``text`` (screen pixels) as an action; ``centre``: where a scroll without a point
    scrolls (the reference runner scrolls the viewport's centre)."""
    bare = _BARE.match(text)
    if bare:
        name = _ALIASES.get(bare.group(1), bare.group(1))
        if name == "call_user":
            return Read(call_user=True)
        if name == "finished":
            return Read(Action("finished", {"content": ""}))
    scroll = _SCROLL_NO_POINT.match(text)
    if scroll:
        return Read(Action("scroll", {"start_box": centre, "direction": scroll.group(1)}))
    head = re.match(r"\s*(\w+)\(", text)
    if head and head.group(1) in _ALIASES:
        text = _ALIASES[head.group(1)] + text[head.end() - 1:]
    try:
        return Read(parse_reply(f"Action: {text}").action)
    except ParseError as e:
        return Read(error=str(e).splitlines()[0] if str(e) else "the call means no action")

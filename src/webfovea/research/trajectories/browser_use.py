"""browser-use's ``AgentHistoryList`` (JSON, as ``AgentHistoryList.save_to_file`` writes it)
read into :class:`Foreign`. browser-use itself is not imported: its pins clash with ours, and
the file is plain JSON whose fields (``history[].model_output.action``, ``.result``,
``.state.screenshot_path``, ``.state.interacted_element[].bounds``, ``.state_message``) are
read here as browser-use 0.13 writes them.

A browser-use step may hold several actions; the step's screenshot (taken before them) goes
with its first. Its actions name elements by index: the point is where browser-use says it
clicked (``result[].metadata.click_x/y``), else the middle of the element's recorded bounds,
in viewport pixels, which are the screenshot's at a device pixel ratio of 1.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ...actions.keys import key_names
from ...actions.registry import Action, Point
from ...browser.capture import png_size
from ...core.errors import ConfigError
from .highlight import only_highlight
from .record import Foreign, ForeignStep

Args = Mapping[str, Any]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Result(_Loose):
    is_done: bool | None = False
    success: bool | None = None
    error: str | None = None
    extracted_content: str | None = None
    metadata: dict[str, Any] | None = None


class _Output(_Loose):
    thinking: str | None = None
    evaluation_previous_goal: str | None = None
    memory: str | None = None
    next_goal: str | None = None
    action: list[dict[str, dict[str, Any] | None]]


class _State(_Loose):
    url: str = ""
    title: str = ""
    screenshot_path: str | None = None
    interacted_element: list[dict[str, Any] | None] = []


class _Item(_Loose):
    model_output: _Output | None
    result: list[_Result]
    state: _State
    state_message: str | None = None


class _History(_Loose):
    history: list[_Item]


_REQUEST = re.compile(r"<user_request>\s*(.*?)\s*</user_request>", re.S)
# Actions browser-use runs that webfovea's closed set has no name for: recorded as done by
# the agent, not as calls that failed to mean anything.
_OUTSIDE = ("search", "extract", "search_page", "find_elements", "screenshot", "save_as_pdf",
            "dropdown_options", "write_file", "replace_file", "read_file", "evaluate",
            "upload_file", "switch", "close")


def read(path: Path) -> Foreign:
    try:
        history = _History.model_validate(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError, ValidationError) as e:
        raise ConfigError(f"{path} is not a browser-use AgentHistoryList: "
                          f"{str(e).splitlines()[0][:300]}") from None
    items = history.history
    foreign = Foreign("browser-use", task=_task(items), url=items[0].state.url if items else "",
                      unchanged=only_highlight, unchanged_note=(
                          "identical to the one before but for browser-use's own interaction "
                          "highlight"))
    for item in items:
        shown = _screenshot(item.state.screenshot_path, path.parent)
        if item.model_output is None:  # browser-use could not read the model's reply
            errors = [r.error for r in item.result if r.error]
            foreign.steps.append(ForeignStep({"model_output": None}, shown, error=(
                errors[0] if errors else "the model's output did not parse")))
            continue
        thought = _thought(item.model_output)
        for n, call in enumerate(item.model_output.action):
            result = item.result[n] if n < len(item.result) else None
            element = item.state.interacted_element[n] \
                if n < len(item.state.interacted_element) else None
            step = _step(call, result, element, shown if n == 0 else None, thought)
            step.url = item.state.url
            foreign.steps.append(step)
            if result is not None and result.is_done:
                _ended(foreign, call, result)
    last = foreign.steps[-1] if foreign.steps else None
    if last is not None and last.action is not None and last.action.spec.ends_task:
        foreign.last_screenshot = last.screenshot  # the page as the agent answered: evidence
    return foreign


def _step(call: dict[str, dict[str, Any] | None], result: _Result | None,
          element: Mapping[str, Any] | None, shown: bytes | None, thought: str) -> ForeignStep:
    name, args = next(iter(call.items()), ("", None))
    step = ForeignStep({name: args}, shown, thought)
    if result is not None and result.error:
        step.failed = result.error
    point = _point(args or {}, result, element)
    if name == "scroll" and point is None and shown is not None:  # the page, not an element
        size = png_size(shown)
        point = Point(size.width / 2, size.height / 2)
    made = _TRANSLATE.get(name)
    if made is not None:
        try:
            step.action = made(args or {}, point)
        except _NoPoint as e:
            step.error = f"browser-use's {name}: {e}"
    elif name in _OUTSIDE:
        step.outside = f"browser-use's {name}, which the closed action set has no name for"
    else:
        step.error = f"{name!r} is no browser-use action"
    return step


def _ended(foreign: Foreign, call: Mapping[str, Any], result: _Result) -> None:
    text = (next(iter(call.values()), None) or {}).get("text") or result.extracted_content
    if result.success is False:
        foreign.gave_up = f"the agent said it did not succeed: {text}"
    else:
        foreign.answer = text


class _NoPoint(ValueError):
    """The log says nowhere for an action that needs a point."""


def _point(args: Args, result: _Result | None, element: Mapping[str, Any] | None
           ) -> Point | None:
    meta = (result.metadata if result else None) or {}
    if isinstance(meta.get("click_x"), int | float) and isinstance(meta.get("click_y"),
                                                                  int | float):
        return Point(float(meta["click_x"]), float(meta["click_y"]))
    bounds = (element or {}).get("bounds")
    if isinstance(bounds, dict):
        return Point(bounds["x"] + bounds["width"] / 2, bounds["y"] + bounds["height"] / 2)
    x, y = args.get("coordinate_x"), args.get("coordinate_y")
    return Point(float(x), float(y)) if isinstance(x, int | float) and \
        isinstance(y, int | float) else None


def _needs(point: Point | None) -> Point:
    if point is None:
        raise _NoPoint("the log records no element bounds or click point for it")
    return point


def _navigate(args: Args, point: Point | None) -> Action:
    if args.get("new_tab"):
        raise _NoPoint("it opens a new tab, and the closed action set stays in one")
    return Action("navigate", {"url": str(args.get("url", ""))})


def _input(args: Args, point: Point | None) -> Action:
    if args.get("clear") is False:
        raise _NoPoint("clear=False appends, and fill() clears the field first")
    return Action("fill", {"start_box": _needs(point), "content": str(args.get("text", ""))})


def _scroll(args: Args, point: Point | None) -> Action:
    direction = "down" if args.get("down", True) else "up"
    return Action("scroll", {"start_box": _needs(point), "direction": direction})


_TRANSLATE: dict[str, Callable[[Args, Point | None], Action]] = {
    "click": lambda a, p: Action("click", {"start_box": _needs(p)}),
    "input": _input,
    "navigate": _navigate,
    "go_back": lambda a, p: Action("go_back"),
    "wait": lambda a, p: Action("wait"),
    "scroll": _scroll,
    "send_keys": lambda a, p: Action("hotkey", {"key": " ".join(key_names(str(a.get("keys"))))}),
    "find_text": lambda a, p: Action("find_text", {"text": str(a.get("text", ""))}),
    "select_dropdown": lambda a, p: Action("select", {"start_box": _needs(p),
                                                       "option": str(a.get("text", ""))}),
    "done": lambda a, p: Action("finished", {"content": str(a.get("text", ""))}),
}


def _screenshot(recorded: str | None, beside: Path) -> bytes | None:
    """The PNG at the recorded path, or under the history file's folder when the agent's
    directory moved with it (``…/screenshots/step_N.png``)."""
    if not recorded:
        return None
    path = Path(recorded)
    for candidate in (path, beside / path, beside / "screenshots" / path.name):
        if candidate.is_file():
            png = candidate.read_bytes()
            try:
                png_size(png)
            except ValueError:
                return None
            return png
    return None


def _thought(output: _Output) -> str:
    parts = [output.thinking, output.next_goal]  # the evaluation is of the step before
    return " ".join(p.strip() for p in parts if p and p.strip())


def _task(items: list[_Item]) -> str:
    for item in items:
        found = _REQUEST.search(item.state_message or "")
        if found:
            return found.group(1)
    return ""

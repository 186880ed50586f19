"""Gemini computer-use functions ↔ webfovea's closed action set (pure; no wire, no browser).

Two vocabularies exist (google-gemini/computer-use-preview, ``agent.py``): the legacy one of
the 2.5 / 3-flash-preview / 3.1-pro-preview models (``click_at``, ``type_text_at``,
``scroll_document``…) and the one of 3.5 and later (``click``, ``type``, ``hotkey``…). Points
are on a 0–999 grid over the screenshot on each axis; they map to the model space by the
grid's ratio to it (so to the page by the measured ratio, like every step), and a value
outside 0–999 is an error, never a clamp.

``from_gemini`` may give two actions for one call (``type_text_at`` without clearing is a
click, then typing); the dialect answers the call once with both notes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from ..actions.geometry import ModelSpace
from ..actions.keys import key_names
from ..actions.registry import DIRECTIONS, Action, Point
from ..core.domains import DomainPolicy
from .keys import KeySpellingError, from_names, from_xdotool
from .native import to_space
from .translation import (
    Translation,
    closed_set_refusal,
    is_number,
    navigation,
    new_tab_refusal,
    search_refusal,
)

Vocabulary = Literal["legacy", "new"]
GRID = 1000  # x, y in 0..999: pixel = value / 1000 * size (the reference's denormalize)
LAST = GRID - 1


class _Bad(ValueError):
    """A malformed call: its message names the bad argument."""


class _Call:
    """One call's arguments with typed readers that name what was wrong."""

    def __init__(self, name: str, args: Mapping[str, Any], space: ModelSpace,
                 policy: DomainPolicy | None) -> None:
        self.name, self.args, self.space, self.policy = name, args, space, policy

    def point(self, xk: str = "x", yk: str = "y") -> Point:
        x, y = self.args.get(xk), self.args.get(yk)
        if not is_number(x) or not is_number(y):
            raise _Bad(f"{self.name} needs numbers {xk} and {yk} on the 0-{LAST} grid, got "
                       f"{x!r}, {y!r}")
        point = None
        if float(x) <= LAST and float(y) <= LAST:
            point = to_space(float(x), float(y), grid=(GRID, GRID), space=self.space)
        if point is None:
            raise _Bad(f"the point ({x:g},{y:g}) of {self.name} is outside the 0-{LAST} grid; "
                       "give both coordinates from 0 to 999")
        return point

    def text(self, key: str) -> str:
        value = self.args.get(key)
        if not isinstance(value, str):
            raise _Bad(f"{self.name}.{key} must be a string, got {value!r}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.args.get(key, default)
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if not isinstance(value, bool):
            raise _Bad(f"{self.name}.{key} must be true or false, got {value!r}")
        return value

    def direction(self) -> str:
        value = str(self.args.get("direction", "")).lower()
        if value not in DIRECTIONS:
            raise _Bad(f"{self.name}.direction must be up, down, left or right, got "
                       f"{self.args.get('direction')!r}")
        return value

    def centre(self) -> Point:
        return Point(self.space.width / 2, self.space.height / 2)


def from_gemini(name: str, args: Mapping[str, Any], *, vocabulary: Vocabulary,
                space: ModelSpace, policy: DomainPolicy | None = None) -> list[Translation]:
    """One Gemini computer-use function call as closed-set actions (or why it cannot run).

    ``policy``: the task's domain lock rule, which judges ``navigate``'s URL."""
    table = _LEGACY if vocabulary == "legacy" else _NEW
    handler = table.get(name)
    if handler is None:
        return [Translation(None, f"unknown computer-use function {name!r}; use one of "
                                  f"{', '.join(sorted(table))}")]
    try:
        return handler(_Call(name, args, space, policy))
    except (_Bad, KeySpellingError) as bad:
        return [Translation(None, str(bad))]


def _one(name: str, **args: Any) -> list[Translation]:
    return [Translation(Action(name, args))]


def _type_text_at(c: _Call) -> list[Translation]:
    point, text = c.point(), c.text("text")
    # The reference executes press_enter=False and clear_before_typing=True when absent
    # (its README once said Enter is pressed by default; the code is what the model meets).
    enter = "\n" if c.flag("press_enter", False) else ""
    if c.flag("clear_before_typing", True):
        return _one("fill", start_box=point, content=text + enter)
    return [Translation(Action("click", {"start_box": point})),
            Translation(Action("type", {"content": text + enter}))]


def _key_combination(c: _Call) -> list[Translation]:
    keys = c.text("keys")
    if not keys.strip():
        raise _Bad("key_combination.keys must name at least one key, e.g. 'Control+A'")
    return _one("hotkey", key=from_xdotool(keys))


def _hotkey(c: _Call) -> list[Translation]:
    keys = c.args.get("keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) and k for k in keys):
        raise _Bad(f"hotkey.keys must be a non-empty list of key names, got {keys!r}")
    return _one("hotkey", key=from_names(keys))


def _press_key(c: _Call) -> list[Translation]:
    key = c.text("key")
    if not key:
        raise _Bad("press_key.key must name a key, e.g. 'Enter'")
    return _one("hotkey", key=from_names([key]))


def _navigate(c: _Call) -> list[Translation]:
    url = c.text("url").strip()
    if "://" not in url:  # the reference adds the scheme the same way before loading
        url = "https://" + url
    return [navigation(url, c.policy)]


Handler = Callable[[_Call], list[Translation]]

_SHARED: dict[str, Handler] = {
    "drag_and_drop": lambda c: _one("drag", start_box=c.point(),
                                    end_box=c.point("destination_x", "destination_y")),
    "go_back": lambda c: _one("go_back"),
    "go_forward": lambda c: [closed_set_refusal("go_forward", "go_back() and the page's links")],
    "navigate": _navigate,
}

_LEGACY: dict[str, Handler] = {
    **_SHARED,
    "open_web_browser": lambda c: _one("wait"),  # the browser is open already
    "click_at": lambda c: _one("click", start_box=c.point()),
    "hover_at": lambda c: _one("hover", start_box=c.point()),
    "type_text_at": _type_text_at,
    "key_combination": _key_combination,
    "scroll_document": lambda c: _one("scroll", start_box=c.centre(), direction=c.direction()),
    # magnitude is not honoured: the executor scrolls the element under the point by its own step
    "scroll_at": lambda c: _one("scroll", start_box=c.point(), direction=c.direction()),
    "wait_5_seconds": lambda c: _one("wait"),
    "search": lambda c: [search_refusal(c.policy)],
}

_NEW: dict[str, Handler] = {
    **_SHARED,
    "click": lambda c: _one("click", start_box=c.point()),
    "double_click": lambda c: _one("left_double", start_box=c.point()),
    "right_click": lambda c: _one("right_single", start_box=c.point()),
    "triple_click": lambda c: [closed_set_refusal("triple_click", "left_double or fill")],
    "middle_click": lambda c: [new_tab_refusal("a middle click opens links in a new tab")],
    "mouse_down": lambda c: [closed_set_refusal("mouse_down", "drag_and_drop")],
    "mouse_up": lambda c: [closed_set_refusal("mouse_up", "drag_and_drop")],
    "move": lambda c: _one("hover", start_box=c.point()),
    "type": lambda c: _one("type", content=c.text("text") + (
        "\n" if c.flag("press_enter", False) else "")),
    "wait": lambda c: _one("wait"),
    "press_key": _press_key,
    "key_down": lambda c: [closed_set_refusal("key_down", "press_key or hotkey")],
    "key_up": lambda c: [closed_set_refusal("key_up", "press_key or hotkey")],
    "hotkey": _hotkey,
    "take_screenshot": lambda c: _one("wait"),  # every answer carries a fresh screenshot
    "scroll": lambda c: _one("scroll", start_box=c.point(), direction=c.direction()),
}

FUNCTIONS: dict[Vocabulary, tuple[str, ...]] = {"legacy": tuple(_LEGACY), "new": tuple(_NEW)}


_GEMINI_KEYS = {"ctrl": "Control", "esc": "Escape", "pageup": "PageUp", "pagedown": "PageDown"}


def to_gemini(action: Action, *, vocabulary: Vocabulary,
              space: ModelSpace) -> tuple[str, dict[str, Any]]:
    """A closed-set action as a Gemini computer-use call (points from ``space`` to the grid).
    ValueError for actions that have no native form in ``vocabulary``."""

    def grid(name: str = "start_box", xk: str = "x", yk: str = "y") -> dict[str, int]:
        p = action.point(name)
        return {xk: min(LAST, round(p.x * GRID / space.width)),
                yk: min(LAST, round(p.y * GRID / space.height))}

    legacy = vocabulary == "legacy"
    name = action.name
    if name == "click":
        return ("click_at" if legacy else "click"), grid()
    if name == "hover":
        return ("hover_at" if legacy else "move"), grid()
    if name == "drag":
        return "drag_and_drop", {**grid(), **grid("end_box", "destination_x", "destination_y")}
    if name == "scroll":
        return ("scroll_at" if legacy else "scroll"), {**grid(),
                                                      "direction": action.text("direction")}
    if name == "go_back":
        return "go_back", {}
    if name == "navigate":
        return "navigate", {"url": action.text("url")}
    if name == "wait":
        return ("wait_5_seconds", {}) if legacy else ("wait", {"seconds": 1})
    if name == "hotkey":
        names = [_GEMINI_KEYS.get(n, n.capitalize() if len(n) > 1 else n)
                 for n in key_names(action.text("key"))]
        return ("key_combination", {"keys": "+".join(names)}) if legacy else (
            "hotkey", {"keys": names})
    if not legacy and name in ("left_double", "right_single"):
        return ("double_click" if name == "left_double" else "right_click"), grid()
    if not legacy and name == "type":
        content = action.text("content")
        enter = content.endswith("\n")
        return "type", {"text": content.removesuffix("\n"), "press_enter": enter}
    if legacy and name == "fill":
        content = action.text("content")
        return "type_text_at", {**grid(), "text": content.removesuffix("\n"),
                                "press_enter": content.endswith("\n"),
                                "clear_before_typing": True}
    raise ValueError(f"{name} has no Gemini {vocabulary} computer-use function")

"""OpenAI computer-use actions ↔ webfovea's closed action set (pure; no wire, no browser).

``from_openai`` translates one action of a ``computer_call`` (the preview's ``action`` or
one entry of the GA tool's ``actions[]``) into a :class:`Translation`: an :class:`Action`
whose points are in the model space the screenshot was sent in, or the reason it cannot
run. Both tool versions answer in pixels of the screenshot we returned (the preview in its
declared display size, which the dialect sets to the image size), so a point maps to the
model space by the ratio of the two sizes, and a point outside the image is an error,
never a clamp.

``to_openai`` is the inverse, used by the reference policy's renderer to speak this dialect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions.geometry import ModelSpace
from ..actions.keys import key_names
from ..actions.registry import Action, Point
from ..core.config import Size
from .keys import KeySpellingError, from_names
from .native import to_space
from .translation import (
    Translation,
    closed_set_refusal,
    direction_of,
    is_number,
    new_tab_refusal,
)

_MODIFIER_CLICK = "a click with {keys} held opens links in a new tab or window"


def from_openai(action: Mapping[str, Any], *, image: Size, space: ModelSpace) -> Translation:
    """One OpenAI computer action as a closed-set action (or why it cannot run)."""
    kind = action.get("type")
    handler = _HANDLERS.get(str(kind))
    if handler is None:
        return Translation(None, f"unknown computer action type {kind!r}; use one of "
                                 f"{', '.join(sorted(_HANDLERS))}")
    try:
        return handler(action, _Space(image, space))
    except (_Bad, KeySpellingError) as bad:
        return Translation(None, str(bad))


class _Bad(ValueError):
    """A malformed action: its message names the bad field."""


class _Space:
    def __init__(self, image: Size, space: ModelSpace) -> None:
        self.image, self.space = image, space

    def point(self, action: Mapping[str, Any], xk: str = "x", yk: str = "y") -> Point:
        x, y = action.get(xk), action.get(yk)
        if not is_number(x) or not is_number(y):
            raise _Bad(f"{action.get('type')} needs numbers {xk} and {yk}, got {x!r}, {y!r}")
        point = to_space(float(x), float(y), grid=(self.image.width, self.image.height),
                               space=self.space)
        if point is None:
            raise _Bad(f"the point ({x:g},{y:g}) is outside the screenshot, which is "
                       f"{self.image.width}x{self.image.height} pixels; give a point inside it")
        return point


def _held(action: Mapping[str, Any]) -> list[str]:
    keys = action.get("keys") or []
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise _Bad(f"{action.get('type')}.keys must be a list of key names, got {keys!r}")
    return keys


def _click(action: Mapping[str, Any], s: _Space) -> Translation:
    button = action.get("button", "left")
    point = s.point(action)
    keys = _held(action)
    if keys and button in ("left", "right"):
        return new_tab_refusal(_MODIFIER_CLICK.format(keys="+".join(keys)))
    if button == "left":
        return Translation(Action("click", {"start_box": point}))
    if button == "right":
        return Translation(Action("right_single", {"start_box": point}))
    if button == "wheel":
        return new_tab_refusal("a middle (wheel) click opens links in a new tab")
    if button == "back":
        return Translation(Action("go_back"))
    if button == "forward":
        return closed_set_refusal("the mouse's forward button", "go_back() and the page's links")
    raise _Bad(f"click.button must be left, right, wheel, back or forward, got {button!r}")


def _double_click(action: Mapping[str, Any], s: _Space) -> Translation:
    point = s.point(action)
    keys = _held(action)
    if keys:
        return new_tab_refusal(_MODIFIER_CLICK.format(keys="+".join(keys)))
    return Translation(Action("left_double", {"start_box": point}))


def _move(action: Mapping[str, Any], s: _Space) -> Translation:
    # Keys held while moving change nothing a page can see without a click: ignored.
    return Translation(Action("hover", {"start_box": s.point(action)}))


def _drag(action: Mapping[str, Any], s: _Space) -> Translation:
    path = action.get("path")
    if not isinstance(path, list) or len(path) < 2 or not all(isinstance(p, dict) for p in path):
        raise _Bad(f"drag.path must list at least two points {{x, y}}, got {path!r}")
    if _held(action):
        return new_tab_refusal("a drag with modifier keys held can open links in a new tab")
    points = [s.point({"type": "drag", **p}) for p in path]
    # The closed set's drag goes straight from the first point to the last; the points in
    # between (checked above, so none is off-screen) only shape the pointer's way there.
    return Translation(Action("drag", {"start_box": points[0], "end_box": points[-1]}))


def _scroll(action: Mapping[str, Any], s: _Space) -> Translation:
    point = s.point(action)
    dx, dy = action.get("scroll_x", 0), action.get("scroll_y", 0)
    if not is_number(dx) or not is_number(dy):
        raise _Bad(f"scroll needs numbers scroll_x and scroll_y, got {dx!r}, {dy!r}")
    direction = direction_of(float(dx), float(dy))
    if direction is None:
        raise _Bad("scroll with scroll_x = scroll_y = 0 scrolls nowhere; give a distance")
    return Translation(Action("scroll", {"start_box": point, "direction": direction}))


def _keypress(action: Mapping[str, Any], s: _Space) -> Translation:
    keys = action.get("keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) and k for k in keys):
        raise _Bad(f"keypress.keys must be a non-empty list of key names, got {keys!r}")
    return Translation(Action("hotkey", {"key": from_names(keys)}))


def _type(action: Mapping[str, Any], s: _Space) -> Translation:
    text = action.get("text")
    if not isinstance(text, str):
        raise _Bad(f"type.text must be a string, got {text!r}")
    return Translation(Action("type", {"content": text}))


def _wait(action: Mapping[str, Any], s: _Space) -> Translation:
    return Translation(Action("wait"))


def _screenshot(action: Mapping[str, Any], s: _Space) -> Translation:
    # Every answer carries a fresh screenshot already; waiting for the page to settle is
    # what asking for one means here.
    return Translation(Action("wait"))


_HANDLERS = {"click": _click, "double_click": _double_click, "move": _move, "drag": _drag,
             "scroll": _scroll, "keypress": _keypress, "type": _type, "wait": _wait,
             "screenshot": _screenshot}

_SCROLL_PIXELS = 400  # what the reference policy says it scrolls; the executor picks its own


def to_openai(action: Action, *, image: Size, space: ModelSpace) -> dict[str, Any]:
    """A closed-set action as an OpenAI computer action (points from ``space`` to screenshot
    pixels). ValueError for actions that have no native form (offer them as functions)."""

    def xy(name: str = "start_box") -> dict[str, int]:
        p = action.point(name)
        return {"x": round(p.x * image.width / space.width),
                "y": round(p.y * image.height / space.height)}

    name = action.name
    if name == "click":
        return {"type": "click", "button": "left", **xy()}
    if name == "right_single":
        return {"type": "click", "button": "right", **xy()}
    if name == "left_double":
        return {"type": "double_click", **xy()}
    if name == "hover":
        return {"type": "move", **xy()}
    if name == "drag":
        return {"type": "drag", "path": [xy("start_box"), xy("end_box")]}
    if name == "scroll":
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[
            action.text("direction")]
        return {"type": "scroll", **xy(), "scroll_x": dx * _SCROLL_PIXELS,
                "scroll_y": dy * _SCROLL_PIXELS}
    if name == "type":
        return {"type": "type", "text": action.text("content")}
    if name == "hotkey":
        return {"type": "keypress", "keys": [k.upper() for k in key_names(
            action.text("key"))]}
    if name == "go_back":
        return {"type": "click", "button": "back", "x": 0, "y": 0}
    if name == "wait":
        return {"type": "wait"}
    raise ValueError(f"{name} has no OpenAI computer action")

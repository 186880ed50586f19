"""Claude computer-tool actions → the closed action set (pure: no wire, no browser).

Single-tool versions send ``name: "computer"`` with ``input.action``; the GA toolset sends the
member as the tool name (``left_click``) with the same parameters. Coordinates are pixels of
the screenshot as sent (the declared display); they become points of the model space. What
the closed set cannot do safely is refused with the reason, in the protocol's error form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..actions.registry import DIRECTIONS, Action, Point
from ..core.errors import ParseError
from .base import Call, Observation
from .keys import KeySpellingError, from_xdotool
from .native import to_space
from .schema import action_from_call, arguments_of

EXTRA_TOOLS = ("hover", "select", "find_text", "read_text", "finished")
ZOOMING = ("computer_20251124", "computer_toolset_20260801")
MODIFIERS = {"ctrl", "control", "shift", "alt", "super", "cmd", "meta", "win", "option"}


class _Bad(Exception):
    """A malformed call (parse-stage); the message names what was wrong."""


class _Refused(Exception):
    def __init__(self, guardrail: str, sentence: str) -> None:
        super().__init__(sentence)
        self.guardrail = guardrail


class Translator:
    """One task's translator: it keeps the pointer position Claude's coordinate-less clicks use."""

    def __init__(self, version: str) -> None:
        self.version = version
        self.cursor: tuple[float, float] | None = None  # in display pixels

    def call(self, use: Mapping[str, Any], obs: Observation) -> Call:
        name, raw = str(use.get("name") or ""), use.get("input")
        native = {"name": name, "input": raw}
        if use.get("toolset_name"):
            native["toolset_name"] = use["toolset_name"]
        call_id = str(use.get("id") or "") or None
        try:
            args = arguments_of(name, raw if raw is not None else {})
            action = self._translate(name, args, obs, bool(use.get("toolset_name")))
        except (_Bad, ParseError, KeySpellingError) as e:
            text = str(e) if str(e).startswith("Malformed") else f"Malformed tool call: {e}."
            return Call(call_id, native, None, text)
        except _Refused as e:
            return Call(call_id, native, None, str(e), e.guardrail)
        return Call(call_id, native, action)

    def _translate(self, name: str, args: dict[str, Any], obs: Observation,
                   toolset: bool) -> Action:
        if name in EXTRA_TOOLS:
            return self._extra(name, args, obs)
        if toolset:
            member = name
        elif name == "computer":
            member = str(args.pop("action", ""))
        else:
            raise _Bad(f"unknown tool `{name[:60]}`; the tools are computer, "
                       f"{', '.join(EXTRA_TOOLS)}")
        handler = _MEMBERS.get(member)
        if handler is None:
            raise _Bad(f"unknown computer action `{member[:60]}`")
        if member == "zoom" and self.version not in ZOOMING:
            raise _Bad(f"zoom needs the tool version computer_20251124 or later, and this task "
                       f"uses {self.version}")
        return handler(self, args, obs)

    # -- readers ---------------------------------------------------------------------------

    def point(self, value: object, obs: Observation, what: str = "coordinate") -> Point:
        w, h = obs.image.width, obs.image.height
        if (not isinstance(value, list | tuple) or len(value) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
            raise _Bad(f"`{what}` must be [x, y], not {value!r}")
        point = to_space(float(value[0]), float(value[1]), grid=(w, h), space=obs.space)
        if point is None:
            raise _Bad(f"Coordinates ({value[0]:g}, {value[1]:g}) are outside display bounds "
                       f"({w}x{h})")
        return point

    def at(self, args: dict[str, Any], obs: Observation, key: str = "coordinate") -> Point:
        """The call's coordinate; without one, where the pointer was left (mouse_move)."""
        if args.get(key) is None:
            if self.cursor is None:
                raise _Bad(f"`{key}` is missing and the pointer has not been placed yet")
            return self.point(list(self.cursor), obs, key)
        point = self.point(args[key], obs, key)
        self.cursor = (float(args[key][0]), float(args[key][1]))
        return point

    def _extra(self, name: str, args: dict[str, Any], obs: Observation) -> Action:
        action = action_from_call(name, args)
        points = {k: self.point([v.x, v.y], obs, k) for k, v in action.args.items()
                  if isinstance(v, Point)}
        return Action(action.name, {**action.args, **points})


def _no_modifier(args: dict[str, Any], what: str) -> None:
    held = str(args.get("text") or args.get("key") or "").strip().lower()
    if held and set(held.replace("+", " ").split()) & MODIFIERS:
        raise _Refused("new_tab", f"Refused: a {held}+{what} opens a new tab or window (or acts "
                                  "on the browser), and this task stays in one tab. Use a plain "
                                  f"{what} without a modifier.")
    if held:
        raise _Bad(f"`text` of a {what} names modifier keys (ctrl, shift, alt, super), not {held!r}")


def _click(name: str) -> Callable[[Translator, dict[str, Any], Observation], Action]:
    def handle(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
        _no_modifier(args, "click")
        return Action(name, {"start_box": t.at(args, obs)})
    return handle


def _refuse(guardrail: str, sentence: str) -> Callable[[Translator, dict[str, Any], Observation],
                                                      Action]:
    def handle(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
        raise _Refused(guardrail, sentence)
    return handle


def _mouse_move(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    return Action("hover", {"start_box": t.at(args, obs)})


def _drag(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    start = (t.point(args["start_coordinate"], obs, "start_coordinate")
             if args.get("start_coordinate") is not None else t.at({}, obs))
    return Action("drag", {"start_box": start, "end_box": t.at(args, obs)})


def _type(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    text = args.get("text")
    if not isinstance(text, str) or not text:
        raise _Bad("`text` of type must be the text to type")
    return Action("type", {"content": text})


def _key(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    text = args.get("text")
    if not isinstance(text, str):
        raise _Bad("`text` of key must be a key combination such as 'ctrl+a' or 'Return'")
    return Action("hotkey", {"key": from_xdotool(text)})


def _scroll(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    direction = str(args.get("scroll_direction") or "").lower()
    if direction not in DIRECTIONS:
        raise _Bad(f"`scroll_direction` must be one of {', '.join(DIRECTIONS)}, not "
                   f"{args.get('scroll_direction')!r}")
    _no_modifier(args, "scroll")
    point = (t.at(args, obs) if args.get("coordinate") is not None or t.cursor
             else Point(obs.space.width / 2, obs.space.height / 2))
    return Action("scroll", {"start_box": point, "direction": direction})


def _wait(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    return Action("wait", {})


def _zoom(t: Translator, args: dict[str, Any], obs: Observation) -> Action:
    region = args.get("region")
    if (not isinstance(region, list | tuple) or len(region) != 4):
        raise _Bad(f"`region` of zoom must be [x1, y1, x2, y2], not {region!r}")
    first = t.point(list(region[:2]), obs, "region")
    second = t.point(list(region[2:]), obs, "region")
    if first.x >= second.x or first.y >= second.y:
        raise _Bad("`region` of zoom must have x1 < x2 and y1 < y2")
    return Action("zoom", {"start_box": first, "end_box": second})


_CLOSED = "closed_action_set"
_MEMBERS: dict[str, Callable[[Translator, dict[str, Any], Observation], Action]] = {
    "screenshot": _wait,  # a fresh screenshot comes with every result; wait lets the page settle
    "left_click": _click("click"),
    "double_click": _click("left_double"),
    "right_click": _click("right_single"),
    "triple_click": _refuse(_CLOSED, "Refused: triple_click is not in webfovea's closed action "
                                     "set. To replace a field's text, left_click it, then key "
                                     "ctrl+a and type."),
    "middle_click": _refuse("new_tab", "Refused: a middle click opens a link in a new tab, and "
                                       "this task stays in one tab. Use left_click."),
    "mouse_move": _mouse_move,
    "left_click_drag": _drag,
    "left_mouse_down": _refuse(_CLOSED, "Refused: left_mouse_down is not in webfovea's closed "
                                        "action set. Use left_click_drag."),
    "left_mouse_up": _refuse(_CLOSED, "Refused: left_mouse_up is not in webfovea's closed "
                                      "action set. Use left_click_drag."),
    "hold_key": _refuse(_CLOSED, "Refused: hold_key is not in webfovea's closed action set. Use "
                                 "key."),
    "cursor_position": _refuse(_CLOSED, "Refused: cursor_position is not offered; every action "
                                        "takes its coordinate."),
    "type": _type,
    "key": _key,
    "scroll": _scroll,
    "wait": _wait,
    "zoom": _zoom,
}

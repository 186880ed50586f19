"""The closed action set as JSON-schema functions, generated from ``actions.REGISTRY``.

One definition per action, so the prompt, the parser, the executor, the tool schema (the
``tools`` dialect, the extra tools of the native dialects) and the MCP server's schema can
never disagree. Points are JSON arrays ``[x, y]`` under the registry's argument names.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..actions.keys import key_names
from ..actions.registry import (
    DIRECTIONS,
    REGISTRY,
    TEXT_ACTIONS,
    Action,
    ActionSpec,
    ArgSpec,
    ArgValue,
    Point,
)
from ..core.errors import ParseError

_SHOWN = 60  # characters of a bad value quoted back to the model


@dataclass(frozen=True)
class ToolSchema:
    name: str
    description: str
    input_schema: dict[str, Any]


def _property(arg: ArgSpec) -> dict[str, Any]:
    if arg.kind == "point":
        return {"type": "array", "items": {"type": "number", "minimum": 0},
                "minItems": 2, "maxItems": 2,
                "description": "a point [x, y] in the screenshot's coordinate space"}
    if arg.kind == "direction":
        return {"type": "string", "enum": list(DIRECTIONS)}
    if arg.kind == "choice":
        return {"type": "string", "enum": list(arg.choices), "default": arg.default}
    if arg.kind == "key":
        return {"type": "string", "description": "a key combination, e.g. 'ctrl a' or 'Enter'"}
    return {"type": "string"}


def schema_for(spec: ActionSpec) -> ToolSchema:
    properties = {a.name: _property(a) for a in spec.args}
    required = [a.name for a in spec.args if a.default is None]
    return ToolSchema(spec.name, spec.summary, {"type": "object", "properties": properties,
                                                "required": required,
                                                "additionalProperties": False})


def tool_schemas(names: Iterable[str] | None = None) -> list[ToolSchema]:
    """The text prompt's action set (or exactly ``names``, in registry order) as functions."""
    wanted = set(TEXT_ACTIONS) if names is None else set(names)
    unknown = wanted - set(REGISTRY)
    if unknown:
        raise KeyError(f"not in the action registry: {', '.join(sorted(unknown))}")
    return [schema_for(s) for s in REGISTRY.values() if s.name in wanted]


def _show(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}…"


def _fail(problem: str, spec: ActionSpec | None = None) -> ParseError:
    usage = f" Call it as {spec.name}({', '.join(spec.arg_names)})." if spec else ""
    return ParseError(f"Malformed tool call: {problem}.{usage}")


def arguments_of(name: str, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
    """A tool call's arguments as an object (servers send them as a JSON string)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as e:
            raise _fail(f"the arguments of `{_show(name)}` are not JSON ({e.msg}): "
                        f"`{_show(arguments)}`") from None
    if not isinstance(arguments, Mapping):
        raise _fail(f"the arguments of `{_show(name)}` must be an object, not "
                    f"`{_show(arguments)}`")
    return dict(arguments)


def action_from_call(name: str, arguments: Mapping[str, Any] | str) -> Action:
    """The registry action a function call names; ParseError naming the bad argument.

    ``navigate`` is no function of ours: only a protocol's own address bar (Gemini's
    ``navigate``, MCP's ``open``) becomes it, never a call by that name."""
    spec = REGISTRY.get(name)
    if spec is None or spec.navigates:
        valid = ", ".join(n for n, s in REGISTRY.items() if not s.navigates)
        raise _fail(f"unknown action `{_show(name)}`; the valid actions are {valid}")
    given = arguments_of(name, arguments)
    unknown = [k for k in given if spec.arg(k) is None]
    if unknown:
        raise _fail(f"`{spec.name}` got unknown argument `{_show(unknown[0])}`", spec)
    args: dict[str, ArgValue] = {}
    for arg in spec.args:
        if arg.name not in given or given[arg.name] is None:
            if arg.default is None:
                raise _fail(f"`{spec.name}` is missing the argument `{arg.name}`", spec)
            args[arg.name] = arg.default
            continue
        args[arg.name] = _value(arg, given[arg.name], spec)
    return Action(spec.name, args)


def _value(arg: ArgSpec, value: object, spec: ActionSpec) -> ArgValue:
    if arg.kind == "point":
        return point_from(value, f"`{spec.name}.{arg.name}`", spec)
    if not isinstance(value, str):
        raise _fail(f"`{spec.name}.{arg.name}` must be a string, not `{_show(value)}`", spec)
    if arg.kind == "direction" and value.strip().lower() not in DIRECTIONS:
        raise _fail(f"`{spec.name}.{arg.name}` must be one of {', '.join(DIRECTIONS)}, not "
                    f"`{_show(value)}`", spec)
    if arg.kind == "choice" and value.strip().lower() not in arg.choices:
        raise _fail(f"`{spec.name}.{arg.name}` must be one of {', '.join(arg.choices)}, not "
                    f"`{_show(value)}`", spec)
    if arg.kind in ("direction", "choice"):
        return value.strip().lower()
    if arg.kind == "key":
        names = key_names(value)
        if not names:
            raise _fail(f"`{spec.name}.{arg.name}` is empty", spec)
        return " ".join(names)
    return value


def point_from(value: object, where: str, spec: ActionSpec | None = None) -> Point:
    """``[x, y]`` (two finite numbers, 0 or more) as a Point; ParseError naming ``where``."""
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise _fail(f"{where} must be a point [x, y] of two numbers, not `{_show(value)}`", spec)
    x, y = float(value[0]), float(value[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise _fail(f"{where} has a coordinate that is not a finite number", spec)
    if x < 0 or y < 0:
        raise _fail(f"{where} has a negative coordinate in `{_show(value)}`; points are pixels "
                    "from the top-left corner, 0 or more", spec)
    return Point(x + 0.0, y + 0.0)

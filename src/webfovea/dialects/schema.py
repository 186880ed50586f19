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
    FORM_FLAGS,
    REGISTRY,
    TEXT_ACTIONS,
    Action,
    ActionSpec,
    ArgSpec,
    ArgValue,
    Point,
    form_args,
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


_FORM_PROPERTIES: dict[str, dict[str, Any]] = {
    "target": {"type": "string", "description": "a short description of the element, e.g. "
                                                "'the blue Search button'; a grounding model "
                                                "places it on the screenshot"},
    "mark": {"type": "integer", "minimum": 1,
             "description": "instead of the point: the number of a mark on the screenshot"},
}


def schema_for(spec: ActionSpec, forms: frozenset[str] = frozenset()) -> ToolSchema:
    """``forms``: the point forms the run accepts; each point argument then becomes optional
    beside them (one of the two is given). With ``target`` (a grounder) the schema offers
    no point at all: a pointing tool takes ``target`` (and ``end_target``), required unless
    a mark may stand instead. A point given anyway is still read (:func:`action_from_call`)."""
    targets = "target" in forms
    properties = {a.name: _property(a) for a in spec.args
                  if not (targets and a.kind == "point")}
    offered = {n: f for n, f in form_args(spec).items() if f[1] in forms}
    properties.update({n: _FORM_PROPERTIES[form] for n, (_, form) in offered.items()})
    alone = targets and "mark" not in forms  # the target is the only way offered to point
    target_of = {point: n for n, (point, form) in offered.items() if form == "target"}
    formed = {point for point, _ in offered.values()}
    required = [target_of[a.name] if a.name in target_of and alone else a.name
                for a in spec.args if a.default is None and (alone or a.name not in formed)]
    return ToolSchema(spec.name, spec.summary_for(targets=targets),
                      {"type": "object", "properties": properties, "required": required,
                       "additionalProperties": False})


def tool_schemas(names: Iterable[str] | None = None,
                 forms: frozenset[str] = frozenset()) -> list[ToolSchema]:
    """The text prompt's action set (or exactly ``names``, in registry order) as functions."""
    wanted = set(TEXT_ACTIONS) if names is None else set(names)
    unknown = wanted - set(REGISTRY)
    if unknown:
        raise KeyError(f"not in the action registry: {', '.join(sorted(unknown))}")
    return [schema_for(s, forms) for s in REGISTRY.values() if s.name in wanted]


def _show(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}…"


def _fail(problem: str, spec: ActionSpec | None = None, *, targets: bool = False) -> ParseError:
    """``targets``: the run asks for targets, so the usage shows them where points would be."""
    names = [a.name for a in spec.shown_args(targets=targets)] if spec else []
    usage = f" Call it as {spec.name}({', '.join(names)})." if spec else ""
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


def action_from_call(name: str, arguments: Mapping[str, Any] | str,
                     forms: frozenset[str] = frozenset()) -> Action:
    """The registry action a function call names; ParseError naming the bad argument.

    ``navigate`` is no function of ours: only a protocol's own address bar (Gemini's
    ``navigate``, MCP's ``open``) becomes it, never a call by that name."""
    spec = REGISTRY.get(name)
    if spec is None or spec.navigates:
        valid = ", ".join(n for n, s in REGISTRY.items() if not s.navigates)
        raise _fail(f"unknown action `{_show(name)}`; the valid actions are {valid}")
    given = arguments_of(name, arguments)
    every = form_args(spec)
    offered = {n: f for n, f in every.items() if f[1] in forms}
    targets = "target" in forms
    for key in given:
        if key in every and key not in offered:
            raise _fail(f"`{spec.name}.{key}` is accepted only in runs with "
                        f"{FORM_FLAGS[every[key][1]]}; give the point", spec)
    unknown = [k for k in given if spec.arg(k) is None and k not in offered]
    if unknown:
        raise _fail(f"`{spec.name}` got unknown argument `{_show(unknown[0])}`", spec,
                    targets=targets)
    args: dict[str, ArgValue] = {}
    formed = {point: n for n, (point, _) in offered.items() if given.get(n) is not None}
    shown = {a.name: s.name for a, s in zip(spec.args, spec.shown_args(targets=targets),
                                            strict=True)}
    for arg in spec.args:
        if arg.name in formed and given.get(arg.name) is None:
            form_name = formed[arg.name]
            args[form_name] = _form_value(form_name, offered[form_name][1], given[form_name],
                                          spec)
            continue
        if arg.name not in given or given[arg.name] is None:
            if arg.default is None:
                raise _fail(f"`{spec.name}` is missing the argument `{shown[arg.name]}`", spec,
                            targets=targets)
            args[arg.name] = arg.default
            continue
        args[arg.name] = _value(arg, given[arg.name], spec)
    return Action(spec.name, args)


def _form_value(name: str, form: str, value: object, spec: ActionSpec) -> str:
    """A point form's value as the action keeps it: a description, or a mark's number."""
    if form == "mark":
        if isinstance(value, bool) or not isinstance(value, int | str) or not str(
                value).strip().isdigit() or int(str(value).strip()) < 1:
            raise _fail(f"`{spec.name}.{name}` must be a mark's number (1 or more), not "
                        f"`{_show(value)}`", spec)
        return str(int(str(value).strip()))
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"`{spec.name}.{name}` must describe the element in words, not "
                    f"`{_show(value)}`", spec)
    return " ".join(value.split())


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

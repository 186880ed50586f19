"""The MCP tools: the closed action set, generated from the registry, plus three of the server's.

Action tools come from :func:`webfovea.dialects.schema.tool_schemas` (one definition per
action: prompt, parser, executor and this schema cannot disagree); ``finished(content)``
is offered as ``finish(answer)``, the ``navigate`` action as ``open(url)`` (its first call
opens the session's entry page), and ``screenshot`` is the server's own.
A call becomes a dialect :class:`~webfovea.dialects.base.Call`; its points are pixels of the
last screenshot the server returned, refused outside it, never clamped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..actions.geometry import ModelSpace
from ..actions.registry import REGISTRY, Action, Point
from ..core.errors import ParseError
from ..dialects.base import Call
from ..dialects.schema import action_from_call, arguments_of, tool_schemas
from ..models.base import SentImage

ToolKind = Literal["action", "screenshot", "open", "finish"]
FINISH, SCREENSHOT, OPEN = "finish", "screenshot", "open"
_POINTS = ("Points [x, y] are pixels of the last screenshot this server returned (its size is "
           "stated with it); the server maps them to the page by the measured ratio.")


@dataclass(frozen=True)
class McpTool:
    name: str
    description: str
    input_schema: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "inputSchema": self.input_schema}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


def tool_list() -> list[McpTool]:
    """Every tool the server offers, in a stable order (the registry's, then the server's)."""
    # Every registry action, those the text prompt leaves out (zoom) too; navigate is open.
    actions = tool_schemas(n for n, s in REGISTRY.items() if not (s.ends_task or s.navigates))
    tools = [McpTool(s.name, _described(s.name, s.description), s.input_schema)
             for s in actions]
    return [
        McpTool(SCREENSHOT, "The page as it stands after the last action settled, and the size "
                            "of the image in pixels (the space of every point).", _object({})),
        McpTool(OPEN, "Open a page: the first call opens the session's entry page (when the "
                      "server was started without --url, it sets the locked site); later calls "
                      "load another page of that site in the tab. Only http(s) pages on the "
                      "locked site.",
                _object({"url": {"type": "string", "description": "an http(s) URL"}})),
        *tools,
        McpTool(FINISH, "End the task with the answer; the server records it with the page as "
                        "evidence. The session's run ends here.",
                _object({"answer": {"type": "string"}})),
    ]


def _described(name: str, summary: str) -> str:
    has_point = any(a.kind == "point" for a in REGISTRY[name].args)
    text = summary[:1].upper() + summary[1:] + "."
    return f"{text} {_POINTS}" if has_point else text


def kind_of(name: str) -> ToolKind:
    if name == SCREENSHOT:
        return "screenshot"
    if name == OPEN:
        return "open"
    if name == FINISH:
        return "finish"
    return "action"


def open_url(arguments: object) -> str:
    """The ``url`` of an ``open`` call; ParseError naming the argument when it is not one."""
    given = arguments_of(OPEN, arguments if isinstance(arguments, dict | str) else repr(arguments))
    unknown = [k for k in given if k != "url"]
    if unknown:
        raise ParseError(f"Malformed tool call: `open` got unknown argument `{unknown[0]}`. "
                         "Call it as open(url).")
    url = given.get("url")
    if not isinstance(url, str) or not url.strip():
        raise ParseError("Malformed tool call: `open` needs the argument `url`, an http(s) URL "
                         "as a string.")
    return url.strip()


def to_call(call_id: str, name: str, arguments: dict[str, Any], *, image: SentImage,
            space: ModelSpace) -> Call:
    """A tool call as the loop's Call: translated, its points checked against the image and
    converted to the image's model space; untranslatable calls carry the sentence why."""
    native = {"name": name, "arguments": arguments}
    try:
        action = _action(name, arguments)
    except ParseError as e:
        return Call(call_id, native, None, error=str(e))
    outside = _outside(action, image)
    if outside:
        return Call(call_id, native, None, error=outside)
    return Call(call_id, native, _in_space(action, image, space))


def _action(name: str, arguments: dict[str, Any]) -> Action:
    if name == FINISH:
        given = arguments_of(name, arguments)
        unknown = [k for k in given if k != "answer"]
        if unknown or not isinstance(given.get("answer"), str):
            bad = f"unknown argument `{unknown[0]}`" if unknown else "the argument `answer`, a string"
            raise ParseError(f"Malformed tool call: `finish` {'got' if unknown else 'needs'} "
                             f"{bad}. Call it as finish(answer).")
        return Action("finished", {"content": given["answer"]})
    if name == OPEN:
        return Action("navigate", {"url": open_url(arguments)})
    if name not in REGISTRY or REGISTRY[name].ends_task or REGISTRY[name].navigates:
        known = ", ".join(t.name for t in tool_list())
        raise ParseError(f"Malformed tool call: unknown tool `{name[:60]}`; the tools are {known}.")
    return action_from_call(name, arguments)


def _outside(action: Action, image: SentImage) -> str | None:
    for arg, value in action.args.items():
        if isinstance(value, Point) and not (value.x <= image.width and value.y <= image.height):
            return (f"The point `{action.name}.{arg}` [{value.x:g}, {value.y:g}] is outside the "
                    f"last screenshot, which is {image.width}x{image.height} pixels; give a "
                    "point inside it (take a screenshot to see the page again).")
    return None


def _in_space(action: Action, image: SentImage, space: ModelSpace) -> Action:
    """Image pixels -> the observation's model space (the same numbers under --coords image)."""
    sx, sy = space.width / image.width, space.height / image.height
    args = {k: Point(v.x * sx, v.y * sy) if isinstance(v, Point) else v
            for k, v in action.args.items()}
    return Action(action.name, args)

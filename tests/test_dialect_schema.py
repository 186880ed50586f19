"""The closed action set as tool schemas: generated from the registry, read back strictly."""

from __future__ import annotations

import json

import pytest

from webfovea.actions.registry import REGISTRY, Action, Point
from webfovea.core.errors import ParseError
from webfovea.dialects.schema import action_from_call, tool_schemas
from webfovea.dialects.text.parse import parse_reply


def test_one_schema_per_registry_action_with_its_arguments() -> None:
    schemas = tool_schemas()
    assert [s.name for s in schemas] == [n for n in REGISTRY if REGISTRY[n].in_text_prompt]
    for schema in schemas:
        spec = REGISTRY[schema.name]
        assert set(schema.input_schema["properties"]) == set(spec.arg_names)
        assert schema.input_schema["required"] == [a.name for a in spec.args if a.default is None]
        assert schema.description == spec.summary
    drag = next(s for s in schemas if s.name == "drag").input_schema["properties"]
    assert drag["start_box"]["type"] == drag["end_box"]["type"] == "array"


def test_a_subset_keeps_registry_order_and_rejects_unknown_names() -> None:
    assert [s.name for s in tool_schemas(["finished", "hover"])] == ["hover", "finished"]
    with pytest.raises(KeyError, match="goto"):
        tool_schemas(["goto"])


@pytest.mark.parametrize("source", [
    "click(start_box='(10,20)')", "drag(start_box='(1,2)', end_box='(3,4)')",
    "scroll(start_box='(5,5)', direction='up')", "hotkey(key='ctrl a')",
    "select(start_box='(1,1)', option='Red', mode='add')", "finished(content='42')",
    "fill(start_box='(3,4)', content='hi\\n')", "go_back()",
])
def test_a_call_reads_as_the_same_action_as_the_reply_grammar(source: str) -> None:
    expected = parse_reply(f"Action: {source}").action
    arguments = {k: ([v.x, v.y] if isinstance(v, Point) else v) for k, v in expected.args.items()}
    assert action_from_call(expected.name, arguments) == expected
    assert action_from_call(expected.name, json.dumps(arguments)) == expected


def test_optional_arguments_take_their_default_and_keys_are_normalised() -> None:
    assert action_from_call("select", {"start_box": [1, 2], "option": "x"}).text("mode") == "replace"
    assert action_from_call("hotkey", {"key": "Ctrl+A"}) == Action("hotkey", {"key": "ctrl a"})
    assert action_from_call("wait", "") == Action("wait", {})


@pytest.mark.parametrize(("name", "arguments", "named"), [
    ("goto", {"url": "x"}, "unknown action `goto`"),
    # only a protocol's own address bar (Gemini's navigate, MCP's open) becomes navigate
    ("navigate", {"url": "http://127.0.0.1/"}, "unknown action `navigate`"),
    ("click", {}, "missing the argument `start_box`"),
    ("click", "{not json", "not JSON"),
    ("click", "[1, 2]", "must be an object"),
    ("click", {"start_box": "(1,2)"}, "`click.start_box` must be a point"),
    ("click", {"start_box": [1, 2, 3]}, "must be a point"),
    ("click", {"start_box": [True, 2]}, "must be a point"),
    ("click", {"start_box": [-1, 2]}, "negative coordinate"),
    ("click", {"start_box": [1, 2], "button": "middle"}, "unknown argument `button`"),
    ("type", {"content": 5}, "`type.content` must be a string"),
    ("scroll", {"start_box": [1, 1], "direction": "sideways"}, "must be one of up"),
    ("hotkey", {"key": " "}, "`hotkey.key` is empty"),
])
def test_a_malformed_call_names_what_is_wrong(name: str, arguments: object, named: str) -> None:
    with pytest.raises(ParseError, match="Malformed tool call") as caught:
        action_from_call(name, arguments)  # type: ignore[arg-type]
    assert named in str(caught.value)

"""PARSE stage: reply text → one Action (the reply grammar, docs/contracts.md), or a ParseError
for the model."""

from __future__ import annotations

import math
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webfovea.actions.hotkeys import blacklisted
from webfovea.actions.keys import key_names, to_playwright
from webfovea.actions.registry import DIRECTIONS, TEXT_ACTIONS, Action, ActionSpec, ArgSpec, ArgValue, Point
from webfovea.core.errors import ParseError
from webfovea.dialects.text.parse import ParsedReply, parse_reply

# An independent oracle for "a chat-template token": nothing of this shape may reach the page.
TOKEN_SHAPE = re.compile(r"<[|\uff5c][\w\u2581.:-]{1,64}[|\uff5c]>|</s>|<end_of_turn>")
CHAT_TOKENS = (
    "<|eot_id|>", "<|im_end|>", "<|im_start|>", "<|end_of_turn|>", "<|endoftext|>", "<|end|>",
    "</s>", "<end_of_turn>", "<|start_header_id|>assistant<|end_header_id|>",
    "<|reserved_special_token_7|>", "<start_of_turn>", "<|python_tag|>",
    "<\uff5cend\u2581of\u2581sentence\uff5c>",
)
SAMPLE: dict[str, tuple[str, ArgValue]] = {
    "point": ("'(12,34)'", Point(12.0, 34.0)),
    "text": ("'hello world'", "hello world"),
    "direction": ("'down'", "down"),
    "key": ("'ctrl a'", "ctrl a"),
    "choice": ("'add'", "add"),
}


def action_of(reply: str) -> Action:
    return parse_reply(reply).action


def error_of(reply: str) -> str:
    with pytest.raises(ParseError) as info:
        parse_reply(reply)
    return str(info.value)


def call_with_samples(spec: ActionSpec) -> str:
    return f"{spec.name}({', '.join(f'{a.name}={SAMPLE[a.kind][0]}' for a in spec.args)})"


@pytest.mark.parametrize("spec", TEXT_ACTIONS.values(), ids=list(TEXT_ACTIONS))
def test_every_registry_action_parses_from_its_signature(spec: ActionSpec) -> None:
    parsed = parse_reply(f"Thought: try {spec.name}\nAction: {call_with_samples(spec)}")
    assert parsed.thought == f"try {spec.name}"
    assert parsed.action == Action(spec.name, {a.name: SAMPLE[a.kind][1] for a in spec.args})
    assert parsed.stripped == ()


def test_only_the_first_action_counts_and_the_rest_is_stripped() -> None:
    reply = (
        "Thought: search first\nAction: type(content='cheap flights\\n')\n"
        "Observation: the results page shows 3 flights\n"
        "Thought: pick one\nAction: click(start_box='(5,6)')\n"
    )
    parsed = parse_reply(reply)
    assert parsed.action == Action("type", {"content": "cheap flights\n"})
    assert parsed.thought == "search first"
    assert parsed.stripped == (
        "Observation: the results page shows 3 flights\n"
        "Thought: pick one\nAction: click(start_box='(5,6)')",
    )


def test_a_second_call_on_the_same_line_is_stripped() -> None:
    parsed = parse_reply("Action: click(start_box='(1,2)'); click(start_box='(3,4)')")
    assert parsed.action.point() == Point(1, 2)
    assert parsed.stripped == ("; click(start_box='(3,4)')",)


@pytest.mark.parametrize("token", CHAT_TOKENS)
@pytest.mark.parametrize(
    "template",
    [
        "Action: type(content='foo{t}')",
        "Action: type(content='fo{t}o')",
        "Action: type(content='foo'){t}",
        "{t}Thought: x{t}\nAction: type(content='foo'){t}\n{t}",
        "Action: type(content='foo{t}'){t}Observation: typed foo",
    ],
)
def test_chat_tokens_never_reach_a_text_argument(token: str, template: str) -> None:
    parsed = parse_reply(template.format(t=token))
    assert parsed.action == Action("type", {"content": "foo"})
    assert token in parsed.stripped
    assert not TOKEN_SHAPE.search(parsed.thought)


def test_a_new_turn_opened_by_the_model_is_stripped_with_its_role() -> None:
    reply = (
        "Thought: t\nAction: type(content='foo')<|im_end|>\n<|im_start|>user\nsays\n"
        "<start_of_turn>model\n<|start_header_id|>assistant<|end_header_id|>"
    )
    parsed = parse_reply(reply)
    assert parsed.action == Action("type", {"content": "foo"})
    assert parsed.stripped == (
        "<|im_end|>", "<|im_start|>user", "<start_of_turn>model",
        "<|start_header_id|>assistant<|end_header_id|>", "says",
    )


def test_tokens_are_stripped_from_every_text_kind() -> None:
    reply = "Action: select(start_box='(1,1)', option='Movie<|im_end|>')<|im_end|>"
    assert action_of(reply).text("option") == "Movie"
    assert action_of("Action: hotkey(key='ctrl<|eot_id|>+a')").text("key") == "ctrl a"


def test_a_token_rebuilt_by_stripping_is_stripped_too() -> None:
    parsed = parse_reply("Action: type(content='<|eot<|eot_id|>_id|>x<|box_<|box_end|>end|>')")
    assert parsed.action.text("content") == "x"


def test_deeply_nested_tokens_are_refused() -> None:
    reply = "Action: type(content='" + "<|eot" * 20 + "<|eot_id|>" + "_id|>" * 20 + "')"
    assert "nested chat-template tokens" in error_of(reply)


@pytest.mark.parametrize(
    "text",
    ["a <|> b", "f <| x |> g", "x || y", "C:\\Users\\me", "<b>bold</b> & <s>", "1 < 2 > 0",
     "see [x] (y) {z}", "tab\there"],
)
def test_legitimate_text_is_kept_exactly(text: str) -> None:
    source = Action("type", {"content": text}).source()
    parsed = parse_reply(f"Action: {source}")
    assert parsed.action.text("content") == text
    assert parsed.stripped == ()


def test_box_markers_wrap_a_point() -> None:
    reply = "Action: click(start_box='<|box_start|>(100,200)<|box_end|>')"
    expected = Action("click", {"start_box": Point(100, 200)})
    assert parse_reply(reply) == ParsedReply(thought="", action=expected, stripped=())
    unquoted = "Action: click(start_box=<|box_start|>(7, 8)<|box_end|>)"
    assert action_of(unquoted).point() == Point(7, 8)


def test_box_markers_in_free_text_are_template_tokens() -> None:
    reply = "Thought: at <|box_start|>(1,2)<|box_end|>\nAction: type(content='a<|box_end|>')"
    parsed = parse_reply(reply)
    assert parsed.thought == "at (1,2)"
    assert parsed.action.text("content") == "a"
    assert parsed.stripped == ("<|box_start|>", "<|box_end|>", "<|box_end|>")


def test_a_box_means_its_centre() -> None:
    action = action_of("Action: drag(start_box='(0,0,10,20)', end_box='[100, 50, 201, 51]')")
    assert action.point("start_box") == Point(5, 10)
    assert action.point("end_box") == Point(150.5, 50.5)


def test_zero_coordinates_are_valid() -> None:
    assert action_of("Action: click(start_box='(0,0)')").point() == Point(0, 0)
    assert action_of("Action: click(start_box='(0, 5)')").point() == Point(0, 5)


def test_floats_are_kept_not_truncated() -> None:
    point = action_of("Action: hover(start_box='(10.6, 0.5)')").point()
    assert (point.x, point.y) == (10.6, 0.5)


@pytest.mark.parametrize(
    "value",
    ["'(12,34)'", '"(12,34)"', "'( 12 , 34 )'", "(12,34)", "[12, 34]", "'[12,34]'", "'12,34'",
     "'(12.0,34)'", "'(+12,34.)'"],
)
def test_point_spellings(value: str) -> None:
    assert action_of(f"Action: click(start_box={value})").point() == Point(12, 34)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("'it\\'s'", "it's"),
        ('"say \\"hi\\""', 'say "hi"'),
        ("\"it's\"", "it's"),
        ("'a\\\\b'", "a\\b"),
        ("'col1\\tcol2'", "col1\tcol2"),
        ("'two\nlines'", "two\nlines"),
        ("'Rock 'n' roll'", "Rock 'n' roll"),
        ("'x', ", "x"),
        ("'a, b'", "a, b"),
        ("'a', 'b'", "a', 'b"),
        ("42", "42"),
    ],
)
def test_quotes_and_escapes(value: str, expected: str) -> None:
    assert action_of(f"Action: finished(content={value})").text("content") == expected


def test_a_trailing_newline_in_type_content_is_a_real_newline() -> None:
    assert action_of("Action: type(content='weather\\n')").text("content") == "weather\n"
    assert action_of('Action: type(content="weather\\n")').text("content") == "weather\n"
    assert action_of("Action: fill(start_box='(1,1)', content='x\\n')").text("content") == "x\n"


def test_missing_action_says_what_a_valid_reply_looks_like() -> None:
    message = error_of("Thought: I should click the search box.")
    assert "no `Action:` line found" in message
    assert "Action: click(start_box='(x,y)')" in message


def test_an_unknown_action_lists_every_valid_name() -> None:
    message = error_of("Action: navigate(url='https://example.com')")
    assert "unknown action `navigate`" in message
    assert all(name in message for name in TEXT_ACTIONS)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Action: click()", "missing argument `start_box`"),
        ("Action: click(start_box='(1,1)', button='left')", "unknown argument `button`"),
        ("Action: click(start_box='(1,1)', start_box='(2,2)')", "repeated argument `start_box`"),
        ("Action: click('(1,1)')", "needs a name"),
        ("Action: click(start_box='(1,1)' end_box='(2,2)')", "must be a point"),
        ("Action: click(start_box)", "expected `=`"),
        ("Action: type(content='abc", "no closing quote"),
        ("Action: type(content='abc\\", "no closing quote"),
        ("Action: click", "needs its arguments in parentheses"),
    ],
)
def test_argument_errors_name_the_problem_and_show_the_signature(reply: str, expected: str) -> None:
    message = error_of(reply)
    assert expected in message
    name = reply.removeprefix("Action: ").split("(")[0]
    assert message.endswith(f"Write it as `Action: {TEXT_ACTIONS[name].signature}`.")


def test_an_action_line_without_a_name_shows_the_reply_format() -> None:
    message = error_of("Action: (1,2)")
    assert "`Action:` is not followed by an action name" in message
    assert message.endswith("then one `Action: click(start_box='(x,y)')`.")


def test_a_bad_direction_is_refused_and_case_is_forgiven() -> None:
    message = error_of("Action: scroll(start_box='(1,1)', direction='sideways')")
    assert "direction must be one of up, down, left, right, not `sideways`" in message
    assert TEXT_ACTIONS["scroll"].signature in message
    action = action_of("Action: scroll(start_box='(1,1)', direction=' UP ')")
    assert action.text("direction") == "up"


@pytest.mark.parametrize(
    "value", ["'(-5,10)'", "'(5,-0.5)'", "'(-1,0,10,10)'"],
)
def test_negative_coordinates_are_refused(value: str) -> None:
    assert "negative coordinate" in error_of(f"Action: click(start_box={value})")


@pytest.mark.parametrize(
    "value", ["'(x,y)'", "'(1)'", "'(1,2,3)'", "'(1,2,3,4,5)'", "'1e3,4'", "'(nan,1)'", "''"],
)
def test_a_non_point_is_refused(value: str) -> None:
    assert "must be a point like '(x,y)'" in error_of(f"Action: click(start_box={value})")


def test_a_coordinate_too_large_for_a_float_is_refused() -> None:
    assert "too large" in error_of(f"Action: click(start_box='({'9' * 400},1)')")


@pytest.mark.parametrize(
    "reply",
    [
        "Action: `click(start_box='(3,4)')`",
        "**Action:** click(start_box='(3,4)')",
        "**Action**: click(start_box='(3,4)');",
        "Action:\n```python\nclick(start_box='(3,4)')\n```",
        "```\nThought: ok\nAction: click(start_box='(3,4)')\n```",
        "action: Click(start_box = '(3,4)' , )",
        "ACTION: click(start_box: '(3,4)')",
        "Thought: ok Action: click(start_box='(3,4)')",
    ],
)
def test_common_formatting_slips_are_tolerated(reply: str) -> None:
    parsed = parse_reply(reply)
    assert parsed.action == Action("click", {"start_box": Point(3, 4)})
    assert parsed.stripped == ()


def test_a_zero_argument_action_may_omit_its_parentheses() -> None:
    assert action_of("Action: wait") == Action("wait")
    assert action_of("Action: go_back()") == Action("go_back")


@pytest.mark.parametrize(
    ("key", "expected"),
    [("Ctrl+A", "ctrl a"), ("ctrl  a", "ctrl a"), (" Shift + Tab ", "shift tab"),
     ("ctrl+shift+T", "ctrl shift t"), ("Enter", "enter"), ("ctrl++", "ctrl +"), ("+", "+"),
     ("ctrl +", "ctrl +"), ("Ctrl + Shift + +", "ctrl shift +"), ("shift+", "shift")],
)
def test_hotkey_keys_are_normalised(key: str, expected: str) -> None:
    assert action_of(f"Action: hotkey(key='{key}')").text("key") == expected


_KEY_BITS = st.sampled_from(["ctrl", "Ctrl", "cmd", "shift", "alt", "w", "T", "F5", "left",
                             "=", "+", "++", " ", "  ", "\t"])


@given(st.lists(_KEY_BITS, max_size=6).map("".join))
def test_a_key_the_parser_stored_reads_back_as_the_same_keys(text: str) -> None:
    """The parser stores ``' '.join(key_names(...))``; the executor and the hotkey blacklist
    read that stored form through the same function, so they must see the same names."""
    names = key_names(text)
    assert key_names(" ".join(names)) == names
    assert to_playwright(" ".join(names)) == to_playwright(text)
    assert blacklisted(" ".join(names)) == blacklisted(text)


def test_an_empty_key_is_refused() -> None:
    assert "the key is empty" in error_of("Action: hotkey(key='  ')")


def test_thought_is_optional_and_may_span_lines() -> None:
    assert parse_reply("Action: wait()").thought == ""
    assert parse_reply("I will wait.\nAction: wait()").thought == "I will wait."
    parsed = parse_reply("Thought: line one\nline two\nAction: wait()")
    assert parsed.thought == "line one\nline two"


def test_text_before_the_thought_is_stripped() -> None:
    parsed = parse_reply("Reflection: it failed.\nThought: retry\nAction: reload()")
    assert (parsed.thought, parsed.stripped) == ("retry", ("Reflection: it failed.",))


def test_a_mention_of_action_inside_the_thought_is_not_the_action() -> None:
    parsed = parse_reply("Thought: my next Action: is a click\nAction: click(start_box='(9,9)')")
    assert parsed.action.point() == Point(9, 9)
    assert parsed.thought == "my next Action: is a click"


def test_drafts_inside_a_reasoning_block_are_ignored() -> None:
    reply = "<think>Action: click(start_box='(1,1)')</think>\nThought: no\nAction: go_back()"
    parsed = parse_reply(reply)
    assert parsed.action == Action("go_back")
    assert parsed.stripped == ("<think>Action: click(start_box='(1,1)')</think>",)


def test_only_text_is_accepted() -> None:
    assert "not text" in error_of(b"Action: wait()")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "reply",
    [
        # (ending in a quote, it would be a whole call: the reply may end where only `)` is missing)
        "Action: type(content='" + "'" * 50_000 + " x",
        "Action: type(content='" + "', x" * 50_000,
        "Action: type(content='" + "\\" * 200_000,
        "Action:" * 50_000,
        "\n**Action**" * 50_000,
        "<|" * 100_000 + "a" * 100_000,
        "<|start_header_id|>" * 20_000,
        "Thought:" * 50_000,
        "Action: click(start_box=" + "(" * 100_000,
        "Action: click(" + "a='1'," * 30_000 + ")",
        "Action: click(start_box='" + "1," * 100_000 + "')",
        "Action" + " " * 200_000 + "x",
    ],
    ids=lambda r: repr(r[:24]),
)
def test_pathological_replies_are_handled_in_linear_time(reply: str) -> None:
    # Not a speed target (benchmarks hold those): a guard against catastrophic backtracking,
    # which on inputs this long takes minutes, where linear parsing takes milliseconds even
    # on a loaded machine. The bound sits far from both.
    started = time.perf_counter()
    with pytest.raises(ParseError) as info:
        parse_reply(reply)
    assert time.perf_counter() - started < 15.0
    assert len(str(info.value)) < 400  # the model's junk is not echoed back at length


def assert_valid(parsed: ParsedReply) -> None:
    spec = TEXT_ACTIONS[parsed.action.name]
    omitted = set(spec.arg_names) - set(parsed.action.args)
    assert set(parsed.action.args) <= set(spec.arg_names)
    assert all(spec.arg(name).omissible for name in omitted)  # type: ignore[union-attr]
    assert not TOKEN_SHAPE.search(parsed.thought)
    for arg in spec.args:
        if arg.name in omitted:
            continue
        value = parsed.action.args[arg.name]
        if arg.kind == "point":
            assert isinstance(value, Point)
            assert all(math.isfinite(c) and c >= 0 for c in (value.x, value.y))
            continue
        assert isinstance(value, str)
        assert not TOKEN_SHAPE.search(value)
        if arg.kind == "direction":
            assert value in DIRECTIONS
        if arg.kind == "key":
            assert value and value == value.lower() == " ".join(value.split())


def parse_or_error(reply: str) -> ParsedReply | None:
    try:
        return parse_reply(reply)
    except ParseError as error:
        assert str(error).startswith("Could not parse your reply: ")
        return None


FRAGMENTS = [
    "Action:", "Thought:", "Observation:", "**", "`", "```", ";", "\n", " ", "(", ")", "[", "]",
    "'(", ")'", "'", '"', ",", "=", "\\", "\\n", "0", "1", "10.6", "-3", "1e9", "down", "Ctrl+A",
    "<|eot_id|>", "<|im_end|>", "<|box_start|>", "<|box_end|>", "</s>", "<|", "|>", "</think>",
    *(f"{name}(" for name in TEXT_ACTIONS),
    *(f"{arg.name}=" for spec in TEXT_ACTIONS.values() for arg in spec.args),
]


@settings(max_examples=300)
@given(st.text())
def test_arbitrary_text_gives_a_valid_action_or_a_parse_error(text: str) -> None:
    parsed = parse_or_error(text)
    if parsed is not None:
        assert_valid(parsed)


@settings(max_examples=500)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=3), max_size=40).map("".join))
def test_grammar_like_text_gives_a_valid_action_or_a_parse_error(text: str) -> None:
    parsed = parse_or_error(text)
    if parsed is not None:
        assert_valid(parsed)


def value_strategy(arg: ArgSpec) -> st.SearchStrategy[ArgValue]:
    if arg.kind == "point":
        # Action.source() prints 6 significant digits: pixels with one decimal round-trip.
        coord = st.integers(0, 40_000).map(lambda n: n / 10)
        return st.builds(Point, coord, coord)
    if arg.kind == "direction":
        return st.sampled_from(DIRECTIONS)
    if arg.kind == "choice":
        return st.sampled_from(arg.choices)
    if arg.kind == "key":
        keys = st.sampled_from(["ctrl", "shift", "alt", "a", "enter", "f5", "pagedown"])
        return st.lists(keys, min_size=1, max_size=3).map(" ".join)
    # The characters that matter to the tokenizer, often; "<" could start a token.
    tricky = st.sampled_from(list("a '\"\\\n\t,()=:[]"))
    return st.text(tricky | st.characters(blacklist_characters="<"))


@st.composite
def actions(draw: st.DrawFn) -> Action:
    spec = draw(st.sampled_from(list(TEXT_ACTIONS.values())))
    return Action(spec.name, {a.name: draw(value_strategy(a)) for a in spec.args})


@settings(max_examples=300)
@given(actions(), st.text(st.characters(blacklist_characters="<"), max_size=30))
def test_the_canonical_source_of_any_action_parses_back_to_it(action: Action, junk: str) -> None:
    parsed = parse_reply(f"Thought: go\nAction: {action.source()}\nObservation: {junk}")
    assert parsed.action == action


@settings(max_examples=300)
@given(actions(), st.sampled_from(FRAGMENTS), st.integers(0, 10_000))
def test_a_corrupted_valid_reply_still_gives_a_valid_action_or_a_parse_error(
    action: Action, fragment: str, where: int
) -> None:
    reply = f"Thought: go\nAction: {action.source()}"
    cut = where % (len(reply) + 1)
    parsed = parse_or_error(reply[:cut] + fragment + reply[cut:])
    if parsed is not None:
        assert_valid(parsed)


@settings(max_examples=300)
@given(actions(), st.sampled_from([*CHAT_TOKENS, "<|box_start|>", "<|box_end|>"]), st.integers())
def test_a_chat_token_inserted_anywhere_never_reaches_an_argument(
    action: Action, token: str, where: int
) -> None:
    reply = f"Thought: go\nAction: {action.source()}"
    cut = where % (len(reply) + 1)
    parsed = parse_or_error(reply[:cut] + token + reply[cut:])
    if parsed is not None:
        assert_valid(parsed)


@settings(max_examples=100)
@given(actions())
def test_every_truncation_of_a_valid_reply_gives_a_valid_action_or_a_parse_error(
    action: Action,
) -> None:
    reply = f"Thought: go\nAction: {action.source()}"
    for cut in range(len(reply)):  # a reply cut off by the token limit, at every point
        parsed = parse_or_error(reply[:cut])
        if parsed is not None:
            assert_valid(parsed)

"""The reply grammar reads what UI-TARS's publishers' own parser reads (the ``ui-tars`` package,
the dev extra), to the same action and point.

Their parser has two text readers: ``parse_action_to_structure_output`` (UI-TARS / UI-TARS-1.5:
``start_box='(x,y)'`` and ``point='<point>x y</point>'``; points in the smart-resized image's
pixels for Qwen2.5-VL models, else over ``factor``) and ``parse_action_to_structure_output_v2``
(``<point>``/``<bbox>`` tags, thousandths). Both return points as fractions of their space; ours
keeps the model's own numbers, which the loop maps from the run's model space. So a point is
compared as ours / our model space == theirs, and on the page through our own mapping.
"""

from __future__ import annotations

import ast
import contextlib
import io
from typing import Any

import pytest
from ui_tars import action_parser as theirs

from webfovea.actions.geometry import model_space, smart_resize, to_page
from webfovea.actions.registry import ACTION_ALIASES, Point
from webfovea.core.config import CoordSpace, Size, SmartResize
from webfovea.core.errors import ParseError
from webfovea.dialects.text.parse import ParsedReply, parse_reply

SENT = Size(1440, 810)  # the default image cap: what a model is sent of a 1920x1080 page
PAGE = Size(1920, 1080)
GRID = SmartResize()

# Every form of their action space and of their parser's leniency, one reply each.
REPLIES = [
    "Thought: 点击搜索框\nAction: click(point='<point>200 300</point>')",
    "Thought: open it\nAction: left_double(point='<point>512 64</point>')",
    "Thought: menu\nAction: right_single(point='<point>90 700</point>')",
    "Action: drag(start_point='<point>100 200</point>', end_point='<point>300 400</point>')",
    "Action: scroll(point='<point>640 360</point>', direction='down')",
    "Action: hotkey(key='ctrl c')",
    "Thought: 输入城市\nAction: type(content='北京 天气\\n')",
    "Action: type(content='Rock 'n' roll')",
    "Action: wait()",
    "Action: finished(content='答案：第一行\\n第二行')",
    "Action: finished()",
    "Action: finished(content='')",
    "Action: call_user()",
    "Action: click(start_box='(640,360)')",
    "Action: click(start_box='(12.5,30.25)')",
    "Action: click(start_box='100,200')",
    "Action: click(start_box='(100,200,300,400)')",
    "Action: click(start_box='<bbox>100 200 300 400</bbox>')",
    "Action: click(point='<bbox>10 20 30 40</bbox>')",
    "Action: click(point='<point>12.5 30.5</point>')",
    "Action: drag(start_box='(10,20)', end_box='(30,40)')",
    "Action: drag(start_box='<bbox>0 0 20 20</bbox>', end_box='<bbox>100 100 120 140</bbox>')",
    "Action: scroll(start_box='(10,10)', direction='up')",
    "Action: scroll(direction='down')",  # pyautogui scrolls where the mouse is; we, at the centre
    "Action: press(key='enter')",
    "Action: hotkey(hotkey='ctrl v')",
    "Action: move_to(point='<point>5 6</point>')",
    "Action: left_single(start_box='(7,8)')",
    "Action: click(start_box='(640,360)'",  # their parser closes the call
    'Thought: quotes\nAction: click(point="<point>1 2</point>")',
    "Reflection: it failed\nAction_Summary: try the link\nAction: click(point='<point>3 4</point>')",
    "Action: click(point='<point>0 0</point>')",
]
# The reference runner (WebRetriever's UI-TARS-1.5 agent) writes the box tokens around points and
# removes them itself before the package reads the reply: ours reads them as written.
BOX_TOKENS = [
    "Action: click(start_box='<|box_start|>(640,360)<|box_end|>')",
    "Action: drag(start_box='<|box_start|>(1,2)<|box_end|>', end_box='<|box_start|>(3,4)<|box_end|>')",
    "Action: scroll(start_box='<|box_start|>(10,20)<|box_end|>', direction='left')",
]
# Their v2 reader accepts these names too; they hold a button or key down across steps, or start
# a desktop, which no webfovea action does: a parse error naming the valid actions.
NOT_OURS = [
    "Action: mouse_down(point='<point>1 2</point>')",
    "Action: mouse_up(point='<point>1 2</point>')",
    "Action: release(key='shift')",
    "Action: open_computer()",
]


def quietly(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Their parser's result, None where it refuses (it prints, asserts or raises then)."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return call(*args, **kwargs)
        except Exception:
            return None


def their_readings(reply: str) -> list[tuple[CoordSpace, list[dict[str, Any]]]]:
    """Each of their readers that parses ``reply``, with the space its fractions are of."""
    out: list[tuple[CoordSpace, list[dict[str, Any]]]] = []
    for model_type, space in (("qwen25vl", "smart_resize"), ("qwen2vl", "norm1000")):
        got = quietly(theirs.parse_action_to_structure_output, reply, 1000, SENT.height,
                      SENT.width, model_type=model_type, max_pixels=GRID.max_pixels,
                      min_pixels=GRID.min_pixels)
        if got:
            out.append((space, [{"type": a["action_type"], "inputs": {
                k: ast.literal_eval(v) if k in ("start_box", "end_box") else v  # their own str(list)
                for k, v in a["action_inputs"].items()}, "thought": a["thought"]} for a in got]))
    v2 = quietly(theirs.parse_action_to_structure_output_v2, reply)
    if v2 is not None and v2[1]:
        out.append(("norm1000", [{"type": a.action_type.value, "inputs": a.custom_data,
                                  "thought": v2[0]["thought"]} for a in v2[0]["actions"]]))
    return out


def assert_same(ours: ParsedReply, their: dict[str, Any], space_name: CoordSpace) -> None:
    action = ours.action
    assert action.name == ACTION_ALIASES.get(their["type"], their["type"])
    space = model_space(SENT, space_name, GRID)
    for name, value in their["inputs"].items():
        if name in ("start_box", "end_box"):
            x1, y1, x2, y2 = value
            point = action.point(name)
            assert point.x / space.width == pytest.approx((x1 + x2) / 2, abs=1e-9)
            assert point.y / space.height == pytest.approx((y1 + y2) / 2, abs=1e-9)
            px, py = to_page(point, space=space, page=PAGE)  # on the page, through our mapping
            assert abs(px - (x1 + x2) / 2 * PAGE.width) <= 1
            assert abs(py - (y1 + y2) / 2 * PAGE.height) <= 1
        elif name in ("hotkey", "press"):
            assert action.text("key") == value
        else:
            assert action.text(name) == value
    if their["inputs"] == {} and their["type"] == "finished":
        assert action.args.get("content", "") == ""
    if ours.thought.startswith(("Reflection", "Action_Summary")):
        return  # theirs keeps only the summary as the thought
    assert ours.thought == (their["thought"] or "")


@pytest.mark.parametrize("reply", REPLIES)
def test_every_reply_their_parser_reads_ours_reads_to_the_same_action_and_point(reply: str) -> None:
    readings = their_readings(reply)
    assert readings, "a row their parser does not read proves nothing"
    ours = parse_reply(reply)
    for space_name, actions in readings:
        assert len(actions) == 1
        assert_same(ours, actions[0], space_name)


@pytest.mark.parametrize("reply", BOX_TOKENS)
def test_the_reference_runners_box_tokens_read_as_their_parser_reads_them_stripped(reply: str) -> None:
    stripped = reply.replace("<|box_start|>", "").replace("<|box_end|>", "")
    readings = their_readings(stripped)
    assert readings and not their_readings(reply)  # the package itself does not read the tokens
    for space_name, actions in readings:
        assert_same(parse_reply(reply), actions[0], space_name)


@pytest.mark.parametrize("reply", NOT_OURS)
def test_actions_outside_webfoveas_action_set_are_named_parse_errors(reply: str) -> None:
    assert their_readings(reply)
    with pytest.raises(ParseError, match=r"unknown action .* the valid actions are click"):
        parse_reply(reply)


@pytest.mark.parametrize("grid", [GRID, SmartResize(max_pixels=1280 * 28 * 28),
                                  SmartResize(min_pixels=3136 * 28 * 28)])
@pytest.mark.parametrize("size", [SENT, PAGE, Size(1366, 768), Size(3840, 2160), Size(390, 844)])
def test_our_smart_resize_space_is_theirs(size: Size, grid: SmartResize) -> None:
    h, w = theirs.smart_resize(size.height, size.width, factor=grid.factor,
                               min_pixels=grid.min_pixels, max_pixels=grid.max_pixels)
    assert smart_resize(size, grid) == Size(w, h)


def test_the_forms_become_the_canonical_grammar_in_the_history() -> None:
    # What the next request's history shows (and steps.jsonl's action_source) is our own form.
    shown = {
        "Action: drag(start_point='<point>100 200</point>', end_point='<point>300 400</point>')":
            "drag(start_box='(100,200)', end_box='(300,400)')",
        "Action: click(point='<bbox>10 20 30 40</bbox>')": "click(start_box='(20,30)')",
        "Action: press(key='enter')": "hotkey(key='enter')",
        "Action: finished()": "finished()",
        "Action: scroll(direction='down')": "scroll(direction='down')",
    }
    for reply, source in shown.items():
        assert parse_reply(reply).action.source() == source


def test_a_point_and_its_alias_together_are_one_argument_given_twice() -> None:
    with pytest.raises(ParseError, match="repeated argument `start_box`"):
        parse_reply("Action: click(start_box='(1,2)', point='<point>1 2</point>')")
    assert parse_reply("Action: click(point='<point>1 2</point>')").action.point() == Point(1, 2)

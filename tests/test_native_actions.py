"""Issue 22: the OpenAI and Gemini computer-use vocabularies ↔ the closed action set."""

from __future__ import annotations

import pytest

from webfovea.actions.geometry import ModelSpace, to_page
from webfovea.actions.hotkeys import blacklisted
from webfovea.actions.registry import Action, Point
from webfovea.core.config import Size
from webfovea.core.domains import DomainPolicy
from webfovea.dialects.gemini_actions import FUNCTIONS, from_gemini, to_gemini
from webfovea.dialects.openai_actions import from_openai, to_openai

IMAGE = Size(1440, 810)
SPACE = ModelSpace(1440.0, 810.0)  # coords=image: the model space is the image
NORM = ModelSpace(1000.0, 1000.0)  # coords=norm1000
POLICY = DomainPolicy.for_task("http://stats.fovea.test/index.html")


def openai(action: dict[str, object], space: ModelSpace = SPACE):  # type: ignore[no-untyped-def]
    return from_openai(action, image=IMAGE, space=space)


def test_openai_clicks_map_by_the_ratio_of_screenshot_to_model_space() -> None:
    assert openai({"type": "click", "button": "left", "x": 135, "y": 193}).action == Action(
        "click", {"start_box": Point(135, 193)})
    norm = openai({"type": "click", "button": "left", "x": 720, "y": 405}, NORM).action
    assert norm == Action("click", {"start_box": Point(500, 500)})
    # and the executor's mapping lands on the same page pixel either way
    page = Size(1920, 1080)
    assert to_page(norm.point(), space=NORM, page=page) == (960, 540)
    assert openai({"type": "click", "button": "right", "x": 1, "y": 2}).action == Action(
        "right_single", {"start_box": Point(1, 2)})
    assert openai({"type": "double_click", "x": 5, "y": 6}).action.name == "left_double"
    assert openai({"type": "move", "x": 5, "y": 6}).action.name == "hover"
    assert openai({"type": "click", "button": "back", "x": 0, "y": 0}).action == Action("go_back")


def test_openai_new_tab_clicks_are_refused_with_a_sentence() -> None:
    for action in ({"type": "click", "button": "wheel", "x": 5, "y": 5},
                   {"type": "click", "button": "left", "x": 5, "y": 5, "keys": ["CTRL"]},
                   {"type": "double_click", "x": 5, "y": 5, "keys": ["SHIFT"]}):
        t = openai(action)
        assert t.action is None and t.guardrail == "new_tab"
        assert t.error is not None and "one tab" in t.error
    forward = openai({"type": "click", "button": "forward", "x": 5, "y": 5})
    assert forward.guardrail == "closed_action_set" and "go_back()" in str(forward.error)


def test_openai_out_of_image_points_are_errors_never_clamps() -> None:
    for x, y in ((1441, 10), (-1, 10), (10, 811)):
        t = openai({"type": "click", "button": "left", "x": x, "y": y})
        assert t.action is None and t.guardrail is None
        assert "outside the screenshot, which is 1440x810" in str(t.error)
    drag = openai({"type": "drag", "path": [{"x": 1, "y": 1}, {"x": 2000, "y": 5},
                                            {"x": 3, "y": 3}]})
    assert drag.action is None and "outside" in str(drag.error)


def test_openai_drag_scroll_keys_type_and_malformed_actions() -> None:
    drag = openai({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 50, "y": 60},
                                            {"x": 100, "y": 200}]}).action
    assert drag == Action("drag", {"start_box": Point(1, 2), "end_box": Point(100, 200)})
    scroll = openai({"type": "scroll", "x": 10, "y": 20, "scroll_x": 0, "scroll_y": -300}).action
    assert scroll == Action("scroll", {"start_box": Point(10, 20), "direction": "up"})
    assert openai({"type": "scroll", "x": 1, "y": 1, "scroll_x": 500, "scroll_y": 10}
                  ).action.text("direction") == "right"
    key = openai({"type": "keypress", "keys": ["CTRL", "L"]}).action
    assert key == Action("hotkey", {"key": "ctrl l"}) and blacklisted(key.text("key"))
    assert openai({"type": "keypress", "keys": ["ARROWDOWN"]}).action.text("key") == "arrowdown"
    assert openai({"type": "type", "text": "hi"}).action == Action("type", {"content": "hi"})
    assert openai({"type": "screenshot"}).action == Action("wait")
    for bad, word in (({"type": "teleport"}, "unknown computer action"),
                      ({"type": "click", "button": "left", "x": "a", "y": 1}, "numbers x and y"),
                      ({"type": "keypress", "keys": []}, "keypress.keys"),
                      ({"type": "scroll", "x": 1, "y": 1, "scroll_x": 0, "scroll_y": 0},
                       "scrolls nowhere"),
                      ({"type": "drag", "path": [{"x": 1, "y": 1}]}, "at least two points")):
        t = openai(bad)
        assert t.action is None and t.guardrail is None and word in str(t.error), bad


@pytest.mark.parametrize("action", [
    Action("click", {"start_box": Point(100, 200)}), Action("right_single", {"start_box": Point(1, 2)}),
    Action("left_double", {"start_box": Point(3, 4)}), Action("hover", {"start_box": Point(5, 6)}),
    Action("drag", {"start_box": Point(1, 2), "end_box": Point(300, 400)}),
    Action("scroll", {"start_box": Point(7, 8), "direction": "down"}),
    Action("type", {"content": "abc\n"}), Action("hotkey", {"key": "ctrl a"}),
    Action("go_back"), Action("wait")])
def test_openai_rendering_reads_back_as_the_same_action(action: Action) -> None:
    native = to_openai(action, image=IMAGE, space=SPACE)
    assert openai(native).action == action


def gemini(name: str, args: dict[str, object], vocabulary: str = "new",  # type: ignore[no-untyped-def]
           space: ModelSpace = SPACE):
    return from_gemini(name, args, vocabulary=vocabulary, space=space, policy=POLICY)  # type: ignore[arg-type]


def test_gemini_grid_maps_by_its_ratio_and_refuses_values_past_999() -> None:
    [t] = gemini("click", {"x": 500, "y": 250})
    assert t.action == Action("click", {"start_box": Point(720, 202.5)})
    assert to_page(t.action.point(), space=SPACE, page=Size(1920, 1080)) == (960, 270)
    [norm] = gemini("click_at", {"x": 500, "y": 250}, "legacy", NORM)
    assert norm.action == Action("click", {"start_box": Point(500, 250)})
    for x, y in ((1000, 5), (5, -1), (5, 1200)):
        [bad] = gemini("click", {"x": x, "y": y})
        assert bad.action is None and bad.guardrail is None and "0-999 grid" in str(bad.error)


def test_gemini_refuses_what_leaves_the_site_or_the_tab() -> None:
    [search] = gemini("search", {}, "legacy")
    assert search.guardrail == "domain_lock" and "stats.fovea.test" not in str(search.error)
    assert "fovea.test" in str(search.error)
    [off] = gemini("navigate", {"url": "evil.example/x"})
    assert off.guardrail == "domain_lock"
    assert "https://evil.example/x" in str(off.error) and "--allow-domain" in str(off.error)
    [js] = gemini("navigate", {"url": "javascript:alert(1)"}, "legacy")
    assert js.guardrail == "domain_lock"
    [on] = gemini("navigate", {"url": "http://stats.fovea.test/other.html"})
    assert on.action == Action("navigate", {"url": "http://stats.fovea.test/other.html"})
    assert on.guardrail is None
    [middle] = gemini("middle_click", {"x": 5, "y": 5})
    assert middle.guardrail == "new_tab"
    [combo] = gemini("hotkey", {"keys": ["Control", "t"]})
    assert combo.action == Action("hotkey", {"key": "control t"}) and blacklisted("control t")
    [legacy_combo] = gemini("key_combination", {"keys": "Control+L"}, "legacy")
    assert legacy_combo.action == Action("hotkey", {"key": "control l"})
    assert blacklisted("control l")


def test_gemini_type_text_at_is_fill_or_click_then_type() -> None:
    [fill] = gemini("type_text_at", {"x": 100, "y": 100, "text": "GDP", "press_enter": True},
                    "legacy")
    assert fill.action == Action("fill", {"start_box": Point(144, 81), "content": "GDP\n"})
    click, typed = gemini("type_text_at", {"x": 100, "y": 100, "text": "x",
                                           "clear_before_typing": False}, "legacy")
    assert click.action is not None and click.action.name == "click"
    assert typed.action == Action("type", {"content": "x"})
    [doc] = gemini("scroll_document", {"direction": "down"}, "legacy")
    assert doc.action == Action("scroll", {"start_box": Point(720, 405), "direction": "down"})
    [bad] = gemini("scroll", {"x": 1, "y": 1, "direction": "sideways"})
    assert "direction must be" in str(bad.error)
    [unknown] = gemini("click_at", {"x": 1, "y": 1}, "new")
    assert "unknown computer-use function 'click_at'" in str(unknown.error)
    assert "click_at" in FUNCTIONS["legacy"] and "click" in FUNCTIONS["new"]


@pytest.mark.parametrize("vocabulary", ["legacy", "new"])
def test_gemini_rendering_reads_back_on_the_grid(vocabulary: str) -> None:
    actions = [Action("click", {"start_box": Point(720, 405)}),
               Action("hover", {"start_box": Point(144, 81)}),
               Action("drag", {"start_box": Point(144, 81), "end_box": Point(720, 405)}),
               Action("scroll", {"start_box": Point(720, 405), "direction": "up"}),
               Action("hotkey", {"key": "control a"}), Action("go_back"), Action("wait")]
    actions += ([Action("fill", {"start_box": Point(144, 81), "content": "q\n"})]
                if vocabulary == "legacy" else
                [Action("type", {"content": "q\n"}),
                 Action("left_double", {"start_box": Point(144, 81)})])
    for action in actions:
        name, args = to_gemini(action, vocabulary=vocabulary, space=SPACE)  # type: ignore[arg-type]
        assert [t.action for t in gemini(name, args, vocabulary)] == [action], (name, args)

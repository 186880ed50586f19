"""Issue 33, the grounder: the planner names targets, a second model places them.

Two fake providers over real HTTP: the planner (scripted replies that never hold a
coordinate) and the grounder, a perfect grounding model that knows where the page's elements
are (measured in real Chromium before the run) and answers in its own convention: norm1000
or smart_resize pixels of the image it received. The clicks land on real elements of
tests/pages/roles/shop.html, whose script logs each click.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from webfovea.actions.geometry import smart_resize
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.cli.cost import role_lines, task_dirs
from webfovea.console.options import RunFlags
from webfovea.core.config import AgentConfig, GrounderConfig, Size
from webfovea.core.task import Task
from webfovea.dialects.grounder import first_point
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.dialects.text.parse import parse_reply
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_result, read_steps

pytestmark = pytest.mark.usefixtures("openai_key")
PAGES = Path(__file__).parent / "pages" / "roles"
NAMES = {"Search button": "search", "search box": "query", "Add to cart": "cart"}
Rects = dict[str, tuple[float, float, float, float]]


@pytest_asyncio.fixture
async def shop(browser: BrowserSession) -> AsyncIterator[tuple[Tabs, Rects, BrowserSession]]:
    with LocalServer(PAGES) as site:
        tabs = await browser.new_tabs()
        await tabs.open(site.url("shop.html"))
        rects: Rects = {}
        for element in NAMES.values():
            box = await tabs.page.locator(f"#{element}").bounding_box()
            assert box is not None
            rects[element] = (box["x"], box["y"], box["width"], box["height"])
        yield tabs, rects, browser
        await tabs.close()


def grounder_policy(rects: Rects, coords: str) -> Callable[[FakeRequest], str]:
    """Finds the described element's centre and says it in ``coords`` of the image it got."""

    def answer(request: FakeRequest) -> str:
        text = request.turns[-1].text
        element = next(e for name, e in NAMES.items() if name.lower() in text.lower())
        x, y, w, h = rects[element]
        fx, fy = (x + w / 2) / 1920, (y + h / 2) / 1080
        if coords == "norm1000":
            return f"<|box_start|>({round(fx * 1000)},{round(fy * 1000)})<|box_end|>"
        width, height = request.received_sizes[0]
        grid = smart_resize(Size(width, height), GrounderConfig("x").smart_resize)
        return f"click(start_box='({round(fx * grid.width)},{round(fy * grid.height)})')"

    return answer


PLAN = ["Thought: search.\nAction: fill(target='the search box', content='shoes')",
        "Thought: go.\nAction: click(target='the blue Search button')",
        "Thought: buy.\nAction: left_double(target='the green Add to cart button')",
        "Thought: done.\nAction: finished(content='bought')"]


Shop = tuple[Tabs, Rects, BrowserSession]


async def _run(shop: Shop, out: Path, planner: list[str], grounder: Callable[[FakeRequest], str],
               coords: str, *, outage: bool = False
               ) -> tuple[list[FakeRequest], list[FakeRequest]]:
    tabs, _, session = shop
    with FakeProvider(ScriptedPolicy(planner)) as fp, FakeProvider(grounder) as gp:
        if outage:
            gp.fail_next(503, times=20)
        config = AgentConfig(max_steps=len(planner), grounder=GrounderConfig(
            "openai:ui-tars-test", gp.base_url, coords=coords,  # type: ignore[arg-type]
            image_cap=Size(1280, 720), attempts=2, timeout=10.0))
        model = load_model("openai:planner-test", base_url=fp.base_url)
        await run_task(Task("buy shoes", tabs.page.url), model=model, session=session,
                       config=config, out=out, tabs=tabs)
        await model.aclose()
        return fp.requests, gp.requests


@pytest.mark.parametrize("coords", ["norm1000", "smart_resize"])
async def test_every_named_target_lands_on_its_element(
        shop: Shop, tmp_path: Path, coords: str) -> None:
    tabs, rects, _ = shop
    planner, grounder = await _run(shop, tmp_path, PLAN, grounder_policy(rects, coords), coords)
    log = await tabs.page.locator("#log").text_content()
    assert log == "clicked: search cart cart"  # the double click is two clicks
    assert await tabs.page.locator("#query").input_value() == "shoes"
    steps = read_steps(tmp_path)
    assert all("start_box" not in (s.action or {}) for s in steps)
    assert [s.point_forms[0]["given"] for s in steps[:3]] == [
        "the search box", "the blue Search button", "the green Add to cart button"]
    assert re.match(r"The grounder put 'the blue Search button' at \([\d.]+,[\d.]+\) on "
                    r"<button#search>", steps[1].note)
    # The grounder got its own image size and one short instruction, no history.
    assert len(grounder) == 3 and all(len(r.turns) == 1 for r in grounder)
    assert grounder[0].received_sizes == ((1280, 720),)
    # The planner was told to name targets; its history shows the forms it gave.
    assert "target='a short description" in planner[0].system
    assert "click(target='the blue Search button')" in planner[2].turns[-2].text
    call = steps[1].point_forms[0]["grounder"]
    assert call["request_bytes"] > 1000 and call["seconds"] >= 0 and call["raw"]
    usage = read_result(tmp_path).usage
    assert usage.by_role["grounder"].calls == 3 and usage.by_role["planner"].calls == 4
    lines = role_lines(task_dirs(tmp_path))  # what `webfovea cost` prints of the roles
    assert lines[0] == "by role:" and lines[2].startswith("  grounder: 3 call(s) on 1 task(s)")


async def test_a_grounder_outage_is_a_note_never_a_click(
        shop: Shop, tmp_path: Path) -> None:
    tabs, rects, _ = shop
    await _run(shop, tmp_path, PLAN[1:2] + PLAN[3:], grounder_policy(rects, "norm1000"),
               "norm1000", outage=True)
    assert await tabs.page.locator("#log").text_content() == "clicked:"
    first = read_steps(tmp_path)[0]
    assert first.outcome == "error" and first.page_points == []
    assert first.note.startswith("The grounder could not place 'the blue Search button': the "
                                 "grounder could not be reached")
    from webfovea.rundir.store import load_task
    from webfovea.tools.diagnose import diagnose_task

    diagnosis = diagnose_task(load_task(tmp_path))  # a failed placement is its own stage
    assert (diagnosis.stage, diagnosis.step) == ("grounding", 1)


async def test_a_point_off_the_grounders_image_is_refused(
        shop: Shop, tmp_path: Path) -> None:
    tabs, _, _ = shop
    await _run(shop, tmp_path, PLAN[1:2] + PLAN[3:], lambda r: "(1500, 20)", "norm1000")
    assert await tabs.page.locator("#log").text_content() == "clicked:"
    note = read_steps(tmp_path)[0].note
    assert "its point (1500,20) is off its image, which is 1000x1000" in note


async def test_the_planner_is_asked_for_targets_only_and_a_point_given_anyway_is_obeyed(
        shop: Shop, tmp_path: Path) -> None:
    """Issue 46: the requests as the planner received them ask for targets, never points."""
    tabs, rects, _ = shop
    x, y, w, h = rects["cart"]
    point = f"({round((x + w / 2) * 0.75)},{round((y + h / 2) * 0.75)})"
    planner, grounder = await _run(
        shop, tmp_path, [PLAN[1], f"Thought: t.\nAction: click(start_box='{point}')", PLAN[3]],
        grounder_policy(rects, "norm1000"), "norm1000")
    assert await tabs.page.locator("#log").text_content() == "clicked: search cart"
    assert len(grounder) == 1  # the point was clicked as given, without the grounder
    for request in planner[:2]:  # the third carries the planner's own point in its history
        sent = json.dumps(request.body)
        assert "start_box" not in sent and "give points" not in sent and "(x,y)" not in sent
        assert "click(target='the element')" in sent and "end_target='" in sent
        assert "The screenshot is 1440x810 pixels." in sent
    assert "Coordinates refer" not in planner[0].system
    assert planner[0].turns[-1].text.endswith("Step 1.\nThe screenshot is 1440x810 pixels.")


def test_first_point_only_and_tokens_stripped() -> None:
    assert first_point("<|box_start|>(10,20)<|box_end|> then (30,40)") == (10.0, 20.0)
    assert first_point('{"point_2d": [100, 200]}') == (100.0, 200.0)
    assert first_point("(0,0,100,50)") == (50.0, 25.0)
    assert first_point("<|im_start|>assistant 12, 34") == (12.0, 34.0)
    assert first_point("I cannot find it.") is None


def test_target_is_a_parse_error_naming_the_flag_without_a_grounder() -> None:
    reply = "Thought: t\nAction: drag(target='the slider', end_target='the far end')"
    with pytest.raises(Exception, match="--grounder"):
        parse_reply(reply)
    action = parse_reply(reply, frozenset({"target"})).action
    assert dict(action.args) == {"target": "the slider", "end_target": "the far end"}
    assert action.source() == "drag(target='the slider', end_target='the far end')"
    with pytest.raises(Exception, match=r"missing argument `target`.*`Action: click\(target="):
        parse_reply("Thought: t\nAction: click()", frozenset({"target"}))
    assert RunFlags(model="oracle", grounder="openai:g",
                    grounder_coords="norm1000").options().agent.point_forms == {"target"}


def test_the_suite_runs_through_targets_and_a_grounder(tmp_path: Path) -> None:
    from webfovea.suite.cli import SuiteOptions, run_suite

    out = tmp_path / "suite"
    code = run_suite(SuiteOptions(out=out, model="oracle:targets", grounder="oracle:grounder",
                                  only="energy-value", workers=1))
    task = next((out / "tasks").iterdir())
    result, steps = read_result(task), read_steps(task)
    assert code == 0 and result.status == "finished"
    formed = [s for s in steps if s.point_forms]
    assert formed and all(s.point_forms[0]["given"].startswith("the element ") for s in formed)
    assert all("start_box" not in (s.action or {}) for s in formed)
    assert result.usage.by_role["grounder"].calls == len(formed)
    from webfovea.tools.replay import replay

    assert replay(out).changes == []  # replay reads the forms as the run did
    from webfovea.research.examples import examples

    rebuilt = list(examples([out]))  # export rebuilds the requests as the planner got them
    assert rebuilt and all(e.faithful for e in rebuilt)
    assert "target=" in rebuilt[0].request.system and "start_box" not in rebuilt[0].request.system


async def test_the_tools_dialect_takes_target_too(shop: Shop, tmp_path: Path) -> None:
    from webfovea.dialects.loopback.fake_tools import FakeCall, FakeReply

    tabs, rects, session = shop
    x, y, w, h = rects["cart"]
    point = [round((x + w / 2) * 0.75), round((y + h / 2) * 0.75)]
    replies = iter([FakeReply("search", (FakeCall("click", {"target": "the Search button"}),)),
                    FakeReply("cart", (FakeCall("click", {"start_box": point}),)),
                    FakeReply("done", (FakeCall("finished", {"content": "ok"}),))])
    with FakeProvider(lambda r: next(replies)) as fp, \
            FakeProvider(grounder_policy(rects, "norm1000")) as gp:
        config = AgentConfig(max_steps=3, dialect="tools", grounder=GrounderConfig(
            "openai:ui-tars-test", gp.base_url, coords="norm1000", attempts=1))
        model = load_model("openai:planner-test", base_url=fp.base_url)
        await run_task(Task("search", tabs.page.url), model=model, session=session,
                       config=config, out=tmp_path, tabs=tabs)
        await model.aclose()
        sent = fp.requests[0].body
    # A point given anyway (not in the schema) is obeyed.
    assert await tabs.page.locator("#log").text_content() == "clicked: search cart"
    schema = {t["function"]["name"]: t["function"]["parameters"] for t in sent["tools"]}
    assert set(schema["click"]["properties"]) == {"target"}
    assert schema["click"]["required"] == ["target"]
    assert schema["drag"]["required"] == ["target", "end_target"]
    assert schema["fill"]["required"] == ["target", "content"]
    text = json.dumps(sent)
    assert "start_box" not in text and "give points" not in text and "[x, y]" not in text
    assert "The screenshot is 1440x810 pixels." in text
    assert read_steps(tmp_path)[0].note.startswith("The grounder put 'the Search button'")


def test_without_a_grounder_the_prompt_is_byte_identical() -> None:
    """The prompt a run without --grounder sends, pinned (issue 46 changed only the grounder's):
    system text with and without marks and ablations, the step sentences, the tool schemas."""
    from webfovea.actions.geometry import ModelSpace
    from webfovea.dialects.text.prompt import coordinate_text, system_text
    from webfovea.dialects.tools import tool_definitions

    parts = [coordinate_text(ModelSpace(1000, 560), 1440, 810, c)
             for c in ("image", "norm1000", "smart_resize")]
    for forms in (frozenset(), frozenset({"mark"})):
        parts += [system_text("SKILLS", forms), system_text(forms=forms, ablate=frozenset(
            {"observe", "select"})), json.dumps(tool_definitions(forms), sort_keys=True)]
    digest = hashlib.sha256("\x00".join(parts).encode()).hexdigest()
    assert parts[0] == ("The screenshot is 1440x810 pixels; give points in that image's pixels, "
                        "(0,0) at the top left.")
    assert "click(start_box='(x,y)')  # left click" in parts[3]
    assert digest == PROMPT_SHA256, "the no-grounder prompt changed: update only on purpose"


# Pinned after the UI-TARS forms and call_user() joined the prompt (issue 44, item 7).
PROMPT_SHA256 = "f9a2e788beb0115052f53dce1bdd2c99a40dd80046c64b8b51e643e96d4a5cc9"

"""Suite tasks without a browser: coverage, determinism, stale references, the task file,
plan arithmetic, the layout store and the HTTP surface of the control endpoints."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from webfovea.core.errors import WebfoveaError
from webfovea.suite import KINDS, SuiteServer, export_tasks, tasks
from webfovea.suite.commands import list_tasks
from webfovea.suite.layout import Layout, LayoutStore, PageReport, ReportedElement, compose
from webfovea.suite.plan import Capture, compute
from webfovea.suite.policy import Move, PlanRunner, reply_text
from webfovea.suite.spec import Answer, Read, ReadText, SuiteTask
from webfovea.suite.web import render

TASK_SITES = {"stats", "energy", "charts", "filings", "rankings", "forms", "news"}


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=11) as server:
        yield server


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def test_at_least_forty_tasks_cover_every_kind_and_site() -> None:
    found = tasks(0)
    assert len(found) >= 40
    assert {t.kind for t in found} == set(KINDS)
    assert {t.site for t in found} == TASK_SITES
    assert len({t.id for t in found}) == len(found)
    for t in found:
        assert t.id.startswith(t.site + "-") and t.tags[:2] == (t.site, t.kind)
        assert "\n" not in t.instruction and t.instruction.endswith(("?", "."))
        assert urlsplit(t.url).hostname == f"{t.site}.fovea.test"
        assert t.answer.strip()


def test_generator_is_deterministic_per_seed() -> None:
    first, again = tasks(5), tasks(5)
    assert [t.to_json() for t in first] == [t.to_json() for t in again]
    assert [t.plan for t in first] == [t.plan for t in again]


def test_other_seed_keeps_the_questions_and_changes_the_answers() -> None:
    """A stale reference: the same question scored against another seed's answer fails."""
    one, two = tasks(1), tasks(2)
    assert [(t.id, t.instruction, t.url) for t in one] == [(t.id, t.instruction, t.url)
                                                          for t in two]
    stale = 0
    for a, b in zip(one, two, strict=True):
        x, y = _number(a.answer), _number(b.answer)
        if x is not None and y is not None:
            stale += abs(x - y) > 0.005 * max(abs(x), abs(y), 1e-9)
        else:
            stale += a.answer.casefold() != b.answer.casefold()
    # Binary questions (a trend, one of two names) may agree by chance; the rest must not.
    assert stale >= 0.8 * len(one)


def test_export_writes_the_design_task_file() -> None:
    out = io.StringIO()
    count = export_tasks(3, out)
    lines = out.getvalue().splitlines()
    assert count == len(lines) == len(tasks(3))
    for line in lines:
        record = json.loads(line)
        assert set(record) == {"id", "instruction", "url", "answer", "answer_type", "tags"}
        assert record["answer_type"] in ("auto", "text", "number", "date")


@pytest.mark.parametrize("task", tasks(0), ids=lambda t: t.id)
def test_every_answer_slot_is_captured_by_the_plan(task: SuiteTask) -> None:
    captured = {s.into for s in task.plan.steps if isinstance(s, (Read, ReadText))}
    assert set(task.plan.answer.slots) <= captured


def test_compute_uses_only_the_captured_text() -> None:
    caps = {"a": Capture("2019", "1,204.5"), "b": Capture("2020", "1,100.25"),
            "c": Capture("c", "Brevia"), "d": Capture("d", "brevia ")}
    assert compute(Answer("sum", ("a", "b"), decimals=2), caps) == "2304.75"
    assert compute(Answer("difference", ("b", "a"), decimals=1), caps) == "-104.2"
    assert compute(Answer("ratio", ("a", "b"), decimals=2), caps) == "1.09"
    assert compute(Answer("max_label", ("a", "b")), caps) == "2019"
    assert compute(Answer("min_label", ("a", "b")), caps) == "2020"
    assert compute(Answer("trend", ("a", "b"), match="up|down"), caps) == "down"
    assert compute(Answer("count", ("c", "d"), match="Brevia"), caps) == "2"
    with pytest.raises(WebfoveaError, match="never captured: z"):
        compute(Answer("number", ("z",)), caps)


def _el(fid: str, x: float, y: float, text: str = "") -> ReportedElement:
    return ReportedElement(id=fid, x=x, y=y, w=100, h=40, visible=True, text=text)


def test_compose_shifts_frame_elements_and_clips_them_to_the_frame() -> None:
    iframe = ReportedElement(id="dash-frame", x=100, y=200, w=602, h=302, visible=True,
                             frame="dash-frame", ox=101, oy=201, cw=600, ch=300)
    top = PageReport(page="p1", url="http://energy.fovea.test/", vw=1920, vh=1080,
                     elements=[iframe])
    child = PageReport(page="p2", top=False, frame="dash-frame", vw=600, vh=300, elements=[
        _el("legend", 10, 20, "Wind"), _el("far", 10, 400)])
    layout = compose(top, {"dash-frame": child}, updated_at=0)
    legend, far = layout.get("legend"), layout.get("far")
    assert legend is not None and (legend.x, legend.y) == (111, 221) and legend.in_view
    assert far is not None and not far.in_view  # below the frame's bottom edge
    assert legend.frame == "dash-frame"


def test_store_keeps_lanes_apart_and_follows_the_newest_page() -> None:
    store = LayoutStore()
    store.add(1, PageReport(page="a", url="http://x.fovea.test/1", vw=10, vh=10))
    store.add(2, PageReport(page="b", url="http://x.fovea.test/2", vw=10, vh=10))
    store.add(1, PageReport(page="c", url="http://x.fovea.test/new-tab", vw=10, vh=10))
    store.add(1, PageReport(page="a", url="http://x.fovea.test/1", vw=10, vh=10))
    lane1, lane2 = store.current(1), store.current(2)
    assert lane1 is not None and lane1.url.endswith("/new-tab")  # a later report isn't a show
    assert lane2 is not None and lane2.url.endswith("/2")
    store.add(1, PageReport(page="c", seq=5, gone=True))
    # a report sent before the unload but delivered after it does not revive the page
    store.add(1, PageReport(page="c", seq=4, url="http://x.fovea.test/new-tab", vw=10, vh=10))
    back = store.current(1)
    assert back is not None and back.url.endswith("/1")
    store.add(1, PageReport(page="a", seq=3, url="http://x.fovea.test/1#late", vw=10, vh=10))
    store.add(1, PageReport(page="a", seq=2, url="http://x.fovea.test/1#early", vw=10, vh=10))
    newest = store.current(1)
    assert newest is not None and newest.url.endswith("#late")
    assert store.current(3) is None


def test_runner_waits_scrolls_acts_then_answers_from_the_page() -> None:
    task = next(t for t in tasks(0) if t.id == "filings-capacity")
    runner = PlanRunner(task)

    def layout(*els: tuple[str, float, str]) -> Layout:
        report = PageReport(page="p", url="http://filings.fovea.test/", vw=1000, vh=800,
                            elements=[_el(fid, 10, y, text) for fid, y, text in els])
        return compose(report, {}, updated_at=0)

    move = runner.next_move(layout(("company-search", 100, "")))
    assert move.kind == "fill" and move.text == "Corven Energy\n" and move.point == (60, 120)
    doc = next(s.target for s in task.plan.steps if getattr(s, "target", "").startswith("doc-"))
    move = runner.next_move(layout(("result-title", 50, "Filings matching “Corven Energy”"),
                                   (doc, 1500, "View document")))
    assert move.kind == "scroll" and move.direction == "down"
    title = "Corven Energy — Annual report 2023"
    assert runner.next_move(layout(("doc-title", 50, title))).kind == "find_text"
    answer = runner.next_move(layout(("doc-title", 50, title), ("fact-capacity", 400, "2,345")))
    assert answer.kind == "finished" and answer.text == "2345"


def test_control_endpoints_answer_over_http(suite: SuiteServer) -> None:
    base = f"http://127.0.0.1:{suite.port}"
    with httpx.Client() as client:
        assert client.get(base + "/__fovea/layout").status_code == 404  # nothing reported yet
        bad = client.post(base + "/__fovea/report", content=b"{not json")
        assert bad.status_code == 400 and "bad layout report" in bad.json()["error"]
        report = {"page": "p", "url": "http://stats.fovea.test/", "vw": 800, "vh": 600,
                  "elements": [{"id": "x", "x": 1, "y": 2, "w": 3, "h": 4, "visible": True}]}
        assert client.post(base + "/__fovea/report", json=report).status_code == 204
        layout = Layout.model_validate(client.get(base + "/__fovea/layout?settle=0.05").json())
        assert layout.get("x") is not None and layout.viewport_w == 800
        info = client.get(base + "/__fovea/info").json()
        assert info["seed"] == 11 and info["lanes"] == [suite.port]
        api = client.get(base + "/v1/stats/AGR01?region=Eastern&year=2019&commodity=Barley",
                         headers={"Host": "api.fovea-external.test"}).json()
        assert api["count"] == 1
        stats = next(t for t in suite.tasks() if t.id == "stats-production-cell")
        assert str(api["rows"][0]["value"]) == stats.answer  # the shortcut really works
        missing = client.get(base + "/nope", headers={"Host": "stats.fovea.test"})
        assert missing.status_code == 404
    assert not suite.app.errors


def test_a_second_lane_has_its_own_layout_and_host_rules(suite: SuiteServer) -> None:
    lane = suite.add_lane()
    assert suite.host_rules(lane=lane) == (f"MAP *.fovea.test 127.0.0.1:{lane}",
                                           f"MAP *.fovea-external.test 127.0.0.1:{lane}")
    with httpx.Client() as client:
        assert client.get(suite.layout_url(lane=lane)).status_code == 404
    with pytest.raises(WebfoveaError, match="no lane 1"):
        suite.host_rules(lane=1)


def test_bad_names_are_reported_clearly(suite: SuiteServer) -> None:
    with pytest.raises(WebfoveaError, match=r"unknown suite host 'nope\.test'"):
        suite.url("nope.test")
    with pytest.raises(WebfoveaError, match="does not exist"):
        render("missing.html")
    with pytest.raises(WebfoveaError, match=re.escape("needs a value for $header")):
        render("stats/home.html", tables="")


def test_moves_become_replies_in_the_image_space() -> None:
    click = Move("click", (960.0, 540.0), thought="Open the table.")
    assert reply_text(click, scale_x=0.75, scale_y=0.75) == (
        "Thought: Open the table.\nAction: click(start_box='(720,405)')")
    fill = reply_text(Move("fill", (100.0, 40.0), "Rye\n"), scale_x=1, scale_y=1)
    assert fill.endswith("fill(start_box='(100,40)', content='Rye\\n')")
    done = reply_text(Move("finished", text="It's 12"), scale_x=1, scale_y=1)
    assert done.endswith("finished(content='It\\'s 12')")
    scroll = reply_text(Move("scroll", (500.0, 400.0), direction="up"), scale_x=2, scale_y=2)
    assert scroll.endswith("scroll(start_box='(1000,800)', direction='up')")


def test_list_shows_every_task_once() -> None:
    out = io.StringIO()
    count = list_tasks(seed=0, out=out, answers=True)
    lines = out.getvalue().splitlines()
    assert count == len(lines) == len(tasks(0))
    assert lines[0].startswith("stats-production-cell") and "[" in lines[0]

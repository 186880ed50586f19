"""Issue 33 in the viewer: a step's element marks and the grounder's points are drawn over
its screenshot apart from the image as sent, each layer switched off and on by the reader.
The run directory is a real run's: the gallery's react-select, ``--observation elements``
(the image stays clean, the elements are recorded per step), a planner naming targets and a
grounder placing them, two fake servers over real HTTP.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gallery_helpers import SMALL, Browsers
from grounding_helpers import clicks, grounded_run
from test_gallery_grounding import CASES
from viewer_helpers import opened
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.rundir.store import read_steps
from webfovea.viewer.report import write_report


@pytest.fixture(scope="module")
async def recorded(sized: Browsers, gallery: LocalServer, openai_key: None,
                   tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("layers")
    case = CASES[0]
    session = await sized.session(SMALL)
    tabs = await session.new_tabs()
    try:
        await tabs.open(gallery.url(f"/pages/{case.page}"))
        await tabs.page.wait_for_function("window.galleryState !== undefined")
        await grounded_run(session, tabs, case.targets, clicks(list(case.targets), case.want),
                           out, coords="norm1000", viewport=SMALL.viewport,
                           observation="elements")
    finally:
        await tabs.close()
    return out


def _data(page_file: Path) -> dict[str, object]:
    html = page_file.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html,
                      re.S)
    assert found
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_the_layers_carry_the_recorded_marks_and_points(recorded: Path) -> None:
    steps = read_steps(recorded)
    data = _data(write_report(recorded))
    shown = data["steps"]
    assert isinstance(shown, list)
    first, record = shown[0], steps[0]
    scale = record.sent_size[0] / record.page_size[0]
    assert [e["number"] for e in first["layers"]["elements"]] == [
        m["number"] for m in record.element_marks] and record.element_marks
    for drawn, mark in zip(first["layers"]["elements"], record.element_marks, strict=True):
        assert drawn["box"] == pytest.approx([v * scale for v in mark["box"]], abs=0.1)
    # The grounder's point, in the sent image's pixels: where the harness clicked.
    [placed] = first["layers"]["placed"]
    assert placed["form"] == "target" and placed["given"] == record.point_forms[0]["given"]
    landed = [v * scale for v in record.page_points[0]]
    assert placed["point"] == pytest.approx(landed, abs=1.5)
    assert placed["raw"].startswith("<|box_start|>")
    assert shown[-1]["layers"]["placed"] == []  # finished(): no form, nothing placed


async def test_each_layer_is_drawn_over_the_image_and_switches_off(
        browser: BrowserSession, recorded: Path) -> None:
    steps = read_steps(recorded)
    page_file = write_report(recorded)
    async with opened(browser, page_file) as (page, problems):
        step = page.locator("#step-1 .shot")
        boxes = step.locator("g.layer-marks rect.mark-box")
        assert await boxes.count() == len(steps[0].element_marks)
        diamond = step.locator("g.layer-placed polygon.placed")
        assert await diamond.count() == 1
        image = await step.locator("img").bounding_box()
        drawn = await diamond.bounding_box()
        assert image is not None and drawn is not None
        # The diamond's centre is the landed point, at the image's displayed scale.
        shown = image["width"] / steps[0].page_size[0]
        x, y = steps[0].page_points[0]
        assert abs(drawn["x"] + drawn["width"] / 2 - image["x"] - x * shown) < 2
        assert abs(drawn["y"] + drawn["height"] / 2 - image["y"] - y * shown) < 2
        label = step.locator("g.layer-placed text.placed-label")
        assert await label.text_content() == f"target: {steps[0].point_forms[0]['given']}"
        # The image itself is the one sent: the layers are separate elements over it.
        assert await step.locator("img").get_attribute("src") == steps[0].screenshot
        await page.locator("#toggle-marks").uncheck()
        assert not await boxes.first.is_visible() and await diamond.is_visible()
        await page.locator("#toggle-placed").uncheck()
        assert not await diamond.is_visible()
        await page.locator("#toggle-marks").check()
        assert await boxes.first.is_visible()
        assert problems == []

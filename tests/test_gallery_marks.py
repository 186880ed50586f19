"""Issue 33's marks on the component gallery: the element list is the page's interactive
elements (open shadow roots and a frame of another origin included: Shoelace's fields inside
a localhost frame of a 127.0.0.1 page), the marks are drawn where those elements are (pixels
of the image as sent), and ``click(mark=N)`` in a whole run lands on element N of a real
component (react-select in the cross-origin frame, Shoelace's <sl-select>).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.async_api import Frame, Locator, Page

from gallery_helpers import SMALL, Browsers, View, views
from grounding_helpers import Box, css_box
from webfovea.browser.capture import capture
from webfovea.browser.local_server import LocalServer
from webfovea.browser.marks import Mark, Marker, colour, draw
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.core.config import AgentConfig, Size
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps


def _frame(page: Page) -> Frame:
    return next(f for f in page.frames if f.parent_frame and "/pages/" in f.url)


async def _open(sized: Browsers, view: View, gallery: LocalServer, page: str
                ) -> tuple[BrowserSession, Tabs, Page | Frame]:
    session = await sized.session(view)
    tabs = await session.new_tabs()
    await tabs.open(gallery.url(f"/pages/{page}"))
    where: Page | Frame = _frame(tabs.page) if "framed" in page else tabs.page
    if "framed" in page:
        await tabs.page.frame_locator("#outer").locator("#stage").wait_for(state="attached")
    await where.wait_for_function("window.galleryState !== undefined")
    await where.evaluate("document.fonts.ready.then(() => new Promise((r) => "
                         "requestAnimationFrame(() => requestAnimationFrame(r))))")
    return session, tabs, where


SHOELACE = "framed.html?page=shoelace_select"  # its fields in shadow roots, another origin
# Each page's interactive elements: accessible name -> (role, the element, in Playwright's
# terms; its CSS pierces open shadow roots).
LISTS: dict[str, dict[str, tuple[str, str]]] = {
    "react_select.html": {"Choose a country": ("combobox", "#single-input"),
                          "Countries visited": ("combobox", "#multi-input")},
    "mui_select.html": {"Country": ("combobox", "#country")},
    SHOELACE: {"Top button": ("button", "#top"),
               "Pick a country": ("combobox", "frame #country input[role=combobox]"),
               "City": ("textbox", "frame #city input")},
}


def _locator(page: Page, selector: str) -> Locator:
    if selector.startswith("frame "):
        return page.frame_locator("#outer").locator(selector.removeprefix("frame "))
    return page.locator(selector)


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("page", list(LISTS))
async def test_the_element_list_is_the_pages_interactive_elements(
        page: str, view: View, sized: Browsers, gallery: LocalServer) -> None:
    _, tabs, _ = await _open(sized, view, gallery, page)
    try:
        marks = await Marker().collect(tabs.page)
        boxes = {name: await css_box(_locator(tabs.page, selector))
                 for name, (_, selector) in LISTS[page].items()}
        top = urlsplit(tabs.page.url).hostname
    finally:
        await tabs.close()
    assert sorted(m.name for m in marks) == sorted(LISTS[page])
    for mark in marks:
        assert mark.role == LISTS[page][mark.name][0], mark
        assert mark.box == pytest.approx(boxes[mark.name], abs=1), mark.name
        if LISTS[page][mark.name][1].startswith("frame "):  # another origin's frame
            assert mark.frame and urlsplit(mark.frame).hostname not in (None, top), mark.frame


def _drawn_where_they_are(png: bytes, marks: list[Mark], boxes: dict[str, Box],
                          page: Size) -> None:
    """Each mark's outline is on its element's left edge, as the test measured it."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    scale = image.width / page.width
    for mark in marks:
        x, y, _, h = boxes[mark.name]
        at = (round(x * scale), round((y + h / 2) * scale))
        assert image.getpixel(at) == colour(mark.number), (mark.name, mark.frame)


@pytest.mark.parametrize("view", views(quick=SMALL))
async def test_marks_are_drawn_on_elements_in_shadow_roots_of_a_cross_origin_frame(
        view: View, sized: Browsers, gallery: LocalServer) -> None:
    _, tabs, _ = await _open(sized, view, gallery, SHOELACE)
    try:
        marker = Marker()
        await marker.collect(tabs.page)
        x, y, _, h = await css_box(_locator(tabs.page, "frame #country"))
        await tabs.page.mouse.click(x + 100, y + h / 2)  # its list opens
        await tabs.page.frame_locator("#outer").get_by_role("option", name="Croatia").wait_for()
        await tabs.page.wait_for_function("document.getAnimations().length === 0")
        await _frame(tabs.page).wait_for_function(
            "document.getAnimations({subtree: true}).every((a) => a.playState !== 'running')")
        screen = await capture(tabs.page, cap=Size(1440, 810))
        marks = await marker.collect(tabs.page)
        framed = tabs.page.frame_locator("#outer")
        boxes = {m.name: await css_box(framed.get_by_role("option", name=m.name, exact=True)
                                       if m.role == "option" else
                                       _locator(tabs.page, LISTS[SHOELACE][m.name][1]))
                 for m in marks}
    finally:
        await tabs.close()
    options = [m for m in marks if m.role == "option"]
    assert len(options) >= 8 and all(m.frame for m in options)  # in the frame's listbox
    png, labels = draw(screen.png, marks, screen.page)
    _drawn_where_they_are(png, marks, boxes, screen.page)
    plain = Image.open(io.BytesIO(screen.png)).convert("RGB")
    marked = Image.open(io.BytesIO(png)).convert("RGB")
    far = (round(1100 * plain.width / screen.page.width), round(100 * plain.width / screen.page.width))
    assert marked.getpixel(far) == plain.getpixel(far)  # away from every element: untouched
    for i, a in enumerate(labels):
        assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                       for b in labels[i + 1:]), a


@dataclass(frozen=True)
class Clicks:
    page: str
    names: tuple[str, ...]  # the marks clicked, by accessible name, one per step
    key: str  # window.galleryState's entry, in the component's document
    want: str

    @property
    def id(self) -> str:
        return self.page.replace(".html", "").replace("?page=", "-")


CLICKS = [
    Clicks("framed.html?page=react_select", ("Top button", "Choose a country", "Croatia"),
           "single", "Croatia"),
    Clicks("shoelace_select.html", ("Pick a country", "Bulgaria"), "country", "Bulgaria"),
]


def _number(request: FakeRequest, name: str) -> str:
    found = re.search(rf"\[(\d+)\] \w+ '{re.escape(name)}'", request.turns[-1].text)
    assert found, request.turns[-1].text
    return found.group(1)


@pytest.mark.parametrize("view", views(quick=SMALL))
@pytest.mark.parametrize("case", CLICKS, ids=[c.id for c in CLICKS])
async def test_click_mark_lands_on_element_n_of_a_real_component(
        case: Clicks, view: View, sized: Browsers, gallery: LocalServer, openai_key: None,
        tmp_path: Path) -> None:
    def planner(request: FakeRequest) -> str:
        step = sum(t.role == "assistant" for t in request.turns)
        if step == len(case.names):
            return f"Thought: done.\nAction: finished(content='{case.want}')"
        return f"Thought: next.\nAction: click(mark={_number(request, case.names[step])})"

    session, tabs, where = await _open(sized, view, gallery, case.page)
    try:
        with FakeProvider(planner) as fp:
            model = load_model("openai:planner-test", base_url=fp.base_url)
            await run_task(Task("choose", tabs.page.url), model=model, session=session,
                           config=AgentConfig(max_steps=len(case.names) + 1,
                                              observation="marks+elements"),
                           out=tmp_path, tabs=tabs)
            await model.aclose()
        assert await where.evaluate("(k) => window.galleryState[k]", case.key) == case.want
        if "framed" in case.page:
            assert await tabs.page.evaluate("window.galleryState.top") == 1
    finally:
        await tabs.close()
    steps = read_steps(tmp_path)
    for step, name in zip(steps, case.names, strict=False):
        mark = next(m for m in step.element_marks if m["name"] == name)
        assert step.action_source == f"click(mark={mark['number']})"
        assert step.note.startswith(f"Mark {mark['number']} is at ("), step.note
        x, y, w, h = mark["box"]
        px, py = step.page_points[0]
        assert x <= px <= x + w and y <= py <= y + h, (name, step.page_points, mark["box"])
        # screens/ keeps the image the model got: the mark drawn where the element is.
        kept = Image.open(tmp_path / step.screenshot).convert("RGB")
        scale = kept.width / step.page_size[0]
        assert kept.getpixel((round(x * scale), round((y + h / 2) * scale))) == colour(
            mark["number"]), name

"""Issue 33, observation modes: the numbered marks of a page's interactive elements (child
frames and open shadow roots included), drawn where the elements are, listed beside the
screenshot, and ``click(mark=N)`` landing on element N, in real Chromium on
tests/pages/roles/shop.html (its script logs each click)."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image

from webfovea.browser.capture import capture
from webfovea.browser.local_server import LocalServer
from webfovea.browser.marks import Marker, colour, draw, elements_text
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.core.config import AgentConfig, Size
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.dialects.text.parse import parse_reply
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps

pytestmark = pytest.mark.usefixtures("openai_key")
PAGES = Path(__file__).parent / "pages" / "roles"
# Every interactive element of shop.html and its frame, by accessible name (the log, the
# frame element itself and plain text are none).
NAMES = {"Search products": "#query", "Search": "#search", "Add to cart": "#cart",
         "Help and contact": "#help", "Size": "#size", "Yellow tile": "#tile",
         "Framed button": None, "Shadow button": None}


@pytest_asyncio.fixture
async def shop(browser: BrowserSession) -> AsyncIterator[tuple[Tabs, BrowserSession]]:
    with LocalServer(PAGES) as site:
        tabs = await browser.new_tabs()
        await tabs.open(site.url("shop.html"))
        await tabs.page.frame_locator("#frame").locator("#inner").wait_for()
        yield tabs, browser
        await tabs.close()


async def test_the_marks_are_the_pages_interactive_elements_where_they_are(
        shop: tuple[Tabs, BrowserSession]) -> None:
    tabs, _ = shop
    marks = await Marker().collect(tabs.page)
    assert sorted(m.name for m in marks) == sorted(NAMES)
    by_name = {m.name: m for m in marks}
    for name, selector in NAMES.items():
        locator = (tabs.page.locator(selector) if selector else
                   tabs.page.frame_locator("#frame").locator("#inner") if name.startswith("Framed")
                   else tabs.page.locator("#shadow"))
        box = await locator.bounding_box()
        assert box is not None
        got = by_name[name].box
        assert got == pytest.approx((box["x"], box["y"], box["width"], box["height"]), abs=1)
    assert by_name["Framed button"].frame and by_name["Framed button"].frame.endswith("frame.html")
    assert (by_name["Size"].role, by_name["Size"].value) == ("combobox", "Small")
    assert by_name["Yellow tile"].role == "button"
    # The numbers stay with their elements from one observation to the next.
    marker = Marker()
    first, second = await marker.collect(tabs.page), await marker.collect(tabs.page)
    assert [(m.number, m.name) for m in first] == [(m.number, m.name) for m in second]


async def test_marks_are_drawn_on_the_elements_and_labels_never_overlap(
        shop: tuple[Tabs, BrowserSession]) -> None:
    tabs, _ = shop
    screen = await capture(tabs.page, cap=Size(1440, 810))
    marks = await Marker().collect(tabs.page)
    png, labels = draw(screen.png, marks, screen.page)
    plain = Image.open(io.BytesIO(screen.png)).convert("RGB")
    marked = Image.open(io.BytesIO(png)).convert("RGB")
    assert marked.size == plain.size == (1440, 810)
    scale = 1440 / screen.page.width
    for mark in marks:
        x, y, _, h = mark.box
        left, middle = round(x * scale), round((y + h / 2) * scale)
        assert marked.getpixel((left, middle)) == colour(mark.number), mark.name
    # The drawing covers the elements' edges only: far from any box the image is unchanged.
    assert marked.getpixel((700, 40)) == plain.getpixel((700, 40))
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_the_element_list_is_capped_and_says_so() -> None:
    from webfovea.browser.marks import Mark

    marks = [Mark(i, "button", f"b{i}", "", "button", (i * 10.0, 0.0, 10.0, 10.0))
             for i in range(1, 6)]
    text = elements_text(marks, Size(100, 100), Size(50, 50), cap=3)
    assert "[3] button 'b3' at (18,2)" in text and "[4]" not in text
    assert text.endswith("… and 2 more not listed (--elements-cap 3)")


def _mark_of(request: FakeRequest, name: str) -> str:
    found = re.search(rf"\[(\d+)\] \w+ '{re.escape(name)}'", request.turns[-1].text)
    assert found, request.turns[-1].text
    return found.group(1)


async def test_click_mark_lands_on_element_n(shop: tuple[Tabs, BrowserSession],
                                             tmp_path: Path) -> None:
    tabs, session = shop
    wanted = ["Add to cart", "Shadow button", "Framed button"]

    def planner(request: FakeRequest) -> str:
        step = sum(t.role == "assistant" for t in request.turns)
        if step >= len(wanted):
            return "Thought: done.\nAction: finished(content='ok')"
        return f"Thought: next.\nAction: click(mark={_mark_of(request, wanted[step])})"

    with FakeProvider(planner) as fp:
        model = load_model("openai:planner-test", base_url=fp.base_url)
        await run_task(Task("click them", tabs.page.url), model=model, session=session,
                       config=AgentConfig(max_steps=5, observation="marks+elements"),
                       out=tmp_path, tabs=tabs)
        await model.aclose()
        sent = fp.requests
    assert await tabs.page.locator("#log").text_content() == "clicked: cart shadow inner"
    steps = read_steps(tmp_path)
    assert [s.action_source.startswith("click(mark=") for s in steps[:3]] == [True] * 3
    assert re.match(r"Mark \d+ is at \([\d.]+,[\d.]+\) on <button#cart>", steps[0].note)
    # The numbers are the same at every step; screens/ keeps the image the model got.
    numbers = [{m["name"]: m["number"] for m in s.element_marks} for s in steps]
    assert all(n == numbers[0] for n in numbers)
    kept = Image.open(tmp_path / steps[0].screenshot).convert("RGB")
    cart = next(m for m in steps[0].element_marks if m["name"] == "Add to cart")
    x, y, _, h = cart["box"]
    assert kept.getpixel((round(x * 0.75), round((y + h / 2) * 0.75))) == colour(cart["number"])
    image = sent[0].turns[-1].images[0].convert("RGB")
    assert image.getpixel((round(x * 0.75), round((y + h / 2) * 0.75))) == colour(cart["number"])


def test_mark_is_a_parse_error_naming_the_flag_without_marks() -> None:
    with pytest.raises(Exception, match="--observation marks"):
        parse_reply("Thought: t\nAction: click(mark=3)")
    assert parse_reply("Thought: t\nAction: click(mark=3)",
                       frozenset({"mark"})).action.args == {"mark": "3"}

"""Issue 35: every image sent is the viewport as a person sees it, wherever the page is.

A long page (tests/pages/viewport/long.html) is driven through the whole loop by a
scripted model wrapped in a :class:`~as_seen.Witness`, at both screen sizes: scrolls,
find_text, End / Home / PageDown, an in-page ``#hash`` link, a link away and go_back (the
browser restores the offset). Each image the model is sent is held against a plain
Playwright screenshot of the page at that moment; the evidence screenshot and a zoom
after a scroll are held against it too. The page must really have moved (else the check
proves nothing): the offsets the witness saw are asserted, and the step records carry them.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from as_seen import AFRESH_TOLERANCE, TOLERANCE, Witness, bare_at, difference_from_bare, mean_difference
from gallery_helpers import LARGE, SMALL, Browsers, View, act_and_look, views
from mcp_helpers import session_dirs, steps
from webfovea.actions.registry import Action, Point
from webfovea.browser.capture import capture
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.testing.mcp_client import FAST, image, stdio_client, text

BOTH = [pytest.param(v, id=v.name) for v in (LARGE, SMALL)]
BAND = 200  # px, tests/pages/viewport/long.html


def _reply(action: str) -> str:
    return f"Thought: next.\nAction: {action}"


async def _centre(page, selector: str, scale: float) -> str:  # type: ignore[no-untyped-def]
    box = await page.locator(selector).bounding_box()
    return f"'({(box['x'] + box['width'] / 2) * scale:.0f},{(box['y'] + box['height'] / 2) * scale:.0f})'"


@pytest.mark.parametrize("view", BOTH)
async def test_every_image_sent_after_the_window_moves_is_what_the_screen_shows(
        sized: Browsers, pages: LocalServer, tmp_path: Path, view: View) -> None:
    tabs = await (await sized.session(view)).new_tabs()
    try:
        await tabs.open(pages.url("viewport/long.html"))
        page = tabs.page
        scale = 1440 / view.viewport.width  # the default cap: 1440x810 at both sizes
        middle = f"'({720},{405})'"
        replies = [
            f"scroll(start_box={middle}, direction='down')",
            f"scroll(start_box={middle}, direction='down')",
            "find_text(text='Band 31')",
            "hotkey(key='end')",
            "hotkey(key='home')",
            "hotkey(key='pagedown')",
            f"click(start_box={await _centre(page, '#jump', scale)})",
            f"click(start_box={await _centre(page, '#away', scale)})",
            "go_back()",
            "finished(content='Band 31')",
        ]
        witness = Witness(ScriptedModel([_reply(r) for r in replies]), page)
        result = await run_task(Task("Find band 31.", page.url), model=witness,
                                session=await sized.session(view), config=AgentConfig(),
                                out=tmp_path, tabs=tabs)
        assert result.status == "finished", result
        evidence = (tmp_path / "evidence.png").read_bytes()
        assert await difference_from_bare(page, evidence) <= TOLERANCE
    finally:
        await tabs.close()

    assert [s.step for s in witness.seen] == list(range(1, len(replies) + 1))
    assert witness.wrong() == [], witness.seen
    offsets = [s.scroll_y for s in witness.seen]
    # Where each image was taken: the top; two scrolls down; band 31 in view; the end; the
    # top; a screen down; band 40 by its anchor; the next page's top; band 40 again (back).
    assert offsets[0] == 0 and 0 < offsets[1] < offsets[2]
    assert offsets[3] <= 31 * BAND < offsets[3] + view.viewport.height
    assert offsets[4] > 50 * BAND and offsets[5] == 0 and offsets[6] > 0
    assert offsets[7] == 40 * BAND and offsets[8] == 0 and offsets[9] == 40 * BAND
    steps = [json.loads(line) for line in (tmp_path / "steps.jsonl").read_text().splitlines()]
    assert [s["scroll_offset"][1] for s in steps] == offsets


@pytest.mark.parametrize("view", BOTH)
async def test_a_zoom_after_a_scroll_shows_the_region_on_the_screen(
        sized: Browsers, pages: LocalServer, view: View) -> None:
    async with sized.open(view, pages.url("viewport/long.html")) as ex:
        page = ex.tabs.page
        await page.evaluate(f"window.scrollTo(0, {12 * BAND + 50})")
        screen = await capture(page, cap=ex.config.image_cap)
        assert screen.offset == (0, 12 * BAND + 50)
        assert mean_difference(screen.png, await page.screenshot()) <= TOLERANCE
        scale = screen.sent.width / screen.page.width
        region = (100, 100, 500, 400)  # page CSS px
        note = await ex.execute(Action("zoom", {
            "start_box": Point(region[0] * scale, region[1] * scale),
            "end_box": Point(region[2] * scale, region[3] * scale)}), screen)
        assert note.image is not None
        bare = await page.screenshot(clip={"x": region[0], "y": region[1],
                                           "width": region[2] - region[0],
                                           "height": region[3] - region[1]})
        assert mean_difference(note.image, bare) <= TOLERANCE
        with Image.open(io.BytesIO(note.image)) as zoomed:  # band 12 or 13, not the top's band 0
            top_band = zoomed.convert("RGB").getpixel((5, 5))
        with Image.open(io.BytesIO(await page.screenshot(clip={
                "x": 0, "y": 0, "width": 10, "height": 10}))) as shown:
            assert top_band != (255, 255, 255) and top_band == shown.convert("RGB").getpixel((5, 5))


@pytest.mark.parametrize("view", BOTH)
async def test_a_pinch_zoomed_visual_viewport_is_captured_as_seen(
        sized: Browsers, pages: LocalServer, view: View) -> None:
    async with sized.open(view, pages.url("viewport/long.html")) as ex:
        page = ex.tabs.page
        await page.evaluate(f"window.scrollTo(0, {20 * BAND})")
        devtools = await page.context.new_cdp_session(page)
        await devtools.send("Input.synthesizePinchGesture", {
            "x": 300, "y": 300, "scaleFactor": 2.0, "relativeSpeed": 2000})
        await page.wait_for_function("window.visualViewport.scale > 1.9")
        screen = await capture(page, cap=ex.config.image_cap)
        assert screen.zoom > 1.9 and screen.offset[1] > 20 * BAND
        assert screen.sent.width == 1440
        assert mean_difference(screen.png, await page.screenshot()) <= TOLERANCE


# Real component pages made longer than the screen by content below the component (as a
# component sits on a long page of a real site): each image after the window moved is held
# against the bare screenshot, over a React widget, a Chart.js canvas and Leaflet's tiles.
GALLERY_PAGES = {"react_select": "#single", "chartjs_bars": "#chart", "leaflet_map": "#map"}
BELOW = """() => {
  const below = document.createElement("div");
  below.style.cssText = "position:absolute;left:0;right:0;top:100vh;";
  for (let i = 0; i < 14; i++) {
    const band = document.createElement("div");
    band.style.cssText = `height:200px;font:40px sans-serif;background:hsl(${i * 53 % 360},60%,70%)`;
    band.textContent = i === 6 ? "Far below the component" : `Row ${i}`;
    below.appendChild(band);
  }
  document.body.appendChild(below);
}"""


@pytest.mark.parametrize("view", views(quick=LARGE))  # the long page samples the small screen
@pytest.mark.parametrize("name", list(GALLERY_PAGES))
async def test_gallery_pages_are_sent_as_seen_at_every_offset(
        sized: Browsers, gallery: LocalServer, view: View, name: str) -> None:
    async with sized.open(view, gallery.url(f"/pages/{name}.html")) as ex:
        page = ex.tabs.page
        await page.locator(GALLERY_PAGES[name]).wait_for()
        await page.evaluate(BELOW)
        middle = (view.viewport.width * 0.8, view.viewport.height * 0.5)
        offsets = []
        for action, points, args in [("scroll", (middle,), {"direction": "down"}),
                                     ("scroll", (middle,), {"direction": "down"}),
                                     ("scroll", (middle,), {"direction": "up"}),
                                     ("find_text", (), {"text": "Far below the component"}),
                                     ("hotkey", (), {"key": "end"}),
                                     ("hotkey", (), {"key": "home"}),
                                     ("hotkey", (), {"key": "pagedown"})]:
            note, screen = await act_and_look(ex, action, *points, **args)
            assert "no detectable change" not in note.text, (action, note.text)
            offsets.append(screen.offset[1])
            difference = await difference_from_bare(page, screen.png)
            assert difference <= TOLERANCE, (action, screen.offset, difference)
    assert 0 < offsets[0] == offsets[2] < offsets[1]
    assert offsets[5] == 0 and offsets[4] > offsets[3] > 0 and offsets[6] > 0


async def test_the_mcp_server_sends_the_screen_as_seen_after_the_window_moves(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    """The MCP server (its own process) answers scroll, find_text and End with the screenshot
    after them: each image, as returned to the client and as kept in ``screens/``, is held
    against the long page opened afresh at the offset its step record gives."""
    url = pages.url("viewport/long.html")
    out = tmp_path / "mcp"
    returned = []
    async with stdio_client("--url", url, "--out", str(out), *FAST) as client:
        for name, arguments in [("scroll", {"start_box": [640, 360], "direction": "down"}),
                                ("find_text", {"text": "Band 31"}),
                                ("hotkey", {"key": "end"})]:
            reply = await client.call_tool(name, arguments)
            assert not reply.is_error, text(reply)
            returned.append(image(reply).convert("RGB").tobytes())
        await client.call_tool("finish", {"answer": "Band 31"})
    (run,) = session_dirs(out)
    recorded = steps(run)
    offsets = [s["scroll_offset"][1] for s in recorded]
    assert offsets[0] == 0 and 0 < offsets[1] < offsets[2] < offsets[3]
    for step in recorded:
        sent = (run / step["screenshot"]).read_bytes()
        bare = await bare_at(browser, url, tuple(step["scroll_offset"]))
        assert mean_difference(sent, bare) <= AFRESH_TOLERANCE, (step["step"], step["scroll_offset"])
    kept = []
    for step in recorded[1:]:
        with Image.open(run / step["screenshot"]) as shot:
            kept.append(shot.convert("RGB").tobytes())
    assert returned == kept  # what the client got is what the run directory keeps

"""Issue 20, items 1, 2 and their part of 6: feedback and settling on real components.

Pages built from the real libraries at pinned versions (tests/gallery: pdf.js's PDFViewer,
Chart.js, Plotly, Leaflet; a Streamlit app behind 100 ms of latency), driven through the
real executor with points in the sent image's pixels, at 1920x1080 and at 1280x720 with
device scale factor 2 (the small screen is slow-marked but for a quick sample). For each
component the four checks: the intended state change happens (read from the component's
own state), the note is truthful both ways (a no-op beside it is "no detectable change"),
the next screenshot shows the end state (pixels, not only the DOM), and find_text /
read_text are honest. Plus tests/pages/feedback/netnoop.html and settle/frames.html:
net no-ops and animation-frame loops made by hand, each beside the same mutation with a
lasting effect.
"""

from __future__ import annotations

import io
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from gallery_helpers import LARGE, SMALL, Browsers, View, act_and_look, sent_crop
from gallery_support import ColourPolicy, Look, count, find_colour, near, pdf_bytes, timing
from streamlit_support import streamlit_app
from webfovea.browser.capture import Screen
from webfovea.browser.executor import Executor
from webfovea.browser.feedback import NO_CHANGE
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider
from webfovea.documents import ocr
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps

GALLERY = Path(__file__).parent / "gallery"
ALL = [pytest.param(LARGE, id=LARGE.name), pytest.param(SMALL, id=SMALL.name, marks=pytest.mark.slow)]
BOTH = [pytest.param(LARGE, id=LARGE.name), pytest.param(SMALL, id=SMALL.name)]


def spot(display: View, fx: float, fy: float) -> tuple[float, float]:
    """A point at fractions of the viewport (page CSS pixels)."""
    return display.viewport.width * fx, display.viewport.height * fy


@pytest.fixture(scope="session")
def pdf(gallery: LocalServer) -> str:
    """The viewer's URL with the generated report (written into the build output)."""
    (GALLERY / "dist" / "report.pdf").write_bytes(pdf_bytes())
    return gallery.url("/pages/pdfjs_viewer.html")


async def until(ex: Executor, condition: str, arg: Any = None) -> Any:
    """Wait for a page-side condition (a JavaScript expression or function): the
    component's own signal that it is ready or at rest."""
    handle = await ex.tabs.page.wait_for_function(condition, arg=arg, timeout=30_000)
    return await handle.json_value()


async def js(ex: Executor, expression: str, arg: Any = None) -> Any:
    return await ex.tabs.page.evaluate(expression, arg)


# --- net no-ops and animation-frame loops, made by hand ----------------------------------

NETNOOP = [  # (no-op button, the same mutation with a lasting effect, words of its note)
    ((150, 65), (410, 65), "Cherry"),  # a node put back where it was / moved
    ((150, 145), (410, 145), "lamp"),  # a class off and on again / left off
    ((150, 225), (410, 225), "Banana!"),  # children re-rendered identical / renamed
    ((150, 305), (410, 305), "testScrollbar"),  # a probe removed in its task / kept
]


async def test_net_no_ops_are_no_change_and_the_same_mutations_that_last_are_changes(
        opened: Any, pages: LocalServer) -> None:
    async with opened(pages.url("feedback/netnoop.html")) as ex:
        for noop, real, words in NETNOOP:
            quiet, _ = await act_and_look(ex, "click", noop)
            change, _ = await act_and_look(ex, "click", real)
            assert quiet.outcome == "no_change", quiet.text
            assert change.outcome == "changed" and words in change.text, change.text
            assert "<html>" not in change.text and "<body>" not in change.text
        hidden, _ = await act_and_look(ex, "click", (150, 385))  # edits the <noscript>
        assert await js(ex, "document.querySelector('noscript').textContent.startsWith('Needs')")
    assert hidden.outcome == "no_change" and "noscript" not in hidden.text, hidden.text


async def test_an_animation_the_action_starts_is_waited_for_and_a_canvas_that_never_rests_is_not(
        opened: Any, pages: LocalServer) -> None:
    async with opened(pages.url("settle/frames.html")) as ex:
        grow, shot = await act_and_look(ex, "click", (150, 425))
        spin, _ = await act_and_look(ex, "hover", (900, 190))
        width = await js(ex, "width")
    assert grow.outcome == "changed" and "frame" in grow.details["settle"]["held"], grow.details
    assert width == 600
    red, total = count(shot, (40 + 560, 140, 40 + 600, 200), near((220, 30, 30)))
    assert red > total * 0.9  # the bar's far end is drawn: the screenshot shows the end
    assert "frame" not in spin.details["settle"]["held"]
    assert spin.outcome != "changed", spin.text  # it redraws by itself: "unknown" at best


# --- Chart.js ------------------------------------------------------------------------------

CHART_RED = (230, 40, 40)
TOOLTIP = (20, 20, 20)


async def chart_page(sized: Browsers, display: View, gallery: LocalServer
                     ) -> AbstractAsyncContextManager[Executor]:
    return sized.open(display, gallery.url("/pages/chartjs_bars.html"))


async def legend_point(ex: Executor, index: int) -> tuple[float, float]:
    box = await js(ex, """(i) => { const b = chart.legend.legendHitBoxes[i];
        const r = chart.canvas.getBoundingClientRect();
        return [r.left + b.left + b.width / 2, r.top + b.top + b.height / 2]; }""", index)
    return box[0], box[1]


async def plot_area(ex: Executor) -> tuple[float, float, float, float]:
    a = await js(ex, """() => { const r = chart.canvas.getBoundingClientRect(), a = chart.chartArea;
        return [r.left + a.left, r.top + a.top, r.left + a.right, r.top + a.bottom]; }""")
    return a[0], a[1], a[2], a[3]


async def bar_area(ex: Executor, dataset: int) -> float:
    """Page pixels the dataset's bars cover when fully drawn."""
    area: float = await js(ex, """(d) => chart.getDatasetMeta(d).data
        .reduce((s, b) => s + b.width * Math.abs(b.base - b.y), 0)""", dataset)
    return area


def reddish(p: tuple[int, int, int]) -> bool:
    """Red bars, also half-faded ones (blended towards the white background)."""
    return p[0] > 150 and p[0] - p[1] > 40 and p[0] - p[2] > 40


@pytest.mark.parametrize("display", BOTH)
async def test_chartjs_legend_click_settles_on_the_end_state(
        display: View, sized: Browsers, gallery: LocalServer) -> None:
    async with await chart_page(sized, display, gallery) as ex:
        await until(ex, "window.chartIdle >= 1")
        blank, _ = await act_and_look(ex, "click", spot(display, 0.8, 0.4))
        legend = await legend_point(ex, 0)
        # Hovers first: the chart redraws after each of them, which must not teach the
        # watcher that the canvas changes by itself.
        for i in range(4):
            await act_and_look(ex, "hover", (legend[0] + 40 * i, legend[1] + 200))
        await act_and_look(ex, "hover", spot(display, 0.8, 0.4))  # no tooltip
        hide, hidden_shot = await act_and_look(ex, "click", legend)
        visible_after_hide = await js(ex, "chart.isDatasetVisible(0)")
        area = await plot_area(ex)
        show, shown_shot = await act_and_look(ex, "click", legend)
        full = await bar_area(ex, 0)
        assert await js(ex, "chart.isDatasetVisible(0)")
    assert blank.outcome == "no_change" and NO_CHANGE in blank.text, blank.text
    assert hide.outcome == "changed" and "canvas" in hide.text, hide.text
    assert not visible_after_hide
    assert "frame" in hide.details["settle"]["held"], hide.details
    faded, _ = count(hidden_shot, area, reddish)
    assert faded == 0  # no half-faded bar left in the picture the model gets next
    red, _ = count(shown_shot, area, near(CHART_RED, 12))
    scale = (shown_shot.sent.width / shown_shot.page.width) ** 2
    assert red >= full * scale * 0.9, (red, full * scale)  # grown to full height
    assert show.outcome == "changed", show.text


@pytest.mark.parametrize("display", ALL)
async def test_chartjs_tooltip_shows_fully_and_find_text_is_honest(
        display: View, sized: Browsers, gallery: LocalServer) -> None:
    async with await chart_page(sized, display, gallery) as ex:
        await until(ex, "window.chartIdle >= 1")
        bar = await js(ex, """() => { const b = chart.getDatasetMeta(1).data[2];
            const r = chart.canvas.getBoundingClientRect();
            return [r.left + b.x, r.top + (b.y + b.base) / 2]; }""")
        away, _ = await act_and_look(ex, "hover", spot(display, 0.8, 0.4))
        tip, shot = await act_and_look(ex, "hover", (bar[0], bar[1]))
        state = await js(ex, """() => { const t = chart.tooltip, r = chart.canvas.getBoundingClientRect();
            return { n: t.getActiveElements().length, opacity: t.opacity,
                     box: [r.left + t.x, r.top + t.y, r.left + t.x + t.width, r.top + t.y + t.height] }; }""")
        found, _ = await act_and_look(ex, "find_text", text="Revenue")  # drawn on the canvas only
    assert away.outcome == "no_change", away.text
    assert tip.outcome == "changed", tip.text
    assert state["n"] == 1 and state["opacity"] == 1
    left, top, right, bottom = state["box"]
    dark, total = count(shot, (left + 4, top + 4, right - 4, bottom - 4), near(TOOLTIP, 25))
    assert dark > total * 0.5, (dark, total)  # fully faded in, not half-way
    assert found.outcome != "changed" and "no match" in found.text, found.text


# --- Plotly ----------------------------------------------------------------------------------

PLOT_GREEN = (0, 150, 60)


@pytest.mark.parametrize("display", ALL)
async def test_plotly_hover_label_shows_the_values(
        display: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(display, gallery.url("/pages/plotly_line.html")) as ex:
        await until(ex, "window.plotReady === true")
        point = await js(ex, """() => { const l = plot._fullLayout, r = plot.getBoundingClientRect();
            return [r.left + l._size.l + l.xaxis.l2p(2022), r.top + l._size.t + l.yaxis.l2p(58)]; }""")
        blank, _ = await act_and_look(ex, "hover", spot(display, 0.8, 0.4))
        before, _ = await act_and_look(ex, "find_text", text="58")
        hover, shot = await act_and_look(ex, "hover", (point[0], point[1]))
        data = await js(ex, "(plot._hoverdata || []).map(d => [d.x, d.y])")
        label = await js(ex, """() => { const r = document.querySelector('.hoverlayer .hovertext path')
            .getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }""")
        after, _ = await act_and_look(ex, "find_text", text="58")
    assert blank.outcome == "no_change", blank.text
    assert "no match" in before.text, before.text  # no label yet: 58 is no tick either
    assert data == [[2022, 58]]
    assert hover.outcome == "changed" and "visible text changed" in hover.text, hover.text
    inner = (label[0] + 6, label[1] + 4, label[2] - 6, label[3] - 4)
    dark, total = count(shot, inner, near((20, 20, 20), 25))
    assert dark > total * 0.3, (dark, total)  # the label is in the picture
    assert "found '58'" in after.text, after.text


# --- Leaflet -----------------------------------------------------------------------------------

MARKER = (200, 0, 160)


async def marker_point(ex: Executor) -> tuple[float, float]:
    p = await js(ex, """() => { const r = map.getContainer().getBoundingClientRect(),
        c = map.latLngToContainerPoint(office.getLatLng()); return [r.left + c.x, r.top + c.y]; }""")
    return p[0], p[1]


@pytest.mark.parametrize("display", ALL)
async def test_leaflet_pan_settles_where_the_map_came_to_rest(
        display: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(display, gallery.url("/pages/leaflet_map.html")) as ex:
        await until(ex, "window.map && map._loaded")
        blank, _ = await act_and_look(ex, "click", spot(display, 0.8, 0.4))
        start = await marker_point(ex)
        centre = await js(ex, "[map.getCenter().lat, map.getCenter().lng]")
        pan, shot = await act_and_look(ex, "drag", (start[0] + 60, start[1] + 60),
                                       (start[0] + 260, start[1] + 160))
        moved = await js(ex, "[map.getCenter().lat, map.getCenter().lng]")
        await until(ex, "!map._panAnim || !map._panAnim._inProgress")
        rest = await marker_point(ex)
        rested = await js(ex, "[map.getCenter().lat, map.getCenter().lng]")
    assert blank.outcome == "no_change", blank.text
    assert pan.outcome == "changed", pan.text
    assert moved[1] < centre[1] and moved[0] > centre[0]  # dragged right and down: centre west, north
    assert moved == rested  # the pan, inertia included, was over when the action returned
    hit, total = count(shot, (rest[0] - 5, rest[1] - 5, rest[0] + 5, rest[1] + 5), near(MARKER))
    assert hit > total * 0.8, (hit, total)  # the marker is where the map came to rest


@pytest.mark.parametrize("display", ALL)
async def test_leaflet_popup_opens_fully_and_find_text_finds_it(
        display: View, sized: Browsers, gallery: LocalServer) -> None:
    async with sized.open(display, gallery.url("/pages/leaflet_map.html")) as ex:
        await until(ex, "window.map && map._loaded")
        before, _ = await act_and_look(ex, "find_text", text="Dublin office")
        popup, shot = await act_and_look(ex, "click", await marker_point(ex))
        is_open = await js(ex, "office.isPopupOpen()")
        box = await js(ex, """() => { const r = document.querySelector('.leaflet-popup-content-wrapper')
            .getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }""")
        after, _ = await act_and_look(ex, "find_text", text="Dublin office")
    assert "no match" in before.text, before.text
    assert is_open and popup.outcome == "changed" and "Dublin office" in popup.text, popup.text
    white, total = count(shot, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), near((255, 255, 255), 6))
    assert white > total * 0.6, (white, total)  # faded in: white, not blended with the tiles
    assert "found 'Dublin office'" in after.text, after.text


# --- pdf.js --------------------------------------------------------------------------------------

PDF_IDLE = """() => window.textLayersRendered >= 1 && [...Array(pdfViewer.pagesCount).keys()]
    .every((i) => [0, 3].includes(pdfViewer.getPageView(i).renderingState))"""


async def page_box(ex: Executor, number: int) -> tuple[float, float, float, float]:
    r = await js(ex, """(n) => { const r = pdfViewer.getPageView(n - 1).div.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; }""", number)
    return r[0], r[1], r[2], r[3]


@pytest.mark.parametrize("display", ALL)
async def test_pdfjs_clicks_beside_the_document_are_no_change(
        display: View, sized: Browsers, pdf: str) -> None:
    """pdf.js takes its text layers' .endOfContent out and puts it back on every pointerup
    (and clears its styles): a click anywhere used to read as effective."""
    async with sized.open(display, pdf) as ex:
        await until(ex, PDF_IDLE)
        left, _, _, _ = await page_box(ex, 1)
        beside = [(await act_and_look(ex, "click", ((left + display.viewport.width * 0.15) / 2, 300)))[0]
                  for _ in range(3)]
        layers = await js(ex, "document.querySelectorAll('.textLayer .endOfContent').length")
    assert [n.outcome for n in beside] == ["no_change"] * 3, [n.text for n in beside]
    assert NO_CHANGE in beside[0].text and "<div#viewer>" in beside[0].text
    assert layers >= 1  # the text layers whose .endOfContent pdf.js moved are there


@pytest.mark.parametrize("display", ALL)
async def test_pdfjs_end_key_shows_the_last_page_rendered_and_find_text_is_honest(
        display: View, sized: Browsers, pdf: str) -> None:
    async with sized.open(display, pdf) as ex:
        await until(ex, PDF_IDLE)
        missing, _ = await act_and_look(ex, "find_text", text="Section 12")  # its page is not rendered yet
        left, top, _, _ = await page_box(ex, 1)
        await act_and_look(ex, "click", (left + 150, max(top, 0) + 250))  # focus the viewer
        end, shot = await act_and_look(ex, "hotkey", key="end")
        current = await js(ex, "pdfViewer.currentPageNumber")
        box = await page_box(ex, 12)
        found, _ = await act_and_look(ex, "find_text", text="Section 12")
        read, _ = await act_and_look(ex, "read_text", label="Staff count at year end: 256")
    assert "no match" in missing.text, missing.text
    assert end.outcome == "changed", end.text
    assert current == 12
    visible = (box[0] + 40, max(box[1], 0), box[0] + 500, min(box[3], display.viewport.height))
    ink, _ = count(shot, visible, lambda p: max(p) < 90)
    assert ink > 100, ink  # page 12's words are drawn in the picture, not a blank page
    assert "found 'Section 12'" in found.text, found.text
    assert "256" in read.text, read.text


# --- Streamlit over a WebSocket, 100 ms each way -----------------------------------------------

ST_READY = """() => document.querySelector('[data-testid=stSelectbox] input')
    && document.body.innerText.includes('You chose') && document.querySelector('[data-testid=stDataFrame]')"""


@pytest.fixture(scope="module")
def streamlit() -> Any:
    with streamlit_app() as url:
        yield url


async def rect(ex: Executor, selector: str) -> tuple[float, float, float, float]:
    r = await js(ex, """(s) => { const r = document.querySelector(s).getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; }""", selector)
    return r[0], r[1], r[2], r[3]


async def read_pixels(screen: Screen, box: tuple[float, float, float, float]) -> str:
    """The text OCR reads in ``box`` (page pixels) of the image as sent, enlarged 4x first:
    Tesseract misreads 14 px text in a whole downscaled screenshot."""
    left, top, right, bottom = box
    crop = sent_crop(screen, left - 8, top - 8, right + 40, bottom + 8)
    crop = crop.resize((crop.width * 4, crop.height * 4), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    crop.save(out, format="PNG")
    seen = await ocr.screen_text(out.getvalue(), time_left=ocr.MAX_SECONDS)
    return " ".join(seen.text.split())


async def result(ex: Executor) -> str:
    text: str = await js(ex, "document.querySelector('[data-testid=stMain]').innerText")
    return text


@pytest.mark.parametrize("display", ALL)
async def test_streamlit_choices_show_their_result_in_the_next_screenshot(
        display: View, sized: Browsers, streamlit: str) -> None:
    async with sized.open(display, streamlit) as ex:
        await until(ex, ST_READY)
        clicked = [await act_and_look(ex, "click", spot(display, 0.9, 0.8))
                   for _ in range(2)]
        blank, before = [note for note, _ in clicked], clicked[-1][1]
        results = []
        for colour in ["Green", "Blue", "Yellow", "Red"]:
            box = await rect(ex, "[data-testid=stSelectbox] input")
            await act_and_look(ex, "click", ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
            option = await js(ex, """(c) => { const o = [...document.querySelectorAll('[role=option]')]
                .find((e) => e.innerText.trim() === c); const r = o.getBoundingClientRect();
                return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; }""", colour)
            note, shot = await act_and_look(ex, "click", (option[0], option[1]))
            results.append((colour, note, await result(ex), shot))
        said = await rect(ex, "[data-testid=stMain] strong")  # "You chose …"
    assert [n.outcome for n in blank] == ["no_change"] * 2, [n.text for n in blank]
    assert "<html>" not in blank[-1].text and "noscript" not in blank[-1].text
    for colour, note, text, _ in results:
        assert f"You chose {colour}" in text, (colour, text)  # the rerun was in before the note
        assert note.outcome == "changed" and "socket" in note.details["settle"]["held"], note.details
        assert "noscript" not in note.text and "<html>" not in note.text, note.text
    # The end state in pixels: the screenshot the model gets next shows the new result, not
    # the old one beside the new choice (what a screenshot taken before the rerun showed).
    if not ocr.available():
        pytest.skip("the pixel check reads the screenshot by OCR: install tesseract-ocr and "
                    "the ocr extra (setup does as root)")
    first = await read_pixels(before, said)  # the check tells one result from another
    assert "You chose Red" in first and "Green" not in first, first
    for colour, _, _, shot in results:
        seen = await read_pixels(shot, said)
        assert f"You chose {colour}" in seen, (colour, seen)


@pytest.mark.parametrize("display", ALL)
async def test_streamlit_slider_and_grid(display: View, sized: Browsers, streamlit: str) -> None:
    async with sized.open(display, streamlit) as ex:
        await until(ex, ST_READY)
        x, y = await js(ex, """() => { const r = document.querySelector('[data-testid=stSlider] input')
            .parentElement.parentElement.getBoundingClientRect();  // react-aria's thumb
            return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; }""")
        slide, _ = await act_and_look(ex, "drag", (x, y), (x + 200, y))
        shown = await result(ex)
        read, _ = await act_and_look(ex, "read_text", label="Van 3")
        virtual, _ = await act_and_look(ex, "find_text", text="Van 40")  # a row the grid has not drawn
    assert slide.outcome == "changed", slide.text
    assert "Vehicles: 3" not in shown and "socket" in slide.details["settle"]["held"], (shown, slide.details)
    assert "Van 3" in read.text, read.text
    assert "no match" in virtual.text, virtual.text


# --- end to end: run_task with a model answering in the received image's pixels ---------------


async def run(policy: ColourPolicy, goal: str, url: str, session: BrowserSession, out: Path
              ) -> tuple[list[Any], str]:
    """``run_task`` with the fake model; the recorded steps and the answer."""
    with FakeProvider(policy) as fp:
        model = load_model("openai:fake", base_url=fp.base_url)
        result = await run_task(Task(goal, url), model=model, session=session,
                                config=AgentConfig(max_steps=len(policy.steps) + policy.patience + 2),
                                out=out)
        await model.aclose()
    steps = read_steps(out)
    assert result.status == "finished", (result, [s.note for s in steps])
    t = timing(out)  # what docs/real-components.md reports, here on every run
    assert t.harness_median > 0
    return steps, result.answer or ""


def no_red(image: Image.Image) -> str:
    bars = find_colour(image, CHART_RED, tolerance=12, region=(0.05, 0.2, 0.6, 0.7))
    return "visible" if bars else "hidden"


async def test_run_task_hides_a_chartjs_dataset_and_sees_it_gone(
        browser: BrowserSession, gallery: LocalServer, tmp_path: Path) -> None:
    # The legend's red swatch is the only red in the top strip of the image (the bars stop below).
    # The first screenshot may catch the entry animation (started from a ResizeObserver,
    # which no settle can foresee): the model waits once, then clicks.
    policy = ColourPolicy([Look("click(start_box='({x},{y})')", CHART_RED, (0, 0, 1, 0.12))], no_red,
                          look_first=True)
    url = gallery.url("/pages/chartjs_bars.html")
    steps, answer = await run(policy, "hide the revenue bars", url, browser, tmp_path)
    click = next(s for s in steps if s.action and s.action["name"] == "click")
    assert answer == "hidden", [s.note for s in steps]
    assert click.outcome == "changed" and "frame" in click.details["settle"]["held"], click.note


async def test_run_task_opens_a_leaflet_popup(browser: BrowserSession, gallery: LocalServer,
                                              tmp_path: Path) -> None:
    policy = ColourPolicy([Look("click(start_box='({x},{y})')", MARKER)], lambda _: "seen")
    steps, _ = await run(policy, "open the office popup", gallery.url("/pages/leaflet_map.html"),
                         browser, tmp_path)
    assert steps[0].outcome == "changed" and "Dublin office" in steps[0].note, steps[0].note


async def test_run_task_hovers_the_highest_plotly_point(browser: BrowserSession, gallery: LocalServer,
                                                         tmp_path: Path) -> None:
    policy = ColourPolicy([Look("hover(start_box='({x},{y})')", PLOT_GREEN, pick="top")], lambda _: "58")
    steps, _ = await run(policy, "read the peak", gallery.url("/pages/plotly_line.html"),
                         browser, tmp_path)
    assert steps[0].outcome == "changed" and "visible text changed" in steps[0].note, steps[0].note


async def test_run_task_click_beside_a_pdf_is_no_change(browser: BrowserSession, pdf: str,
                                                         tmp_path: Path) -> None:
    grey = (187, 187, 187)  # the viewer's background beside the page
    policy = ColourPolicy([Look("click(start_box='({x},{y})')", grey, (0, 0.3, 0.25, 0.6))] * 2,
                          lambda _: "nothing")
    steps, _ = await run(policy, "click beside the page", pdf, browser, tmp_path)
    assert [s.outcome for s in steps[:2]] == ["no_change"] * 2, [s.note for s in steps]


async def test_run_task_drags_a_streamlit_slider(browser: BrowserSession, streamlit: str,
                                                 tmp_path: Path) -> None:
    # Streamlit's red fills the slider's track up to its thumb: the rightmost red is the thumb.
    red = (197, 57, 72)
    look = Look("drag(start_box='({x},{y})', end_box='({x2},{y})')", red, (0, 0.2, 1, 0.5),
                pick="right", shift=120)
    policy = ColourPolicy([look], lambda _: "dragged")
    steps, _ = await run(policy, "more vehicles", streamlit, browser, tmp_path)
    drag = next(s for s in steps if s.action and s.action["name"] == "drag")
    assert drag.outcome == "changed", drag.note
    assert "socket" in drag.details["settle"]["held"], drag.details

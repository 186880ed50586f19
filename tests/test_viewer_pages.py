"""The viewer's index, task page, two-run page and folder index, opened from disk in real
Chromium. The run directories come from real ``webfovea bench`` runs (Chromium on
tests/pages/viewer, the model the OpenAI-protocol FakeProvider): run A with a deliberately
broken harness (clicks land at 3/4 of the point), run B without. Page and model text carries
markup that must stay text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from xml.etree import ElementTree

import pytest
from playwright.async_api import Page, expect

import viewer_helpers as helpers
from viewer_helpers import BAIT, HELP, REVEAL, click, reply, reveal_policy, search_policy
from webfovea.bench.charts import bins
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.rundir.outcomes import Rate
from webfovea.testing import FakeProvider, FakeRequest, ScriptedPolicy

XSS_TASK = 'Read <script>window.__xss = "task"</script> the page.'
XSS_THOUGHT = 'Look <img src=x onerror="window.__xss=\'thought\'"> here.'
XSS_ANSWER = "<img src=x onerror=window.__xss=1>"
XSS_TAG = "<b onmouseover=window.__xss=2>tag</b>"
SEARCH_TASK = "Find the laptop's price."
REVEAL_TASK = "Find the total."
TOTAL_IN_SENT = (1050, 712.5)  # #total at page (1400, 950), sent image = page x 0.75
# The module's fixture runs two benches; on a loaded machine that outlasts the default limit.
pytestmark = pytest.mark.timeout(900)


def by_task() -> Callable[[FakeRequest], str]:
    """One bench's model: each task's policy, chosen by the task text in the request."""
    policies: dict[str, Callable[[FakeRequest], str]] = {
        REVEAL_TASK: reveal_policy, SEARCH_TASK: search_policy("laptop\n"),
        XSS_TASK: ScriptedPolicy([reply(click(BAIT), XSS_THOUGHT), reply(click(HELP), "Help."),
                                  reply(f"finished(content='{XSS_ANSWER}')", "Done.")])}

    def policy(req: FakeRequest) -> str:
        text = "\n".join(t.text for t in req.turns if t.role == "user")
        return next(p(req) for task, p in policies.items() if task in text)

    return policy


def write_task_file(path: Path, pages: LocalServer) -> Path:
    url = pages.url("viewer/shop.html")
    tasks = [{"id": "reveal", "instruction": REVEAL_TASK, "url": url, "answer": "48,210",
              "tags": ["shop", "easy"]},
             {"id": "search", "instruction": SEARCH_TASK, "url": url, "answer": "1,234",
              "tags": ["shop"]},
             {"id": "xss", "instruction": XSS_TASK, "url": url, "answer": "nothing",
              "tags": ["xss", XSS_TAG]}]
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    return path


def bench(tasks: Path, out: Path, *, ablate: str = "") -> None:
    with FakeProvider(by_task()) as fp:
        done = subprocess.run(
            [sys.executable, "-m", "webfovea", "bench", str(tasks), "--out", str(out),
             "--model", "openai:fake-vlm", "--base-url", fp.base_url, "--workers", "3",
             "--max-steps", "4", "--price-input", "3", "--price-output", "15",
             "--grounding", "record",  # the scripted steps as they are: none sent back
             *(["--ablate", ablate] if ablate else [])],
            capture_output=True, text=True, timeout=400,
            env={**os.environ, "OPENAI_API_KEY": "test-key"})
    assert done.returncode == 0, done.stdout + done.stderr


def view(*dirs: Path) -> Path:
    return Path(webfovea("view", *map(str, dirs)).stdout.strip())


@pytest.fixture(scope="module")
def runs(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """runs/a (broken clicks), runs/b (clean): two real bench runs of the same tasks."""
    root = tmp_path_factory.mktemp("pages") / "runs"
    tasks = write_task_file(root.parent / "tasks.jsonl", pages)
    bench(tasks, root / "a", ablate="ratio")
    bench(tasks, root / "b")
    yield root


def opened(browser: BrowserSession, page_file: Path, fragment: str = ""
           ) -> AbstractAsyncContextManager[tuple[Page, list[str]]]:
    """The page loaded from disk in a 1400x900 window (console errors and failed loads kept)."""
    return helpers.opened(browser, page_file, fragment, height=900)


async def inert(page: Page) -> None:
    """No recorded markup ran: nothing set window.__xss, no injected element exists."""
    await page.wait_for_load_state("load")
    assert await page.evaluate("window.__xss") is None
    assert await page.evaluate("document.querySelectorAll('img[src=\"x\"], b').length") == 0
    assert await page.evaluate("document.scripts.length") == 2  # the data and the viewer


async def shown_ids(page: Page) -> list[str]:
    return await page.locator("table.index tbody tr:not([hidden])").evaluate_all(
        "rows => rows.map(r => r.dataset.id)")


async def test_index_sorts_filters_and_charts(browser: BrowserSession, runs: Path) -> None:
    index = view(runs / "b")
    async with opened(browser, index) as (page, problems):
        await inert(page)
        assert await shown_ids(page) == ["reveal", "search", "xss"]
        steps_th = page.locator("thead th").nth(5)  # its button's name gains the sort arrow
        header = steps_th.locator("button")
        steps = {row: int(await page.locator(f"tr[data-id='{row}'] td").nth(5).inner_text())
                 for row in ("reveal", "search", "xss")}
        await header.click()
        ascending = await shown_ids(page)
        assert [steps[r] for r in ascending] == sorted(steps.values())
        assert await steps_th.get_attribute("aria-sort") == "ascending"
        await header.click()
        assert [steps[r] for r in await shown_ids(page)] == sorted(steps.values(), reverse=True)
        await page.get_by_role("button", name="task", exact=True).click()
        assert await shown_ids(page) == ["reveal", "search", "xss"]

        for label, value, want in (("verdicts", "correct", ["reveal", "search"]),
                                   ("tags", "easy", ["reveal"]), ("verdicts", "", ["reveal"]),
                                   ("tags", XSS_TAG, ["xss"]), ("tags", "", None)):
            await page.get_by_label(label, exact=True).select_option(value)
            if want is not None:
                assert await shown_ids(page) == want, (label, value)
        assert len(await shown_ids(page)) == 3
        await page.get_by_label("steps", exact=True).fill(str(max(steps.values())))
        assert await shown_ids(page) == [r for r, n in steps.items() if n == max(steps.values())]
        await page.get_by_label("steps", exact=True).fill("")
        await page.get_by_label("search").fill("laptop")
        assert await shown_ids(page) == ["search"]
        assert "1 of 3 tasks shown" in await page.get_by_role("status").inner_text()

        by_tag = page.locator("svg[aria-label='Success by tag (95% interval)']")
        labels = await by_tag.locator("text").all_text_contents()
        # Each rate with its Wilson interval, honest also at 2/2 and 0/1.
        assert "shop" in labels and "100% (34–100%) 2/2" in labels
        assert "0% (0–79%) 0/1" in labels
        # The tag's markup drawn as text, cut to the label column; the whole of it its tooltip.
        assert any(t.endswith("…") and XSS_TAG.startswith(t[:-1]) for t in labels), labels
        assert XSS_TAG in await by_tag.locator("g > title").all_text_contents()
        assert re.search(r"tokens [\d,]+ in / [\d,]+ out", await page.locator(".headline").inner_text())
        assert problems == []


async def test_task_page_follows_the_step_in_the_address(browser: BrowserSession,
                                                          runs: Path) -> None:
    view(runs / "b")
    page_file = runs / "b" / "tasks" / "reveal" / "view.html"
    async with opened(browser, page_file, "#step-2") as (page, problems):
        current = "document.querySelector('article.step.current')?.id ?? null"
        assert await page.evaluate(current) == "step-2"
        assert await page.locator(".timeline a.current").inner_text() == "2"
        top = await page.evaluate("document.getElementById('step-2').getBoundingClientRect().top")
        assert 0 <= top < 120  # scrolled to it, below the sticky timeline
        timeline = await page.evaluate("document.querySelector('.timeline').getBoundingClientRect().top")
        assert timeline == 0  # the timeline stays visible
        await page.keyboard.press("j")
        assert await page.evaluate("location.hash") == "#step-3"
        await page.evaluate("window.scrollTo(0, document.getElementById('step-1').offsetTop - 40)")
        await expect(page).to_have_url(re.compile(r"#step-1$"))
        await page.locator(".timeline a", has_text=re.compile("^3$")).click()
        await expect(page).to_have_url(re.compile(r"#step-3$"))
        assert await page.evaluate(current) == "step-3"
        assert problems == []


async def test_index_address_links_a_step_of_a_task(browser: BrowserSession, runs: Path) -> None:
    index = view(runs / "b")
    async with opened(browser, index, "#reveal/step-2") as (page, problems):
        await expect(page).to_have_url(re.compile(r"/tasks/reveal/view\.html#step-2$"))
        await page.wait_for_load_state("load")
        current = "document.querySelector('article.step.current')?.id ?? null"
        assert await page.evaluate(current) == "step-2"
        assert problems == []
    # A task the run does not have, or a malformed address: the index itself, nothing followed.
    for fragment in ("#nosuch/step-2", "#%E0%A4%A"):
        async with opened(browser, index, fragment) as (page, problems):
            await page.wait_for_load_state("load")
            assert page.url.endswith(index.name + fragment)
            assert await shown_ids(page) == ["reveal", "search", "xss"]
            assert problems == []


async def test_task_page_shows_what_the_step_sent_the_model(browser: BrowserSession,
                                                             runs: Path) -> None:
    view(runs / "b")
    page_file = runs / "b" / "tasks" / "reveal" / "view.html"
    async with opened(browser, page_file, "#step-2") as (page, problems):
        sent = page.locator("#step-2 details.sent")
        await sent.locator("summary").click()
        assert "(2 screenshots)" in await sent.locator("summary").inner_text()
        links = sent.locator("li a")
        assert await links.evaluate_all("as => as.map(a => a.getAttribute('href'))") == [
            "#step-1", "#step-2"]
        prompt = await sent.locator("pre").inner_text()
        steps = [json.loads(line) for line in (runs / "b" / "tasks" / "reveal" / "steps.jsonl")
                 .read_text().splitlines()]
        assert steps[0]["note"][:40] in prompt  # step 2's prompt carries the note on step 1
        assert problems == []


async def test_zoom_shows_the_full_size_screenshot_with_its_marks(browser: BrowserSession,
                                                                   runs: Path) -> None:
    view(runs / "a")
    page_file = runs / "a" / "tasks" / "reveal" / "view.html"
    async with opened(browser, page_file) as (page, problems):
        await page.locator("#step-1 .shot").click()
        zoomed = page.locator(".zoom img")
        assert await zoomed.evaluate("img => img.decode().then(() => img.naturalWidth)") == 1440
        box = await zoomed.bounding_box()
        assert box is not None and box["width"] == 1440 and box["height"] == 810  # full size
        ring = await page.locator(".zoom circle.ring").bounding_box()
        landed = await page.locator(".zoom circle.landed").bounding_box()
        assert ring is not None and landed is not None
        centre = (ring["x"] + ring["width"] / 2 - box["x"], ring["y"] + ring["height"] / 2 - box["y"])
        assert abs(centre[0] - REVEAL[0]) < 1.5 and abs(centre[1] - REVEAL[1]) < 1.5
        # Where the broken harness really clicked: 3/4 of the page point, in sent pixels.
        real = (landed["x"] + landed["width"] / 2 - box["x"], landed["y"] + landed["height"] / 2 - box["y"])
        assert abs(real[0] - REVEAL[0] * 0.75) < 2 and abs(real[1] - REVEAL[1] * 0.75) < 2
        await page.keyboard.press("Escape")
        assert await page.locator(".zoom").count() == 0
        assert problems == []


async def test_changed_regions_outline_what_the_click_revealed(browser: BrowserSession,
                                                               runs: Path) -> None:
    view(runs / "b")
    page_file = runs / "b" / "tasks" / "reveal" / "view.html"
    async with opened(browser, page_file, "#step-2") as (page, problems):
        rects = page.locator("#step-2 .shot rect.diff")
        assert await rects.count() >= 1
        boxes = await rects.evaluate_all(
            "rs => rs.map(r => ['x', 'y', 'width', 'height'].map(k => +r.getAttribute(k)))")
        x, y = TOTAL_IN_SENT
        hit = [b for b in boxes if b[0] <= x + 5 <= b[0] + b[2] and b[1] <= y + 5 <= b[1] + b[3]]
        assert hit and hit[0][2] < 300 and hit[0][3] < 80, boxes  # the total's line, not the page
        # Drawn where it is: the outline's box on screen over the image, at the image's scale.
        img = await page.locator("#step-2 .shot img").bounding_box()
        drawn = await rects.nth(boxes.index(hit[0])).bounding_box()
        assert img is not None and drawn is not None
        scale = img["width"] / 1440
        assert abs(drawn["x"] - (img["x"] + hit[0][0] * scale)) < 2
        assert abs(drawn["y"] - (img["y"] + hit[0][1] * scale)) < 2
        assert await page.locator("#step-1 .shot rect.diff").count() == 0  # nothing before it
        assert problems == []


async def test_two_runs_side_by_side(browser: BrowserSession, runs: Path) -> None:
    pair = view(runs / "a", runs / "b")
    assert pair == runs / "b" / "pair.html"
    async with opened(browser, pair) as (page, problems):
        await inert(page)
        groups = await page.locator("section.group").evaluate_all(
            "ss => ss.map(s => [s.dataset.group, "
            "[...s.querySelectorAll('tbody tr')].map(r => r.dataset.id)])")
        assert dict(groups) == {"fixed": ["reveal", "search"], "both_wrong": ["xss"]}
        fixed = page.locator("section[data-group='fixed'] tr[data-id='reveal']")
        sides = fixed.locator("td.side")
        assert "answer: 48,210" in await sides.nth(1).inner_text()
        assert "48,210" not in await sides.nth(0).inner_text()
        final = sides.nth(1).locator("img")
        await final.scroll_into_view_if_needed()
        assert await final.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
        wrong = page.locator("section[data-group='both_wrong'] td.side").first
        assert XSS_ANSWER in await wrong.inner_text()
        await page.get_by_label("groups", exact=True).select_option("both_wrong")
        assert await page.locator("section.group:not([hidden])").count() == 1
        await page.get_by_label("groups", exact=True).select_option("")
        await sides.nth(1).get_by_role("link", name="task page").click()
        await page.wait_for_url(re.compile(r"/b/tasks/reveal/view\.html$"))
        assert problems == []


async def test_folder_index_lists_every_run(browser: BrowserSession, runs: Path,
                                            tmp_path: Path) -> None:
    folder = tmp_path / "all"
    shutil.copytree(runs / "a", folder / "broken" / "a")
    shutil.copytree(runs / "b", folder / "b")
    task_run = folder / "b" / "tasks" / "reveal"
    shutil.copytree(task_run, folder / "single")  # a single task's run directory
    index = view(folder)
    assert index == folder / "index.html"
    async with opened(browser, index) as (page, problems):
        await inert(page)
        rows = await page.locator("tbody tr").evaluate_all(
            "rs => rs.map(r => [...r.cells].map(c => c.innerText))")
        by_name = {r[0]: r for r in rows}
        assert set(by_name) == {"a", "b", "single"}
        assert by_name["a"][1] == "bench" and by_name["single"][1] == "task"
        assert by_name["b"][2] == "openai:fake-vlm"
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d", by_name["b"][3])
        # Each success with its Wilson interval, named in the cell (no unexplained ±).
        assert by_name["b"][5] == "67% (95% CI 21–94%) 2/3"
        assert by_name["a"][5] == "0% (95% CI 0–56%) 0/3"
        assert re.match(r"[\d,]+ / [\d,]+$", by_name["b"][7])  # tokens in / out
        await page.get_by_role("button", name="success").click()
        await page.get_by_role("button", name="success").click()
        first = await page.locator("tbody tr").first.locator("td").first.inner_text()
        assert first == "single"  # best first: the single task's run, 1/1
        await page.get_by_role("link", name="a", exact=True).click()
        await page.wait_for_url(re.compile(r"/broken/a/report\.html$"))
        assert await page.locator("h1").inner_text() == "Bench run a"
        assert problems == []


def webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "webfovea", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def chart_texts(path: Path) -> list[str]:
    root = ElementTree.parse(path).getroot()  # a well-formed SVG document
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_score_and_compare_draw_their_numbers(runs: Path, tmp_path: Path) -> None:
    scored = json.loads(webfovea("score", str(runs / "b"), "--format", "json",
                                 "--chart", str(tmp_path / "b.svg")).stdout)
    texts = chart_texts(tmp_path / "b.svg")
    correct, n = scored["success"]["correct"], scored["success"]["n"]
    assert (correct, n) == (2, 3)  # reveal and search right, the xss task's answer wrong
    low, high = Rate(correct, n).interval or (0, 0)
    assert f"{100 * correct / n:.0f}% ({100 * low:.0f}–{100 * high:.0f}%) {correct}/{n}" in texts
    assert {"shop", "easy"} <= set(texts)
    assert "100% (21–100%) 1/1" in texts  # tag "easy": an interval, not "± 0"
    # The tag's markup drawn as text, shortened to the label width.
    assert any(t.endswith("…") and XSS_TAG.startswith(t[:-1]) and len(t) > 20 for t in texts)

    compared = json.loads(webfovea("compare", str(runs / "a"), str(runs / "b"), "--format",
                                   "json", "--chart", str(tmp_path / "ab.svg")).stdout)
    texts = chart_texts(tmp_path / "ab.svg")
    after = texts[texts.index("fixed"):]  # each bar: its label, then its caption (the count)
    moved = dict(zip(after[::2], after[1::2], strict=False))
    assert moved["fixed"] == str(len(compared["fixed"]))
    assert moved["broken"] == str(len(compared["broken"]))

    webfovea("compare", str(runs / "a"), str(runs / "b"), "--chart", str(tmp_path / "ab.png"))
    png = (tmp_path / "ab.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    assert width == 2 * 640  # the SVG's width drawn at device scale 2

    bad = subprocess.run([sys.executable, "-m", "webfovea", "score", str(runs / "b"), "--chart",
                          str(tmp_path / "b.gif")], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "ending in .svg or .png" in bad.stderr


async def test_every_page_keeps_recorded_markup_as_text(browser: BrowserSession,
                                                        runs: Path) -> None:
    view(runs / "a")
    async with opened(browser, runs / "a" / "tasks" / "xss" / "view.html") as (page, problems):
        await inert(page)
        for shot in await page.locator(".shot img").all():
            await shot.scroll_into_view_if_needed()
        await page.locator("#step-1 .shot").click()  # the zoomed copy too
        await inert(page)
        text = await page.evaluate("document.body.textContent")
        for recorded in (XSS_TASK, XSS_THOUGHT, XSS_ANSWER):
            assert recorded in text, recorded
        assert problems == []


# -- the charts say what they show, and show all of it (issue 21, item 11) ------------------------

# Each text of each chart, with whether its box lies inside the chart's box (drawn, not cut).
TEXT_BOXES = """svgs => svgs.flatMap((chart) => {
  const box = chart.getBoundingClientRect();
  return [...chart.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5
      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
    return [chart.getAttribute("aria-label") || "", t.textContent, inside];
  });
})"""
EDGES = re.compile(r"^(-?[\d.]+)–(-?[\d.]+)( s)?$")


def assert_readable_bins(labels: list[str]) -> None:
    """Histogram labels: distinct, each bin's two edges different, one bin's end the next's
    start."""
    edges = [EDGES.match(label) for label in labels]
    assert labels and all(edges), labels
    pairs = [(m.group(1), m.group(2)) for m in edges if m]
    assert all(a != b for a, b in pairs) and len(set(labels)) == len(labels), labels
    assert all(pairs[i][1] == pairs[i + 1][0] for i in range(len(pairs) - 1)), labels


async def test_report_charts_fit_their_panels_and_name_the_interval(browser: BrowserSession,
                                                                   runs: Path) -> None:
    report = runs / "b" / "report.html"  # as the bench wrote it
    async with opened(browser, report) as (page, problems):
        charts = page.locator(".charts svg.chart")
        assert await charts.count() >= 4
        boxes = await charts.evaluate_all(TEXT_BOXES)
        cut = [(chart, text) for chart, text, inside in boxes if not inside]
        assert cut == [], cut
        titles = await page.locator(".charts figcaption").all_text_contents()
        assert "Success by site (95% interval)" in titles and "Success by tag (95% interval)" in titles
        assert not any("standard error" in t for t in titles), titles
        times = [text for chart, text, _ in boxes if chart == "Time per task"]
        assert_readable_bins(times[::2])  # each bar: its label, then its count
        assert problems == []


async def test_score_chart_fits_when_drawn(browser: BrowserSession, runs: Path,
                                           tmp_path: Path) -> None:
    chart = tmp_path / "b.svg"
    webfovea("score", str(runs / "b"), "--chart", str(chart))
    texts = chart_texts(chart)
    assert "Success by tag (95% interval)" in texts and not any("standard error" in t for t in texts)
    context = await browser.browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(chart.as_uri())
        boxes = await page.locator("svg").evaluate_all(TEXT_BOXES)
    finally:
        await context.close()
    cut = [text for _, text, inside in boxes if not inside]
    assert cut == [], cut
    start = texts.index("Time per task") + 1
    assert_readable_bins(texts[start:][::2])


def test_histogram_bins_are_round_and_distinct() -> None:
    close = bins([4.1, 4.3, 4.6, 6.2, 6.4])  # narrow: the old bins read "4–4", "6–6"
    assert close == [("4.0–4.5", 2), ("4.5–5.0", 1), ("5.0–5.5", 0), ("5.5–6.0", 0),
                     ("6.0–6.5", 2)]
    assert bins([3.0, 3.0]) == [("3.0–3.5", 2)]
    assert bins([1, 95]) == [("0–20", 1), ("20–40", 0), ("40–60", 0), ("60–80", 0), ("80–100", 1)]
    assert bins([0.0031, 0.0052]) == [(f"{a:.4f}–{a + 0.0005:.4f}", int(a in (0.003, 0.005)))
                                      for a in (0.003, 0.0035, 0.004, 0.0045, 0.005)]
    for labels in (close, bins([2.04, 2.05, 2.06]), bins([0, 0]), bins([12.5, 480.0])):
        assert_readable_bins([label for label, _ in labels])

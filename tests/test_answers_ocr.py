"""Issue 23 item 1, the OCR part, on real Chromium: where Tesseract is installed, the
evidence screenshot's text grounds a value only pixels carry (a number drawn on a canvas),
and a value neither in the text nor in the pixels stays ungrounded.

The agent is a fake provider speaking the OpenAI protocol with a scripted policy. scripts/
setup.sh installs the engine (Debian's tesseract-ocr and the ``ocr`` extra), so CI runs these.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.documents import ocr
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord, StepRecord

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.usefixtures("openai_key"),
    pytest.mark.skipif(not ocr.available(), reason=(
        "no OCR engine: the tesseract binary or the pytesseract wrapper is not installed "
        "(scripts/setup.sh installs both: apt-get install tesseract-ocr, pip install -e '.[ocr]')")),
]

TASK = "On the shipments dashboard, what is the total for the Northfield region?"
PIXELS = "not found in the page text (it may be drawn in an image or chart)"


def act(action: str) -> str:
    return f"Thought: The dashboard is on screen.\nAction: {action}"


async def _run(browser: BrowserSession, pages: LocalServer, out: Path, answers: list[str]
               ) -> tuple[ResultRecord, list[StepRecord]]:
    policy = ScriptedPolicy([act("find_text(text='Northfield')")]
                            + [act(f"finished(content='{a}')") for a in answers])
    with FakeProvider(policy) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task(TASK, pages.url("ocr/canvas_value.html")), model=model,
                                session=browser, config=AgentConfig(max_steps=6), out=out)
        await model.aclose()
    return result, read_steps(out)


async def test_a_value_drawn_on_a_canvas_is_grounded_by_the_evidence_screenshot(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    result, steps = await _run(browser, pages, tmp_path, ["58,317 for Northfield"])
    assert [s.guardrail for s in steps] == [None, None]  # accepted at once, not challenged
    assert "58,317" not in (tmp_path / "evidence.txt").read_text()  # the text does not carry it
    g = result.grounding
    assert g is not None and (g.status, g.ocr, g.challenged) == ("grounded", "read", False)
    by = {p.text: p for p in g.parts}
    assert by["Northfield"].found_by == "page text"
    assert by["58,317"].found_by == "evidence screenshot (OCR)"
    assert [(w.step, w.source) for w in by["58,317"].where] == [(2, "ocr")]
    assert "'58,317' only in the evidence screenshot (OCR)" in g.note


async def test_a_value_in_neither_text_nor_pixels_stays_ungrounded(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    result, steps = await _run(browser, pages, tmp_path, ["73,519", "73,519"])
    assert [s.guardrail for s in steps] == [None, "answer_grounding", None]
    assert f"'73,519' {PIXELS}" in steps[1].note
    g = result.grounding
    assert g is not None and (g.status, g.ocr, g.challenged) == ("ungrounded", "read", True)
    assert [p.found_by for p in g.parts] == [""]


async def test_an_answer_in_the_page_text_needs_no_ocr(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    result, _ = await _run(browser, pages, tmp_path, ["Northfield"])
    g = result.grounding
    assert g is not None and (g.status, g.ocr) == ("grounded", "not_needed")
    assert [p.found_by for p in g.parts] == ["page text"]


async def test_a_screenshot_that_cannot_be_read_is_a_named_failure_not_an_error() -> None:
    missing = await ocr.screen_text(None, time_left=60)
    assert (missing.use, missing.error) == ("failed", "no evidence screenshot")
    broken = await ocr.screen_text(b"\x89PNG not really", time_left=60)
    assert broken.use == "failed" and broken.error.startswith("OCR failed:") and not broken.text
    late = await ocr.screen_text(b"\x89PNG", time_left=0.5)
    assert (late.use, late.error) == ("failed", "no time left for OCR")

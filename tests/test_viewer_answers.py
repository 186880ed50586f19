"""view: grounding, the verifier and the evidence judge on the task pages and the bench index,
from a real bench run (oracle agent, fake verifier and judge providers) opened in Chromium.

One task's reference is deliberately stale and the verifier rejects that answer every time
(so it ends ``disputed``); the other task is answered right and accepted. The verifier's
reason carries markup, which must reach the page as text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_answers_scoring import evidence_judge
from viewer_helpers import opened
from webfovea.browser.session import BrowserSession
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, Policy, ScriptedPolicy
from webfovea.suite.catalog import tasks
from webfovea.suite.server import SuiteServer

STALE, RIGHT = "stats-production-cell", "news-archive-count"
MARKUP = "<img src=x onerror=window.__xss=1>"


def _webfovea(*args: str) -> str:
    env = {**os.environ, "OPENAI_API_KEY": "test-key"}
    proc = subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def verifier_for(disputed: str) -> Policy:
    """Rejects an answer carrying the digits of ``disputed``, accepts any other."""

    def verdict(request: FakeRequest) -> str:
        answer = re.search(r"Candidate answer: (.*)", request.turns[-1].text)
        assert answer is not None
        if _digits(answer.group(1)) == disputed:
            return f"Verdict: reject\nReason: not on the page {MARKUP}"
        return "Verdict: accept\nReason: the page shows it."

    return verdict


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("answers-view")
    lines = {t.id: t.to_json() for t in tasks(0) if t.id in (STALE, RIGHT)}
    true_value = _digits(str(lines[STALE]["answer"]))
    lines[STALE]["answer"] = str(int(str(lines[STALE]["answer"])) + 1000)  # the site moved on
    task_file = root / "tasks.jsonl"
    task_file.write_text("".join(json.dumps(x) + "\n" for x in lines.values()), "utf-8")
    out = root / "run"
    with SuiteServer(seed=0) as suite, FakeProvider(verifier_for(true_value)) as verifier:
        _webfovea("bench", str(task_file), "--out", str(out), "--model", "oracle",
                  "--host-resolver-rules", ",".join(suite.host_rules()),
                  "--grounding", "challenge", "--verifier", "openai:fake-verifier",
                  "--verifier-base-url", verifier.base_url)
    with FakeProvider(evidence_judge) as judge:
        _webfovea("score", str(out), "--judge-evidence", "openai:judge",
                  "--judge-evidence-base-url", judge.base_url)
    _webfovea("view", str(out))
    return out




@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.timeout(900)
async def test_the_task_page_shows_grounding_and_each_verifier_call(
        browser: BrowserSession, run: Path) -> None:
    async with opened(browser, run / "tasks" / STALE / "view.html") as (page, problems):
        grounding = page.locator("#answer .grounding")
        assert await grounding.get_attribute("data-grounding") == "grounded"
        text = await grounding.inner_text()
        assert "Grounding: grounded" in text and "step " in text and "http://" in text
        verifier = page.locator("#answer .verifier")
        assert await verifier.get_attribute("data-verdict") == "disputed"
        calls = page.locator("#answer .verifier-call")
        assert await calls.count() == 3  # the limit of 2 rejections, then disputed
        assert [await calls.nth(i).locator(".badge").inner_text() for i in range(3)] == \
            ["reject"] * 3
        assert MARKUP in await calls.nth(0).inner_text()  # the model's text, as text
        assert " in / " in await calls.nth(0).locator("td").nth(4).inner_text()  # its tokens
        judge = page.locator("#answer .judge")
        assert await judge.get_attribute("data-category") == "stale_reference"
        assert await page.evaluate("window.__xss") is None
        assert problems == []
    async with opened(browser, run / "tasks" / RIGHT / "view.html") as (page, problems):
        assert await page.locator("#answer .verifier").get_attribute("data-verdict") == "accepted"
        assert await page.locator("#answer .verifier-call").count() == 1
        assert await page.locator("#answer .judge").get_attribute("data-category") == "correct"
        assert problems == []


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.timeout(900)
async def test_the_index_filters_by_grounding_and_lists_disagreements_side_by_side(
        browser: BrowserSession, run: Path) -> None:
    async with opened(browser, run / "report.html") as (page, problems):
        heads = await page.locator("table.index thead").inner_text()
        assert "grounding" in heads and "evidence" in heads
        evidence = page.locator("select[aria-label=evidence]")
        await evidence.select_option("stale_reference")
        shown = page.locator("table.index").locator("tbody tr:not([hidden])")
        assert await shown.count() == 1 and await shown.get_attribute("data-id") == STALE
        await evidence.select_option("")
        await page.locator("select[aria-label=grounding]").select_option("grounded")
        assert await shown.count() == 2

        rows = page.locator("#disagreements tr.disagreement")
        assert await rows.count() == 1  # the right answer is no disagreement
        row = rows.first
        assert await row.get_attribute("data-id") == STALE
        result = json.loads((run / "tasks" / STALE / "result.json").read_text())
        score = json.loads((run / "tasks" / STALE / "score.json").read_text())
        cells = [await row.locator("td").nth(i).inner_text() for i in range(5)]
        assert cells[1:4] == [result["answer"], score["reference"], "reference may be stale"]
        assert cells[4] == score["evidence"]["reason"] != ""
        thumb = row.locator("a.thumb img")
        await thumb.scroll_into_view_if_needed()
        await page.wait_for_function(
            "document.querySelector('#disagreements a.thumb img').naturalWidth > 0")
        href = await row.locator("a.thumb").get_attribute("href")
        assert href is not None and (run / href).resolve() == \
            (run / "tasks" / STALE / result["evidence"]).resolve()
        assert problems == []


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.timeout(600)
async def test_an_answer_on_a_captcha_page_shows_ungrounded_and_the_page_flag(
        browser: BrowserSession, tmp_path: Path) -> None:
    answer = "Thought: It is there.\nAction: finished(content='Greyhaven tram line opens')"
    policy = ScriptedPolicy(["Thought: Wait.\nAction: wait()", answer, answer])
    out, task_file = tmp_path / "captcha", tmp_path / "tasks.jsonl"
    task_file.write_text(json.dumps({
        "id": "captcha", "url": "http://news.fovea.test/archive",
        "task": "What was the lead headline in the Fovea Daily archive on 12 February 2025?",
    }) + "\n", "utf-8")
    with SuiteServer(seed=0) as suite, FakeProvider(policy) as fp:
        _webfovea("bench", str(task_file), "--out", str(out), "--model", "openai:fake-vlm",
                  "--base-url", fp.base_url, "--max-steps", "6",
                  "--host-resolver-rules", ",".join(suite.host_rules()))
    _webfovea("view", str(out))
    async with opened(browser, out / "tasks" / "captcha" / "view.html") as (page, problems):
        grounding = page.locator("#answer .grounding")
        assert await grounding.get_attribute("data-grounding") == "ungrounded"
        text = await grounding.inner_text()
        assert "page: captcha" in text and "challenged once" in text and "not found" in text
        assert await page.locator("#answer .verifier").count() == 0  # no verifier ran
        assert problems == []

"""Issue 23 on real Chromium and the offline suite: fabricated answers are marked and
challenged, and the independent verifier's every path, through the whole loop.

The agent and the verifier are each a fake provider speaking the OpenAI protocol. The
verifier's policy really checks: it reads the candidate answer and the page text it was sent
and accepts only a value that stands in the task's row.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig, VerifierConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, Policy, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps, read_verifier
from webfovea.rundir.trajectory import ResultRecord, StepRecord
from webfovea.suite import SuiteServer
from webfovea.suite.sites.stats.site import StatsSite
from webfovea.tools.diagnose import diagnose

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("openai_key")]

TASK = ("On the Fovea Statistics Office website, use table AGR01 (crop production by region) "
        "to find how many tonnes of barley the Eastern region produced in 2019.")
TABLE = "http://stats.fovea.test/table/AGR01?year=2019&q=barley"


def act(action: str, thought: str = "Looking at the page.") -> str:
    return f"Thought: {thought}\nAction: {action}"


@pytest.fixture(scope="module")
def suite() -> Iterator[SuiteServer]:
    with SuiteServer(seed=0) as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser(suite: SuiteServer) -> AsyncIterator[BrowserSession]:
    async with BrowserSession(BrowserConfig(host_rules=suite.host_rules())) as session:
        yield session


def barley(suite: SuiteServer, region: str) -> str:
    """The page's number for a region's barley in 2019, as the table prints it."""
    site = suite.app.sites["stats.fovea.test"]
    assert isinstance(site, StatsSite)
    return f"{site.data.row(region, 'Barley', 2019).production:,}"


async def _run(browser: BrowserSession, out: Path, url: str, policy: Policy, *,
               task: str = TASK, config: AgentConfig | None = None
               ) -> tuple[ResultRecord, list[StepRecord], FakeProvider]:
    with FakeProvider(policy) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task(task, url), model=model, session=browser,
                                config=config or AgentConfig(max_steps=8), out=out)
        await model.aclose()
    return result, read_steps(out), fp


# -- (a) fabricating behaviours, each marked and challenged -----------------------------------


async def test_an_answer_from_memory_at_step_one_is_challenged_and_stays_marked(
        browser: BrowserSession, tmp_path: Path) -> None:
    policy = ScriptedPolicy([act("finished(content='48210')", "I remember it is 48,210.")] * 2)
    result, steps, fp = await _run(browser, tmp_path, "http://stats.fovea.test/", policy)
    assert [s.guardrail for s in steps] == ["answer_grounding", None]
    assert "before doing anything on the page" in steps[0].note
    assert "'48210' not found in the page text (it may be drawn in an image or chart)" \
        in steps[0].note
    assert steps[0].note in fp.requests[1].turns[-1].text  # the model was told
    assert result.status == "finished" and result.answer == "48210"
    assert result.grounding is not None
    assert (result.grounding.status, result.grounding.challenged,
            result.grounding.before_action) == ("ungrounded", True, True)


async def test_an_answer_on_the_captcha_interstitial_is_flagged_and_challenged(
        browser: BrowserSession, tmp_path: Path) -> None:
    answer = "finished(content='Greyhaven tram line opens')"
    policy = ScriptedPolicy([act("wait()"), act(answer), act(answer)])
    result, steps, _ = await _run(browser, tmp_path, "http://news.fovea.test/archive", policy,
                                  task="What was the lead headline in the Fovea Daily archive "
                                       "on 12 February 2025?")
    assert [s.guardrail for s in steps] == [None, "answer_grounding", None]
    assert "CAPTCHA or browser check" in steps[1].note
    assert result.grounding is not None and result.grounding.page == "captcha"
    assert result.grounding.status == "ungrounded" and result.grounding.challenged
    assert result.status == "finished"  # the same answer again stands, marked


async def test_a_value_nowhere_on_the_site_is_ungrounded_after_acting(
        browser: BrowserSession, tmp_path: Path) -> None:
    policy = ScriptedPolicy([act("find_text(text='Eastern')"),
                             act("finished(content='73,519 tonnes')"),
                             act("finished(content='73,519 tonnes')")])
    result, steps, _ = await _run(browser, tmp_path, TABLE, policy)
    assert [s.guardrail for s in steps] == [None, "answer_grounding", None]
    assert "before doing anything" not in steps[1].note
    assert "'73,519'" in steps[1].note and "not found in the page text" in steps[1].note
    assert result.grounding is not None and result.grounding.status == "ungrounded"
    assert not result.grounding.before_action


async def test_the_right_value_is_grounded_where_it_was_seen(
        browser: BrowserSession, suite: SuiteServer, tmp_path: Path) -> None:
    value = barley(suite, "Eastern")
    policy = ScriptedPolicy([act("find_text(text='Eastern')"),
                             act(f"finished(content='{value} tonnes')")])
    result, steps, _ = await _run(browser, tmp_path, TABLE, policy)
    assert [s.guardrail for s in steps] == [None, None]
    assert result.grounding is not None and result.grounding.status == "grounded"
    where = result.grounding.parts[0].where[0]
    assert (where.url, where.frame, where.source) == (TABLE, None, "page")


# -- the verifier: wrong row caught, every path of (c) ----------------------------------------


def row_checking_verifier(region: str) -> Policy:
    """A verifier that accepts only a number standing in ``region``'s row of the page text
    it was sent, and says so."""

    def verdict(request: FakeRequest) -> str:
        text = request.turns[-1].text
        answer = re.search(r"Candidate answer: (.*)", text)
        assert answer is not None and request.images, "the verifier must get answer and page"
        number = re.search(r"[\d,]+", answer.group(1))
        rows = [line for line in text.splitlines() if line.startswith(region)]
        if number and any(number.group(0) in row for row in rows):
            return f"Verdict: accept\nReason: {number.group(0)} is in the {region} row."
        return f"Verdict: reject\nReason: the {region} row does not show {answer.group(1)}."

    return verdict


def verifier_config(fp: FakeProvider, *, timeout: float = 60.0) -> AgentConfig:
    return AgentConfig(max_steps=8, verifier=VerifierConfig(
        "openai:fake-verifier", fp.base_url, timeout=timeout))


async def test_a_neighbouring_row_is_grounded_but_the_verifier_rejects_it_then_accepts(
        browser: BrowserSession, suite: SuiteServer, tmp_path: Path) -> None:
    wrong, right = barley(suite, "Western"), barley(suite, "Eastern")
    agent = ScriptedPolicy([act("find_text(text='Eastern')"),
                            act(f"finished(content='{wrong}')"),
                            act(f"finished(content='{right}')")])
    with FakeProvider(row_checking_verifier("Eastern")) as verifier:
        result, steps, _ = await _run(browser, tmp_path, TABLE, agent,
                                      config=verifier_config(verifier))
    assert [s.guardrail for s in steps] == [None, "answer_verifier", None]
    assert "the Eastern row does not show" in steps[1].note
    assert result.answer == right and result.grounding is not None
    assert result.grounding.status == "grounded"  # the wrong row was on the page too
    assert result.verifier is not None
    assert (result.verifier.verdict, result.verifier.calls, result.verifier.rejections) == \
        ("accepted", 2, 1)
    calls = read_verifier(tmp_path)
    assert [c.verdict for c in calls] == ["reject", "accept"]
    assert [c.answer for c in calls] == [wrong, right]
    assert result.verifier.usage.input_tokens == sum(c.usage.input_tokens for c in calls) > 0
    assert "the verifier accepted it" in steps[2].note


async def test_rejections_up_to_the_limit_leave_the_answer_disputed(
        browser: BrowserSession, suite: SuiteServer, tmp_path: Path) -> None:
    wrong = barley(suite, "Western")
    agent = ScriptedPolicy([act("find_text(text='Eastern')")]
                           + [act(f"finished(content='{wrong}')")] * 3)
    with FakeProvider(row_checking_verifier("Eastern")) as verifier:
        result, steps, _ = await _run(browser, tmp_path, TABLE, agent,
                                      config=verifier_config(verifier))
    assert [s.guardrail for s in steps] == [None, "answer_verifier", "answer_verifier", None]
    assert result.status == "finished" and result.verifier is not None
    assert (result.verifier.verdict, result.verifier.rejections) == ("disputed", 2)
    assert "disputed by the verifier" in steps[3].note
    assert len(read_verifier(tmp_path)) == 3
    finding = diagnose(tmp_path, every_task=True).diagnosed[0]
    assert finding.stage == "decision" and "the verifier disputed the answer" in finding.evidence
    cost = subprocess.run([sys.executable, "-m", "webfovea", "cost", str(tmp_path),
                           "--price-input", "1", "--price-output", "1"],
                          capture_output=True, text=True, timeout=120)
    assert cost.returncode == 0, cost.stderr
    assert "verifier: 3 call(s) on 1 task(s)" in cost.stdout


@pytest.mark.parametrize("fault", ["malformed", "timeout", "provider_error"])
async def test_a_failing_verifier_leaves_a_named_mark_and_never_accepts_silently(
        browser: BrowserSession, suite: SuiteServer, tmp_path: Path, fault: str) -> None:
    right = barley(suite, "Eastern")
    agent = ScriptedPolicy([act("find_text(text='Eastern')"), act(f"finished(content='{right}')")])
    with FakeProvider(ScriptedPolicy(["Looks fine to me!"] * 3)) as verifier:
        if fault == "timeout":
            verifier.stall_next(30.0)
        elif fault == "provider_error":
            verifier.fail_next(401, body="invalid key")
        result, steps, _ = await _run(browser, tmp_path, TABLE, agent,
                                      config=verifier_config(verifier, timeout=2.0))
    assert result.status == "finished" and result.verifier is not None
    assert result.verifier.verdict == "error"
    reason = {"malformed": "malformed verdict", "timeout": "did not answer within 2 s",
              "provider_error": "could not be reached"}[fault]
    assert reason in result.verifier.reason
    assert "the verifier gave no verdict" in steps[-1].note
    assert [c.verdict for c in read_verifier(tmp_path)] == ["error"]
    assert json.loads((tmp_path / "result.json").read_text())["verifier"]["verdict"] == "error"

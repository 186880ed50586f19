"""diagnose: each failure attributed to the stage that broke, on real runs with a fix ablated.

Every fault is a paired run: the same reactive policy on the same page succeeds on the intact
harness and fails with one fix turned off (``--ablate``, webfovea.core.ablations), so the stage
diagnose names is the one the missing fix broke.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from viewer_helpers import (
    REVEAL,
    SALES,
    click,
    frame_policy,
    hover,
    record,
    reply,
    reveal_policy,
    scripted,
    search_policy,
)
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.testing import FakeRequest
from webfovea.tools.diagnose import diagnose

Policy = Callable[[FakeRequest], str]
FRAME_BLANK = (487.5, 562.5)  # shop.html's frame, below its bar and tooltip
# fault -> (policy, the stage it breaks, words the evidence must contain)
FAULTS: dict[str, tuple[Callable[[], Policy], str, str]] = {
    "ratio": (lambda: reveal_policy, "execute", "coordinate mapping"),
    "enter": (lambda: search_policy("laptop\\n"), "execute", "Enter was not pressed"),
    "frame-fallback": (lambda: frame_policy, "feedback", "inside frame"),
    "token-strip": (lambda: search_policy("laptop<|eot_id|>\\n"), "parse", "<|eot_id|>"),
}


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def runs(browser: BrowserSession, pages: LocalServer,
               tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Path]:
    """Each fault's paired runs (clean/<fault>, broken/<fault>) and a few other failures."""
    root = tmp_path_factory.mktemp("diagnose")
    for fault, (policy, _, _) in FAULTS.items():
        clean = await record(browser, pages, root / "clean" / fault, policy())
        assert clean.status == "finished", (fault, clean)
        broken = await record(browser, pages, root / "broken" / fault, policy(), ablate=fault,
                              max_steps=2)
        assert broken.status == "step_limit", (fault, broken)
    await record(browser, pages, root / "budget", scripted([reply("reload()")] * 2),
                 budgets={"reload": 1}, max_steps=2)
    await record(browser, pages, root / "model", scripted([reply("wait()")]))
    # Blank space inside the frame, whose fingerprint is intact: the click did nothing.
    await record(browser, pages, root / "frame_blank", scripted([reply(click(FRAME_BLANK))] * 2),
                 max_steps=2)
    await record(browser, pages, root / "wrong", scripted(
        [reply(click(REVEAL)), reply("finished(content='41,800')", "The total must be 41,800.")]))
    invented = (f"{click(REVEAL)}\nObservation: the total shows 48,210.\n"
                "Thought: done.\nAction: finished(content='48,210')")
    await record(browser, pages, root / "invented", scripted([reply(invented), reply("wait()")]),
                 max_steps=2)
    answer = reply("finished(content='5,310')", "Revenue is 5,310.")
    await record(browser, pages, root / "unseen", scripted([reply(click(REVEAL)), answer]))
    await record(browser, pages, root / "seen", scripted([reply(hover(SALES)), answer]))
    yield root


@pytest.mark.parametrize("fault", FAULTS)
def test_injected_fault_is_attributed_to_its_stage(runs: Path, fault: str) -> None:
    _, stage, words = FAULTS[fault]
    result = diagnose(runs / "broken" / fault)
    assert result.tasks == 1 and len(result.diagnosed) == 1
    failure = result.diagnosed[0]
    assert (failure.stage, failure.step) == (stage, 1), failure
    # The words are in a finding of that stage and step (with "enter" off, the field's
    # read-back of the dropped newline is found first: both are the missing Enter).
    assert any(words in f.evidence for f in failure.findings if (f.stage, f.step) == (stage, 1))
    assert failure.status == "step_limit"


@pytest.mark.parametrize("fault", FAULTS)
def test_same_policy_on_intact_harness_has_nothing_to_diagnose(runs: Path, fault: str) -> None:
    assert diagnose(runs / "clean" / fault).diagnosed == []
    # Even asked about the finished task, no harness stage shows a fault; the intact parser
    # stripping the token is noted, weakly, and is all there is to say about that run.
    forced = diagnose(runs / "clean" / fault, every_task=True).diagnosed[0]
    assert [f for f in forced.findings if f.strong] == []
    assert forced.stage == ("parse" if fault == "token-strip" else "decision"), forced


def test_unstripped_token_is_confirmed_by_reading_the_reply_again(runs: Path) -> None:
    findings = diagnose(runs / "broken" / "token-strip").diagnosed[0].findings
    assert ("the run executed fill(start_box='(300,127.5)', content='laptop<|eot_id|>\\n'), but "
            "the current parser reads fill(start_box='(300,127.5)', content='laptop\\n')"
            ) in [f.evidence for f in findings if f.step == 1]


def test_invented_second_action_is_a_parse_failure(runs: Path) -> None:
    """The paper's fictitious multi-step reply: only its first action ever ran."""
    failure = diagnose(runs / "invented").diagnosed[0]
    assert (failure.stage, failure.step) == ("parse", 1)
    assert "more than one action" in failure.evidence and "Observation:" in failure.evidence


def test_budget_refusal_is_a_guardrail(runs: Path) -> None:
    failure = diagnose(runs / "budget").diagnosed[0]
    assert (failure.stage, failure.step) == ("guardrails", 2)
    assert "budget:reload" in failure.evidence


def test_a_click_on_blank_frame_space_is_not_blamed_on_feedback(runs: Path) -> None:
    failure = diagnose(runs / "frame_blank").diagnosed[0]
    assert failure.status == "step_limit"
    assert [f for f in failure.findings if f.stage == "feedback"] == [], failure.findings
    assert failure.stage == "guardrails" and "step limit" in failure.evidence, failure


def test_model_that_stops_answering_is_the_model_stage(runs: Path) -> None:
    failure = diagnose(runs / "model").diagnosed[0]
    assert (failure.status, failure.stage, failure.step) == ("model_error", "model", None)
    assert "could not be used" in failure.evidence


def test_wrong_answer_with_a_working_harness_is_a_decision(runs: Path) -> None:
    assert diagnose(runs / "wrong").diagnosed == []  # finished and unscored: not known to fail
    failure = diagnose(runs / "wrong", every_task=True).diagnosed[0]
    assert failure.stage == "decision"
    assert "'41,800'" in failure.evidence  # a value the page showed: read wrongly, not unseen


def test_answer_that_was_never_on_the_page_is_an_observation_failure(runs: Path) -> None:
    """Answered a hover-only value without ever hovering: it was on no page text the run saw."""
    if not (runs / "unseen" / "evidence.txt").is_file():
        pytest.skip("the agent does not record evidence.txt (the page's text at answer time)")
    failure = diagnose(runs / "unseen", every_task=True).diagnosed[0]
    assert (failure.stage, failure.step) == ("observe", None)
    assert "5,310" in failure.evidence
    hovered = diagnose(runs / "seen", every_task=True).diagnosed[0]
    assert hovered.stage == "decision", hovered


def test_a_directory_that_is_no_run_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "webfovea", "diagnose",
                           str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "neither result.json" in done.stderr

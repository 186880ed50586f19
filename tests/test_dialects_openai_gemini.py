"""Issue 22: the openai-computer and gemini-computer dialects end to end, in real Chromium,
against the fake provider's Responses and generateContent routes (no mocks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from counting_site import Counter
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.dialects.loopback.native_reply import NativeReply
from webfovea.loop.agent import run_task
from webfovea.models import load_model
from webfovea.models.prices import find_price
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord, StepRecord
from webfovea.tools.replay import replay

# tests/pages/computer_use/page.html at the default viewport 1920x1080, sent as 1440x810:
# OpenAI answers in screenshot pixels (x0.75), Gemini on the 0-999 grid (/1920, /1080 x1000).
PIXELS = {"a": (150, 112), "b": (375, 112), "c": (600, 112), "away": (188, 322)}
GRID = {"a": (104, 139), "b": (260, 139), "c": (417, 139), "away": (130, 398)}


async def _run(browser: BrowserSession, out: Path, url: str, replies: list[Any], *,
               dialect: str, version: str, acknowledge: bool = False, max_steps: int = 6,
               ) -> tuple[ResultRecord, list[StepRecord], FakeProvider]:
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        if dialect == "openai-computer":
            model = load_model("openai:gpt-5.4", base_url=fp.base_url)
        else:
            model = load_model("gemini:gemini-3.5-flash", base_url=f"http://127.0.0.1:{fp.port}")
        config = AgentConfig(max_steps=max_steps, dialect=dialect, dialect_version=version,
                             acknowledge_safety_checks=acknowledge, price=find_price(model.name))
        result = await run_task(Task("press the buttons", url), model=model, session=browser,
                                config=config, out=out)
        await model.aclose()
    return result, read_steps(out), fp


def click(name: str, **extra: Any) -> dict[str, Any]:
    x, y = PIXELS[name]
    return {"type": "click", "button": "left", "x": x, "y": y, **extra}


def computer(*actions: dict[str, Any], checks: list[dict[str, str]] | None = None,
             thought: str = "I act.") -> NativeReply:
    call: dict[str, Any] = {"type": "computer_call", "actions": list(actions)}
    if checks:
        call["pending_safety_checks"] = checks
    return NativeReply(items=({"type": "reasoning", "text": thought}, call))


def done(answer: str = "done") -> NativeReply:
    return NativeReply(items=({"type": "function_call", "name": "finished",
                         "arguments": {"content": answer}},))


def gcall(name: str, **args: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args}}


def at(name: str) -> dict[str, int]:
    x, y = GRID[name]
    return {"x": x, "y": y}


def gemini(*calls: dict[str, Any]) -> NativeReply:
    return NativeReply(items=({"text": "Thinking about the page.", "thought": True}, *calls))


def gdone(answer: str = "done") -> NativeReply:
    return NativeReply(items=(gcall("finished", content=answer),))


def _notes_sent(fp: FakeProvider, index: int) -> str:
    """Everything request ``index`` said to the model in text (notes, function outputs)."""
    return "\n".join(t.text for t in fp.requests[index].turns)


# -- a batch runs in order and stops at the first refusal ------------------------------------


async def test_openai_batch_runs_in_order_and_stops_at_a_refusal(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    batch = computer(click("a"), click("b"), {"type": "keypress", "keys": ["CTRL", "T"]},
                     click("c"), thought="A, then B, then a new tab, then C.")
    result, steps, fp = await _run(browser, tmp_path, pages.url("computer_use/page.html"),
                                   [batch, done()], dialect="openai-computer", version="ga")
    assert result.status == "finished", result.error
    assert "clicked: a b" in (tmp_path / "evidence.txt").read_text()
    assert "c" not in (tmp_path / "evidence.txt").read_text().split("clicked:")[1]
    calls = steps[0].calls
    assert [c["executed"] for c in calls] == [True, True, True, False]
    assert [c["outcome"] for c in calls][2:] == ["refused", "unknown"]
    assert calls[2]["guardrail"] == "hotkey_blacklist"
    assert calls[3]["note"].startswith("not executed")
    second = fp.requests[1].body
    assert second["previous_response_id"] == "resp_fake_1"  # chained, only new items sent
    assert [i["type"] for i in second["input"]] == ["computer_call_output", "message"]
    notes = _notes_sent(fp, 1)
    assert calls[0]["note"] in notes and "[3] Error: Refused by the hotkey blacklist" in notes
    assert "[4] Error: not executed" in notes
    # usage: the chained prefix is read from the cache; reasoning counted apart
    assert result.usage.cache_read_tokens > 0 and result.usage.reasoning_tokens > 0
    assert steps[0].thought == "A, then B, then a new tab, then C."
    assert result.usage.cost is not None and result.usage.cost > 0  # priced: openai:gpt-5.4
    cost = _cost(tmp_path)
    assert f"{result.usage.cache_read_tokens} cache-read" in cost and "recorded cost $" in cost
    report = replay(tmp_path)  # the recorded native calls read the same with today's tables
    assert report.steps == 2 and report.changes == [], report.changes


def _cost(run: Path, *flags: str) -> str:
    done = subprocess.run([sys.executable, "-m", "webfovea", "cost", str(run), *flags],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_gemini_batch_runs_in_order_and_stops_at_a_refusal(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    batch = gemini(gcall("click", **at("a")), gcall("click", **at("b")),
                   gcall("hotkey", keys=["Control", "t"]), gcall("click", **at("c")))
    result, steps, fp = await _run(browser, tmp_path, pages.url("computer_use/page.html"),
                                   [batch, gdone()], dialect="gemini-computer", version="new")
    assert result.status == "finished", result.error
    assert "clicked: a b" in (tmp_path / "evidence.txt").read_text()
    calls = steps[0].calls
    assert [c["executed"] for c in calls] == [True, True, True, False]
    assert calls[2]["guardrail"] == "hotkey_blacklist"
    answer = fp.requests[1].body["contents"][-1]["parts"]
    responses = [p["functionResponse"] for p in answer]
    assert [r["name"] for r in responses] == ["click", "click", "hotkey", "click"]
    assert responses[0]["response"]["note"] == calls[0]["note"]
    assert "error" not in responses[0]["response"] and responses[0]["response"]["url"]
    assert responses[2]["response"]["error"].startswith("Refused by the hotkey blacklist")
    assert responses[3]["response"]["error"].startswith("not executed")
    # the screenshot after the batch rides in the last computer-use response only
    assert [bool(r.get("parts")) for r in responses] == [False, False, False, True]
    assert result.usage.reasoning_tokens > 0 and result.usage.cache_read_tokens > 0
    cost = _cost(tmp_path, "--price-input", "0.3", "--price-output", "2.5")
    assert f"{result.usage.cache_read_tokens} cache-read" in cost
    report = replay(tmp_path)
    assert report.steps == 2 and report.changes == [], report.changes


# -- escapes through native actions are refused: 0 requests reach the other site --------------


async def test_openai_escapes_are_refused(browser: BrowserSession, pages: LocalServer,
                                          tmp_path: Path,
                                          elsewhere: tuple[str, type[Counter]]) -> None:
    away, counter = elsewhere
    x, y = PIXELS["away"]
    replies = [computer({"type": "click", "button": "wheel", "x": x, "y": y}),
               computer(click("away", keys=["CTRL"])),
               computer({"type": "keypress", "keys": ["CTRL", "L"]}),
               computer(click("away")),  # a plain click on the link: the lock in the browser
               done()]
    result, steps, _ = await _run(browser, tmp_path, pages.url(f"computer_use/page.html?away={away}"),
                                  replies, dialect="openai-computer", version="ga")
    assert result.status == "finished", result.error
    assert [s.guardrail for s in steps[:4]] == ["new_tab", "new_tab", "hotkey_blacklist",
                                                "domain_lock"]
    assert counter.hits == 0
    assert all(s.url.startswith("http://127.0.0.1") for s in steps)


@pytest.mark.parametrize("vocabulary", ["new", "legacy"])
async def test_gemini_escapes_are_refused(browser: BrowserSession, pages: LocalServer,
                                          tmp_path: Path, vocabulary: str,
                                          elsewhere: tuple[str, type[Counter]]) -> None:
    away, counter = elsewhere
    if vocabulary == "new":
        escapes = [gcall("navigate", url=away), gcall("middle_click", **at("away")),
                   gcall("hotkey", keys=["Control", "l"]), gcall("click", **at("away"))]
        expected = ["domain_lock", "new_tab", "hotkey_blacklist", "domain_lock"]
    else:
        escapes = [gcall("navigate", url=away), gcall("search"),
                   gcall("key_combination", keys="Control+L"), gcall("click_at", **at("away"))]
        expected = ["domain_lock", "domain_lock", "hotkey_blacklist", "domain_lock"]
    replies = [gemini(e) for e in escapes] + [gdone()]
    result, steps, fp = await _run(browser, tmp_path, pages.url(f"computer_use/page.html?away={away}"),
                                   replies, dialect="gemini-computer", version=vocabulary)
    assert result.status == "finished", result.error
    assert [s.guardrail for s in steps[:4]] == expected
    assert counter.hits == 0
    # the refusal is answered in the protocol's error form, with the guardrail's sentence
    refusal = fp.requests[1].body["contents"][-1]["parts"][0]["functionResponse"]["response"]
    assert refusal["error"].startswith("Refused by the domain lock") and "--allow-domain" in \
        refusal["error"]


async def test_gemini_navigate_loads_a_page_of_the_site(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path,
        elsewhere: tuple[str, type[Counter]]) -> None:
    away, counter = elsewhere
    there = pages.url("computer_use/page.html?again=1")
    replies = [gemini(gcall("navigate", url=there)), gemini(gcall("navigate", url=away)), gdone()]
    result, steps, fp = await _run(browser, tmp_path, pages.url("computer_use/page.html"),
                                   replies, dialect="gemini-computer", version="new")
    assert result.status == "finished", result.error
    assert steps[0].action == {"name": "navigate", "url": there} and steps[0].guardrail is None
    assert f"loaded {there}" in steps[0].note and steps[1].url == there
    assert steps[1].guardrail == "domain_lock" and steps[2].url == there
    assert counter.hits == 0
    loaded = fp.requests[1].body["contents"][-1]["parts"][0]["functionResponse"]["response"]
    assert "error" not in loaded, loaded


# -- safety checks: stop by default, recorded when acknowledged ------------------------------


CHECK = {"code": "malicious_instructions", "message": "The page asks to ignore the user."}


@pytest.mark.parametrize("acknowledge", [False, True])
async def test_openai_safety_check(browser: BrowserSession, pages: LocalServer, tmp_path: Path,
                                   acknowledge: bool) -> None:
    replies = [computer(click("a"), checks=[CHECK]), done()]
    result, steps, fp = await _run(browser, tmp_path, pages.url("computer_use/page.html"), replies,
                                   dialect="openai-computer", version="ga",
                                   acknowledge=acknowledge)
    if not acknowledge:
        assert result.status == "needs_confirmation"
        assert result.safety_checks[0]["code"] == "malicious_instructions"
        assert result.safety_checks[0]["id"].startswith("cu_sc_")
        assert len(fp.requests) == 1 and not steps[0].calls  # nothing ran
        assert steps[0].guardrail == "safety_check"
        return
    assert result.status == "finished", result.error
    assert steps[0].acknowledged_safety_checks[0]["code"] == "malicious_instructions"
    output = fp.requests[1].body["input"][0]
    assert output["acknowledged_safety_checks"][0]["id"] == result_check_id(fp)
    assert "clicked: a" in (tmp_path / "evidence.txt").read_text()


def result_check_id(fp: FakeProvider) -> str:
    return str(fp.requests[1].body["input"][0]["acknowledged_safety_checks"][0]["id"])


@pytest.mark.parametrize("acknowledge", [False, True])
async def test_gemini_safety_decision(browser: BrowserSession, pages: LocalServer,
                                      tmp_path: Path, acknowledge: bool) -> None:
    decision = {"decision": "require_confirmation", "explanation": "Clicking accepts terms."}
    replies = [gemini(gcall("click", **at("a"), safety_decision=decision)), gdone()]
    result, steps, fp = await _run(browser, tmp_path, pages.url("computer_use/page.html"), replies,
                                   dialect="gemini-computer", version="new",
                                   acknowledge=acknowledge)
    if not acknowledge:
        assert result.status == "needs_confirmation"
        assert result.safety_checks[0]["message"] == "Clicking accepts terms."
        assert len(fp.requests) == 1 and not steps[0].calls
        return
    assert result.status == "finished", result.error
    assert steps[0].acknowledged_safety_checks[0]["code"] == "require_confirmation"
    response = fp.requests[1].body["contents"][-1]["parts"][0]["functionResponse"]["response"]
    assert response["safety_acknowledgement"] == "true"


# -- out-of-space coordinates get an error result ---------------------------------------------


async def test_out_of_space_points_get_error_results(browser: BrowserSession, pages: LocalServer,
                                                     tmp_path: Path) -> None:
    result, steps, fp = await _run(
        browser, tmp_path / "openai", pages.url("computer_use/page.html"),
        # finished twice: answer grounding challenges an answer given before any action ran
        [computer({"type": "click", "button": "left", "x": 1500, "y": 100}), done(), done()],
        dialect="openai-computer", version="preview")
    assert result.status == "finished", result.error
    assert steps[0].outcome == "parse_error" and "outside the screenshot" in steps[0].note
    assert fp.requests[0].body["tools"][0] == {"type": "computer_use_preview",
                                               "display_width": 1440, "display_height": 810,
                                               "environment": "browser"}
    assert "Error: the point (1500,100) is outside" in _notes_sent(fp, 1)
    result, steps, fp = await _run(
        browser, tmp_path / "gemini", pages.url("computer_use/page.html"),
        [gemini(gcall("click_at", x=1000, y=10)), gdone(), gdone()],
        dialect="gemini-computer", version="legacy")
    assert result.status == "finished", result.error
    assert steps[0].outcome == "parse_error" and "0-999 grid" in steps[0].note
    response = fp.requests[1].body["contents"][-1]["parts"][0]["functionResponse"]["response"]
    assert "0-999 grid" in response["error"]


def test_a_native_dialect_needs_its_providers_model_and_a_known_version() -> None:
    from webfovea.core.errors import ConfigError
    from webfovea.dialects import make_dialect

    gemini_model = load_model("gemini:gemini-3.5-flash", base_url="http://127.0.0.1:9")
    with pytest.raises(ConfigError, match=r"openai-computer speaks to openai:<model> models"):
        make_dialect(gemini_model, AgentConfig(dialect="openai-computer"))
    with pytest.raises(ConfigError, match="vocabularies legacy, new, not 'ga'"):
        make_dialect(gemini_model, AgentConfig(dialect="gemini-computer", dialect_version="ga"))
    legacy = make_dialect(load_model("gemini:gemini-2.5-computer-use-preview-10-2025",
                                     base_url="http://127.0.0.1:9"),
                          AgentConfig(dialect="gemini-computer"))
    assert legacy.vocabulary == "legacy"  # type: ignore[attr-defined]

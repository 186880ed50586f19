"""--ablate: each fix turned off shows its naive effect on a real run (Chromium on local pages,
the OpenAI client talking HTTP to FakeProvider), and the full harness is unchanged without it.

The suite-level ones (ratio, enter, select with the oracle) are in test_ablation_suite.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from viewer_helpers import FRAME_BAR, REVEAL, SEARCH, click, frame_policy, hover, note, reply
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.console.options import RunFlags
from webfovea.core.ablations import ABLATIONS, parse_ablate
from webfovea.core.config import AgentConfig
from webfovea.core.errors import ConfigError
from webfovea.core.task import Task
from webfovea.dialects.text.prompt import system_text
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model, retry_policy
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord
from webfovea.testing import FakeProvider, FakeRequest

Policy = Callable[[FakeRequest], str]
SHOP = "viewer/shop.html"
LOAD = (300, 225)  # tests/pages/research/delayed.html's button, in the sent image (x 0.75)


async def _run(browser: BrowserSession, pages: LocalServer, out: Path, policy: Policy, *,
               ablate: str = "", page: str = SHOP, max_steps: int = 3, grounding: str = "record",
               fp: FakeProvider | None = None) -> tuple[ResultRecord, FakeProvider]:
    if out.exists():
        shutil.rmtree(out)
    config = AgentConfig(max_steps=max_steps, time_limit=120.0, settle_cap=2.0,
                         grounding=grounding,  # type: ignore[arg-type]
                         ablate=parse_ablate(ablate or None))
    provider = fp or FakeProvider(policy)
    with provider:
        model = load_model("openai:fake-vlm", base_url=provider.base_url,
                           retry=retry_policy(config))
        try:
            result = await run_task(Task("Find the value.", pages.url(page), id=out.name),
                                    model=model, session=browser, config=config, out=out)
        finally:
            await model.aclose()
    return result, provider


def test_unknown_fixes_name_the_flag_and_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="--ablate: unknown fix nope; known: ratio, "):
        parse_ablate("ratio,nope")
    assert parse_ablate(["all"]) == frozenset(ABLATIONS)
    # One spelling, in the registry's order: a resumed bench compares it.
    assert RunFlags(ablate=("enter,ratio",)).ablate == RunFlags(ablate=("ratio", "enter")).ablate
    done = subprocess.run([sys.executable, "-m", "webfovea", "run", "--task", "x", "--url",
                           "http://127.0.0.1:9/", "--model", "oracle", "--ablate", "retry"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--ablate: unknown fix retry" in done.stderr


def test_the_prompt_never_says_what_is_ablated() -> None:
    full = system_text()
    naive = system_text(ablate=frozenset(ABLATIONS))
    assert "use select()" in full and "hover(" in full and "find_text(" in full
    assert "use select()" not in naive
    assert not any(f"{name}(" in naive for name in ("hover", "find_text", "read_text"))
    assert "ablat" not in naive.lower() and "naive" not in naive.lower()
    # The rules stay numbered 1..n without a gap.
    numbers = [int(line.split(".")[0]) for line in naive.splitlines() if line[:1].isdigit()]
    assert numbers == list(range(1, len(numbers) + 1))


async def test_first_action_lets_the_last_action_of_a_reply_win(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    two = reply(f"{click(REVEAL)}\nAction: finished(content='none')")
    full, _ = await _run(browser, pages, tmp_path / "full", lambda r: two, max_steps=1)
    naive, _ = await _run(browser, pages, tmp_path / "naive", lambda r: two, max_steps=1,
                          ablate="first-action")
    assert read_steps(tmp_path / "full")[0].action["name"] == "click"  # type: ignore[index]
    assert full.status == "step_limit"
    assert read_steps(tmp_path / "naive")[0].action["name"] == "finished"  # type: ignore[index]
    assert (naive.status, naive.answer) == ("finished", "none")


def _fill(content: str) -> Policy:
    action = f"fill(start_box='({SEARCH[0]:g},{SEARCH[1]:g})', content='{content}')"
    return lambda req: reply(action)


async def test_token_strip_off_types_the_template_token_into_the_page(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = _fill("laptop<|eot_id|>\\n")
    await _run(browser, pages, tmp_path / "full", policy, max_steps=1)
    await _run(browser, pages, tmp_path / "naive", policy, max_steps=1, ablate="token-strip")
    full, naive = read_steps(tmp_path / "full")[0], read_steps(tmp_path / "naive")[0]
    assert full.details["readback"] == "laptop" and "<|eot_id|>" in full.stripped
    assert naive.details["readback"] == "laptop<|eot_id|>" and naive.stripped == []


async def test_fill_readback_off_never_says_what_the_field_holds(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = _fill("laptop")
    await _run(browser, pages, tmp_path / "full", policy, max_steps=1)
    await _run(browser, pages, tmp_path / "naive", policy, max_steps=1, ablate="fill-readback")
    full, naive = read_steps(tmp_path / "full")[0], read_steps(tmp_path / "naive")[0]
    assert "the field now holds 'laptop'" in full.note
    assert "holds" not in naive.note and naive.details.get("readback") is None


async def test_feedback_off_says_done_whatever_happened(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = lambda req: reply(click(REVEAL))  # noqa: E731
    _, fp = await _run(browser, pages, tmp_path / "full", policy, max_steps=2)
    assert "took effect" in note(fp.requests[1])
    _, fp = await _run(browser, pages, tmp_path / "naive", policy, max_steps=2, ablate="feedback")
    assert note(fp.requests[1]) == "Done."
    naive = read_steps(tmp_path / "naive")
    assert [s.note for s in naive] == ["Done.", "Done."]
    assert naive[0].outcome == "changed"  # the harness still knows; only the model is not told


async def test_observe_off_offers_no_read_text_and_rejects_it(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = lambda req: reply("read_text(label='Total')")  # noqa: E731
    _, fp = await _run(browser, pages, tmp_path / "full", policy, max_steps=1)
    assert "read_text(" in fp.requests[0].system
    assert read_steps(tmp_path / "full")[0].outcome != "parse_error"
    _, fp = await _run(browser, pages, tmp_path / "naive", policy, max_steps=1, ablate="observe")
    assert "read_text(" not in fp.requests[0].system and "hover(" not in fp.requests[0].system
    step = read_steps(tmp_path / "naive")[0]
    assert step.outcome == "parse_error" and "unknown action `read_text`" in step.note
    assert "hover" not in step.note.split("valid actions are", 1)[1]


async def test_frame_fallback_off_misses_what_happened_inside_a_frame(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    await _run(browser, pages, tmp_path / "full", frame_policy, max_steps=1)
    await _run(browser, pages, tmp_path / "naive", frame_policy, max_steps=1,
               ablate="frame-fallback")
    full, naive = read_steps(tmp_path / "full")[0], read_steps(tmp_path / "naive")[0]
    assert full.action == naive.action == {"name": "hover", "start_box": list(FRAME_BAR)}
    assert full.outcome == "changed" and "inside the frame" in full.note
    assert naive.outcome == "no_change" and "no detectable change" in naive.note


async def test_settle_off_looks_before_a_delayed_effect_shows(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = lambda req: reply(click(LOAD))  # noqa: E731
    page = "research/delayed.html"
    await _run(browser, pages, tmp_path / "full", policy, page=page, max_steps=1)
    await _run(browser, pages, tmp_path / "naive", policy, page=page, max_steps=1,
               ablate="settle")
    full, naive = read_steps(tmp_path / "full")[0], read_steps(tmp_path / "naive")[0]
    assert full.outcome == "changed" and "settle" in full.details
    assert naive.outcome == "no_change" and "settle" not in naive.details


async def test_retries_off_ends_the_task_at_the_first_provider_fault(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = lambda req: reply("finished(content='48,210')")  # noqa: E731
    fp = FakeProvider(policy)
    fp.fail_next(503)
    full, _ = await _run(browser, pages, tmp_path / "full", policy, fp=fp)
    assert full.status == "finished" and full.usage.retries == 1
    fp = FakeProvider(policy)
    fp.fail_next(503)
    naive, _ = await _run(browser, pages, tmp_path / "naive", policy, fp=fp, ablate="retries")
    assert naive.status == "model_error" and naive.usage.retries == 0


async def test_grounding_off_accepts_an_answer_the_page_never_showed(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    policy = lambda req: reply("finished(content='73,900')")  # noqa: E731  # not on the page
    full, _ = await _run(browser, pages, tmp_path / "full", policy, max_steps=1,
                         grounding="challenge")
    assert full.status == "step_limit"  # sent back once, and no step was left
    assert read_steps(tmp_path / "full")[0].guardrail == "answer_grounding"
    naive, _ = await _run(browser, pages, tmp_path / "naive", policy, max_steps=1,
                          grounding="challenge", ablate="grounding")
    assert (naive.status, naive.answer) == ("finished", "73,900")
    assert naive.grounding is not None and naive.grounding.status == "not_checked"
    config = json.loads((tmp_path / "naive" / "result.json").read_text())["config"]
    assert config["ablate"] == ["grounding"] and config["grounding"] == "challenge"


async def test_without_ablate_the_config_records_none(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    await _run(browser, pages, tmp_path / "full", lambda r: reply(hover(REVEAL)), max_steps=1)
    assert json.loads((tmp_path / "full" / "result.json").read_text())["config"]["ablate"] == []

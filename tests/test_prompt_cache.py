"""Cache-friendly history, seen from the provider's side: the fake receives every
request of a real run (real Chromium, real SDK over HTTP) and its prompt cache
reports what a provider would bill."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.cli.main import main
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.dialects.text.prompt import first_shown
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.models.prefix_cache import Block, common_prefix
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord

STEPS = 20
SCROLLS = [f"Thought: keep looking ({i}).\nAction: scroll(start_box='(600,400)', "
           f"direction='{'down' if i % 2 else 'up'}')" for i in range(STEPS)]


async def _scripted_run(browser: BrowserSession, pages: LocalServer, out: Path, provider: str,
                        config: AgentConfig, *, min_tokens: int = 1024
                        ) -> tuple[ResultRecord, list[FakeRequest]]:
    with FakeProvider(ScriptedPolicy(SCROLLS), cache_min_tokens=min_tokens) as fp:
        base = fp.anthropic_base_url if provider == "anthropic" else fp.base_url
        model = load_model(f"{provider}:claude-sonnet-4-5-fake", base_url=base)
        result = await run_task(Task("Find the last line of the page",
                                     pages.url("feedback/long.html")),
                                model=model, session=browser, config=config, out=out)
        await model.aclose()
    return result, fp.requests


def _boundary(step: int, config: AgentConfig) -> bool:
    return first_shown(step, config) != first_shown(step - 1, config)


def _breakpoints(blocks: tuple[Block, ...]) -> list[int]:
    return [i for i, b in enumerate(blocks) if b.breakpoint]


async def test_blocks_keep_the_prefix_between_steps_and_breakpoints_where_allowed(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    config = AgentConfig(max_steps=STEPS, history_block=5)
    # The fake counts a word as a token, a third of what a real tokenizer makes of this
    # prompt: a lower minimum lets the text-only prefixes be cached as they would be.
    result, requests = await _scripted_run(browser, pages, tmp_path, "anthropic", config,
                                           min_tokens=256)
    assert result.status == "step_limit" and len(requests) == STEPS
    boundaries = [n for n in range(2, STEPS + 1) if _boundary(n, config)]
    assert boundaries == [10, 15, 20]
    for n in range(2, STEPS + 1):
        before, now = requests[n - 2].blocks, requests[n - 1].blocks
        shared = common_prefix(before, now)
        if n in boundaries:
            # Only the screenshots that left the window changed; the prefix up to the
            # breakpoint a block earlier is still identical.
            assert shared < len(before)
            if n == boundaries[0]:  # step 1's screenshot left: only the system text stays
                assert shared >= 1
            else:
                assert shared > _breakpoints(now)[1], (n, shared, _breakpoints(now))
        else:  # the whole previous request is the start of this one
            assert shared == len(before), (n, shared, len(before))
    for n, r in enumerate(requests, 1):
        points = _breakpoints(r.blocks)
        assert 1 <= len(points) <= 4
        assert r.blocks[points[0]].role == "system"
        for i in points[1:]:  # on user content, each on the last block of its message
            assert r.blocks[i].role == "user"
            assert i + 1 == len(r.blocks) or r.blocks[i + 1].opens_message
        assert len(r.images) >= min(n, 5)
        assert r.blocks[-1].breakpoint  # the tail: the next step reads all of this back
    steps = read_steps(tmp_path)
    assert [s.step for s in steps if s.usage.cache_read_tokens == 0] == [1]
    assert all(s.usage.cache_write_tokens > 0 for s in steps)
    # At a boundary the screenshots still shown are written again: more than a normal step.
    assert steps[9].usage.cache_write_tokens > 2 * steps[8].usage.cache_write_tokens
    assert steps[-1].request["breakpoints"] == 4 and len(steps[-1].request["images"]) == 5


async def test_rolling_layout_changes_its_prefix_every_step(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    config = AgentConfig(max_steps=8, history="rolling")
    result, requests = await _scripted_run(browser, pages, tmp_path, "anthropic", config)
    assert result.steps == 8
    for before, now in itertools.pairwise(requests):
        assert common_prefix(before.blocks, now.blocks) <= 1  # the system text at most
        assert not any(b.breakpoint for b in now.blocks)
        assert len(now.turns) == 1
    assert result.usage.cache_read_tokens == 0


async def test_openai_prefix_caching_reports_cached_tokens(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    config = AgentConfig(max_steps=6)
    result, requests = await _scripted_run(browser, pages, tmp_path, "openai", config)
    steps = read_steps(tmp_path)
    assert requests[0].turns[0].role == "user" and requests[0].system  # stable prefix first
    assert steps[0].usage.cache_read_tokens == 0
    assert all(s.usage.cache_read_tokens > 0 for s in steps[1:])
    assert all(s.usage.cache_write_tokens == 0 for s in steps)
    total = result.usage
    assert total.cache_read_tokens == sum(s.usage.cache_read_tokens for s in steps)


async def test_cost_is_recorded_and_recomputed_for_both_layouts(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from webfovea.models.prices import find_price

    price = find_price("anthropic:claude-sonnet-4-5")
    config = AgentConfig(max_steps=12, price=price)
    result, _ = await _scripted_run(browser, pages, tmp_path, "anthropic", config)
    steps = read_steps(tmp_path)
    assert all(s.usage.cost is not None and s.usage.cost > 0 for s in steps)
    assert result.usage.cost == pytest.approx(sum(s.usage.cost or 0 for s in steps))
    with pytest.raises(SystemExit) as done:
        main(["cost", str(tmp_path)])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "12 step(s)" in out and "blocks vs rolling" in out
    blocks = next(line for line in out.splitlines() if line.startswith("blocks "))
    rolling = next(line for line in out.splitlines() if line.startswith("rolling "))
    assert "cache-read" in blocks and " 0 cache-read" in rolling


async def test_unknown_model_costs_unknown_not_zero(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    result, _ = await _scripted_run(browser, pages, tmp_path, "openai", AgentConfig(max_steps=2))
    assert result.usage.cost is None
    with pytest.raises(SystemExit) as done:
        main(["cost", str(tmp_path)])
    assert done.value.code == 2
    assert "no price known" in capsys.readouterr().err

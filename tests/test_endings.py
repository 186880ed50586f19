"""The WebRetriever grammar's endings through the loop and the guard: ``finished()`` without
content (a navigation-only task's end; sent back once where the task has a reference answer)
and ``call_user()`` (the model gives up, asking for a person)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.rundir.trajectory import ResultRecord
from webfovea.tools.diagnose import diagnose

PAGE = "chinese/weather.html"
LOOK = "Thought: 先找客服电话\nAction: find_text(text='客服时间')"


async def ended(browser: BrowserSession, pages: LocalServer, out: Path, replies: list[str],
                answer: str | None = None) -> tuple[ResultRecord, list[dict[str, Any]]]:
    task = Task("找到客服电话", pages.url(PAGE), answer=answer)
    result = await run_task(task, model=ScriptedModel(replies), session=browser,
                            config=AgentConfig(), out=out)
    steps = [json.loads(line) for line in (out / "steps.jsonl").read_text("utf-8").splitlines()]
    return result, steps


async def test_finished_without_content_ends_a_task_without_a_reference_with_no_answer(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    result, steps = await ended(browser, pages, tmp_path, ["Action: finished()"])
    assert (result.status, result.answer, result.steps) == ("finished", None, 1)
    assert steps[0]["action"] == {"name": "finished"} and steps[0]["outcome"] == "answer"
    assert steps[0]["action_source"] == "finished()"
    on_disk = json.loads((tmp_path / "result.json").read_text("utf-8"))
    assert on_disk["status"] == "finished" and on_disk["answer"] is None


@pytest.mark.parametrize("then", ["Action: finished(content='010-12345678')", "Action: finished()"])
async def test_where_an_answer_is_expected_the_first_bare_finished_is_sent_back_once(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path, then: str) -> None:
    result, steps = await ended(browser, pages, tmp_path,
                                [LOOK, "Action: finished()", then], answer="010-12345678")
    refused = steps[1]
    assert refused["outcome"] == "refused" and refused["guardrail"] == "answer_expected"
    assert "expects an answer" in refused["note"] and "finished(content=" in refused["note"]
    # The reference itself is never told.
    assert "12345678" not in refused["note"]
    assert result.steps == 3 and result.status == "finished"
    assert result.answer == ("010-12345678" if "content" in then else None)
    if result.answer is None:  # the model's decision, not a guardrail in its way
        found = diagnose(tmp_path, every_task=True).diagnosed[0]
        assert found.stage == "decision" and "answer_expected" not in found.evidence


async def test_call_user_gives_up_saying_the_model_asked_for_a_person(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    result, steps = await ended(browser, pages, tmp_path, [LOOK, "Action: call_user()"],
                                answer="010-12345678")
    assert (result.status, result.answer, result.steps) == ("gave_up", None, 2)
    assert result.error is not None and "asked for a person" in result.error
    assert steps[1]["action_source"] == "call_user()" and "asked for a person" in steps[1]["note"]
    found = diagnose(tmp_path).diagnosed[0]
    assert found.stage == "decision" and "gave_up" in found.evidence
    assert "asked for a person" in found.evidence

"""Pages that misbehave: an endless confirm() loop, links the browser itself refuses."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps
from webfovea.viewer.report import write_report


def act(action: str) -> str:
    return f"Thought: next.\nAction: {action}"


@pytest.mark.parametrize("time_limit", [
    8.0,
    # Longer than Playwright's 30 s default timeout, which used to end it as browser_error.
    pytest.param(36.0, marks=pytest.mark.slow)])
async def test_an_endless_confirm_loop_ends_at_the_time_limit(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path, time_limit: float) -> None:
    config = AgentConfig(max_steps=50, time_limit=time_limit)
    with FakeProvider(ScriptedPolicy([act("wait()")] * 50)) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task("wait", pages.url("reliability/confirm_loop.html")),
                                model=model, session=browser, config=config, out=tmp_path)
        await model.aclose()
    assert result.status == "time_limit", result.error
    assert result.elapsed < config.time_limit + 5


async def test_refused_scheme_links_say_blocked(browser: BrowserSession, pages: LocalServer,
                                                tmp_path: Path) -> None:
    # The links' middles, in the 1440x810 image of the 1920x1080 page (x 0.75).
    clicks = [act(f"click(start_box='(217,{round((top + 25) * 0.75)})')")
              for top in (100, 200, 300)]
    with FakeProvider(ScriptedPolicy([*clicks, act("finished(content='done')")])) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        url = pages.url("reliability/schemes.html")
        result = await run_task(Task("click", url), model=model, session=browser,
                                config=AgentConfig(max_steps=6), out=tmp_path)
        await model.aclose()
    assert result.status == "finished" and result.answer_url == url
    steps = read_steps(tmp_path)
    for step, scheme in zip(steps, ("data:", "file:", "view-source:"), strict=False):
        assert step.url == url
        assert "blocked" in step.note and f"to {scheme}" in step.note, step.note
        assert step.guardrail == "domain_lock", step.note


async def test_view_embeds_only_files_inside_the_run(browser: BrowserSession, pages: LocalServer,
                                                     tmp_path: Path) -> None:
    out = tmp_path / "runs" / "one"
    replies = [act("wait()"), act("wait()"), act("finished(content='done')")]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        await run_task(Task("wait", pages.url("roundtrip/form.html")), model=model,
                       session=browser, config=AgentConfig(max_steps=5), out=out)
        await model.aclose()
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"TOP-SECRET-BYTES" * 8)
    lines = (out / "steps.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    records[0]["screenshot"] = "../../secret.png"  # an edited run directory reaching out
    records[1]["screenshot"] = str(secret)  # an absolute path
    (out / "steps.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    html = write_report(out, embed=True).read_text()
    leaked = base64.b64encode(secret.read_bytes()).decode()[:40]
    assert leaked not in html and "secret.png" not in html
    third = base64.b64encode((out / records[2]["screenshot"]).read_bytes()).decode()[:40]
    assert third in html  # the run's own screenshot is still embedded

"""``webfovea mcp``: an MCP client from the official SDK drives the harness over stdio and
streamable HTTP against real Chromium on local pages; every session is a run directory."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client

from counting_site import Counter
from mcp_helpers import Hold, result_json, session_dirs, steps
from webfovea.actions.registry import REGISTRY
from webfovea.bench.scorer import match
from webfovea.browser.local_server import LocalServer
from webfovea.core.config import Size
from webfovea.dialects.schema import tool_schemas
from webfovea.suite.catalog import tasks
from webfovea.suite.server import SuiteServer
from webfovea.testing.mcp_client import (
    FAST,
    McpOracle,
    data,
    http_server,
    image,
    stdio_client,
    text,
)

SEEN = Size(1000, 562)  # the host's model sees every screenshot at this size, not the 1280x720 sent


def test_list_tools_prints_one_schema_per_action() -> None:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "mcp", "--list-tools"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    listed = {t["name"]: t for t in json.loads(proc.stdout)}
    # navigate is offered as open(url), not as a tool of its own
    actions = [n for n, s in REGISTRY.items() if not (s.ends_task or s.navigates)]
    assert list(listed) == ["screenshot", "open", *actions, "finish"]
    assert "navigate" not in listed
    for schema in tool_schemas(actions):  # the registry's one definition, unchanged
        assert listed[schema.name]["inputSchema"] == schema.input_schema
    assert listed["finish"]["inputSchema"]["required"] == ["answer"]


def test_http_takes_loopback_only() -> None:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "mcp", "--http", "0.0.0.0:8765"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "loopback only" in proc.stderr, proc.stderr


async def test_a_stdio_session_is_a_guarded_recorded_run(pages: LocalServer, other: LocalServer,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "mcp"
    async with stdio_client("--url", pages.url("guard/still.html"), "--out", str(out),
                            "--budget", "reload=1", *FAST) as client:
        shot = await client.call_tool("screenshot", {})
        assert not shot.is_error and image(shot).size == (1280, 720)
        assert data(shot)["image"] == {"width": 1280, "height": 720}
        assert data(shot)["page"] == {"width": 1920, "height": 1080}
        assert "1280x720 pixels" in text(shot)
        noop = await client.call_tool("click", {"start_box": [600, 400]})
        assert not noop.is_error and data(noop)["outcome"] == "no_change"
        assert "no detectable change" in text(noop) and image(noop).size == (1280, 720)
        off = await client.call_tool("open", {"url": other.url("guard/landing.html")})
        assert off.is_error and data(off)["guardrail"] == "domain_lock", text(off)
        assert "Refused by the domain lock" in text(off)
        key = await client.call_tool("hotkey", {"key": "ctrl w"})
        assert key.is_error and data(key)["guardrail"] == "hotkey_blacklist", text(key)
        first = await client.call_tool("reload", {})
        assert not first.is_error, text(first)
        over = await client.call_tool("reload", {})
        assert over.is_error and data(over)["guardrail"] == "budget:reload", text(over)
        malformed = {"click": {"start_box": "abc"}, "scroll": {"start_box": [5, 5]},
                     "fly": {}, "finish": {"answer": 42}}
        for name, arguments in malformed.items():
            bad = await client.call_tool(name, arguments)
            assert bad.is_error and data(bad)["outcome"] == "parse_error", text(bad)
        assert "click.start_box" in text(await client.call_tool("click", {"start_box": "abc"}))
        assert "`direction`" in text(await client.call_tool("scroll", {"start_box": [5, 5]}))
        outside = await client.call_tool("click", {"start_box": [1281, 100]})
        assert outside.is_error and "1280x720" in text(outside), text(outside)
        zoomed = await client.call_tool("zoom", {"start_box": [0, 0], "end_box": [320, 180]})
        assert not zoomed.is_error, text(zoomed)
        zoom = data(zoomed)["zoom"]  # the region's own image first, then the screenshot
        assert image(zoomed, 0).size == (zoom["width"], zoom["height"]) != (1280, 720)
        assert image(zoomed).size == (1280, 720)
        done = await client.call_tool("finish", {"answer": "The answer is 42."})
        assert not done.is_error and data(done)["status"] == "finished", text(done)
        late = await client.call_tool("click", {"start_box": [10, 10]})
        assert late.is_error and "has ended with status finished" in text(late), text(late)
    (run,) = session_dirs(out)
    result = result_json(run)
    assert result["status"] == "finished" and result["answer"] == "The answer is 42."
    assert result["model"] == "mcp" and (run / "evidence.png").is_file()
    recorded = steps(run)
    assert [s["calls"][0]["native"]["name"] for s in recorded] == [
        "click", "open", "hotkey", "reload", "reload", "click", "scroll", "fly", "finish",
        "click", "scroll", "click", "zoom", "finish"]
    assert json.loads(recorded[0]["raw_reply"]) == {"name": "click",
                                                    "arguments": {"start_box": [600, 400]}}
    assert recorded[0]["page_points"] == [[900, 600]]  # 600 x 1920/1280: the measured ratio
    assert [s["outcome"] for s in recorded[1:5]] == ["refused", "refused", "changed", "refused"]
    assert len(list((run / "screens").iterdir())) == len(recorded)
    readers = (["view", str(run)], ["diagnose", str(run)], ["replay", str(run), "--fail-on-change"],
               ["cost", str(run), "--price-input", "3", "--price-output", "15"])
    for command in readers:  # the run directory's readers work on it
        proc = subprocess.run([sys.executable, "-m", "webfovea", *command],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (command, proc.stderr)


async def test_navigations_off_the_site_are_blocked_and_answered_as_errors(
        pages: LocalServer, other: LocalServer, tmp_path: Path) -> None:
    entry = pages.url("mcp/offsite.html?other=" + other.url("/").rstrip("/"))
    async with stdio_client("--url", entry, "--out", str(tmp_path / "mcp"), *FAST) as client:
        for point in ([173, 60], [173, 140], [173, 220]):  # link, target=_blank, window.open
            clicked = await client.call_tool("click", {"start_box": point})
            assert clicked.is_error and data(clicked)["guardrail"] == "domain_lock", text(clicked)
            assert "was blocked" in text(clicked) and data(clicked)["url"] == entry


async def test_open_refuses_other_schemes_and_an_entry_page_that_did_not_load_opens_again(
        pages: LocalServer, tmp_path: Path) -> None:
    out = tmp_path / "mcp"
    async with stdio_client("--out", str(out), *FAST) as client:
        nothing = await client.call_tool("screenshot", {})
        assert nothing.is_error and "call open(url) first" in text(nothing)
        for url in ("file:///etc/hostname", "javascript:alert(1)", "data:text/html,hi"):
            refused = await client.call_tool("open", {"url": url})
            assert refused.is_error and data(refused)["guardrail"] == "domain_lock", text(refused)
            assert "pages are not allowed" in text(refused)
        assert "`address`" in text(await client.call_tool("open", {"address": "x"}))
        assert "`url`" in text(await client.call_tool("open", {}))
        gone = await client.call_tool("open", {"url": "http://127.0.0.1:9/"})  # discard port
        assert gone.is_error and data(gone)["status"] == "unreachable", text(gone)
        opened = await client.call_tool("open", {"url": pages.url("guard/still.html")})
        assert not opened.is_error and data(opened)["step"] == 1, text(opened)
    first, second = session_dirs(out)
    assert result_json(first)["status"] == "unreachable"
    assert second.name == first.name + "-2" and result_json(second)["status"] == "interrupted"


async def test_a_later_open_navigates_on_the_site_and_the_lock_refuses_the_rest(
        pages: LocalServer, tmp_path: Path, elsewhere: tuple[str, type[Counter]]) -> None:
    away, counter = elsewhere
    out = tmp_path / "mcp"
    landing = pages.url("guard/landing.html")
    async with stdio_client("--out", str(out), *FAST) as client:
        first = await client.call_tool("open", {"url": pages.url("guard/still.html")})
        assert not first.is_error, text(first)
        second = await client.call_tool("open", {"url": landing})
        assert not second.is_error and data(second)["url"] == landing, text(second)
        assert f"loaded {landing}" in data(second)["note"], text(second)
        for url in (away, "file:///etc/hostname"):
            refused = await client.call_tool("open", {"url": url})
            assert refused.is_error and data(refused)["guardrail"] == "domain_lock", text(refused)
            assert "Refused by the domain lock" in text(refused)
            assert data(refused)["url"] == landing  # the tab stayed where it was
        assert "pages are not allowed" in text(refused)
        assert "`address`" in text(await client.call_tool("open", {"address": landing}))
    assert counter.hits == 0
    (run,) = session_dirs(out)
    recorded = steps(run)
    assert [s["action"]["name"] for s in recorded[:3]] == ["navigate"] * 3
    assert [s["outcome"] for s in recorded[:4]] == ["changed", "refused", "refused", "parse_error"]


async def test_step_and_time_limits_end_the_session_run(pages: LocalServer,
                                                        tmp_path: Path) -> None:
    still = pages.url("guard/still.html")
    async with stdio_client("--url", still, "--out", str(tmp_path / "steps"),
                            "--max-steps", "2") as client:
        assert not (await client.call_tool("click", {"start_box": [600, 400]})).is_error
        last = await client.call_tool("click", {"start_box": [600, 400]})
        assert last.is_error and data(last)["status"] == "step_limit", text(last)
        late = await client.call_tool("wait", {})
        assert late.is_error and "has ended with status step_limit" in text(late)
    async with stdio_client("--url", still, "--out", str(tmp_path / "time"),
                            "--time-limit", "5") as client:
        await client.call_tool("screenshot", {})
        (run,) = session_dirs(tmp_path / "time")
        result = await _ended(run)  # the client says nothing more: the time runs out
        assert result["status"] == "time_limit", result
        late = await client.call_tool("wait", {})
        assert late.is_error and "has ended with status time_limit" in text(late)


async def test_a_session_records_its_site_and_another_replays_it(tmp_path: Path) -> None:
    snapshot = tmp_path / "snapshot"
    with LocalServer(Path(__file__).parent / "pages") as site:  # gone before the replay
        url = site.url("guard/still.html")
        async with stdio_client("--url", url, "--out", str(tmp_path / "rec"),
                                "--record-site", str(snapshot), *FAST) as client:
            assert not (await client.call_tool("read_text", {"label": "The answer"})).is_error
            assert not (await client.call_tool("finish", {"answer": "42"})).is_error
    async with stdio_client("--url", url, "--out", str(tmp_path / "play"),
                            "--replay-site", str(snapshot), *FAST) as client:
        shot = await client.call_tool("screenshot", {})
        assert not shot.is_error and data(shot)["url"] == url, text(shot)
        read = await client.call_tool("read_text", {"label": "The answer"})
        assert "The answer is 42." in text(read), text(read)
    (recorded,) = session_dirs(tmp_path / "rec")
    (replayed,) = session_dirs(tmp_path / "play")
    assert result_json(recorded)["site"]["mode"] == "record"
    assert result_json(replayed)["site"]["mode"] == "replay"


async def _ended(run: Path) -> dict[str, object]:
    """result.json once the session's run has ended (as the client's session ends, the server
    closes it; the client does not wait for that)."""
    deadline = time.monotonic() + 60
    while (result := result_json(run))["status"] == "running":
        assert time.monotonic() < deadline, result
        await asyncio.sleep(0.1)
    return result


async def test_http_sessions_each_have_their_own_page_and_leaving_interrupts_the_run(
        pages: LocalServer, tmp_path: Path) -> None:
    out = tmp_path / "mcp"
    with http_server("--out", str(out), *FAST) as url:
        async with Client(url) as a, Client(url) as b:
            opened_a = await a.call_tool("open", {"url": pages.url("guard/still.html")})
            opened_b = await b.call_tool("open", {"url": pages.url("roundtrip/targets.html")})
            assert not opened_a.is_error and not opened_b.is_error, text(opened_a)
            # b clicks its blue button (page 1800,60 + half its size, in 1280x720 pixels)
            clicked = await b.call_tool("click", {"start_box": [1233, 60]})
            assert data(clicked)["outcome"] == "changed", text(clicked)
            again = await a.call_tool("screenshot", {})
            assert data(again)["url"].endswith("guard/still.html")
            assert data(again)["step"] == 1  # b's click was not a's step
        runs = session_dirs(out)
        assert len(runs) == 2
        for run in runs:
            result = await _ended(run)
            assert result["status"] == "interrupted", result
        # The server outlives its clients: a new session works.
        async with Client(url) as c:
            opened = await c.call_tool("open", {"url": pages.url("guard/still.html")})
            assert not opened.is_error and data(opened)["step"] == 1


async def test_a_client_leaving_mid_action_closes_its_context_and_interrupts_the_run(
        tmp_path: Path) -> None:
    out = tmp_path / "mcp"
    with Hold() as hold, http_server("--out", str(out), *FAST) as url:
        async with Client(url) as client:
            opened = await client.call_tool("open", {"url": hold.url})
            assert not opened.is_error, text(opened)
            # The button's centre, page (200,150), in the 1280x720 screenshot.
            clicking = asyncio.ensure_future(client.call_tool("click", {"start_box": [133, 100]}))
            assert await asyncio.to_thread(hold.started.wait, 120)  # the click is in the page
        await asyncio.gather(clicking, return_exceptions=True)
        assert await asyncio.to_thread(hold.dropped.wait, 60)  # its page closed with it
        (run,) = session_dirs(out)
        result = await _ended(run)
        # open(url) answered with step 1's screenshot; the click was step 1's action.
        assert result["status"] == "interrupted", result
        assert result["error"] == "stopped during step 1" and steps(run) == []


async def test_the_reference_policy_answers_a_suite_task_over_stdio(tmp_path: Path) -> None:
    await _suite(tmp_path, ["stats-production-cell"], http=False)


async def test_the_reference_policy_answers_a_suite_task_over_http(tmp_path: Path) -> None:
    await _suite(tmp_path, ["charts-difference"], http=True)


@pytest.mark.slow
async def test_the_reference_policy_answers_the_run_suite_sample_through_mcp(
        tmp_path: Path) -> None:
    await _suite(tmp_path, ["stats-production-cell", "energy-value", "charts-difference",
                            "filings-capacity"], http=True)


async def _suite(tmp_path: Path, ids: list[str], *, http: bool) -> None:
    """Each task in its own MCP session (one run each); the answers scored as `run`'s are."""
    by_id = {t.id: t for t in tasks(0)}
    with SuiteServer(seed=0) as suite:
        args = ("--out", str(tmp_path / "mcp"), "--host-resolver-rules",
                ",".join(suite.host_rules()), *FAST)
        oracle = McpOracle(suite.layout_url(), seen=SEEN)
        answers: dict[str, str] = {}
        if http:
            with http_server(*args) as url:
                for task_id in ids:
                    async with Client(url) as client:
                        answers[task_id] = data(await oracle.solve(client, by_id[task_id]))[
                            "answer"]
        else:
            for task_id in ids:
                async with stdio_client(*args) as client:
                    answers[task_id] = data(await oracle.solve(client, by_id[task_id]))["answer"]
    verdicts = {t: match(by_id[t].answer, answers[t], by_id[t].answer_type) for t in ids}
    assert all(v.correct for v in verdicts.values()), (answers, verdicts, oracle.calls)
    runs = session_dirs(tmp_path / "mcp")
    assert [result_json(r)["status"] for r in runs] == ["finished"] * len(ids)

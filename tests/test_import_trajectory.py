"""`webfovea import-trajectory`: an Anthropic computer-use conversation and an OpenAI
computer-use loop's Responses items, built with the SDKs' own types around real Chromium
screenshots of a local page, read into a run directory that `view` and `diagnose` read."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest_asyncio
from anthropic.types import MessageParam
from openai.types.responses import ResponseInputItemParam

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.rundir.store import read_result, read_score, read_steps

REVEAL = (1700, 840)  # shop.html's "Reveal total", in full-size screenshot pixels
EMPTY = (1850, 60)  # blank page: a click there changes nothing


def _webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=120)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def shots(browser: BrowserSession, pages: LocalServer) -> list[bytes]:
    """Before anything, after the reveal click, after a click on blank space."""
    tabs = await browser.new_tabs()
    try:
        await tabs.open(pages.url("viewer/shop.html"))
        page = tabs.page
        out = [await page.screenshot(type="png")]
        for point in (REVEAL, EMPTY):
            await page.mouse.click(*point)
            await page.wait_for_timeout(200)
            out.append(await page.screenshot(type="png"))
        return out
    finally:
        await tabs.close()


def _b64(png: bytes) -> str:
    return base64.b64encode(png).decode("ascii")


def _anthropic(shots: list[bytes]) -> list[MessageParam]:
    def result(use_id: str, png: bytes) -> MessageParam:
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use_id,
                                             "content": [{"type": "image", "source": {
                                                 "type": "base64", "media_type": "image/png",
                                                 "data": _b64(png)}}]}]}

    def use(use_id: str, thought: str, **args: object) -> MessageParam:
        return {"role": "assistant", "content": [
            {"type": "text", "text": thought},
            {"type": "tool_use", "id": use_id, "name": "computer", "input": dict(args)}]}

    return [
        {"role": "user", "content": "What is the total on the shop page?"},
        use("t1", "Let me look.", action="screenshot"), result("t1", shots[0]),
        use("t2", "Reveal the total.", action="left_click", coordinate=list(REVEAL)),
        result("t2", shots[1]),
        use("t3", "Select the line.", action="triple_click", coordinate=list(REVEAL)),
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t3",
                                      "is_error": True, "content": "not available"}]},
        use("t4", "Click beside it.", action="left_click", coordinate=list(EMPTY)),
        result("t4", shots[2]),
        {"role": "assistant", "content": [{"type": "text", "text": "The total is 48,210."}]},
    ]


def _openai(shots: list[bytes]) -> list[ResponseInputItemParam]:
    def output(call_id: str, png: bytes) -> ResponseInputItemParam:
        return {"type": "computer_call_output", "call_id": call_id, "output": {
            "type": "computer_screenshot", "image_url": f"data:image/png;base64,{_b64(png)}"}}

    return [
        {"role": "user", "content": "What is the total on the shop page?"},
        {"type": "computer_call", "id": "cu1", "call_id": "c1", "status": "completed",
         "pending_safety_checks": [], "action": {"type": "screenshot"}},
        output("c1", shots[1]),
        {"type": "computer_call", "id": "cu2", "call_id": "c2", "status": "completed",
         "pending_safety_checks": [], "action": {"type": "click", "button": "left",
                                                 "x": EMPTY[0], "y": EMPTY[1]}},
        output("c2", shots[2]),
    ]


def test_an_anthropic_conversation_is_viewed_and_diagnosed(shots: list[bytes],
                                                           tmp_path: Path) -> None:
    file, out = tmp_path / "messages.json", tmp_path / "run"
    file.write_text(json.dumps(_anthropic(shots)))
    done = _webfovea("import-trajectory", str(file), "--from", "anthropic-cu", "--out", str(out))
    assert done.returncode == 0, done.stderr
    steps, result = read_steps(out), read_result(out)
    assert [s.action["name"] if s.action else None for s in steps] == [
        "wait", "click", None, "click"]
    assert steps[1].action["start_box"] == list(REVEAL)  # type: ignore[index]
    assert (out / steps[1].screenshot).read_bytes() == shots[0]
    assert [s.outcome for s in steps] == ["unknown", "changed", "parse_error", "no_change"]
    assert (result.status, result.answer) == ("finished", "The total is 48,210.")
    diag = json.loads(_webfovea("diagnose", str(out), "--all", "--json").stdout)
    found = {(f["stage"], f["step"]) for f in diag["failures"][0]["findings"]}
    assert ("parse", 3) in found and ("execute", 4) in found
    evidence = " ".join(f["evidence"] for f in diag["failures"][0]["findings"])
    assert "no evidence for the observe, feedback and guardrails" in evidence
    view = _webfovea("view", str(out))
    assert view.returncode == 0, view.stderr
    _scored_both_ways(out, tmp_path)


def _scored_both_ways(out: Path, tmp_path: Path) -> None:
    """`score` on the imported run: wrong against one reference (and then diagnosed),
    correct against the task file's line."""
    wrong = _webfovea("score", str(out), "--answer", "41,800", "--format", "json")
    assert wrong.returncode == 0, wrong.stderr
    assert (json.loads(wrong.stdout)["verdict"], read_score(out).correct) == (  # type: ignore[union-attr]
        "wrong", False)
    diag = json.loads(_webfovea("diagnose", str(out), "--json").stdout)
    assert diag["diagnosed"] == 1 and diag["failures"][0]["stage"] == "parse"
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({"id": out.name, "instruction": "What is the total?",
                                 "url": "http://127.0.0.1/shop", "answer": "48,210"}) + "\n")
    right = _webfovea("score", str(out), "--task", str(tasks))
    assert right.returncode == 0 and "correct (integer)" in right.stdout, right.stderr
    assert read_result(out).answer == "The total is 48,210."  # the run itself untouched
    diag = json.loads(_webfovea("diagnose", str(out), "--json").stdout)
    assert diag["diagnosed"] == 0


def test_an_openai_loop_that_gave_up_is_diagnosed(shots: list[bytes], tmp_path: Path) -> None:
    file, out = tmp_path / "items.jsonl", tmp_path / "run"
    file.write_text("".join(json.dumps(item) + "\n" for item in _openai(shots)))
    done = _webfovea("import-trajectory", str(file), "--from", "openai-cua", "--out", str(out))
    assert done.returncode == 0, done.stderr
    steps = read_steps(out)
    assert [s.action["name"] for s in steps] == ["wait", "click"]  # type: ignore[index]
    assert steps[1].outcome == "no_change" and read_result(out).status == "gave_up"
    diag = json.loads(_webfovea("diagnose", str(out), "--json").stdout)
    first = diag["failures"][0]
    assert first["stage"] == "execute" and first["step"] == 2
    assert any("gave up" in f["evidence"] for f in first["findings"])


def test_a_file_that_is_not_the_format_is_named(tmp_path: Path) -> None:
    file = tmp_path / "items.jsonl"
    file.write_text(json.dumps({"type": "computer_call", "action": {"type": "teleport"}}) + "\n")
    done = _webfovea("import-trajectory", str(file), "--from", "openai-cua", "--out",
                     str(tmp_path / "run"))
    assert done.returncode == 2 and "items.jsonl:1 is not a Responses item" in done.stderr
    done = _webfovea("import-trajectory", str(file), "--from", "browser-use", "--out",
                     str(tmp_path / "run2"))
    assert done.returncode == 2, done.stderr
    assert "items.jsonl is not a browser-use AgentHistoryList" in done.stderr


def test_score_of_one_task_names_what_is_missing(tmp_path: Path) -> None:
    file, out = tmp_path / "items.jsonl", tmp_path / "run"
    file.write_text(json.dumps({"role": "user", "content": "What is the total?"}) + "\n")
    assert _webfovea("import-trajectory", str(file), "--from", "openai-cua", "--out",
                     str(out)).returncode == 0
    done = _webfovea("score", str(out))
    assert done.returncode == 2 and "give --answer TEXT or --task FILE" in done.stderr
    done = _webfovea("score", str(out), "--task", str(file))
    assert done.returncode == 2 and "has no line with id 'run'" in done.stderr
    gave_up = _webfovea("score", str(out), "--answer", "48,210")
    assert gave_up.returncode == 0 and "wrong (status)" in gave_up.stdout, gave_up.stderr
    done = _webfovea("score", str(tmp_path), "--answer", "1")
    assert done.returncode == 2 and "score one task's run directory" in done.stderr

"""Seeing a run as it happens: ``webfovea run``'s step view on standard error, the step
events through ``logging`` for library users, and the bench's progress lines and panel.

Every run here is real: Chromium on tests/pages served from 127.0.0.1, the model the
OpenAI-protocol FakeProvider whose policy reacts to the notes the harness sends.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import PAGES as BENCH_PAGES
from test_bench_support import TaskPolicy, finish, provider, write_tasks
from viewer_helpers import REVEAL, click, record, reply, reveal_policy
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.rundir.events import StepEvent, event_of
from webfovea.testing import FakeProvider

TASK = "Find the total."
LONG_THOUGHT = "The Reveal total button\nis at the bottom right, " + "and it is blue " * 20


def wordy_policy(req: object) -> str:
    """reveal_policy with a long, multi-line thought on the first click."""
    text = reveal_policy(req)  # type: ignore[arg-type]
    return text.replace("The Reveal total button is at the bottom right.", LONG_THOUGHT)


def run(pages: LocalServer, tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    with FakeProvider(wordy_policy) as fp:
        return subprocess.run(
            [sys.executable, "-m", "webfovea", "run", "--url", pages.url("viewer/shop.html"),
             "--task", TASK, "--model", "openai:fake-vlm", "--base-url", fp.base_url,
             "--out", str(tmp_path / "run"), "--max-steps", "4", *flags],
            capture_output=True, text=True, timeout=180, env={**os.environ, "COLUMNS": "200"})


def test_run_shows_each_step_on_stderr_and_keeps_the_summary_on_stdout(
        pages: LocalServer, tmp_path: Path, openai_key: None) -> None:
    done = run(pages, tmp_path, "-v")
    assert done.returncode == 0, done.stderr
    err, out = done.stderr, done.stdout
    blocks = re.split(r"(?m)^(?=step \d+ )", err)[1:]
    assert [b.split()[1] for b in blocks] == ["1", "2", "3"], err
    first = blocks[0]
    assert first.startswith(f"step 1  {click(REVEAL)}  → page (1700,840)")
    thought = re.search(r"(?m)^  thought  (.*)$", first)
    assert thought and thought.group(1).startswith("The Reveal total button is at the bottom")
    assert thought.group(1).endswith("…") and len(thought.group(1)) == 160  # one line, trimmed
    assert re.search(r"(?m)^  note     The click at \(1275,630\) took effect.*\[changed\]$", first)
    assert re.search(r"model \d+\.\ds · harness \d+\.\ds · tokens so far [\d,]+ in / [\d,]+ out",
                     first)
    assert "reply    Thought: The Reveal total button" in first  # -v: the raw reply
    assert "read_text(label='Total')" in blocks[1] and "Total: 48,210" in blocks[1]
    assert "finished(content='48,210')" in blocks[2] and "[answer]" in blocks[2]
    tokens = [int(n.replace(",", "")) for n in re.findall(r"tokens so far ([\d,]+) in", err)]
    assert tokens == sorted(tokens) and tokens[0] > 0  # a running total
    assert "step 1" not in out
    assert out.splitlines()[:2] == ["status: finished", "answer: 48,210"]


def test_quiet_and_json_lines(pages: LocalServer, tmp_path: Path, openai_key: None) -> None:
    quiet = run(pages, tmp_path, "--quiet")
    assert quiet.returncode == 0, quiet.stderr
    lines = quiet.stderr.splitlines()
    assert len(lines) == 3 and lines[0].startswith(f"step 1: {click(REVEAL)} -> changed: "), lines
    assert "reply" not in quiet.stderr
    data = run(pages, tmp_path, "--json-lines")
    events = [json.loads(line) for line in data.stderr.splitlines()]
    assert [e["step"]["step"] for e in events] == [1, 2, 3]
    assert events[0]["step"]["page_points"] == [[1700, 840]]
    assert events[-1]["usage_so_far"]["input_tokens"] > events[0]["usage_so_far"]["input_tokens"]
    assert data.stdout.startswith("status: finished")


async def test_library_users_get_the_steps_through_logging(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    seen: list[StepEvent] = []
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())
            event = event_of(record)
            if event is not None:
                seen.append(event)

    logger = logging.getLogger("webfovea.agent")
    handler = Collect()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        result = await record(browser, pages, tmp_path / "lib", reveal_policy, task_id="lib-1")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
    assert result.status == "finished"
    assert [(e.kind, e.step) for e in seen] == [
        ("task_started", 0), ("step_started", 1), ("step_done", 1), ("step_started", 2),
        ("step_done", 2), ("step_started", 3), ("step_done", 3), ("task_done", 3)]
    assert all(e.task_id == "lib-1" for e in seen)
    assert messages[2].startswith(f"task lib-1 step 1: {click(REVEAL)} -> changed: The click")
    assert seen[-1].result is not None and seen[-1].result.answer == "48,210"
    # Nobody listening: the package logs nothing (the logger stays below INFO).
    assert not logging.getLogger("webfovea.agent").isEnabledFor(logging.INFO)


# -- bench progress --------------------------------------------------------------------------


def bench_tasks(tmp_path: Path, site: LocalServer, count: int) -> tuple[Path, TaskPolicy]:
    url = site.url("index.html")
    tasks = [{"id": f"t{i}", "instruction": f"Task number {i}.", "url": url,
              "answer": "42" if i % 3 else "7"} for i in range(count)]
    replies = {f"Task number {i}.": [reply("wait()", f"Looking at task {i}."), finish("42")]
               for i in range(count)}
    return write_tasks(tmp_path / "tasks.jsonl", tasks), TaskPolicy(replies)


def bench(tmp_path: Path, site: LocalServer, *, count: int, env: dict[str, str],
          delay: float = 0.0) -> subprocess.CompletedProcess[str]:
    tasks, policy = bench_tasks(tmp_path, site, count)
    with provider(policy, delay=delay) as fp:
        return subprocess.run(
            [sys.executable, "-m", "webfovea", "bench", str(tasks), "--out", str(tmp_path / "run"),
             "--model", "openai:fake-vlm", "--base-url", fp.base_url, "--workers", "2",
             "--viewport", "800x600", "--max-steps", "3", "--grounding", "record"],
            capture_output=True, text=True, timeout=300, env={**os.environ, **env})


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer(BENCH_PAGES) as server:
        yield server


def test_bench_prints_a_line_per_task_when_not_a_terminal(site: LocalServer, tmp_path: Path,
                                                          openai_key: None) -> None:
    done = bench(tmp_path, site, count=4, env={})
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("[")]
    assert [ln.split("]")[0] for ln in lines] == ["[1/4", "[2/4", "[3/4", "[4/4"], done.stderr
    assert sorted(re.search(r"\] (t\d):", ln).group(1) for ln in lines) == ["t0", "t1", "t2", "t3"]
    assert all(re.search(r": finished, (correct|wrong) \(\w+\), 2 steps, \d+\.\ds", ln)
               for ln in lines)
    assert re.search(r"· ETA \d+s$", lines[0]) and "ETA" not in lines[-1]
    assert "\x1b[" not in done.stderr  # no terminal codes in a log


def test_bench_panel_on_a_terminal(site: LocalServer, tmp_path: Path, openai_key: None) -> None:
    """FORCE_COLOR makes rich treat the captured stderr as a terminal: the live panel."""
    done = bench(tmp_path, site, count=5, env={"FORCE_COLOR": "1", "COLUMNS": "140"}, delay=0.6)
    assert done.returncode == 0, done.stderr
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", done.stderr)
    assert "\x1b[" in done.stderr and not re.search(r"(?m)^\[1/5\]", plain)
    # Frames drawn while tasks ran: two running tasks, each with its current step.
    assert re.search(r"bench \d/5 done · 2 running · 0 failed · success", plain), plain
    assert re.search(r"(?m)^t\d\s+step 1\s+(asking the model|wait\(\))\s+\d+s", plain), plain
    # The last frame: all done, success with its standard error (4 of 5 correct), tokens.
    final = plain.rsplit("bench 5/5 done", 1)
    assert len(final) == 2, plain
    assert final[1].startswith(" · 0 running · 0 failed · success 3/5 (60% ± 22)")
    assert re.search(r"tokens so far [\d,]+ in / [\d,]+ out · median task \d+s, 2 workers",
                     final[1])
    assert re.search(r"ETA \d+s", plain)

"""replay: recorded raw replies parsed again, by the current parser or a variant passed in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from viewer_helpers import SEARCH, record, scripted
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.errors import ConfigError, ParseError
from webfovea.dialects.text.parse import ParsedReply, parse_reply
from webfovea.tools.replay import format_report, replay

FILL = f"fill(start_box='({SEARCH[0]:g},{SEARCH[1]:g})', content='laptop<|eot_id|>\\n')"
# The replies a polluted model sends. Tokens inside an argument (steps 1, 3) change the
# action when they are not stripped; a token in the thought or after the call (step 2) never
# does; step 4 carries a second, invented action; step 5 has no action at all.
REPLIES = [
    f"Thought: I search for the laptop.\nAction: {FILL}",
    "Thought: Read the price.<|im_end|>\nAction: read_text(label='Price')<|im_end|>",
    "Thought: Once more.\nAction: read_text(label='Pri<|im_end|>ce')",
    "Thought: Wait.\nAction: wait()\nObservation: the price is 1,234\nAction: finished(content='1,234')",
    "I am not sure what to do next.",
    "Thought: done\nAction: finished(content='1,234')",
]
CHANGED_BY_TOKENS = [1, 3]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def runs(browser: BrowserSession, pages: LocalServer,
               tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Path]:
    """The same replies recorded on the intact harness (clean/) and without token stripping."""
    root = tmp_path_factory.mktemp("replay")
    for name, ablate in (("clean", ""), ("unstripped", "token-strip")):
        result = await record(browser, pages, root / name, scripted(REPLIES), ablate=ablate,
                              max_steps=len(REPLIES))
        assert (result.status, result.steps) == ("finished", len(REPLIES))
    yield root


def keep_tokens(text: str) -> ParsedReply:
    """A parser variant that no longer recognises `<|name|>` tokens (so never strips them)."""
    return parse_reply(text.replace("<|", "<").replace("|>", ">"))


def test_unchanged_parser_changes_nothing(runs: Path) -> None:
    report = replay(runs / "clean")
    assert (report.tasks, report.steps, report.untouched, report.changes) == (1, 6, 6, [])
    assert format_report(report) == ("replayed 6 steps of 1 task(s) with parse_reply: "
                                      "0 would parse to a different action, 6 untouched")


def test_variant_parser_changes_exactly_the_polluted_arguments(runs: Path) -> None:
    report = replay(runs / "clean", parse=keep_tokens)
    assert [c.step for c in report.changes] == CHANGED_BY_TOKENS
    assert report.untouched == 4 and report.parser == "keep_tokens"
    first = report.changes[0]
    assert first.kind == "changed"
    assert first.before == f"fill(start_box='({SEARCH[0]:g},{SEARCH[1]:g})', content='laptop\\n')"
    assert "content='laptop<eot_id>\\n'" in first.after


def test_replay_after_the_fix_finds_the_steps_the_broken_parser_misread(runs: Path) -> None:
    """The paper's use: a run recorded without token stripping, replayed with the fixed parser."""
    report = replay(runs / "unstripped")
    assert [c.step for c in report.changes] == CHANGED_BY_TOKENS
    assert "<|eot_id|>" in report.changes[0].before
    assert "<|eot_id|>" not in report.changes[0].after


def test_now_fails_and_now_parses_are_reported(runs: Path) -> None:
    def strict_but_forgiving(text: str) -> ParsedReply:
        if "Observation:" in text:
            raise ParseError("Could not parse your reply: an invented Observation")
        return parse_reply(text if "Action:" in text else text + "\nAction: wait()")

    changes = replay(runs / "clean", parse=strict_but_forgiving).changes
    assert [(c.step, c.kind) for c in changes] == [(4, "now_fails"), (5, "now_parses")]
    assert changes[0].after.startswith("parse error: ")
    assert changes[1].before.startswith("parse error: ") and changes[1].after == "wait()"


@pytest.mark.parametrize(("name", "code"), [("clean", 0), ("unstripped", 1)])
def test_cli_fails_on_change_only_when_asked(runs: Path, name: str, code: int) -> None:
    cli = [sys.executable, "-m", "webfovea", "replay", str(runs / name)]
    asked = subprocess.run([*cli, "--fail-on-change", "--json"], capture_output=True, text=True)
    assert asked.returncode == code, asked.stderr
    data = json.loads(asked.stdout)
    assert (data["steps"], data["changed"]) == (6, 2 * code)
    assert subprocess.run(cli, capture_output=True).returncode == 0


def test_a_step_cut_short_by_a_crash_is_left_out_and_a_bad_one_named(runs: Path,
                                                                      tmp_path: Path) -> None:
    task = shutil.copytree(runs / "clean", tmp_path / "crashed")
    steps = task / "steps.jsonl"
    text = steps.read_text(encoding="utf-8")
    steps.write_text(text[: len(text) - 40], encoding="utf-8")  # died while appending step 6
    assert replay(task).steps == 5
    lines = text.splitlines(keepends=True)
    steps.write_text("".join([*lines[:2], "{not json\n", *lines[3:]]), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"steps\.jsonl line 3 is not a valid StepRecord"):
        replay(task)

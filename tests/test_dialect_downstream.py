"""Everything downstream of a dialect run keeps working: replay re-translates the recorded
tool calls, diagnose names a malformed call as a parse-stage finding, cost prices the cache
reads and writes the provider reported, and the viewer shows each call of a batch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dialect_helpers import FIELD, IDS, SPEAKERS, Speaker, run
from viewer_helpers import opened
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.dialects.loopback.fake_tools import FakeCall
from webfovea.tools.diagnose import diagnose
from webfovea.tools.replay import replay


def _malformed(speaker: Speaker) -> FakeCall:
    if speaker.anthropic:
        return speaker.computer("left_click")  # no coordinate, no pointer placed yet
    return FakeCall("click", '{"start_box": [10, ')  # arguments that are not JSON


@pytest.mark.parametrize("speaker", [SPEAKERS[0], SPEAKERS[3]], ids=[IDS[0], IDS[3]])
async def test_replay_diagnose_cost_and_viewer_read_a_dialect_run(
        speaker: Speaker, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    out = tmp_path / "run"
    batch = (speaker.click(FIELD), speaker.type("abc"), speaker.key("ctrl+w", "ctrl w"),
             speaker.type("zzz"))
    result, steps, _ = await run(speaker, browser, out,
                                 pages.url("dialects/offsite.html"),
                                 [(_malformed(speaker),), batch, (speaker.finish("nothing"),)],
                                 max_steps=3)
    assert steps[0].parse_error and steps[0].calls[0]["native"]

    report = replay(out)  # the current translation reads every recorded call alike
    assert report.steps == 3 and report.changes == [], report.changes

    found = diagnose(out, every_task=True).diagnosed[0]
    assert found.stage == "parse" and found.step == 1, found

    cost = subprocess.run([sys.executable, "-m", "webfovea", "cost", str(out),
                           "--price-input", "3", "--price-output", "15"],
                          capture_output=True, text=True, timeout=120)
    assert cost.returncode == 0, cost.stderr
    usage = result.usage
    priced = (usage.input_tokens * 3 + usage.output_tokens * 15 + usage.cache_read_tokens * 0.3
              + usage.cache_write_tokens * 3.75) / 1e6
    assert f"recorded tokens at this price: ${priced:.4f}" in cost.stdout, cost.stdout
    if speaker.anthropic:
        assert usage.cache_read_tokens > 0 and usage.cache_write_tokens > 0

    shown = subprocess.run([sys.executable, "-m", "webfovea", "view", str(out)],
                           capture_output=True, text=True, timeout=120)
    page_file = Path(shown.stdout.strip())
    async with opened(browser, page_file, "#step-2") as (page, problems):
        calls = page.locator("#step-2 .calls li")
        assert await calls.count() == 4
        assert "not executed" in await calls.nth(3).inner_text()
        assert "hotkey_blacklist" in await calls.nth(2).inner_text()
        assert problems == []

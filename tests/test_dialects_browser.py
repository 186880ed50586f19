"""Issue 22 in real Chromium: each function-calling dialect through the fake provider's real
wire format. A batch runs in order and stops at a refusal; escapes through native actions are
refused with no step off the site; a point outside the protocol's space is an error result;
each call's note reaches the model in that protocol's tool result (asserted on what the fake
provider received)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialect_helpers import FIELD, FINE, IDS, LINK, SPEAKERS, Speaker, run
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession


@pytest.mark.parametrize("speaker", SPEAKERS, ids=IDS)
async def test_a_batch_runs_in_order_and_stops_at_the_refusal(
        speaker: Speaker, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    batch = (speaker.click(FIELD), speaker.type("abc"), speaker.key("ctrl+t", "ctrl t"),
             speaker.type("zzz"))
    result, steps, requests = await run(speaker, browser, tmp_path, pages.url(
        "dialects/offsite.html"), [batch, (speaker.finish("done"),)])
    assert result.status == "finished", result.error
    calls = steps[0].calls
    assert [c["executed"] for c in calls] == [True, True, True, False]
    assert calls[2]["guardrail"] == "hotkey_blacklist" and calls[2]["outcome"] == "refused"
    assert calls[1]["action"] == {"name": "type", "content": "abc"}
    assert calls[3]["note"].startswith("not executed: an earlier action in this batch was refused")
    # The model got one result per call, in order, each carrying that call's note.
    answered = requests[1].results
    assert len(answered) == 4
    for call, got in zip(calls, answered, strict=True):
        assert call["note"] in got.text
    # The vendor's key spelling was translated before the blacklist judged it.
    assert calls[2]["action"] == {"name": "hotkey", "key": "ctrl t"}
    if speaker.anthropic:
        assert [r.is_error for r in answered] == [False, False, True, True]
    else:
        assert [r.text.startswith("Error: ") for r in answered] == [False, False, True, True]
    # The screenshot after the batch reached the model with the results.
    assert requests[1].received_sizes[-1] == (1440, 810)


@pytest.mark.parametrize("speaker", SPEAKERS, ids=IDS)
async def test_escapes_through_native_actions_are_refused(
        speaker: Speaker, browser: BrowserSession, pages: LocalServer, other: LocalServer,
        tmp_path: Path) -> None:
    away = other.url("dialects/offsite.html?landed=1")
    url = pages.url(f"dialects/offsite.html?to={away}")
    if speaker.anthropic:
        tries = [(speaker.computer("left_click", coordinate=list(LINK), text="ctrl"),),
                 (speaker.computer("middle_click", coordinate=list(LINK)),),
                 (speaker.computer("key", text="ctrl+l"),),
                 (speaker.computer("key", text="alt+Left"),)]
        expected = ["new_tab", "new_tab", "hotkey_blacklist", "hotkey_blacklist"]
    else:
        tries = [(speaker.key("", "ctrl t"),), (speaker.key("", "alt left"),)]
        expected = ["hotkey_blacklist", "hotkey_blacklist"]
    replies = [*tries, (speaker.click(LINK),), (speaker.finish("done"),)]
    result, steps, requests = await run(speaker, browser, tmp_path, url, replies)
    assert [s.guardrail for s in steps[:len(tries)]] == expected
    assert steps[len(tries)].guardrail == "domain_lock"  # the plain click: the lock held it
    origin = pages.url("")
    assert all(s.url.startswith(origin) for s in steps), [s.url for s in steps]
    assert result.answer_url is not None and result.answer_url.startswith(origin)
    # Each refusal went back in the protocol's error form, with the guardrail's sentence
    # (the domain lock's block of the plain click too).
    for step, request in zip(steps[:len(tries) + 1], requests[1:], strict=False):
        got = request.results[-1]
        assert step.note in got.text and (got.is_error or got.text.startswith("Error: "))


@pytest.mark.parametrize("speaker", SPEAKERS, ids=IDS)
async def test_a_point_outside_the_protocols_space_is_an_error_result(
        speaker: Speaker, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    outside = (1441, 10) if speaker.anthropic else (1500, 10)
    result, steps, requests = await run(speaker, browser, tmp_path, pages.url(
        "dialects/offsite.html"), [(speaker.click(FIELD),), (speaker.click(outside),),
                                   (speaker.finish("done"),)])
    assert result.status == "finished"
    assert steps[1].outcome == "parse_error" and steps[1].parse_error
    assert "1440x810" in steps[1].parse_error and steps[1].page_points == []
    answer = requests[2].results[-1]
    assert steps[1].note in answer.text
    assert answer.is_error or answer.text.startswith("Error: ")


@pytest.mark.parametrize("speaker", SPEAKERS[2:], ids=IDS[2:])
async def test_zoom_returns_a_full_resolution_crop(
        speaker: Speaker, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    region = [FINE[0] - 30, FINE[1] - 9, FINE[0] + 30, FINE[1] + 9]
    result, steps, requests = await run(speaker, browser, tmp_path, pages.url(
        "dialects/offsite.html"), [(speaker.click(FIELD), speaker.computer("zoom", region=region)),
                                   (speaker.finish("4711"),)])
    assert result.status == "finished"
    assert steps[0].calls[1]["action"]["name"] == "zoom"
    zoomed = requests[1].results[1]
    assert zoomed.image_count == 1 and "full resolution (80x24 pixels)" in zoomed.text
    assert (80, 24) in requests[1].received_sizes  # 60x18 image pixels at x 4/3: the page's own


async def test_zoom_is_an_error_before_its_tool_version(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    speaker = SPEAKERS[1]
    _, steps, _ = await run(speaker, browser, tmp_path, pages.url("dialects/offsite.html"), [
        (speaker.computer("zoom", region=[0, 0, 10, 10]),), (speaker.click(FIELD),),
        (speaker.finish("x"),)])
    assert steps[0].parse_error and "computer_20251124" in steps[0].parse_error

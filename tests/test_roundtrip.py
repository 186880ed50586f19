"""Issue 2: one task end to end on real Chromium, with a real HTTP model endpoint."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image, ImageChops

from webfovea.browser.chromium import find_chromium, launch_args
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig, Size
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord, StepRecord

Policy = Callable[[FakeRequest], str]


async def _run(session: BrowserSession, out: Path, url: str, policy: Policy, *,
               config: AgentConfig | None = None, resize: tuple[int, int] | None = (1440, 810),
               ) -> tuple[ResultRecord, list[StepRecord], FakeProvider]:
    with FakeProvider(policy, resize_images_to=resize) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task("test task", url), model=model, session=session,
                                config=config or AgentConfig(max_steps=6), out=out)
        await model.aclose()
    return result, read_steps(out), fp


def _colour_centre(image: Image.Image, rgb: tuple[int, int, int]) -> tuple[int, int]:
    """Where a solid colour is in the image the model saw: a 'vision model' in a few lines."""
    bands = image.convert("RGB").split()
    masks = [b.point(lambda v, want=want: 255 if abs(v - want) < 40 else 0)
             for b, want in zip(bands, rgb, strict=True)]
    mask = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2])
    box = mask.getbbox()
    assert box is not None, f"colour {rgb} not visible in the image"
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def _colour_clicker(colours: list[tuple[int, int, int]]) -> Policy:
    queue = list(colours)

    def policy(request: FakeRequest) -> str:
        if not queue:
            return "Thought: done.\nAction: finished(content='done')"
        x, y = _colour_centre(request.images[-1], queue.pop(0))
        return f"Thought: I click the coloured button.\nAction: click(start_box='({x},{y})')"

    return policy


RED, BLUE, GREEN = (255, 0, 0), (0, 0, 255), (0, 200, 0)


async def test_clicks_land_at_far_corners_when_the_provider_resizes(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    result, steps, fp = await _run(browser, tmp_path, pages.url("roundtrip/targets.html"),
                                   _colour_clicker([RED, BLUE, GREEN]))
    assert result.status == "finished"
    assert [s.outcome for s in steps[:3]] == ["changed"] * 3, [s.note for s in steps]
    assert fp.requests[0].received_sizes == ((1440, 810),)  # never larger than the cap
    assert "1440x810" in fp.requests[0].turns[0].text  # the model is told the image size
    red_x, red_y = steps[0].page_points[0]
    assert 1790 <= red_x <= 1890 and 990 <= red_y <= 1050


async def test_full_size_images_miss_when_the_provider_resizes(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    """Why the cap exists: the paper's bug, every click at 3/4 of its target."""
    config = AgentConfig(max_steps=6, image_cap=None)
    _, steps, fp = await _run(browser, tmp_path, pages.url("roundtrip/targets.html"),
                                   _colour_clicker([RED, BLUE, GREEN]), config=config)
    assert fp.requests[0].received_sizes == ((1920, 1080),)
    assert [s.outcome for s in steps[:3]] == ["no_change"] * 3
    assert "no detectable change" in steps[0].note
    red_x, red_y = steps[0].page_points[0]
    assert abs(red_x - 1840 * 0.75) < 10 and abs(red_y - 1020 * 0.75) < 10


async def test_only_the_first_action_runs(browser: BrowserSession, pages: LocalServer,
                                          tmp_path: Path) -> None:
    red = (round(1840 * 0.75), round(1020 * 0.75))
    blue = (round(1850 * 0.75), round(90 * 0.75))
    replies = [
        f"Thought: click red.\nAction: click(start_box='({red[0]},{red[1]})')\n"
        f"Observation: the page now shows the answer 42.\n"
        f"Thought: now blue.\nAction: click(start_box='({blue[0]},{blue[1]})')",
        "Thought: check.\nAction: read_text(label='clicked:')",
        # 42 is on no page: answer grounding asks once, the same answer then stands.
        *["Thought: done.\nAction: finished(content='42')"] * 2,
    ]
    result, steps, _ = await _run(browser, tmp_path, pages.url("roundtrip/targets.html"),
                                  ScriptedPolicy(replies))
    assert result.status == "finished"
    assert steps[0].page_points == [(1840, 1020)]
    assert any("Observation" in s for s in steps[0].stripped)
    assert "clicked: red" in steps[1].note and "blue" not in steps[1].note


SEARCH = "(450,128)"  # the search box's centre, in the 1440x810 image
CODE = "(450,240)"
COUNTRY = "(450,353)"


async def test_type_with_newline_submits_and_tokens_never_reach_the_field(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = [
        f"Thought: focus.\nAction: click(start_box='{SEARCH}')",
        "Thought: search.\nAction: type(content='barley<|eot_id|>\\n')<|im_end|>",
        "Thought: done.\nAction: finished(content='ok')<|eot_id|>",
    ]
    result, steps, _ = await _run(browser, tmp_path, pages.url("roundtrip/form.html"),
                                  ScriptedPolicy(replies))
    assert steps[2].url.endswith("results.html?q=barley"), steps[2].url
    assert "pressed Enter" in steps[1].note
    assert "<|eot_id|>" in steps[1].stripped
    assert result.answer == "ok"


async def test_fill_reads_back_the_real_value_and_enter_submits(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = [
        f"Thought: code.\nAction: fill(start_box='{CODE}', content='1234567')",
        f"Thought: search.\nAction: fill(start_box='{SEARCH}', content=\"rye <|end_of_turn|>\\n\")",
        "Thought: done.\nAction: finished(content='ok')",
    ]
    _, steps, _ = await _run(browser, tmp_path, pages.url("roundtrip/form.html"),
                             ScriptedPolicy(replies))
    assert "typed '1234567' but the field now holds '12345' (maxlength 5)" in steps[0].note
    assert steps[0].details["readback"] == "12345"
    assert steps[2].url.endswith("results.html?q=rye+"), steps[2].url


async def test_select_matches_exact_normalised_substring_and_lists_options(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = [f"Thought: pick.\nAction: select(start_box='{COUNTRY}', option='{o}')"
               for o in ("France", "COTE D\\'IVOIRE", "United States", "Germany")]
    replies.append("Thought: done.\nAction: finished(content='x')")
    _, steps, _ = await _run(browser, tmp_path, pages.url("roundtrip/form.html"),
                             ScriptedPolicy(replies))
    assert [s.details.get("match") for s in steps[:3]] == ["exact", "normalised", "substring"]
    assert steps[1].details["selected"] == "Côte d'Ivoire"
    assert steps[3].outcome == "error"
    assert "'France'" in steps[3].note and "'United States of America'" in steps[3].note


async def test_malformed_reply_becomes_a_note_and_the_run_goes_on(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = ["I think I should click the search button.",
               # A first answer before acting on the page is challenged once (answer grounding).
               *["Thought: fine.\nAction: finished(content='done')"] * 2]
    result, steps, fp = await _run(browser, tmp_path, pages.url("roundtrip/form.html"),
                                   ScriptedPolicy(replies))
    assert result.status == "finished"
    assert steps[0].outcome == "parse_error" and steps[0].parse_error
    assert steps[0].note in fp.requests[1].turns[-1].text  # the model is told what was wrong


async def test_rate_limit_is_retried(browser: BrowserSession, pages: LocalServer,
                                     tmp_path: Path) -> None:
    policy = ScriptedPolicy(["Thought: done.\nAction: finished(content='7')"] * 2)
    with FakeProvider(policy, resize_images_to=(1440, 810)) as fp:
        fp.fail_next(429, retry_after=0.2)
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task("t", pages.url("roundtrip/form.html")), model=model,
                                session=browser, config=AgentConfig(), out=tmp_path)
    assert result.status == "finished" and result.answer == "7"
    assert result.usage.retries == 1 and len(fp.requests) == 3


async def test_device_scale_factor_is_measured(pages: LocalServer, tmp_path: Path) -> None:
    """Viewport 1280x720 at DSF 2: capture 2560x1440, sent 1440x810, page = sent x 8/9."""
    replies = ["Thought: fill.\nAction: fill(start_box='(675,191)', content='oats\\n')",
               "Thought: done.\nAction: finished(content='ok')"]
    config = BrowserConfig(viewport=Size(1280, 720), device_scale_factor=2.0)
    async with BrowserSession(config) as session:
        _, steps, fp = await _run(session, tmp_path, pages.url("roundtrip/form.html"),
                                  ScriptedPolicy(replies))
    assert fp.requests[0].received_sizes == ((1440, 810),)
    assert steps[0].page_size == (1280, 720) and steps[0].page_points == [(600, 170)]
    assert steps[1].url.endswith("results.html?q=oats")


async def test_attaches_to_a_running_browser_over_cdp(pages: LocalServer, tmp_path: Path) -> None:
    with running_chromium(tmp_path) as cdp_url:
        async with BrowserSession(BrowserConfig(cdp_url=cdp_url)) as session:
            replies = ["Thought: fill.\nAction: fill(start_box='(450,128)', content='spelt\\n')",
                       "Thought: done.\nAction: finished(content='ok')"]
            result, steps, _ = await _run(session, tmp_path / "run", pages.url("roundtrip/form.html"),
                                          ScriptedPolicy(replies))
    assert result.status == "finished"
    assert steps[1].url.endswith("results.html?q=spelt")


@contextlib.contextmanager
def running_chromium(tmp_path: Path) -> Iterator[str]:
    """A separately started headless Chromium with a DevTools endpoint on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = find_chromium()
    assert exe is not None
    proc = subprocess.Popen([exe, "--headless=new", f"--remote-debugging-port={port}",
                             "--remote-debugging-address=127.0.0.1",
                             f"--user-data-dir={tmp_path / 'profile'}", *launch_args(), "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{url}/json/version", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_new_tab_is_followed_and_a_dialog_is_reported(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = ["Thought: open.\nAction: click(start_box='(338,135)')",
               "Thought: go back to the first tab is impossible; fine.\nAction: wait()",
               "Thought: done.\nAction: finished(content='ok')"]
    _, steps, _ = await _run(browser, tmp_path, pages.url("roundtrip/popups.html"),
                             ScriptedPolicy(replies))
    assert "new tab" in steps[0].note
    assert steps[1].url.endswith("results.html?q=newtab")  # the screenshot shows the new tab
    replies = ["Thought: save.\nAction: click(start_box='(338,248)')",
               "Thought: done.\nAction: finished(content='ok')"]
    _, steps, _ = await _run(browser, tmp_path / "dialog", pages.url("roundtrip/popups.html"),
                             ScriptedPolicy(replies))
    assert "dialog" in steps[0].note and "Saved!" in steps[0].note


async def test_anthropic_messages_protocol_end_to_end(
        browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    replies = ["Thought: fill.\nAction: fill(start_box='(450,128)', content='emmer\\n')",
               "Thought: done.\nAction: finished(content='emmer')"]
    with FakeProvider(ScriptedPolicy(replies), resize_images_to=(1440, 810)) as fp:
        model = load_model("anthropic:claude-test", base_url=fp.anthropic_base_url)
        result = await run_task(Task("t", pages.url("roundtrip/form.html")), model=model,
                                session=browser, config=AgentConfig(), out=tmp_path)
        await model.aclose()
    assert result.status == "finished" and result.answer == "emmer"
    assert result.answer_url is not None and result.answer_url.endswith("q=emmer")
    assert fp.requests[0].provider == "anthropic" and fp.requests[0].received_sizes == ((1440, 810),)
    # The first request writes the prefix to the cache, the second reads it back.
    assert result.usage.cache_write_tokens > 0 and result.usage.cache_read_tokens > 0

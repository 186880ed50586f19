"""Issue 4: the guardrails on real Chromium, through the whole loop and a real model endpoint.

Two loopback hosts play two sites: 127.0.0.1 is the task's site, 127.0.0.2 the
other site. A small real HTTP server serves tests/pages/guard on both (with the
other site's origin written into the pages), an HTTP redirect and a download,
and records every request each site received.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image
from playwright.async_api import Error as PlaywrightError

from webfovea.browser.domain_lock import DomainLock
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.models.openai_compat import OpenAICompatModel
from webfovea.models.retry import RetryPolicy
from webfovea.rundir.store import read_steps
from webfovea.rundir.trajectory import ResultRecord, StepRecord

PAGES = Path(__file__).parent / "pages" / "guard"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript"}
Policy = Callable[[FakeRequest], str]


class Site(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str) -> None:
        super().__init__((host, 0), _Handler)
        self.host = host
        self.other = ""  # the other site's origin, written into pages for __OTHER__
        self.hits: list[tuple[str, str]] = []

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.server_address[1]}"

    def url(self, path: str) -> str:
        return f"{self.origin}/{path}"


class _Handler(BaseHTTPRequestHandler):
    server: Site

    def log_message(self, format: str, *args: object) -> None:
        pass  # the tests read self.server.hits

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def _answer(self) -> None:
        self.server.hits.append((self.command, self.path))
        parts = urlsplit(self.path)
        if parts.path == "/redirect":
            self._send(302, b"", {"Location": parse_qs(parts.query)["to"][0]})
        elif parts.path == "/download":
            # A type no document view opens (a CSV would open as a table: webfovea.documents).
            self._send(200, b"PK\x05\x06" + b"\0" * 18, {
                "Content-Type": "application/zip",
                "Content-Disposition": 'attachment; filename="d.zip"'})
        elif (file := PAGES / parts.path.lstrip("/")).is_file():
            body = file.read_bytes().replace(b"__OTHER__", self.server.other.encode())
            self._send(200, body, {"Content-Type": TYPES.get(file.suffix, "text/plain")})
        else:
            self._send(404, b"not found", {"Content-Type": "text/plain"})

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body)),
                            "Cache-Control": "no-store"}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[Site, Site]]:
    ours, other = Site("127.0.0.1"), Site("127.0.0.2")
    ours.other = other.origin
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in (ours, other)]
    for thread in threads:
        thread.start()
    yield ours, other
    for server in (ours, other):
        server.shutdown()
        server.server_close()


async def _run(session: BrowserSession, out: Path, url: str, policy: Policy, *,
               config: AgentConfig | None = None, delay: float = 0.0,
               ) -> tuple[ResultRecord, list[StepRecord], FakeProvider]:
    with FakeProvider(policy, delay_seconds=delay) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task("find the answer", url), model=model, session=session,
                                config=config or AgentConfig(max_steps=20), out=out)
        await model.aclose()
    return result, read_steps(out), fp


def act(action: str) -> str:
    return f"Thought: next.\nAction: {action}"


def click_way(top: int) -> str:
    """Click the middle of entry.html's 500x50 block at ``top``, in the 1440x810 image."""
    return act(f"click(start_box='({round(290 * 0.75)},{round((top + 25) * 0.75)})')")


# entry.html: what each block tries, and its top edge in page pixels.
WAYS = {"link": 100, "blank": 180, "redirect": 260, "post": 340, "js": 420, "tabredirect": 500,
        "open": 580, "data": 660, "file": 740, "viewsource": 820, "download": 900}
# Started by the page itself, no click needed.
SELF_STARTED = ("meta", "timer")


async def test_no_way_out_lands_on_the_other_site(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, other = sites
    # 42 is on no page: answer grounding asks once, the same answer then stands.
    replies = ScriptedPolicy([*[click_way(top) for top in WAYS.values()],
                              *[act("finished(content='42')")] * 2])

    asked: list[FakeRequest] = []

    def policy(request: FakeRequest) -> str:
        # A model thinks before its first answer; the page's own meta refresh and timer fire
        # meanwhile. (A click first would cancel the pending refresh, as it would for a person.)
        if not asked:
            time.sleep(1.5)
        asked.append(request)
        return replies(request)

    result, steps, fp = await _run(browser, tmp_path, ours.url("entry.html"), policy)

    assert result.status == "finished", result.error
    assert len(steps) == len(WAYS) + 2  # the task went on after every blocked way out
    assert all(s.url.startswith(ours.origin) for s in steps), [s.url for s in steps]
    assert result.answer_url is not None and result.answer_url.startswith(ours.origin)
    # The other site served the embedded frame and nothing else: no document ever left.
    assert other.hits == [("GET", "/frame.html")], other.hits
    notes = " ".join(s.note for s in steps)
    for via in ("link", "blank", "redirect", "post", "js", "tabredirect", "open", *SELF_STARTED):
        assert f"landing.html?via={via} was blocked: it would leave the site 127.0.0.1" in notes, via
    assert "blocked" in steps[0].note
    assert "a download from" in notes and "was blocked: downloads are disabled" in notes
    # The cross-origin iframe still loaded: the model saw its green dashboard.
    frame_pixel = fp.requests[-1].images[-1].convert("RGB").getpixel((825, 225))
    assert frame_pixel == (0, 170, 0)


async def test_allow_domain_opens_the_other_site(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, other = sites
    config = AgentConfig(max_steps=3, allow_domains=("127.0.0.2",))
    policy = ScriptedPolicy([click_way(WAYS["link"]), act("finished(content='left')")])
    result, steps, _ = await _run(browser, tmp_path, ours.url("link.html"), policy,
                                  config=config)
    assert result.status == "finished"
    assert steps[1].url == other.url("landing.html?via=link")
    assert result.answer_url == other.url("landing.html?via=link")


async def test_blacklisted_hotkeys_and_spent_budgets_are_refused(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, _ = sites
    refused = ["ctrl w", "ctrl t", "ctrl l", "f12", "ctrl u"]  # the full list: test_guard.py
    replies = [act(f"hotkey(key='{k}')") for k in [*refused, "ctrl a"]]
    replies += [act("reload()")] * 4 + [act("finished(content='42')")]
    config = AgentConfig(max_steps=20, action_budgets={"reload": 3})
    result, steps, _ = await _run(browser, tmp_path, ours.url("still.html"),
                                  ScriptedPolicy(replies), config=config)
    assert result.status == "finished"
    hotkeys = steps[:len(refused)]
    assert [s.guardrail for s in hotkeys] == ["hotkey_blacklist"] * len(refused)
    assert all(s.outcome == "refused" and "hotkey blacklist" in s.note for s in hotkeys)
    assert "closes a tab or window" in steps[0].note
    assert steps[len(refused)].guardrail is None  # ctrl a is a page shortcut: it ran
    reloads = steps[len(refused) + 1:-1]
    assert [s.guardrail for s in reloads] == [None, None, None, "budget:reload"]
    assert "at most 3 times" in reloads[-1].note


async def test_repeated_no_ops_get_escalating_notes_and_the_task_goes_on(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, _ = sites
    clicks = [act("click(start_box='(700,500)')")] * 4 + [act("click(start_box='(703,498)')")]
    scrolls = [act(f"scroll(start_box='({x},400)', direction='down')") for x in (300, 700, 1100)]
    policy = ScriptedPolicy([*clicks, *scrolls, act("finished(content='42')")])
    result, steps, _ = await _run(browser, tmp_path, ours.url("still.html"), policy)
    assert result.status == "finished" and result.answer == "42"
    assert [s.outcome for s in steps[:8]] == ["no_change"] * 8, [s.note for s in steps]
    assert "no effect" not in steps[0].note + steps[1].note
    for count, step in zip((3, 4, 5), steps[2:5], strict=True):
        assert f"has had no effect {count} times; try something else" in step.note
    assert "will not work" in steps[4].note  # it escalates
    assert "no effect" not in steps[5].note + steps[6].note
    assert "Scrolling this way has had no effect 3 times; try something else" in steps[7].note


async def test_first_step_answer_is_challenged_once(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, _ = sites
    policy = ScriptedPolicy([act("finished(content='42')")] * 2)
    result, steps, fp = await _run(browser, tmp_path, ours.url("still.html"), policy)
    assert [s.guardrail for s in steps] == ["answer_grounding", None]
    assert "visible on the current page" in steps[0].note
    assert "visible on the current page" in fp.requests[1].turns[-1].text  # the model was told
    assert result.status == "finished" and result.answer == "42" and result.steps == 2
    assert result.answer_url == ours.url("still.html")
    assert result.evidence is not None
    with Image.open(tmp_path / result.evidence) as evidence:
        assert evidence.size == (1920, 1080)


async def test_step_limit_and_no_way_to_open_a_url(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, other = sites
    before = len(other.hits)
    replies = [act(f"goto(url='{other.url('landing.html')}')"),
               act("evaluate(script='location.href = \"http://127.0.0.2/\"')")]

    def policy(request: FakeRequest) -> str:
        return replies.pop(0) if replies else act("wait()")

    result, steps, fp = await _run(browser, tmp_path, ours.url("still.html"), policy,
                                   config=AgentConfig(max_steps=3))
    assert result.status == "step_limit" and result.steps == 3 and len(fp.requests) == 3
    assert steps[0].parse_error and "goto" in steps[0].parse_error
    assert steps[1].parse_error and "evaluate" in steps[1].parse_error
    assert len(other.hits) == before


async def test_time_limit_bounds_a_slow_model(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, _ = sites
    result, _, _ = await _run(browser, tmp_path, ours.url("still.html"), lambda r: act("wait()"),
                              config=AgentConfig(time_limit=5), delay=10)
    assert result.status == "time_limit", result.error
    assert 5 <= result.elapsed < 7


async def test_model_error_ends_the_task_and_the_next_one_runs(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, _ = sites
    with FakeProvider(ScriptedPolicy([act("finished(content='42')")] * 2)) as fp:
        fp.fail_next(500, times=3)
        model = OpenAICompatModel("fake-vlm", base_url=fp.base_url,
                                  retry=RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.02))
        task = Task("find the answer", ours.url("still.html"))
        failed = await run_task(task, model=model, session=browser, config=AgentConfig(),
                                out=tmp_path / "a")
        after = await run_task(task, model=model, session=browser, config=AgentConfig(),
                               out=tmp_path / "b")
        await model.aclose()
    assert failed.status == "model_error" and failed.error and "3 attempt(s)" in failed.error
    assert after.status == "finished" and after.answer == "42"


async def test_an_entry_that_redirects_off_site_is_blocked(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, other = sites
    before = len(other.hits)
    entry = ours.url("redirect?to=" + other.url("landing.html?via=entry"))
    result, steps, fp = await _run(browser, tmp_path, entry, ScriptedPolicy([]))
    assert result.status == "unreachable" and not steps and not fp.requests
    assert len(other.hits) == before


async def test_two_tasks_in_one_browser_each_keep_their_own_site(
        browser: BrowserSession, sites: tuple[Site, Site]) -> None:
    ours, other = sites
    tabs_a, tabs_b = await browser.new_tabs(), await browser.new_tabs()
    try:
        await DomainLock.for_task(tabs_a, ours.url("link.html"), ())
        await DomainLock.for_task(tabs_b, other.url("landing.html"), ())
        await tabs_a.open(ours.url("link.html"))
        await tabs_b.open(other.url("landing.html"))
        await tabs_b.page.goto(other.url("frame.html"))  # B's own site: A's lock lets it be
        for tabs, outside in ((tabs_a, other.url("frame.html")), (tabs_b, ours.url("still.html"))):
            with pytest.raises(PlaywrightError, match="ERR_ABORTED"):
                await tabs.page.goto(outside)
            assert [e.kind for e in tabs.drain_events()] == ["blocked"]
        assert (tabs_a.page.url, tabs_b.page.url) == (ours.url("link.html"), other.url("frame.html"))
    finally:
        await tabs_a.close()
        await tabs_b.close()


# popup.html: each button's top edge. Every popup ends up sent to the other site: an empty
# one whose location is then set, one opened there, one that loads a page here first.
POPUPS = {"popup-blank": 100, "popup-direct": 180, "popup-hop": 260}


async def test_a_popup_sent_off_the_site_leaves_the_agent_where_it_was(
        browser: BrowserSession, sites: tuple[Site, Site], tmp_path: Path) -> None:
    ours, other = sites
    before = len(other.hits)
    policy = ScriptedPolicy([*[click_way(top) for top in POPUPS.values()],
                             act("finished(content='42')")])
    # The answer is not the test's subject: recorded, not challenged (webfovea.answers).
    result, steps, fp = await _run(browser, tmp_path, ours.url("popup.html"), policy,
                                   config=AgentConfig(max_steps=20, grounding="record"))
    assert result.status == "finished", result.error
    assert [s.url for s in steps] == [ours.url("popup.html")] * len(steps), [s.note for s in steps]
    for via, step in zip(POPUPS, steps, strict=False):
        assert f"landing.html?via={via} was blocked: it would leave the site 127.0.0.1" in step.note, (
            via, step.note)
    assert "about:blank" not in " ".join(s.note for s in steps)  # no empty tab was shown
    assert "now showing " + ours.url("popup.html") in steps[2].note  # the hop's tab closed
    # Every later request showed the popup page itself (its lavender background), not a blank tab.
    for request in fp.requests[1:]:
        assert request.images[-1].convert("RGB").getpixel((1200, 700)) == (230, 230, 255)
    assert len(other.hits) == before

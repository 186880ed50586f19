"""Site snapshots on real Chromium: record a page once, replay it with its server gone.

The test site (tests/pages/snapshot) depends on everything that drifts between loads:
the clock, Math.random, a cache-busted fetch, a POST carrying a random request id, a
redirect, a cross-origin frame, a counter that answers differently each time, and a
WebSocket. Runs go through ``run_task`` with a scripted model, as ``webfovea run`` does.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import pytest

from webfovea.browser.domain_lock import DomainLock
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.sites import UNMATCHED_FILE, SiteOptions
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.models.scripted import ScriptedModel
from webfovea.rundir.trajectory import ResultRecord
from webfovea.snapshot.manifest import Snapshot
from webfovea.snapshot.match import RANDOM_BODY
from webfovea.snapshot.rules import Rules
from webfovea.snapshot.session import SiteSession

SITE = Path(__file__).parent / "pages" / "snapshot"
LOOK = "Thought: let the page load\nAction: wait()"
DONE = "Thought: done\nAction: finished(content='seen')"


class _Handler(SimpleHTTPRequestHandler):
    server: _Site

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(SITE), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:  # scripts are cacheable, as on most sites
        cacheable = self.path.split("?")[0].endswith(".js")
        self.send_header("Cache-Control", "max-age=3600" if cacheable else "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        self.server.hits += 1
        if self.path.startswith("/go"):  # a redirect, as a link shortener or a login does
            self._send(302, b"", [("Location", "/clock.html" + self.path[3:])])
        elif self.path.startswith("/count"):  # differs on every load
            self.server.count += 1
            self._send(200, str(self.server.count).encode(), [("Content-Type", "text/plain")])
        else:
            super().do_GET()

    def do_POST(self) -> None:
        self.server.hits += 1
        length = int(self.headers.get("Content-Length") or 0)
        data = json.loads(self.rfile.read(length) or b"{}")
        self._send(200, json.dumps({"q": data.get("q", "")}).encode(),
                   [("Content-Type", "application/json")])

    def _send(self, status: int, body: bytes, headers: list[tuple[str, str]]) -> None:
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Site(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str) -> None:
        super().__init__((host, 0), _Handler)
        self.hits = 0
        self.count = 0
        self.host = host
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.server_address[1]}/{path}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


@pytest.fixture()
def site() -> Iterator[_Site]:
    server = _Site("127.0.0.1")
    yield server
    server.stop()


@pytest.fixture()
def frame_site() -> Iterator[_Site]:
    """Another origin (another site, so Chromium puts its frame in its own process)."""
    server = _Site("localhost")
    yield server
    server.stop()


async def _run(browser: BrowserSession, url: str, out: Path, site: SiteOptions,
               replies: tuple[str, ...] = (LOOK, DONE)) -> ResultRecord:
    config = AgentConfig(max_steps=len(replies), time_limit=90.0, site=site)
    return await run_task(Task(instruction="look", url=url, id="t"),
                          model=ScriptedModel(list(replies)), session=browser,
                          config=config, out=out)


def _shown(out: Path) -> dict[str, str]:
    """The test page's fields as the answer's evidence text shows them."""
    text = (out / "evidence.txt").read_text(encoding="utf-8")
    fields = {}
    for name in ("Now", "Lucky number", "Data", "Echo"):
        line = next(ln for ln in text.splitlines() if ln.startswith(f"{name}:"))
        fields[name] = line.split(":", 1)[1].strip()
    return fields


async def test_a_recorded_page_replays_the_same_with_its_server_gone(
        browser: BrowserSession, site: _Site, frame_site: _Site, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    entry = site.url(f"go?cb=111&frame={frame_site.url('frame.html')}")
    recorded = await _run(browser, entry, tmp_path / "rec", SiteOptions("record", str(snap)))
    assert recorded.status == "finished", recorded.error
    live = _shown(tmp_path / "rec")
    assert live["Data"].startswith("Tram 4 leaves") and live["Echo"] == "tram 4"
    manifest = Snapshot(snap).read()
    assert recorded.site.mode == "record" and recorded.site.responses == len(manifest.entries)
    statuses = {urlsplit(e.url).path.strip("/"): e.status for e in manifest.entries}
    assert statuses["go"] == 302 and statuses["clock.html"] == 200
    assert {"frame.html", "frame.js", "echo", "data.json"} <= set(statuses)
    assert frame_site.url("").rstrip("/") in manifest.origins  # the cross-origin frame's
    hits = site.hits + frame_site.hits

    # Replay while the servers still run: nothing reaches them.
    time.sleep(1.5)  # so that the real clock has moved well past the recorded one
    started = time.time()
    replayed = await _run(browser, entry, tmp_path / "rep", SiteOptions("replay", str(snap)))
    assert replayed.status == "finished", replayed.error
    assert site.hits + frame_site.hits == hits
    again = _shown(tmp_path / "rep")
    assert again["Data"] == live["Data"] and again["Echo"] == live["Echo"]
    assert again["Lucky number"] == live["Lucky number"]  # Math.random seeded as recorded
    recorded_ms = manifest.started_at * 1000
    assert recorded_ms <= int(again["Now"]) < started * 1000 - 1000  # the recorded time
    assert replayed.site.unmatched == 0 and replayed.site.matched_rules >= 2  # data.json, echo
    assert replayed.site.snapshot_id == recorded.site.snapshot_id
    assert "Platform B is step-free" in (tmp_path / "rep" / "evidence.txt").read_text()

    # Stop both servers; a changed cache-buster still matches.
    site.stop()
    frame_site.stop()
    busted = entry.replace("cb=111", "cb=222")
    third = await _run(browser, busted, tmp_path / "rep2", SiteOptions("replay", str(snap)))
    assert third.status == "finished", third.error
    assert _shown(tmp_path / "rep2")["Data"] == live["Data"]
    assert third.site.unmatched == 0 and third.site.matched_rules >= 3  # go, clock.html, data


async def test_a_document_replays_the_time_its_recording_saw(
        browser: BrowserSession, site: _Site, tmp_path: Path, openai_key: None) -> None:
    """later.html links to seconds.html, which prints the clock to the second; the model
    takes longer before the click on replay than it took while recording."""
    snap = tmp_path / "snap"

    async def run(out: Path, mode: Literal["record", "replay"], think: float) -> str:
        def policy(request: FakeRequest) -> str:
            if not any(turn.role == "assistant" for turn in request.turns):
                time.sleep(think)
                return "Thought: on\nAction: click(start_box='(218,94)')"
            return DONE

        with FakeProvider(policy) as fp:
            model = load_model("openai:fake-vlm", base_url=fp.base_url)
            config = AgentConfig(max_steps=2, time_limit=90.0, site=SiteOptions(mode, str(snap)))
            result = await run_task(Task(instruction="look", url=site.url("later.html"), id="t"),
                                    model=model, session=browser, config=config, out=out)
            await model.aclose()
        assert result.status == "finished", result.error
        text = (out / "evidence.txt").read_text(encoding="utf-8")
        return next(ln for ln in text.splitlines() if ln.startswith("Time:"))

    recorded = await run(tmp_path / "rec", "record", 1.0)
    replayed = await run(tmp_path / "rep", "replay", 3.5)
    assert replayed == recorded
    manifest = Snapshot(snap).read()
    [document] = [e for e in manifest.entries if e.url.endswith("/seconds.html")]
    assert document.clock_ms is not None  # opened after the model's think, not at the start
    assert document.clock_ms >= (manifest.started_at + 1.0) * 1000


async def test_responses_to_the_same_url_replay_in_order_then_repeat(
        browser: BrowserSession, site: _Site, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    read = "Thought: read\nAction: reload()"
    await _run(browser, site.url("visits.html"), tmp_path / "rec",
               SiteOptions("record", str(snap)), replies=(read, read, DONE))
    manifest = Snapshot(snap).read()
    assert [e.url.endswith("/count") for e in manifest.entries].count(True) == 3
    scripts = {e.body for e in manifest.entries if e.url.endswith("/shared.js")}
    assert len(scripts) == 1 and manifest.limits == []  # cache hits keep the script's body
    assert "Visitors: 3" in (tmp_path / "rec" / "evidence.txt").read_text()
    site.stop()
    result = await _run(browser, site.url("visits.html"), tmp_path / "rep",
                        SiteOptions("replay", str(snap)), replies=(read, read, read, DONE))
    assert result.site.unmatched == 0
    assert "Visitors: 3" in (tmp_path / "rep" / "evidence.txt").read_text()  # the last, again


async def test_replay_keeps_the_domain_lock_and_lists_what_it_cannot_answer(
        browser: BrowserSession, site: _Site, frame_site: _Site, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    entry = site.url("clock.html")
    await _run(browser, entry, tmp_path / "rec", SiteOptions("record", str(snap)))
    site.stop()
    out = tmp_path / "rep"
    out.mkdir()
    session = SiteSession(SiteOptions("replay", str(snap)), "t", entry, out)
    tabs = await browser.new_tabs()
    try:
        lock = await DomainLock.for_task(tabs, entry, AgentConfig().allow_domains,
                                         downstream=await session.attach(tabs))
        await tabs.open(entry)
        outside = frame_site.url("frame.html")
        await tabs.page.evaluate("url => { location.href = url; }", outside)
        for _ in range(200):  # the lock answers asynchronously; a loaded machine is slow
            if lock.blocked:
                break
            await asyncio.sleep(0.05)
        assert tabs.page.url == entry
        assert [(b.kind, b.url) for b in lock.blocked] == [("navigation", outside)]
        assert frame_site.hits == 0
        missing = site.url("clock.html?page=2")
        response = await tabs.page.goto(missing)
        assert response is not None and response.status == 504
        assert "not in the site snapshot" in await tabs.page.inner_text("body")
    finally:
        await session.close()
        await tabs.close()
    assert session.record.unmatched == 1
    listed = [json.loads(ln) for ln in (out / UNMATCHED_FILE).read_text().splitlines()]
    assert [u["url"] for u in listed] == [missing]
    report = _inspect(snap)
    assert [u["url"] for u in report["unmatched"]] == [missing]
    assert report["origins"] and report["responses"] == len(Snapshot(snap).read().entries)


@pytest.mark.parametrize(("page", "kind", "live", "refused"), [
    ("socket.html", "websocket", "socket", "socket refused: NotSupportedError"),
    ("peer.html", "webrtc", "peer opened", "peer refused: NotSupportedError"),
    ("worker.html", "service_worker", "worker registered", "worker refused: NotSupportedError"),
])
async def test_what_a_snapshot_cannot_replay_is_reported_and_refused_on_replay(
        browser: BrowserSession, site: _Site, tmp_path: Path, page: str, kind: str, live: str,
        refused: str) -> None:
    snap = tmp_path / "snap"
    recorded = await _run(browser, site.url(page), tmp_path / "rec",
                          SiteOptions("record", str(snap)))
    assert [lim.kind for lim in recorded.site.limits] == [kind]
    assert live in (tmp_path / "rec" / "evidence.txt").read_text()
    assert [lim["kind"] for lim in _inspect(snap)["cannot_replay"]] == [kind]
    site.stop()
    replayed = await _run(browser, site.url(page), tmp_path / "rep",
                          SiteOptions("replay", str(snap)))
    assert refused in (tmp_path / "rep" / "evidence.txt").read_text()
    assert [lim.kind for lim in replayed.site.limits] == [kind]


def _inspect(snap: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "inspect", str(snap),
                           "--format", "json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_ignore_rules_drop_cache_busters_and_mask_ids_but_keep_the_query() -> None:
    rules = Rules()
    a = rules.url("http://x.test/api/items?q=tram&_=1796070000123&page=2")
    b = rules.url("http://x.test/api/items?page=2&q=tram&_=1796070099999")
    assert a == b == "http://x.test/api/items?page=2&q=tram"
    assert rules.url("http://x.test/a?q=tram") != rules.url("http://x.test/a?q=bus")
    body = rules.body(b'{"q": "tram", "requestId": "3f2b", "at": 1796070000123}',
                      "application/json")
    assert body == rules.body(b'{"at": 1796079999999, "q": "tram", "requestId": "99"}',
                              "application/json")
    assert rules.is_passthrough("http://stats.fovea.test/__fovea/report")
    assert not rules.is_passthrough("http://stats.fovea.test/table")


def test_a_bad_snapshot_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "run", "--url", "http://x.test/",
                           "--task", "t", "--model", "oracle", "--replay-site", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "has no manifest.json" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "webfovea", "run", "--url", "http://x.test/",
                           "--task", "t", "--model", "oracle", "--replay-site", str(tmp_path),
                           "--record-site", str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and "not both" in proc.stderr


async def test_a_body_randomised_beyond_the_rules_is_unmatched_and_reported(
        browser: BrowserSession, site: _Site, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    await _run(browser, site.url("salted.html"), tmp_path / "rec",
               SiteOptions("record", str(snap)))
    assert "Echo: tram 4" in (tmp_path / "rec" / "evidence.txt").read_text()
    site.stop()
    replayed = await _run(browser, site.url("salted.html"), tmp_path / "rep",
                          SiteOptions("replay", str(snap)))
    assert replayed.site.unmatched == 1 and replayed.site.matched_exact == 1  # the page itself
    assert replayed.site.unmatched_shown[0].reason.startswith(RANDOM_BODY)
    assert "Echo: tram 4" not in (tmp_path / "rep" / "evidence.txt").read_text()
    limits = _inspect(snap)["cannot_replay"]
    assert [(lim["kind"], lim["url"]) for lim in limits] == [("random_body", site.url("echo"))]

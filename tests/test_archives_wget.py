"""A WARC crawled by GNU wget, imported and replayed on real Chromium with the servers gone.

wget crawls the local site (tests/archive_site.py) over http, follows a 301 and a
cross-scheme 302 to the https twin, and leaves deeper.html out. The replayed pages must
look like the live ones (their CSS, web font and image replayed from the WARC, the gzip
and chunked bodies decoded), the redirects must be followed as recorded, an https page
asked for under http must be answered by its twin, and the page the crawl left out must
say so.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from archive_replay import difference, live_shot, replay_shot, unmatched
from archive_site import Pair, build_site, http_and_https, wget_warc
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.sites import SiteOptions
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.snapshot.manifest import Snapshot

FAITHFUL = 0.5  # % mean pixel difference: a replay that looks like the live page
DIFFERENT = 3.0  # % : clearly another page (an error page, a page without its CSS)


@dataclass
class Crawl:
    pair: Pair
    warc: Path
    root: Path


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawl]:
    root = tmp_path_factory.mktemp("wget")
    site = build_site(root / "site")
    with http_and_https(site) as pair:
        warc = wget_warc(root / "crawl", pair.http.url("index.html"), pair.http.url("secure"),
                         pair.http.url("moved"), extra=("--reject-regex", "deeper"))
        yield Crawl(pair, warc, root)


def _import(warc: Path, snap: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "import", str(warc),
                           str(snap), "--format", "json"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_import_reports_what_the_wget_warc_holds(crawl: Crawl, tmp_path: Path) -> None:
    report = _import(crawl.warc, tmp_path / "snap")
    http, https = crawl.pair.http, crawl.pair.https
    assert report["kind"] == "warc" and report["redirects"] == 2
    assert set(report["pages"]) >= {http.url("index.html"), http.url("about.html"),  # type: ignore[arg-type]
                                    https.url("secure.html")}
    assert http.url("deeper.html") not in report["pages"]  # type: ignore[operator]
    assert report["others"] == {"warcinfo": 1, "metadata": 1, "resource": 2}  # wget's log
    manifest = Snapshot(tmp_path / "snap").read()
    assert manifest.archive is not None and manifest.archive.sha256 == report["sha256"]
    assert manifest.entry_url == http.url("index.html")
    about = next(e for e in manifest.entries if e.url == http.url("about.html"))
    body = Snapshot(tmp_path / "snap").body(about.body)
    assert body.startswith(b"<!doctype html>")  # gzip and chunked as sent, decoded
    assert "content-encoding" not in dict(about.headers)
    table = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "import",
                            str(crawl.warc), str(tmp_path / "again")], capture_output=True,
                           text=True, timeout=60)
    assert "2 redirects" in table.stdout and "could not use: nothing" in table.stdout


async def test_archived_pages_replay_as_they_looked_live(
        browser: BrowserSession, crawl: Crawl, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    _import(crawl.warc, snap)
    http, https = crawl.pair.http, crawl.pair.https
    pages = {"index": http.url("index.html"), "about": http.url("about.html"),
             "secure": https.url("secure.html")}
    live = {name: await live_shot(browser, url) for name, url in pages.items()}
    hits_before = _hits(crawl)
    diffs = {}
    for name, url in pages.items():
        replayed = await replay_shot(browser, snap, url, tmp_path / name)
        assert replayed.status == 200 and unmatched(replayed.record) == [], replayed.record
        assert replayed.fonts_loaded  # the web font came from the archive
        diffs[name] = difference(live[name], replayed.png)
    assert _hits(crawl) == hits_before  # nothing reached the servers
    assert max(diffs.values()) < FAITHFUL, diffs
    # The other way: two different archived pages do not pass for each other.
    assert difference(live["index"], live["about"]) > 0.2
    print(f"wget WARC replay fidelity: median {statistics.median(diffs.values()):.4f} %, "
          f"per page {diffs}")


async def test_redirects_replay_as_recorded_across_schemes(
        browser: BrowserSession, crawl: Crawl, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    _import(crawl.warc, snap)
    http, https = crawl.pair.http, crawl.pair.https
    secure = await replay_shot(browser, snap, http.url("secure"), tmp_path / "secure")
    assert secure.url == https.url("secure.html") and secure.status == 200  # http → https
    assert unmatched(secure.record) == [] and secure.fonts_loaded
    assert difference(secure.png, await live_shot(browser, https.url("secure.html"))) < FAITHFUL
    moved = await replay_shot(browser, snap, http.url("moved"), tmp_path / "moved")
    assert moved.url == http.url("about.html") and unmatched(moved.record) == []
    # secure.html was captured only over https: asked for over http, its twin answers.
    plain = https.url("secure.html").replace("https://", "http://")
    twin = await replay_shot(browser, snap, plain, tmp_path / "twin")
    assert twin.status == 200 and unmatched(twin.record) == []
    assert difference(twin.png, secure.png) < FAITHFUL


async def test_a_page_the_crawl_left_out_says_so(
        browser: BrowserSession, crawl: Crawl, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    _import(crawl.warc, snap)
    http = crawl.pair.http
    missing = await replay_shot(browser, snap, http.url("deeper.html"), tmp_path / "missing")
    assert missing.status == 504 and unmatched(missing.record) == [http.url("deeper.html")]
    [event] = [e for e in missing.events if e.kind == "missing"]
    assert "is not in the site snapshot (the web archive crawl.warc.gz did not capture it)" \
        in event.detail
    assert difference(missing.png, await live_shot(browser, http.url("deeper.html"))) > DIFFERENT


async def test_the_step_note_says_the_page_is_not_in_the_archive_and_go_back_returns(
        browser: BrowserSession, crawl: Crawl, tmp_path: Path) -> None:
    """A run from the archive: about.html links to deeper.html, which the crawl left out."""
    http = crawl.pair.http
    replies = ["Thought: deeper\nAction: click(start_box='(300,250)')",
               "Thought: not there\nAction: go_back()",
               "Thought: done\nAction: finished(content='seen')"]
    out = tmp_path / "run"
    snap = tmp_path / "snap"
    _import(crawl.warc, snap)
    config = AgentConfig(max_steps=3, time_limit=90.0, site=SiteOptions("replay", str(snap)))
    result = await run_task(Task(instruction="look", url=http.url("about.html"), id="t"),
                            model=ScriptedModel(replies), session=browser, config=config, out=out)
    assert result.status == "finished", result.error
    steps = [json.loads(ln) for ln in (out / "steps.jsonl").read_text().splitlines()]
    click, back = steps[0]["note"], steps[1]["note"]
    assert f"the page {http.url('deeper.html')} is not in the site snapshot" in click
    assert "did not capture it" in click and "go_back" in click
    assert "not in the site snapshot" not in back and "about.html" in back
    assert unmatched(result.site) == [http.url("deeper.html")]
    assert result.site.archive_sha256 is not None
    assert "Deeper" in (out / "evidence.txt").read_text()  # back on the archived about page


def _hits(crawl: Crawl) -> tuple[int, int]:
    return crawl.pair.http.hits, crawl.pair.https.hits


async def test_a_wacz_made_by_webrecorders_tool_replays_its_pages(
        browser: BrowserSession, crawl: Crawl, tmp_path: Path) -> None:
    wacz = tmp_path / "crawl.wacz"
    proc = subprocess.run([str(Path(sys.executable).with_name("wacz")), "create", "-o",
                           str(wacz), str(crawl.warc), "--detect-pages"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = _import(wacz, tmp_path / "snap")
    http = crawl.pair.http
    assert report["kind"] == "wacz" and report["redirects"] == 2 and report["skipped"] == []
    assert http.url("index.html") in report["pages"]  # type: ignore[operator]
    replayed = await replay_shot(browser, tmp_path / "snap", http.url("index.html"),
                                 tmp_path / "rep")
    assert replayed.status == 200 and unmatched(replayed.record) == []
    assert difference(replayed.png, await live_shot(browser, http.url("index.html"))) < FAITHFUL

"""``snapshot export``: a snapshot webfovea recorded → a standard WARC / WACZ → a snapshot.

The recording is a real run (``run_task``, record mode) on the local site. warcio must
read the export and verify its digests (``warcio check``), Webrecorder's ``wacz validate``
must accept the WACZ, and importing either back must serve the same bytes for every URL
and the same pixels as the original snapshot.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from archive_replay import difference, live_shot, replay_shot, unmatched
from archive_site import SiteServer, build_site
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.sites import SiteOptions
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.snapshot.archive.export import _warc_date
from webfovea.snapshot.manifest import Snapshot

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    site = SiteServer(build_site(tmp_path_factory.mktemp("export") / "site"))
    yield site
    site.stop()


async def _recorded(browser: BrowserSession, server: SiteServer, snap: Path) -> None:
    """A run on the site that opens the index, then follows its link to the about page."""
    replies = ["Thought: about\nAction: click(start_box='(300,250)')",
               "Thought: done\nAction: finished(content='seen')"]
    config = AgentConfig(max_steps=2, time_limit=90.0, site=SiteOptions("record", str(snap)))
    result = await run_task(Task(instruction="look", url=server.url("index.html"), id="t"),
                            model=ScriptedModel(replies), session=browser, config=config,
                            out=snap.parent / "rec")
    assert result.status == "finished", result.error


def _served(snap: Path) -> dict[tuple[str, str], set[tuple[int, str]]]:
    """(method, URL) → the (status, body hash) a replay serves for it. A 304 the recording
    browser got (a revalidation, no body) is left out: the import replays the body the
    browser had cached, which the snapshot also holds for that URL."""
    served: dict[tuple[str, str], set[tuple[int, str]]] = {}
    for e in Snapshot(snap).read().entries:
        if e.status != 304:
            served.setdefault((e.method, e.url), set()).add((e.status, e.body))
    return served


def _cli(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


async def test_an_exported_warc_is_standard_and_round_trips(
        browser: BrowserSession, server: SiteServer, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    await _recorded(browser, server, snap)
    manifest = Snapshot(snap).read()
    assert {server.url("index.html"), server.url("about.html"),
            server.url("fonts/inter.woff2")} <= {e.url for e in manifest.entries}
    warc = tmp_path / "out.warc.gz"
    assert "wrote" in _cli("export", str(snap), str(warc))
    check = subprocess.run([str(BIN / "warcio"), "check", "-v", str(warc)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and "digest pass" in check.stdout, check.stdout

    with warc.open("rb") as fh:
        records = [(r.rec_type, r.rec_headers, r.content_stream().read())
                   for r in ArchiveIterator(fh)]
    kind, _, info = records[0]
    assert kind == "warcinfo" and b"software: webfovea" in info
    kinds = Counter(k for k, _, _ in records)
    assert kinds["request"] == len(manifest.entries)
    assert kinds["response"] + kinds["revisit"] == len(manifest.entries)
    index = next(e for e in manifest.entries if e.url == server.url("index.html"))
    [dated] = [h.get_header("WARC-Date") for k, h, _ in records
               if k == "response" and h.get_header("WARC-Target-URI") == index.url]
    assert index.clock_ms is not None and dated == _warc_date(index.clock_ms)
    assert all(h.get_header("WARC-Payload-Digest") for k, h, _ in records
               if k in ("response", "revisit"))

    back = tmp_path / "back"
    _cli("import", str(warc), str(back))
    assert _served(back) == _served(snap)  # the same bytes for every URL
    original = await replay_shot(browser, snap, server.url("about.html"), tmp_path / "a")
    again = await replay_shot(browser, back, server.url("about.html"), tmp_path / "b")
    assert unmatched(again.record) == [] and again.fonts_loaded
    assert difference(original.png, again.png) < 0.5
    assert difference(again.png, await live_shot(browser, server.url("about.html"))) < 0.5


async def test_an_exported_wacz_validates_and_round_trips(
        browser: BrowserSession, server: SiteServer, tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    await _recorded(browser, server, snap)
    wacz = tmp_path / "out.wacz"
    _cli("export", str(snap), str(wacz))
    check = subprocess.run([str(BIN / "wacz"), "validate", "-f", str(wacz)],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0 and "is valid" in check.stdout, check.stdout + check.stderr
    back = tmp_path / "back"
    report = _cli("import", str(wacz), str(back))
    assert "could not use: nothing" in report
    assert _served(back) == _served(snap)


def test_export_refuses_an_unknown_kind_by_name(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "export",
                           str(tmp_path), str(tmp_path / "out.zip")], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "OUT.warc.gz, OUT.warc or OUT.wacz" in proc.stderr


@pytest.mark.parametrize(("name", "content", "said"), [
    ("notes.txt", b"hello", "not a web archive by its name"),
    ("crawl.wacz", b"not a zip", "is not a WACZ (not a zip file)"),
    ("site.har", b"{\"log\": {}}", "is not a HAR file"),
    ("crawl.warc.gz", b"WARC/1.1\r\nbroken", "holds nothing a snapshot can replay"),
])
def test_import_names_what_is_wrong_with_a_bad_archive(
        tmp_path: Path, name: str, content: bytes, said: str) -> None:
    bad = tmp_path / name
    bad.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "import", str(bad),
                           str(tmp_path / "snap")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and said in proc.stderr, proc.stderr
    replay = subprocess.run([sys.executable, "-m", "webfovea", "run", "--url", "http://x.test/",
                             "--task", "t", "--model", "oracle", "--replay-site", str(bad)],
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 2, replay.stderr

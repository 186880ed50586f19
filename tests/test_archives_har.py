"""A HAR written by Playwright's own recorder (``record_har_path``), imported and replayed.

The browser visits the local site's pages (the about page gzip-compressed and chunked,
a cross-scheme 302 to the https twin) while Playwright records the HAR; the replay must
look like the live pages. A HAR saved without bodies (``record_har_content="omit"``)
says what it could not use, and its pages replay as "not in the snapshot".
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from archive_replay import VIEWPORT, difference, live_shot, replay_shot, unmatched
from archive_site import Pair, build_site, http_and_https
from webfovea.browser.session import BrowserSession


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    with http_and_https(build_site(tmp_path_factory.mktemp("har") / "site")) as both:
        yield both


async def _record_har(browser: BrowserSession, pair: Pair, har: Path,
                      content: Literal["embed", "omit"] = "embed") -> None:
    context = await browser.browser.new_context(
        viewport=VIEWPORT, ignore_https_errors=True, record_har_path=str(har),
        record_har_content=content)
    page = await context.new_page()
    for url in (pair.http.url("index.html"), pair.http.url("about.html"),
                pair.http.url("secure")):
        await page.goto(url, wait_until="load")
        await page.evaluate("document.fonts.ready.then(() => 0)")
    await context.close()  # Playwright writes the HAR as the context closes


def _import(har: Path, snap: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", "import", str(har),
                           str(snap), "--format", "json"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


async def test_a_playwright_har_replays_as_the_pages_looked(
        browser: BrowserSession, pair: Pair, tmp_path: Path) -> None:
    har = tmp_path / "site.har"
    await _record_har(browser, pair, har)
    report = _import(har, tmp_path / "snap")
    assert report["kind"] == "har" and report["redirects"] == 1
    assert int(report["responses"]) >= 9  # type: ignore[call-overload]
    diffs = []
    for start, shown in ((pair.http.url("index.html"), pair.http.url("index.html")),
                         (pair.http.url("about.html"), pair.http.url("about.html")),
                         (pair.http.url("secure"), pair.https.url("secure.html"))):
        replayed = await replay_shot(browser, tmp_path / "snap", start, tmp_path / "rep")
        assert replayed.url == shown and replayed.status == 200
        assert unmatched(replayed.record) == [] and replayed.fonts_loaded
        diffs.append(difference(replayed.png, await live_shot(browser, shown)))
    assert max(diffs) < 0.5, diffs
    print(f"HAR replay fidelity: {diffs}")


async def test_a_har_without_bodies_says_what_it_could_not_use(
        browser: BrowserSession, pair: Pair, tmp_path: Path) -> None:
    har = tmp_path / "bare.har"
    await _record_har(browser, pair, har, content="omit")
    report = _import(har, tmp_path / "snap")
    skipped = report["skipped"]
    assert isinstance(skipped, list)
    assert {s["url"] for s in skipped} >= {pair.http.url("index.html"),
                                           pair.http.url("style.css")}
    # A revalidated image or font (the about page loads them again) is a 304 whose body
    # the HAR never held either: whether Chromium revalidates depends on its cache timing.
    reasons = ("holds no body", "a 304 (not modified) with no earlier capture of its body")
    assert [s for s in skipped if not any(r in s["why"] for r in reasons)] == []
    replayed = await replay_shot(browser, tmp_path / "snap", pair.http.url("index.html"),
                                 tmp_path / "rep")
    assert replayed.status == 504 and "not in the site snapshot" in replayed.text
    assert any(e.kind == "missing" for e in replayed.events)

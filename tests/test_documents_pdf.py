"""PDFs in the document view, on real Chromium: a PDF made by fpdf2 at test time (four pages:
links, text, a table on page 3, a scanned page 4) served by a local site, opened as a tab,
as an attachment and inside an <iframe>/<embed>; find_text, read_text, links, keys."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from counting_site import Counter, counting_site
from documents_site import DocumentSite, document_site
from webfovea.browser.document_view import DocumentView
from webfovea.browser.domain_lock import DomainLock
from webfovea.browser.observe import FindState, find_text, read_text
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.documents.ocr import available as ocr_available


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[tuple[str, type[Counter]]]:
    with counting_site() as away:
        yield away


@pytest.fixture(scope="module")
def site(elsewhere: tuple[str, type[Counter]]) -> Iterator[DocumentSite]:
    with document_site(elsewhere[0].rsplit("/", 1)[0]) as served:
        yield served


@pytest_asyncio.fixture
async def viewed(browser: BrowserSession, site: DocumentSite,
                 tmp_path: Path) -> AsyncIterator[tuple[Tabs, DomainLock, DocumentView]]:
    tabs = await browser.new_tabs()
    view = DocumentView(tmp_path / "documents")
    lock = await DomainLock.for_task(tabs, site.url("index.html"), (), documents=view)
    yield tabs, lock, view
    await tabs.close()


def _notes(tabs: Tabs) -> list[str]:
    return [e.detail for e in tabs.drain_events()]


async def test_a_pdf_opens_as_pages_whose_page_3_value_is_found_and_read(
        viewed: tuple[Tabs, DomainLock, DocumentView], site: DocumentSite) -> None:
    tabs, _, view = viewed
    await tabs.open(site.url("report.pdf"))
    notes = _notes(tabs)
    assert any(n.startswith("a PDF document of 4 pages opened (report.pdf") and "page 1 shown"
               in n for n in notes), notes
    page = tabs.page
    assert page.url == site.url("report.pdf")  # the view stands at the document's own URL
    assert await page.evaluate("document.querySelectorAll('section.page').length") == 4

    found = await find_text(page, "4,321 million", FindState())
    assert found.sentence.startswith("find_text found '4,321 million': match 1 of 1 on page 3 "
                                     "of 4 of the PDF"), found.sentence
    # Scrolled so that the selected match is on screen.
    top = await page.evaluate("getSelection().getRangeAt(0).getBoundingClientRect().top")
    assert 0 <= top <= page.viewport_size["height"]  # type: ignore[index]
    read = await read_text(page, "Cloud")
    assert "4,321 million" in read.sentence and "in the document: page 3 of 4" in read.sentence

    missing = await find_text(page, "Zebra quarterly", FindState())
    assert missing.details == {"found": False, "total": 0}
    assert not (await read_text(page, "Zebra quarterly")).details["found"]

    record = view.records[0]
    assert (record.kind, record.pages, record.shown, record.frame) == ("pdf", 4, True, False)
    saved = view.folder.parent / record.path  # type: ignore[union-attr]
    assert hashlib.sha256(saved.read_bytes()).hexdigest() == record.sha256 == \
        hashlib.sha256(site.pdf).hexdigest()


async def test_the_pages_fill_the_viewport_and_page_keys_move_through_them(
        viewed: tuple[Tabs, DomainLock, DocumentView], site: DocumentSite) -> None:
    tabs, _, _ = viewed
    await tabs.open(site.url("report.pdf"))
    page = tabs.page
    width = await page.evaluate("document.querySelector('.sheet img').getBoundingClientRect().width")
    assert width >= 0.9 * page.viewport_size["width"]  # type: ignore[index]
    assert await page.evaluate("scrollY") == 0
    # As before a step's screenshot: laid out, and focused (the shared browser has other tabs).
    await page.wait_for_function("document.readyState === 'complete'")
    await page.bring_to_front()
    await page.keyboard.press("PageDown")
    await page.wait_for_function("scrollY > 0")
    await page.keyboard.press("End")
    await page.wait_for_function("Math.abs(scrollY + innerHeight - document.documentElement"
                                 ".scrollHeight) < 2")


async def test_the_scanned_page_is_read_by_ocr_or_said_to_be_unread(
        viewed: tuple[Tabs, DomainLock, DocumentView], site: DocumentSite) -> None:
    tabs, _, _ = viewed
    await tabs.open(site.url("report.pdf"))
    notes = " ".join(_notes(tabs))
    found = await find_text(tabs.page, "INVOICE", FindState())
    if ocr_available():
        assert "page 4 had no text layer and was read by OCR" in notes
        assert "on page 4 of 4" in found.sentence, found.sentence
    else:
        assert "page 4 has no text layer and OCR is not installed" in notes, notes
        assert not found.details["found"]


async def test_links_in_the_pdf_are_followed_and_go_through_the_domain_lock(
        viewed: tuple[Tabs, DomainLock, DocumentView], site: DocumentSite,
        elsewhere: tuple[str, type[Counter]]) -> None:
    tabs, lock, _ = viewed
    await tabs.open(site.url("report.pdf"))
    page = tabs.page
    await page.click("a.link[href='#page-3']")  # a destination inside the document
    await page.wait_for_function("location.hash === '#page-3'")
    partner = page.locator(f"a.link[href='{elsewhere[0]}']")
    await page.evaluate("scrollTo(0, 0)")
    await partner.click()
    await page.wait_for_timeout(300)
    assert page.url.startswith(site.url("report.pdf")) and elsewhere[1].hits == 0
    assert lock.blocked and lock.blocked[-1].url == elsewhere[0]
    async with page.expect_navigation():
        await page.click(f"a.link[href='{site.url('index.html')}']")
    assert page.url == site.url("index.html")


async def test_a_pdf_served_as_an_attachment_opens_and_is_saved(
        viewed: tuple[Tabs, DomainLock, DocumentView], site: DocumentSite) -> None:
    tabs, _, view = viewed
    await tabs.open(site.url("index.html"))
    await tabs.page.goto(site.url("attached"))
    assert any("a PDF document of 4 pages opened (annual.pdf; saved as documents/01-annual.pdf)"
               in n for n in _notes(tabs))
    assert "on page 3 of 4" in (await find_text(tabs.page, "1,234 million", FindState())).sentence
    assert view.records[0].content_type == "application/octet-stream"
    assert (view.folder / "01-annual.pdf").read_bytes() == site.pdf  # type: ignore[operator]


async def test_a_pdf_in_an_iframe_and_an_embed_is_searched_in_its_frame(
        viewed: tuple[Tabs, DomainLock, DocumentView], site: DocumentSite) -> None:
    tabs, _, view = viewed
    await tabs.open(site.url("frames.html"))
    page = tabs.page
    await page.wait_for_function("document.querySelectorAll('iframe, embed').length === 2")
    state = FindState()
    first = await find_text(page, "4,321 million", state)
    second = await find_text(page, "4,321 million", state)
    assert "match 1 of 2 on page 3 of 4 of the PDF inside the frame" in first.sentence, \
        first.sentence
    assert "match 2 of 2 on page 3 of 4 of the PDF inside the frame" in second.sentence
    frames = {r.url.rsplit("=", 1)[-1]: r.frame for r in view.records}
    assert frames == {"iframe": True, "embed": True}

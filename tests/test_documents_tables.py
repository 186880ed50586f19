"""Data downloads in the document view, on real Chromium: a CSV with a UTF-8 BOM and quoted
commas, an XLSX (openpyxl, at test time) of two sheets with merged header cells, JSON, TSV
and text, each served as an attachment; the size cap on a streamed 200 MB body; a type no
view opens. The header judge is checked on its own for the cases a site cannot show."""

from __future__ import annotations

import hashlib
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from counting_site import counting_site
from documents_site import HUGE_MB, DocumentSite, document_site
from webfovea.browser.document_view import DocumentView
from webfovea.browser.domain_lock import DomainLock
from webfovea.browser.observe import FindState, find_text, read_text
from webfovea.browser.session import BrowserSession, Tabs
from webfovea.documents.kinds import judge
from webfovea.documents.place import find_place


@pytest.fixture(scope="module")
def site() -> Iterator[DocumentSite]:
    with counting_site() as (away, _), document_site(away.rsplit("/", 1)[0]) as served:
        yield served


@pytest_asyncio.fixture
async def viewed(browser: BrowserSession, site: DocumentSite,
                 tmp_path: Path) -> AsyncIterator[tuple[Tabs, DocumentView]]:
    tabs = await browser.new_tabs()
    view = DocumentView(tmp_path / "documents", max_bytes=20_000_000)
    await DomainLock.for_task(tabs, site.url("index.html"), (), documents=view)
    await tabs.open(site.url("index.html"))
    yield tabs, view
    await tabs.close()


def _notes(tabs: Tabs) -> str:
    return " | ".join(e.detail for e in tabs.drain_events())


async def test_a_csv_download_opens_as_a_table_with_its_header_and_quoted_commas(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite) -> None:
    tabs, view = viewed
    await tabs.page.click("text=Data (CSV)")
    await tabs.page.wait_for_selector("table")
    assert "a CSV file of 3 rows opened (data.csv; saved as documents/01-data.csv): shown as " \
        "a table, row 1 at the top" in _notes(tabs)
    header = await tabs.page.eval_on_selector_all("thead th", "els => els.map(e => e.textContent)")
    assert header == ["1", "Name", "Note", "Value"]  # the BOM is gone; row numbers lead
    cells = await tabs.page.eval_on_selector_all("tbody tr:first-child > *",
                                                 "els => els.map(e => e.textContent)")
    assert cells == ["2", "Smith, J", "red, large", "42"]
    read = await read_text(tabs.page, "Smith, J")
    assert "in the document: sheet “Sheet 1”, row 2" in read.sentence and "42" in read.sentence
    assert not (await find_text(tabs.page, "Zebra quarterly", FindState())).details["found"]
    record = view.records[0]
    saved = (view.folder / "01-data.csv").read_bytes()  # type: ignore[operator]
    assert record.sha256 == hashlib.sha256(saved).hexdigest() and record.rows == 3
    assert (record.kind, record.size) == ("csv", len(saved))


async def test_a_link_with_a_download_attribute_shows_the_table_in_the_tab(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite) -> None:
    tabs, view = viewed
    await tabs.page.click("text=Data, download link (CSV)")
    await tabs.page.wait_for_url(site.url("data.csv"))
    await tabs.page.wait_for_selector("table")
    notes = _notes(tabs)
    assert notes.count("a CSV file of 3 rows opened") == 1 and "blocked" not in notes, notes
    assert len(view.records) == 1 and len(list(view.folder.iterdir())) == 1  # type: ignore[union-attr]


async def test_a_damaged_pdf_opens_as_a_note_saying_so(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite) -> None:
    tabs, view = viewed
    await tabs.page.click("text=Damaged (PDF)")
    await tabs.page.wait_for_url(site.url("broken.pdf"))
    note = "broken.pdf could not be opened: PDFium could not read it"
    assert note in _notes(tabs)
    assert note in await tabs.page.inner_text("body")
    assert not view.records[0].shown and view.records[0].sha256


async def test_an_xlsx_workbook_has_sheet_tabs_and_merged_header_cells(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite) -> None:
    tabs, view = viewed
    await tabs.page.goto(site.url("book.xlsx"))
    assert "an XLSX workbook of 2 sheets (Q1, Q2) and 7 rows in all opened" in _notes(tabs)
    page = tabs.page
    assert await page.eval_on_selector_all(".tabs a", "els => els.map(e => e.textContent)") == \
        ["Q1", "Q2"]
    sales = page.locator("#sheet-1 thead th", has_text="Sales")
    assert await sales.get_attribute("colspan") == "2"
    assert await page.locator("#sheet-1 thead th", has_text="Region").get_attribute(
        "rowspan") == "2"
    assert await page.locator("#sheet-1 thead tr").count() == 2  # both header rows
    found = await find_text(page, "8765", FindState())
    assert "on sheet “Q2”, row 3" in found.sentence, found.sentence
    await page.click(".tabs a >> text=Q2")
    await page.wait_for_function("location.hash === '#sheet-2'")
    assert not (await find_text(page, "9999", FindState())).details["found"]
    assert view.records[0].rows == 7


@pytest.mark.parametrize(("path", "spans"), [("stock.xls", "2"), ("stock.ods", None)])
async def test_xls_and_ods_workbooks_open_as_tables(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite, path: str,
        spans: str | None) -> None:
    """python-calamine reads an XLS file's merged cells but not an ODS file's."""
    tabs, _ = viewed
    await tabs.page.goto(site.url(path))
    kind = path.rsplit(".", 1)[1].upper()
    assert f"an {kind} file of 4 rows opened" in _notes(tabs)
    found = await find_text(tabs.page, "2024", FindState())
    assert "row 4" in found.sentence, found.sentence
    stock = tabs.page.locator("thead th", has_text="Stock")
    assert await stock.get_attribute("colspan") == spans


@pytest.mark.parametrize(("path", "value", "note"), [
    ("records.json", "hills", "a JSON file of 3 rows"),
    ("table.tsv", "Bellows", "a TSV file of 3 rows"),
    ("notes.txt", "12,500 euros", "a TXT file of 3 lines"),
])
async def test_json_tsv_and_text_downloads_are_readable(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite, path: str, value: str,
        note: str) -> None:
    tabs, _ = viewed
    await tabs.page.goto(site.url(path))
    assert note in _notes(tabs)
    assert (await find_text(tabs.page, value, FindState())).details["found"]


async def test_a_200_mb_download_is_refused_by_the_cap_without_reading_it_all(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite) -> None:
    tabs, view = viewed
    started = time.monotonic()
    for link in ("Everything (CSV, 200 MB)", "Everything, sized (CSV, 200 MB)"):
        await tabs.page.click(f"text={link}")
        await tabs.page.wait_for_timeout(500)
    notes = _notes(tabs)
    assert notes.count("was blocked: it is larger than the cap of 20 MB (--max-download-mb)") \
        == 2, notes
    assert time.monotonic() - started < 20
    assert tabs.page.url == site.url("index.html")  # the page stays where it was
    assert site.streamed < HUGE_MB * 1_000_000 / 2  # the stream was stopped near the cap
    assert not any(r.shown or r.path for r in view.records[-2:])
    assert not view.folder.exists() or not any(view.folder.iterdir())  # type: ignore[union-attr]


async def test_a_download_of_another_type_is_refused_naming_the_type_and_the_flag(
        viewed: tuple[Tabs, DocumentView], site: DocumentSite) -> None:
    tabs, view = viewed
    await tabs.page.click("text=Archive (ZIP)")
    await tabs.page.wait_for_timeout(300)
    notes = _notes(tabs)
    assert f"a download from {site.url('archive.zip')} was blocked: downloads are disabled " \
        "for application/zip files (--allow-downloads saves them); PDF, CSV, TSV, XLSX, XLS, " \
        "ODS, JSON, TXT files open as documents" in notes, notes
    assert view.records[-1].kind == "" and tabs.page.url == site.url("index.html")


@pytest.mark.parametrize(("url", "headers", "kind", "download"), [
    ("https://x.test/r.pdf", {"content-type": "application/pdf"}, "pdf", False),
    ("https://x.test/get?id=4", {"content-type": "application/octet-stream",
                                 "content-disposition": "attachment; filename*=UTF-8''Q%203.xlsx"},
     "xlsx", True),
    ("https://x.test/d.csv", {"content-type": "text/csv; charset=utf-8"}, "csv", False),
    ("https://x.test/api", {"content-type": "application/json"}, None, False),  # a page
    ("https://x.test/a.json", {"content-type": "application/json",
                               "content-disposition": "attachment"}, "json", True),
    ("https://x.test/page", {"content-type": "text/html"}, None, False),
    ("https://x.test/s.exe", {"content-type": "application/x-msdownload"}, None, True),
    ("https://x.test/old.xls", {"content-type": "application/vnd.ms-excel"}, "xls", True),
])
def test_the_judge_tells_documents_downloads_and_pages_from_headers(
        url: str, headers: dict[str, str], kind: str | None, download: bool) -> None:
    verdict = judge(url, headers)
    assert (verdict.kind, verdict.download) == (kind, download)


def test_a_place_is_read_back_from_the_view_text_only_in_a_document() -> None:
    pdf = "r.pdf PDF document, 2 pages\nPage 1 of 2\nIntro\nPage 2 of 2\nRevenue 4,321 million"
    assert find_place(pdf, "4321") == "page 2 of 2"
    table = "Sheet \u201cQ2\u201d \u00b7 3 rows\n1\tRegion\tUnits\n3\tWest\t95"
    assert find_place(table, "95") == "sheet \u201cQ2\u201d, row 3"
    assert find_place("An article. Page 1 of 2 is elsewhere", "article") == ""
    assert find_place(pdf, "Zebra") == ""

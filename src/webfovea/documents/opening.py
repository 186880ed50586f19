"""Turning a document's bytes into its view page and the words that say what opened."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..core.errors import DocumentError
from . import pdf, tables, view
from .kinds import DocKind

_ARTICLE = {"xlsx": "an", "xls": "an", "ods": "an"}


@dataclass(frozen=True)
class Opened:
    html: str
    what: str  # "a PDF document of 12 pages", "a CSV file of 40 rows"
    shown: str  # "page 1 shown", "shown as a table, row 1 at the top"
    notes: tuple[str, ...] = ()  # pages read by OCR or left unread
    pages: int | None = None
    rows: int | None = None


@lru_cache(maxsize=8)  # a document shown again (back, a frame and a tab) is rendered once
def open_document(kind: DocKind, name: str, data: bytes) -> Opened:
    """The view of ``data``; DocumentError when it cannot be read."""
    if kind == "pdf":
        return _pdf(name, data)
    return _tables(kind, name, data)


def _pdf(name: str, data: bytes) -> Opened:
    doc = pdf.render(data)
    notes = []
    if doc.ocr_pages:
        notes.append(f"{_pages(doc.ocr_pages)} had no text layer and {_were(doc.ocr_pages)} "
                     "read by OCR")
    if doc.unread_pages:
        notes.append(f"{_pages(doc.unread_pages)} {_have(doc.unread_pages)} no text layer and "
                     "OCR is not installed (pip install webfovea[ocr]), so find_text and "
                     "read_text cannot see their words")
    if doc.past_ocr_pages:
        notes.append(f"{_pages(doc.past_ocr_pages)} {_have(doc.past_ocr_pages)} no text layer "
                     f"and {_were(doc.past_ocr_pages)} not read: OCR reads the first "
                     f"{pdf.OCR_PAGES} such pages")
    if doc.text_only_pages:
        notes.append(f"pages from {doc.text_only_pages[0]} on show their text without "
                     "drawing the page")
    if len(doc.pages) < doc.page_count:
        notes.append(f"only pages 1-{len(doc.pages)} of {doc.page_count} are shown")
    html = view.pdf_page(name, doc, notes)
    count = doc.page_count
    return Opened(html, f"a PDF document of {count} page{'s' if count != 1 else ''}",
                  "page 1 shown", tuple(notes), pages=count)


def _tables(kind: DocKind, name: str, data: bytes) -> Opened:
    read = tables.read(kind, data)
    html = view.tables_page(kind, name, read, [])
    article = _ARTICLE.get(kind, "a")
    if read.text is not None:
        lines = read.text.count("\n") + 1
        return Opened(html, f"{article} {kind.upper()} file of {lines} lines",
                      "shown as text, line 1 at the top")
    rows = read.row_count
    if len(read.sheets) > 1:
        names = ", ".join(s.name for s in read.sheets)
        what = (f"{article} {kind.upper()} workbook of {len(read.sheets)} sheets ({names}) "
                f"and {rows} rows in all")
        shown = "shown as tables with sheet tabs at the top, row 1 of the first sheet at the top"
    else:
        what = f"{article} {kind.upper()} file of {rows} rows"
        shown = "shown as a table, row 1 at the top"
    if not read.sheets or not read.sheets[0].rows:
        raise DocumentError("it has no rows")
    return Opened(html, what, shown, rows=rows)


def _pages(numbers: list[int]) -> str:
    listed = ", ".join(map(str, numbers[:10])) + ("…" if len(numbers) > 10 else "")
    return f"page{'s' if len(numbers) > 1 else ''} {listed}"


def _were(numbers: list[int]) -> str:
    return "were" if len(numbers) > 1 else "was"


def _have(numbers: list[int]) -> str:
    return "have" if len(numbers) > 1 else "has"

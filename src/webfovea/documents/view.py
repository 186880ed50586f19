"""The document view's HTML: a rendered PDF or a data file's tables, as one self-contained
page (images inlined) that is served in place of the document's response.

The page's visible labels double as the document's coordinates in its text: a PDF page
starts with "Page N of M" and a sheet with 'Sheet "NAME" · N rows'; every table row starts
with its row number. webfovea.documents.place reads them back to say where an answer's
text came from.
"""

from __future__ import annotations

import base64
from functools import cache
from html import escape
from importlib import resources
from string import Template

from .kinds import DocKind
from .pdf import IMAGE_PAGES, Box, Page, PdfDocument, TextSource
from .tables import Sheet, Tables

PAGE_LABEL = "Page {n} of {total}"
_LABELS: dict[TextSource, str] = {
    "pdf": "", "ocr": " (text read by OCR)",
    "none": " (an image without text; OCR is not installed: pip install webfovea[ocr])",
    "past_ocr": " (an image without text, past the pages OCR reads)"}
SHEET_LABEL = "Sheet \u201c{name}\u201d \u00b7 {rows}"


@cache
def _asset(name: str) -> str:
    return resources.files("webfovea.documents").joinpath("assets").joinpath(name).read_text("utf-8")


def _page_html(kind: DocKind | str, name: str, summary: str, body: str, pages: int = 0) -> str:
    return Template(_asset("document.html")).substitute(
        kind=kind, pages=pages, title=escape(f"{name} ({summary})"), name=escape(name),
        summary=escape(summary), body=body, css=_asset("document.css"), js=_asset("document.js"))


def _at(box: Box) -> str:
    return (f"left:{box.left * 100:.3f}%;top:{box.top * 100:.3f}%;"
            f"width:{box.width * 100:.3f}%;height:{box.height * 100:.3f}%")


def pdf_summary(doc: PdfDocument) -> str:
    pages = f"{doc.page_count} page{'s' if doc.page_count != 1 else ''}"
    shown = f", pages 1-{len(doc.pages)} shown" if len(doc.pages) < doc.page_count else ""
    return f"PDF document, {pages}{shown}"


def pdf_page(name: str, doc: PdfDocument, notes: list[str]) -> str:
    total = doc.page_count
    body = "".join(f'<p class="note">{escape(n)}</p>' for n in notes)
    body += "".join(_pdf_page(p, total) for p in doc.pages)
    return _page_html("pdf", name, pdf_summary(doc), f"<main>{body}</main>", total)


def _pdf_page(page: Page, total: int) -> str:
    spans = "".join(
        f'<span style="{_at(s.box)};font-size:{s.box.height * 100 * page.height_pt / page.width_pt:.3f}cqw"'
        f' data-w="{s.box.width:.5f}">{escape(s.text)}</span>' for s in page.spans)
    links = "".join(
        f'<a class="link" href="{escape(link.href)}"{"" if link.href.startswith("#") else " target=_top"}'
        f' title="{escape(link.href)}" style="{_at(link.box)}"></a>' for link in page.links)
    label = PAGE_LABEL.format(n=page.number, total=total) + _LABELS[page.text_source]
    image, drawn = "", "sheet"
    if page.jpeg is not None:
        image = f'<img alt="" src="data:image/jpeg;base64,{base64.b64encode(page.jpeg).decode()}">'
    else:
        drawn, label = "sheet text-only", label + " (its text only: pages past the first " \
            f"{IMAGE_PAGES} are not drawn)"
    return (f'<section class="page" id="page-{page.number}" data-page="{page.number}">'
            f'<p class="page-label">{escape(label)}</p>'
            f'<div class="{drawn}" style="aspect-ratio:{page.width_pt:.2f}/{page.height_pt:.2f}">'
            f'{image}'
            f'<div class="text-layer">{spans}</div>{links}</div></section>')


def tables_summary(kind: DocKind, tables: Tables) -> str:
    if tables.text is not None:
        return f"{kind.upper()} file, {tables.text.count(chr(10)) + 1} lines"
    sheets = len(tables.sheets)
    what = f"{sheets} sheets, " if sheets > 1 else ""
    return f"{kind.upper()} file, {what}{tables.row_count} rows"


def tables_page(kind: DocKind, name: str, tables: Tables, notes: list[str]) -> str:
    body = "".join(f'<p class="note">{escape(n)}</p>' for n in notes)
    if tables.text is not None:
        body += f'<pre class="text">{escape(tables.text)}</pre>'
    else:
        if len(tables.sheets) > 1:
            body += '<nav class="tabs">' + "".join(
                f'<a href="#sheet-{i}">{escape(s.name)}</a>'
                for i, s in enumerate(tables.sheets, 1)) + "</nav>"
        body += "".join(_sheet(i, s) for i, s in enumerate(tables.sheets, 1))
    return _page_html(kind, name, tables_summary(kind, tables), f"<main>{body}</main>")


def _sheet(index: int, sheet: Sheet) -> str:
    rows = f"{sheet.total_rows} rows" + (
        f", rows 1-{len(sheet.rows)} shown" if len(sheet.rows) < sheet.total_rows else "")
    head = _header_rows(sheet)
    spans, covered = _spans(sheet)
    width = max((len(r) for r in sheet.rows), default=0)
    lines = []
    for r, row in enumerate(sheet.rows):
        tag = "th" if r < head else "td"
        cells = [f'<th class="rn" scope="row">{r + 1}</th>']
        for c in range(width):
            if (r, c) in covered:
                continue
            span = spans.get((r, c), "")
            cells.append(f"<{tag}{span}>{escape(row[c] if c < len(row) else '')}</{tag}>")
        lines.append(f"<tr>{''.join(cells)}</tr>")
    return (f'<section class="table-sheet" id="sheet-{index}" data-sheet="{escape(sheet.name)}">'
            f"<h2>{escape(SHEET_LABEL.format(name=sheet.name, rows=rows))}</h2><table>"
            f"<thead>{''.join(lines[:head])}</thead><tbody>{''.join(lines[head:])}</tbody>"
            "</table></section>")


def _header_rows(sheet: Sheet) -> int:
    """The first row, and every row a merged range starting there reaches down to."""
    if not sheet.rows:
        return 0
    return 1 + max((m.last_row for m in sheet.merges if m.first_row == 0), default=0)


def _spans(sheet: Sheet) -> tuple[dict[tuple[int, int], str], set[tuple[int, int]]]:
    """Each merged range's top-left cell's colspan/rowspan, and the cells it covers."""
    spans: dict[tuple[int, int], str] = {}
    covered: set[tuple[int, int]] = set()
    for m in sheet.merges:
        rows, cols = m.last_row - m.first_row + 1, m.last_col - m.first_col + 1
        spans[(m.first_row, m.first_col)] = (f' colspan="{cols}"' if cols > 1 else "") + (
            f' rowspan="{rows}"' if rows > 1 else "")
        covered |= {(r, c) for r in range(m.first_row, m.last_row + 1)
                    for c in range(m.first_col, m.last_col + 1)} - {(m.first_row, m.first_col)}
    return spans, covered


def refusal_page(name: str, sentence: str) -> str:
    """The page shown when a document could not be opened (damaged, over the cap)."""
    return _page_html("refused", name, "not opened", f'<p class="note">{escape(sentence)}</p>')

"""A site that serves documents made at test time by real libraries (fpdf2, openpyxl).

- ``report.pdf``: four pages; page 1 has links (to page 3, to this site, to ``elsewhere``),
  page 2 running text, page 3 a table (Cloud: 4,321 million), page 4 only an image of text;
- ``attached``: the same PDF as ``application/octet-stream`` with ``Content-Disposition:
  attachment; filename=annual.pdf``;
- ``data.csv``: a UTF-8 BOM and quoted commas, as an attachment;
- ``book.xlsx``: two sheets (Q1, Q2) whose header row has merged cells, as an attachment;
- ``stock.xls`` (xlwt) and ``stock.ods`` (odfpy): "Stock" merged over two columns;
- ``records.json``, ``table.tsv``, ``notes.txt`` (attachments);
- ``huge.csv``: 200 MB of CSV streamed without a length (never on disk);
  ``huge-sized.csv``: the same with its ``Content-Length``;
- ``archive.zip``: an attachment of a type no document view opens;
- ``broken.pdf``: a damaged PDF;
- ``frames.html``: the PDF in an ``<iframe>`` and in an ``<embed>``;
- ``index.html``: links to all of them.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import xlwt
from fpdf import FPDF
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import CoveredTableCell, Table, TableCell, TableRow
from odf.text import P
from openpyxl import Workbook
from PIL import Image, ImageDraw, ImageFont

HUGE_MB = 200
CSV = '\ufeffName,Note,Value\n"Smith, J","red, large",42\nDoe,plain,7\n'.encode()
INDEX = b"""<!doctype html><title>Downloads</title><h1>Downloads</h1><ul>
<li><a href="/report.pdf">Annual report (PDF)</a></li>
<li><a href="/data.csv">Data (CSV)</a></li>
<li><a href="/data.csv" download>Data, download link (CSV)</a></li>
<li><a href="/broken.pdf">Damaged (PDF)</a></li>
<li><a href="/huge.csv">Everything (CSV, 200 MB)</a></li>
<li><a href="/huge-sized.csv">Everything, sized (CSV, 200 MB)</a></li>
<li><a href="/archive.zip">Archive (ZIP)</a></li></ul>"""
FRAMES = b"""<!doctype html><title>Embedded</title><h1>The report, embedded</h1>
<iframe id="inframe" src="/report.pdf?in=iframe" width="900" height="500"></iframe>
<embed id="inembed" src="/report.pdf?in=embed" type="application/pdf" width="900" height="500">"""


def make_pdf(here: str, elsewhere: str) -> bytes:
    pdf = FPDF()
    pdf.set_font("helvetica", size=14)
    pdf.add_page()
    pdf.cell(text="Annual report 2025")
    pdf.ln(12)
    pdf.cell(text="Downloads page", link=f"{here}/index.html")
    pdf.ln(12)
    pdf.cell(text="Partner site", link=f"{elsewhere}/away.html")
    pdf.ln(12)
    pdf.cell(text="See the results table", link=pdf.add_link(page=3))
    pdf.add_page()
    pdf.multi_cell(0, 8, "The year in review. " * 60)
    pdf.add_page()
    pdf.cell(text="Table 1: Results by segment")
    pdf.ln(12)
    with pdf.table() as table:
        for cells in (("Segment", "Revenue", "Margin"), ("Cloud", "4,321 million", "31%"),
                      ("Devices", "1,234 million", "12%")):
            row = table.row()
            for cell in cells:
                row.cell(cell)
    pdf.add_page()  # a scan: only an image of its words
    pdf.image(_scan("SCANNED INVOICE TOTAL 777"), x=10, y=20, w=190)
    return bytes(pdf.output())


def _scan(words: str) -> io.BytesIO:
    image = Image.new("RGB", (1600, 300), "white")
    ImageDraw.Draw(image).text((60, 100), words, fill="black",
                               font=ImageFont.load_default(size=80))
    out = io.BytesIO()
    image.save(out, format="PNG")
    out.seek(0)
    return out


def make_xlsx() -> bytes:
    book = Workbook()
    q1 = book.active
    q1.title = "Q1"
    q1.append(["Region", "Sales", None])
    q1.append([None, "Units", "Revenue"])
    q1.merge_cells("B1:C1")  # "Sales" over Units and Revenue
    q1.merge_cells("A1:A2")  # "Region" over both header rows
    q1.append(["North", 120, 5400])
    q1.append(["South", 80, 3100])
    q2 = book.create_sheet("Q2")
    q2.append(["Region", "Units", "Revenue"])
    q2.append(["North", 150, 6800])
    q2.append(["West", 95, 8765])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def make_xls() -> bytes:
    """An Excel 97 workbook (xlwt): "Stock" merged over two columns."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("Old")
    sheet.write(0, 0, "Item")
    sheet.write_merge(0, 0, 1, 2, "Stock")
    for r, row in enumerate((("", "Lyon", "Graz"), ("Bolts", 40, 55), ("Nuts", 13, 2024)), 1):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def make_ods() -> bytes:
    """An OpenDocument spreadsheet (odfpy) of the same table."""
    doc = OpenDocumentSpreadsheet()
    table = Table(name="Stock")
    for cells in ((("Item", 1), ("Stock", 2)), (("", 1), ("Lyon", 1), ("Graz", 1)),
                  (("Bolts", 1), (40, 1), (55, 1)), (("Nuts", 1), (13, 1), (2024, 1))):
        row = TableRow()
        for value, span in cells:
            row.addElement(_ods_cell(value, span))
            for _ in range(span - 1):
                row.addElement(CoveredTableCell())
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def _ods_cell(value: str | int, span: int) -> TableCell:
    typed: dict[str, Any] = ({"valuetype": "float", "value": value} if isinstance(value, int)
                             else {"valuetype": "string"})
    if span > 1:
        typed["numbercolumnsspanned"] = span
    cell = TableCell(**typed)
    cell.addElement(P(text=str(value)))
    return cell


@dataclass(frozen=True)
class Served:
    body: bytes
    content_type: str
    attachment: str = ""  # the file name of Content-Disposition: attachment


class _Handler(BaseHTTPRequestHandler):
    server: DocumentSite

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?")[0].lstrip("/")
        self.server.hits.append(path)
        if path in ("huge.csv", "huge-sized.csv"):
            self._stream(sized=path == "huge-sized.csv")
            return
        served = self.server.files.get(path)
        if served is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", served.content_type)
        if served.attachment:
            self.send_header("Content-Disposition", f'attachment; filename="{served.attachment}"')
        self.send_header("Content-Length", str(len(served.body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(served.body)

    def _stream(self, *, sized: bool) -> None:
        """200 MB made on the fly, one MB at a time, until the browser stops reading."""
        chunk = b"1,2,3,4,5,6,7,8\n" * (1 << 16)
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Disposition", 'attachment; filename="huge.csv"')
        if sized:
            self.send_header("Content-Length", str(HUGE_MB * len(chunk)))
        self.end_headers()
        try:
            for _ in range(HUGE_MB):
                self.wfile.write(chunk)
                self.server.streamed += len(chunk)
        except OSError:
            return  # the browser gave up reading: the cap held


class DocumentSite(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, elsewhere: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.hits: list[str] = []
        self.streamed = 0
        self.pdf = make_pdf(self.url(""), elsewhere)
        self.xlsx = make_xlsx()
        self.files = {
            "index.html": Served(INDEX, "text/html"),
            "frames.html": Served(FRAMES, "text/html"),
            "report.pdf": Served(self.pdf, "application/pdf"),
            "attached": Served(self.pdf, "application/octet-stream", "annual.pdf"),
            "data.csv": Served(CSV, "text/csv", "data.csv"),
            "book.xlsx": Served(self.xlsx, "application/vnd.openxmlformats-officedocument."
                                "spreadsheetml.sheet", "book.xlsx"),
            "stock.xls": Served(make_xls(), "application/vnd.ms-excel", "stock.xls"),
            "stock.ods": Served(make_ods(), "application/vnd.oasis.opendocument.spreadsheet",
                                "stock.ods"),
            "records.json": Served(b'[{"city": "Lyon", "trams": 7}, {"city": "Graz", '
                                   b'"trams": 9, "note": "hills"}]', "application/json",
                                   "records.json"),
            "table.tsv": Served(b"code\tname\nA1\tAnvil\nB2\tBellows\n",
                                "text/tab-separated-values", "table.tsv"),
            "notes.txt": Served(b"Meeting notes\nThe budget is 12,500 euros.\n", "text/plain",
                                "notes.txt"),
            "broken.pdf": Served(b"%PDF-1.4 not really a PDF", "application/pdf"),
            "archive.zip": Served(b"PK\x05\x06" + b"\0" * 18, "application/zip", "archive.zip"),
        }

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/{path}".rstrip("/")


@contextmanager
def document_site(elsewhere: str) -> Iterator[DocumentSite]:
    """The site, its PDF linking to ``elsewhere`` (another site's origin)."""
    site = DocumentSite(elsewhere)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        site.shutdown()
        site.server_close()

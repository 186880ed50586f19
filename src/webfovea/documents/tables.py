"""Data files read into sheets of rows: CSV, TSV, XLSX, XLS, ODS, JSON and plain text.

CSV and TSV are decoded as UTF-8 (a byte-order mark dropped), falling back to Windows-1252;
a CSV's delimiter is sniffed among , ; | and tab. XLSX is read by openpyxl (cached values,
merged ranges kept so a merged header spans its columns); XLS and ODS by python-calamine.
JSON that is a list of records becomes a table whose header is the union of their keys;
any other JSON, and plain text, is shown as text.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import DocumentError
from .kinds import DocKind

MAX_ROWS = 5000  # per sheet shown; a longer sheet says how many rows it has
MAX_COLUMNS = 200
MAX_TEXT_CHARS = 2_000_000


@dataclass(frozen=True)
class Merge:
    """A merged range, 0-based and inclusive, as in the sheet."""

    first_row: int
    first_col: int
    last_row: int
    last_col: int


@dataclass
class Sheet:
    name: str
    rows: list[list[str]]
    total_rows: int
    merges: list[Merge] = field(default_factory=list)


@dataclass
class Tables:
    """A data document: sheets of rows, or (``text``) a document shown as text."""

    sheets: list[Sheet] = field(default_factory=list)
    text: str | None = None

    @property
    def row_count(self) -> int:
        return sum(s.total_rows for s in self.sheets)


def read(kind: DocKind, data: bytes) -> Tables:
    try:
        if kind in ("csv", "tsv"):
            return Tables([_delimited(data, "\t" if kind == "tsv" else None)])
        if kind == "xlsx":
            return Tables(_xlsx(data))
        if kind in ("xls", "ods"):
            return Tables(_calamine(data))
        if kind == "json":
            return _json(data)
        return Tables(text=_decode(data)[:MAX_TEXT_CHARS])
    except DocumentError:
        raise
    except Exception as e:  # each reader raises its own kinds for a damaged file
        raise DocumentError(f"its {kind.upper()} reader failed ({type(e).__name__}: "
                            f"{str(e)[:200]})") from e


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _delimited(data: bytes, delimiter: str | None) -> Sheet:
    text = _decode(data)
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:8192], delimiters=",;|\t").delimiter
        except csv.Error:
            delimiter = ","
    rows: list[list[str]] = []
    total = 0
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
        total += 1
        if len(rows) < MAX_ROWS:
            rows.append([cell.strip() for cell in row[:MAX_COLUMNS]])
    return Sheet("Sheet 1", rows, total)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _xlsx(data: bytes) -> list[Sheet]:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), data_only=True)  # not read-only: merges are kept
    sheets = []
    for ws in book.worksheets:
        # Read before iterating: asking for rows past the last makes empty cells, and more rows.
        empty = ws.max_row == ws.max_column == 1 and ws.cell(1, 1).value is None
        total = 0 if empty else ws.max_row
        rows = [[_cell(v) for v in row[:MAX_COLUMNS]]
                for row in ws.iter_rows(max_row=min(total, MAX_ROWS), values_only=True)]
        merges = [Merge(m.min_row - 1, m.min_col - 1, m.max_row - 1, m.max_col - 1)
                  for m in ws.merged_cells.ranges]
        sheets.append(Sheet(ws.title, rows, total, merges))
    return sheets


def _calamine(data: bytes) -> list[Sheet]:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    sheets = []
    for name in book.sheet_names:
        ws = book.get_sheet_by_name(name)
        rows = [[_cell(v) for v in row[:MAX_COLUMNS]]
                for row in ws.to_python(skip_empty_area=False, nrows=MAX_ROWS)]
        merges = [Merge(a[0], a[1], b[0], b[1]) for a, b in (ws.merged_cell_ranges or [])]
        total = ws.end[0] + 1 if rows and ws.end else 0  # rows from the top, as shown
        sheets.append(Sheet(name, rows, total, merges))
    return sheets


def _json(data: bytes) -> Tables:
    value = json.loads(_decode(data))
    if isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), list):
        value = next(iter(value.values()))  # {"data": [...]}: the records are the document
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        keys = list(dict.fromkeys(k for record in value for k in record))[:MAX_COLUMNS]
        rows = [keys] + [[_json_cell(r.get(k)) for k in keys] for r in value[:MAX_ROWS - 1]]
        return Tables([Sheet("Records", rows, len(value) + 1)])
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        rows = [[_json_cell(c) for c in row[:MAX_COLUMNS]] for row in value[:MAX_ROWS]]
        return Tables([Sheet("Rows", rows, len(value))])
    return Tables(text=json.dumps(value, indent=2, ensure_ascii=False)[:MAX_TEXT_CHARS])


def _json_cell(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else json.dumps(value)

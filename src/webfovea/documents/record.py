"""What result.json lists for each document a task met: opened, saved or refused."""

from __future__ import annotations

from pydantic import BaseModel


class DocumentRecord(BaseModel):
    url: str
    kind: str  # pdf, csv, tsv, xlsx, xls, ods, json, txt; "" for a refused other type
    content_type: str
    size: int  # bytes received; refused over the cap: its Content-Length (0: streamed)
    sha256: str = ""
    path: str = ""  # the saved copy, relative to the run directory ("" when not saved)
    shown: bool = False  # opened in the document view
    pages: int | None = None  # a PDF's pages
    rows: int | None = None  # a data file's rows, all sheets
    frame: bool = False  # opened inside a frame (<iframe>, <embed>) rather than a tab
    open_seconds: float = 0.0  # from the response headers to the view served
    note: str = ""  # the sentence the agent was told

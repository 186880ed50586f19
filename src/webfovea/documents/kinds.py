"""Which responses are documents: a PDF, a data file, another download, or a page.

Judged from the response headers alone (before any body is read), the way Chromium itself
decides between rendering a response and downloading it: ``Content-Type`` first, then the
file name of ``Content-Disposition`` or of the URL when the type says nothing
(``application/octet-stream``, a missing type).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urlsplit

DocKind = Literal["pdf", "csv", "tsv", "xlsx", "xls", "ods", "json", "txt"]
KINDS: tuple[DocKind, ...] = ("pdf", "csv", "tsv", "xlsx", "xls", "ods", "json", "txt")

_BY_TYPE: dict[str, DocKind] = {
    "application/pdf": "pdf", "application/x-pdf": "pdf",
    "text/csv": "csv", "application/csv": "csv", "text/x-csv": "csv",
    "text/tab-separated-values": "tsv",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.ms-excel": "xls", "application/excel": "xls",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
}
# Types a page shows as it is unless they come as an attachment: JSON and plain text are
# documents only when downloaded (a JSON API answer in a tab is already readable).
_BY_TYPE_IF_ATTACHED: dict[str, DocKind] = {"application/json": "json", "text/plain": "txt",
                                           "text/json": "json"}
_BY_EXTENSION: dict[str, DocKind] = {k: k for k in KINDS} | {"text": "txt"}
_UNTYPED = {"", "application/octet-stream", "binary/octet-stream", "application/download",
            "application/force-download", "application/x-download"}
# What Chromium renders in a tab; any other type is a download.
_RENDERED = re.compile(r"^(text/|image/|video/|audio/|application/(xhtml\+xml|xml|json|"
                       r"javascript|ecmascript|x-javascript|rss\+xml|atom\+xml|wasm)$|"
                       r".*\+xml$|multipart/x-mixed-replace)")
_FILENAME = re.compile(r"filename\*\s*=\s*[^']*'[^']*'([^;]+)|filename\s*=\s*\"?([^\";]+)\"?", re.I)


@dataclass(frozen=True)
class Verdict:
    """``kind``: the document it is (None: not one); ``download``: Chromium would download
    it rather than show it; ``content_type`` as served, ``filename`` as it would be saved."""

    kind: DocKind | None
    download: bool
    content_type: str
    filename: str


def judge(url: str, headers: dict[str, str]) -> Verdict:
    """The verdict for a response to ``url`` with ``headers`` (names in lower case)."""
    ctype = headers.get("content-type", "").split(";")[0].strip().lower()
    disposition = headers.get("content-disposition", "")
    attached = disposition.strip().lower().startswith("attachment")
    filename = _disposition_name(disposition) or _url_name(url)
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    kind = _BY_TYPE.get(ctype)
    if kind is None and attached:
        kind = _BY_TYPE_IF_ATTACHED.get(ctype)
    if kind is None and (ctype in _UNTYPED or (attached and ctype.startswith("text/"))):
        kind = _BY_EXTENSION.get(extension)
    # A response without a type is sniffed and shown; a PDF is shown (by Chromium's viewer,
    # which the document view replaces).
    download = attached or (bool(ctype) and not _RENDERED.match(ctype) and kind != "pdf")
    return Verdict(kind, download, ctype or "(no type)", filename or "download")


def _disposition_name(disposition: str) -> str:
    m = _FILENAME.search(disposition)
    if m is None:
        return ""
    name = unquote(m.group(1)) if m.group(1) else m.group(2)
    return name.strip().rsplit("/", 1)[-1]


def _url_name(url: str) -> str:
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])

"""Where in a document something was: "page 3 of 12", "sheet “Q2”, row 5".

In the browser (find_text's selected match, read_text's label) it is read from the view's
DOM (webfovea.browser.document_place). In text the session saw, it is read back from the view's labels
(see webfovea.documents.view): the last "Page N of M" before a match, or the row number
that starts the match's table line and the sheet heading above it.
"""

from __future__ import annotations

import re
from typing import Any

_PAGE = re.compile(r"^Page (\d+) of (\d+)", re.M)
_SHEET = re.compile(r"^Sheet \u201c(.*)\u201d \u00b7 \d+ rows", re.M)
_ROW = re.compile(r"^(\d+)\t")


def phrase(place: dict[str, Any], pages: int) -> str:
    """A place the view reports ({page} or {sheet, row}) in words."""
    if "page" in place:
        return f"page {place['page']} of {pages}"
    return f"sheet \u201c{place['sheet']}\u201d, row {place['row']}"


def text_place(text: str, at: int) -> str:
    """The place of offset ``at`` in a document view's page text, '' if it is not one."""
    pages = [m for m in _PAGE.finditer(text, 0, at + 1)]
    if pages:
        return f"page {pages[-1].group(1)} of {pages[-1].group(2)}"
    sheets = [m for m in _SHEET.finditer(text, 0, at + 1)]
    if not sheets:
        return ""
    line = text[text.rfind("\n", 0, at) + 1:]
    row = _ROW.match(line)
    return f"sheet \u201c{sheets[-1].group(1)}\u201d" + (f", row {row.group(1)}" if row else "")


_NUMBER = re.compile(r"\d[\d,.]*\d|\d")


def find_place(text: str, needle: str) -> str:
    """The document place of ``needle`` (an answer's part) in a document view's text: found
    as written (case aside), else by its first number as the page writes it; '' if the text
    is no document view's or the needle is not in it as such."""
    if not (_PAGE.search(text) or _SHEET.search(text)):
        return ""
    at = text.casefold().find(needle.strip().casefold())
    if at < 0:
        number = _NUMBER.search(needle)
        digits = re.sub(r"\D", "", number.group(0)) if number else ""
        at = next((m.start() for m in _NUMBER.finditer(text)
                   if digits and re.sub(r"\D", "", m.group(0)) == digits), -1)
    return text_place(text, at) if at >= 0 else ""

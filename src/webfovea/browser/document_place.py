"""Where in a document view find_text's selected match or read_text's label is: read from
the view's DOM (js/document_place.js) and phrased by :mod:`webfovea.documents.place`."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from ..documents.place import phrase
from .scripts import js

MAX_PLACES = 5


async def _places(frame: Frame, label: str | None) -> dict[str, Any] | None:
    try:
        found: dict[str, Any] | None = await frame.evaluate(js("document_place"), {"label": label})
    except PlaywrightError:
        return None
    return found


async def selection_place(frame: Frame) -> str:
    """' on page 3 of 12 of the PDF' for the selected match in a document view, else ''."""
    found = await _places(frame, None)
    if not found or not found["places"]:
        return ""
    what = " of the PDF" if found["kind"] == "pdf" else ""
    return f" on {phrase(found['places'][0], found['pages'])}{what}"


async def label_places(frame: Frame, label: str) -> str:
    """'; in the document: page 3 of 12' listing where ``label`` occurs, else ''."""
    found = await _places(frame, label)
    if not found or not found["places"]:
        return ""
    places = [phrase(p, found["pages"]) for p in found["places"][:MAX_PLACES]]
    more = f" and {len(found['places']) - MAX_PLACES} more" if len(found["places"]) > MAX_PLACES else ""
    return f"; in the document: {', '.join(places)}{more}"

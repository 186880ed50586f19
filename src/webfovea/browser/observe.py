"""Observation tools: find_text and read_text reach what the screenshot hides."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from .document_place import label_places, selection_place
from .locate import short_url
from .scripts import at_point

READ_LIMIT = 600
LEVELS = {3: "exact", 2: "partial", 1: "fuzzy"}


@dataclass
class FindState:
    """Cycling state of repeated find_text calls (match i of n)."""

    query: str = ""
    index: int = -1


@dataclass(frozen=True)
class Observation:
    sentence: str
    details: dict[str, Any] = field(default_factory=dict)


async def _count(frame: Frame, text: str, scroll_to: int | None = None) -> int:
    try:
        count: int = await frame.evaluate(at_point("find_text"), {"text": text, "scrollTo": scroll_to})
    except PlaywrightError:
        return 0  # a detached or navigating frame has no matches we could show
    return count


async def _shown(frame: Frame) -> bool:
    """A child frame whose <iframe> is not rendered cannot show its matches."""
    if frame.parent_frame is None:
        return True
    try:
        element = await frame.frame_element()
        return await element.bounding_box() is not None
    except PlaywrightError:
        return False


async def _reveal(frame: Frame) -> None:
    """Scroll every <iframe> around ``frame`` into view, outermost first."""
    chain: list[Frame] = []
    current: Frame | None = frame
    while current is not None and current.parent_frame is not None:
        chain.insert(0, current)
        current = current.parent_frame
    for f in chain:
        try:
            await (await f.frame_element()).scroll_into_view_if_needed(timeout=2000)
        except PlaywrightError:
            return


async def find_text(page: Page, text: str, state: FindState) -> Observation:
    """Scroll the next match (main frame, then child frames) into view; no page text back."""
    frames = [f for f in page.frames if await _shown(f)]
    counts = await asyncio.gather(*(_count(f, text) for f in frames))
    total = sum(counts)
    if total == 0:
        state.query, state.index = text, -1
        return Observation(f"find_text found no match for '{text}' on the page or in its "
                           "frames, so nothing was scrolled", {"found": False, "total": 0})
    state.index = (state.index + 1) % total if state.query == text else 0
    state.query = text
    local = state.index
    for frame, count in zip(frames, counts, strict=True):
        if local < count:
            await _reveal(frame)
            await _count(frame, text, local)
            where = f" inside the frame {short_url(frame.url)}" if frame.parent_frame else ""
            where = await selection_place(frame) + where  # a match in a document view
            return Observation(
                f"find_text found '{text}': match {state.index + 1} of {total}{where}, now "
                "scrolled into view and selected",
                {"found": True, "index": state.index + 1, "total": total,
                 "frame": frame.url if frame.parent_frame else None})
        local -= count
    raise AssertionError("match index out of range")  # counts sum to total


async def _read(frame: Frame, label: str) -> dict[str, Any] | None:
    try:
        r: dict[str, Any] = await frame.evaluate(at_point("read_text"),
                                                 {"label": label, "limit": READ_LIMIT})
    except PlaywrightError:
        return None
    return r if r.get("matches") else None


async def read_text(page: Page, label: str) -> Observation:
    """DOM text around the best match for the label, across frames; glyphs counted."""
    frames = page.frames
    results = await asyncio.gather(*(_read(f, label) for f in frames))
    found = [(f, r) for f, r in zip(frames, results, strict=True) if r]
    if not found:
        return Observation(f"read_text found no text matching '{label}' on the page or in its "
                           "frames", {"found": False, "matches": 0})
    # Exact before fuzzy, visible before hidden, the main frame before child frames, then
    # nearest the centre of its own viewport.
    frame, best = max(found, key=lambda fr: (fr[1]["level"], fr[1]["visible"],
                                              fr[0].parent_frame is None, -fr[1]["dist"]))
    matches = sum(r["matches"] for _, r in found)
    where = f" in the frame {short_url(frame.url)}" if frame.parent_frame else ""
    glyphs = (f"; {best['glyphs']} character(s) drawn by an icon font are shown as ?"
              if best["glyphs"] else "")
    seen = "visible" if best["visible"] else "hidden"
    places = await label_places(frame, label)  # in a document view: its pages or rows
    return Observation(
        f"read_text for '{label}' ({matches} match{'es' if matches != 1 else ''}, the best is "
        f"{LEVELS[best['level']]} and {seen}{where}{glyphs}{places}): \"{best['text']}\"",
        {"found": True, "matches": matches, "level": LEVELS[best["level"]],
         "visible": best["visible"], "glyphs": best["glyphs"], "chars": len(best["text"]),
         "frame": frame.url if frame.parent_frame else None})

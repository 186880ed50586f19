"""Observation tools: find_text and read_text reach what the screenshot hides."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from .scripts import js

READ_LIMIT = 600


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
        count: int = await frame.evaluate(js("find_text"), {"text": text, "scrollTo": scroll_to})
    except PlaywrightError:
        return 0  # a detached or navigating frame has no matches we could show
    return count


async def find_text(page: Page, text: str, state: FindState) -> Observation:
    frames = page.frames
    counts = [await _count(f, text) for f in frames]
    total = sum(counts)
    if total == 0:
        state.query, state.index = text, -1
        return Observation(f"'{text}' was not found on the page (frames included)",
                           {"found": False, "total": 0})
    state.index = (state.index + 1) % total if state.query == text else 0
    state.query = text
    local = state.index
    for frame, count in zip(frames, counts, strict=True):
        if local < count:
            element = await frame.frame_element() if frame.parent_frame else None
            if element is not None:
                await element.scroll_into_view_if_needed()
            await _count(frame, text, local)
            where = f" inside frame {frame.url}" if frame.parent_frame else ""
            return Observation(
                f"found '{text}': match {state.index + 1} of {total}{where}, scrolled into view",
                {"found": True, "index": state.index + 1, "total": total, "frame": frame.url})
        local -= count
    raise AssertionError("match index out of range")  # counts sum to total


async def read_text(page: Page, label: str) -> Observation:
    for frame in page.frames:
        try:
            r: dict[str, Any] = await frame.evaluate(js("read_text"),
                                                     {"label": label, "limit": READ_LIMIT})
        except PlaywrightError:
            continue
        if r.get("matches"):
            glyphs = f"; {r['glyphs']} unreadable glyph(s) shown as ?" if r["glyphs"] else ""
            kind = "exact" if r["exact"] else "partial"
            seen = "visible" if r["visible"] else "hidden"
            where = f" in frame {frame.url}" if frame.parent_frame else ""
            return Observation(
                f"read_text for '{label}' ({r['matches']} match(es), best is {kind} and {seen}"
                f"{where}{glyphs}): \"{r['text']}\"",
                {"found": True, **r})
    return Observation(f"read_text found no text matching '{label}'", {"found": False})

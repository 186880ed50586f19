"""DOM fingerprints before and after an action, main frame and child frames."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from .. import faults
from .scripts import js
from .session import Tabs

# Fields an action can cause on its own. The text hash is compared only for
# actions whose whole effect may be text (hover tooltips), because ticking
# clocks and carousels change text without any action.
STRUCTURAL = ("url", "title", "nodes", "scrollX", "scrollY", "container", "fields", "focus")


@dataclass(frozen=True)
class FramePrint:
    url: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Fingerprint:
    main: dict[str, Any]
    frames: tuple[FramePrint, ...] = ()
    tabs: int = 1
    page_url: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


async def _frame_print(frame: Frame, point: tuple[float, float] | None) -> dict[str, Any] | None:
    x, y = point if point else (None, None)
    try:
        data: dict[str, Any] = await frame.evaluate(js("fingerprint"), {"x": x, "y": y})
    except PlaywrightError:
        return None  # frame detached or navigating: absent from this print
    return data


async def take(tabs: Tabs, *, point: tuple[float, float] | None = None,
               frame_point: tuple[Frame, float, float] | None = None) -> Fingerprint:
    page = tabs.page
    main = await _frame_print(page.main_frame, point) or {}
    frames = []
    child_frames = [] if faults.active("no_frame_fingerprint") else page.frames[1:]
    for frame in child_frames:
        local = (frame_point[1], frame_point[2]) if frame_point and frame_point[0] is frame else None
        data = await _frame_print(frame, local)
        if data is not None:
            frames.append(FramePrint(frame.url, data))
    return Fingerprint(main=main, frames=tuple(frames), tabs=tabs.tab_count, page_url=page.url)


def diff(before: Fingerprint, after: Fingerprint, *, text: bool = False) -> list[str]:
    """What changed, as short labels ('url', 'frame:scrollY', 'tabs', ...)."""
    keys = (*STRUCTURAL, "textHash") if text else STRUCTURAL
    changed = [k for k in keys if before.main.get(k) != after.main.get(k)]
    if before.page_url != after.page_url and "url" not in changed:
        changed.append("url")
    if before.tabs != after.tabs:
        changed.append("tabs")
    before_frames = {f.url: f.data for f in before.frames}
    after_frames = {f.url: f.data for f in after.frames}
    if set(before_frames) != set(after_frames):
        changed.append("frames")
    for url, data in after_frames.items():
        old = before_frames.get(url)
        if old is None:
            continue
        changed.extend(f"frame:{k}" for k in keys if k != "focus" and old.get(k) != data.get(k))
    return changed

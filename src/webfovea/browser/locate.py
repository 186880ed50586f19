"""Hit-testing a page point through nested iframes (same- and cross-origin)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from playwright.async_api import ElementHandle, FloatRect, Frame, Page

from .evidence import Target
from .scripts import at_point, js

MAX_FRAME_DEPTH = 6

Graphic = Literal["svg", "canvas", "shadow"]  # shadow: a closed shadow root's host


def short_url(url: str, limit: int = 80) -> str:
    """A URL short enough for a one-sentence note (query strings dropped)."""
    bare = url.split("#", 1)[0].split("?", 1)[0]
    return bare if len(bare) <= limit else bare[: limit - 1] + "…"


@dataclass(frozen=True)
class Hit:
    """The innermost frame under a page point, the point in its coordinates, and the element."""

    frame: Frame
    x: float
    y: float
    info: dict[str, Any] | None  # describe_at.js
    page_x: float = 0.0
    page_y: float = 0.0

    async def handle(self) -> ElementHandle | None:
        """The element at the point, for actions that act on it (fill a date, select)."""
        return (await self.frame.evaluate_handle(js("element_at"),
                                                 {"x": self.x, "y": self.y})).as_element()

    @property
    def in_child_frame(self) -> bool:
        return self.frame.parent_frame is not None

    @property
    def graphic(self) -> Graphic | None:
        """SVG, canvas or closed shadow root under the point: its effect may be text or
        pixels only."""
        return self.info.get("graphic") if self.info else None

    def canvas_clip(self) -> FloatRect | None:
        """The visible part of the canvas (or closed shadow host) under the point, in page
        (viewport) CSS pixels."""
        box = self.info.get("canvas") if self.info else None
        if not box:
            return None
        dx, dy = self.page_x - self.x, self.page_y - self.y
        left, top = max(0.0, box["left"] + dx), max(0.0, box["top"] + dy)
        right, bottom = box["left"] + dx + box["width"], box["top"] + dy + box["height"]
        if right - left < 1 or bottom - top < 1:
            return None
        return FloatRect(x=left, y=top, width=right - left, height=bottom - top)

    def describe(self) -> str:
        """Tag, role, own visible text, frame and clickability, for a note."""
        where = f" in frame {short_url(self.frame.url)}" if self.in_child_frame else ""
        if not self.info:
            return f"no element{where}"
        i = self.info
        parts = [f"<{i['tag']}{'#' + i['id'] if i['id'] else ''}>"]
        if i["role"]:
            parts.append(f"role={i['role']}")
        if i["text"]:
            parts.append(f"\"{i['text'][:60]}\"")
        clickable = "clickable" if i["clickable"] else "not clickable"
        return f"{' '.join(parts)}{where} ({clickable})"

    def target(self) -> Target:
        """What feedback needs to know of the element, as data."""
        select = self.info.get("select") if self.info else None
        return Target(self.describe(), clickable=bool(self.info and self.info["clickable"]),
                      graphic=bool(self.graphic),
                      frame=short_url(self.frame.url) if self.in_child_frame else None,
                      options=tuple(select["options"]) if select else None)


async def hit_test(page: Page, x: float, y: float) -> Hit:
    """The innermost frame and element at a page point. One evaluate per frame level: the
    element's handle is asked for only when it is an iframe to step into (and by
    :meth:`Hit.handle` for the few actions that act on the element itself)."""
    frame, lx, ly = page.main_frame, float(x), float(y)
    for _ in range(MAX_FRAME_DEPTH):
        info = await frame.evaluate(at_point("describe_at"), {"x": lx, "y": ly})
        box = info.get("frameBox") if info else None
        child = await _frame_at(frame, lx, ly) if box else None
        if box is None or child is None:
            break
        lx, ly, frame = lx - box["left"], ly - box["top"], child
    return Hit(frame=frame, x=lx, y=ly, info=info, page_x=float(x), page_y=float(y))


async def _frame_at(frame: Frame, x: float, y: float) -> Frame | None:
    element = (await frame.evaluate_handle(js("element_at"), {"x": x, "y": y})).as_element()
    return await element.content_frame() if element else None

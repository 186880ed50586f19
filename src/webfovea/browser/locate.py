"""Hit-testing a page point through nested iframes (same- and cross-origin)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.async_api import ElementHandle, Frame, Page

from .scripts import js

MAX_FRAME_DEPTH = 6


@dataclass(frozen=True)
class Hit:
    """The innermost frame under a page point, the point in its coordinates, and the element."""

    frame: Frame
    x: float
    y: float
    element: ElementHandle | None
    info: dict[str, Any] | None  # describe_at.js

    @property
    def in_child_frame(self) -> bool:
        return self.frame.parent_frame is not None

    def describe(self) -> str:
        if not self.info:
            return "no element"
        i = self.info
        parts = [f"<{i['tag']}{'#' + i['id'] if i['id'] else ''}>"]
        if i["role"]:
            parts.append(f"role={i['role']}")
        if i["text"]:
            parts.append(f"\"{i['text'][:60]}\"")
        where = f" in frame {self.frame.url}" if self.in_child_frame else ""
        clickable = "clickable" if i["clickable"] else "not clickable"
        return f"{' '.join(parts)}{where} ({clickable})"


async def hit_test(page: Page, x: float, y: float) -> Hit:
    frame, lx, ly = page.main_frame, float(x), float(y)
    element: ElementHandle | None = None
    for _ in range(MAX_FRAME_DEPTH):
        element = (await frame.evaluate_handle(js("element_at"), {"x": lx, "y": ly})).as_element()
        if element is None:
            break
        child = await element.content_frame()
        if child is None:
            break
        box = await element.evaluate(js("content_box"))
        lx, ly, frame = lx - box["left"], ly - box["top"], child
    info = await frame.evaluate(js("describe_at"), {"x": lx, "y": ly})
    return Hit(frame=frame, x=lx, y=ly, element=element, info=info)

"""Layout reports from suite pages, and the composed layout an oracle reads.

Every suite page runs ``static/js/reporter.js``, which POSTs the rects and
displayed text of its ``data-fovea`` elements to ``/__fovea/report`` (see
FRAMEWORK.md). Reports are kept per *lane*: the listening port the request
arrived on. Each browser gets its own lane through its host rules, so several
browsers can share one server and each oracle reads only its own browser's
pages. Within a lane the current page is the top-level document shown most
recently and not yet unloaded (a new tab opened by a form becomes current).
Child frames report in their own viewport; :func:`compose` shifts them by the
iframe's content origin from the parent's report, so every rect is in
top-level viewport CSS pixels.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Mapping

from pydantic import BaseModel, Field

from .spec import Cond, Gone, Present, Shown, TextHas, UrlHas, ValueIs


class ReportedElement(BaseModel):
    id: str
    x: float
    y: float
    w: float
    h: float
    visible: bool
    hit: bool | None = None  # the element (or a descendant) is what a click at its centre hits
    text: str = ""
    value: str | None = None
    # For an <iframe>: its name (the child reports window.name) and content box.
    frame: str | None = None
    ox: float = 0.0
    oy: float = 0.0
    cw: float = 0.0
    ch: float = 0.0


class PageReport(BaseModel):
    page: str  # random per document
    show: int = 1  # incremented on pageshow (back/forward cache restores)
    seq: int = 0  # per document; a report older than the one kept is ignored
    top: bool = True
    frame: str = ""  # window.name of a child frame
    url: str = ""
    title: str = ""
    vw: float = 0.0
    vh: float = 0.0
    sx: float = 0.0
    sy: float = 0.0
    gone: bool = False
    elements: list[ReportedElement] = Field(default_factory=list)


class Element(BaseModel):
    """One marked element in top-level viewport CSS pixels."""

    id: str
    x: float
    y: float
    w: float
    h: float
    visible: bool
    in_view: bool  # visible and its centre lies inside the viewport and every enclosing frame
    hit: bool | None = None
    text: str = ""
    value: str | None = None
    frame: str = ""  # "" for the top document, else the frame's name

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


class Layout(BaseModel):
    """The composed layout of a lane's current page, as GET /__fovea/layout returns it."""

    page: str
    url: str
    title: str
    viewport_w: float
    viewport_h: float
    scroll_x: float
    scroll_y: float
    updated_at: float
    elements: list[Element]

    def get(self, element_id: str) -> Element | None:
        return next((e for e in self.elements if e.id == element_id), None)

    def holds(self, cond: Cond) -> bool:
        if isinstance(cond, UrlHas):
            return cond.text in self.url
        el = self.get(cond.target)
        if isinstance(cond, Gone):
            return el is None or not el.visible
        if el is None:
            return False
        if isinstance(cond, Shown):
            return el.in_view
        if isinstance(cond, Present):
            return el.visible
        if isinstance(cond, TextHas):
            return el.visible and norm(cond.text) in norm(el.text)
        if isinstance(cond, ValueIs):
            return norm(el.value or "") == norm(cond.value)
        raise TypeError(f"unknown condition {cond!r}")


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


Clip = tuple[float, float, float, float]  # left, top, right, bottom


def _inside(x: float, y: float, clip: Clip) -> bool:
    return clip[0] <= x < clip[2] and clip[1] <= y < clip[3]


def _place(el: ReportedElement, dx: float, dy: float, clip: Clip, frame: str,
           frame_hit: bool | None) -> Element:
    x, y = el.x + dx, el.y + dy
    in_view = el.visible and _inside(x + el.w / 2, y + el.h / 2, clip)
    hit = el.hit if frame_hit is None or el.hit is None else (el.hit and frame_hit)
    return Element(id=el.id, x=x, y=y, w=el.w, h=el.h, visible=el.visible, in_view=in_view,
                   hit=hit, text=el.text, value=el.value, frame=frame)


def _compose_into(out: list[Element], report: PageReport, frames: Mapping[str, PageReport], *,
                  dx: float, dy: float, clip: Clip, frame: str, frame_hit: bool | None,
                  depth: int) -> None:
    for el in report.elements:
        out.append(_place(el, dx, dy, clip, frame, frame_hit))
        if not el.frame or not el.visible or depth >= 3 or el.frame not in frames:
            continue
        child = frames[el.frame]
        ox, oy = el.ox + dx, el.oy + dy
        inner = (max(clip[0], ox), max(clip[1], oy),
                 min(clip[2], ox + el.cw), min(clip[3], oy + el.ch))
        _compose_into(out, child, frames, dx=ox, dy=oy, clip=inner, frame=el.frame,
                      frame_hit=el.hit, depth=depth + 1)


def compose(top: PageReport, frames: Mapping[str, PageReport], *, updated_at: float) -> Layout:
    """The top report with each reported child frame's elements shifted into its iframe."""
    elements: list[Element] = []
    _compose_into(elements, top, frames, dx=0.0, dy=0.0, clip=(0.0, 0.0, top.vw, top.vh),
                  frame="", frame_hit=None, depth=0)
    return Layout(page=top.page, url=top.url, title=top.title, viewport_w=top.vw,
                  viewport_h=top.vh, scroll_x=top.sx, scroll_y=top.sy, updated_at=updated_at,
                  elements=elements)


class _Seen(BaseModel):
    report: PageReport
    shown_at: float


class _Lane:
    def __init__(self) -> None:
        self.pages: dict[str, _Seen] = {}
        self.frames: dict[str, _Seen] = {}
        # page id -> (show, seq) of its "gone" report: a report sent before it and
        # delivered after it must not bring an unloaded document back.
        self.gone: dict[str, tuple[int, int]] = {}
        self.last_report = 0.0

    def stale(self, report: PageReport, kept: _Seen | None) -> bool:
        gone = self.gone.get(report.page)
        if gone is not None and (report.show, report.seq) <= gone:
            return True
        return (kept is not None and kept.report.page == report.page
                and (report.show, report.seq) < (kept.report.show, kept.report.seq))


class LayoutStore:
    """Latest reports per lane; thread-safe (the server handles requests in threads)."""

    def __init__(self) -> None:
        self._lanes: dict[int, _Lane] = {}
        self._cond = threading.Condition()

    def add(self, lane: int, report: PageReport) -> None:
        now = time.time()
        with self._cond:
            state = self._lanes.setdefault(lane, _Lane())
            state.last_report = now
            table = state.pages if report.top else state.frames
            key = report.page if report.top else report.frame
            old = table.get(key)
            if report.gone:
                state.gone[report.page] = (report.show, report.seq)
                if old is not None and old.report.page == report.page:
                    del table[key]
            elif not state.stale(report, old):
                shown_at = now
                if old is not None and (old.report.page, old.report.show) == (report.page,
                                                                              report.show):
                    shown_at = old.shown_at
                table[key] = _Seen(report=report, shown_at=shown_at)
            self._cond.notify_all()

    def wait_quiet(self, lane: int, *, quiet: float, timeout: float) -> None:
        """Block until the lane has had no report for ``quiet`` seconds (or ``timeout``)."""
        deadline = time.time() + timeout
        with self._cond:
            while True:
                state = self._lanes.get(lane)
                now = time.time()
                idle = now - state.last_report if state else quiet
                if idle >= quiet or now >= deadline:
                    return
                self._cond.wait(timeout=min(quiet - idle, deadline - now))

    def current(self, lane: int) -> Layout | None:
        with self._cond:
            state = self._lanes.get(lane)
            if state is None or not state.pages:
                return None
            top = max(state.pages.values(), key=lambda s: s.shown_at)
            frames = {name: seen.report for name, seen in state.frames.items()}
            return compose(top.report, frames, updated_at=state.last_report)

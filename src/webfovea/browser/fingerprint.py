"""DOM fingerprints before and after an action, every frame through its own context.

Each frame is fingerprinted by one evaluate of ``js/fingerprint.js``, which also keeps a
watcher in the frame that learns which regions change by themselves (clocks, carousels)
and compares the frame with its own snapshot: see that file for the noise rule. This
module adds what only the browser side knows (open tabs, whether a frame's document was
replaced, a canvas's pixels) and turns the comparisons into a
:class:`~webfovea.browser.evidence.Comparison`, the data feedback words.
"""

from __future__ import annotations

import asyncio
import io
import time
from dataclasses import dataclass
from typing import Any, Literal

from PIL import Image, ImageChops
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FloatRect, Frame, Page

from .errors import boundary
from .evidence import Change, ChangeKind, Comparison
from .locate import Hit, short_url
from .scripts import evaluate_watched
from .session import Tabs

Phase = Literal["watch", "baseline", "before", "peek", "after"]

# How long a frame's watcher must have watched before its noise rule can be trusted: a
# one-second clock must have ticked twice (or a region that changed once stayed quiet this
# long). Paid only when a page is fingerprinted for the first time right before an action;
# call :func:`watch` when the page is shown to the model and the model's thinking covers it.
BASELINE_QUIET_MS = 1100
BASELINE_CAP_MS = 2500
CANVAS_SAMPLE = (32, 32)  # the canvas image hash: grey levels of this grid
CANVAS_TOLERANCE = 6  # grey levels; a redraw of the same picture is pixel-identical
CANVAS_RESAMPLE_S = 0.12  # second look before the action, to see if the canvas animates


@dataclass(frozen=True, eq=False)
class FramePrint:
    frame: Frame
    data: dict[str, Any]
    primary: bool  # the main frame or the frame under the point (baseline awaited)


@dataclass(frozen=True)
class CanvasPrint:
    """A pixel hash of the canvas, or of the closed shadow root's host, under the point."""

    clip: FloatRect
    grey: bytes
    animating: bool = False
    kind: ChangeKind = "canvas"  # "pixels" for a closed shadow root's host


@dataclass(frozen=True)
class Fingerprint:
    frames: tuple[FramePrint, ...]  # main frame first, when it could be read
    tabs: int
    url: str
    canvas: CanvasPrint | None = None
    ms: float = 0.0  # time spent taking it

    @property
    def main(self) -> FramePrint | None:
        first = self.frames[0] if self.frames else None
        return first if first and first.frame.parent_frame is None else None


async def _evaluate(frame: Frame, phase: Phase, point: tuple[float, float] | None, *,
                    probe: bool = False) -> dict[str, Any] | None:
    """``probe`` (phase "before"): a frame too young to know its noise says so (``young``)
    instead of opening its action window."""
    x, y = point if point else (None, None)
    args = {"x": x, "y": y, "phase": phase, "quietMs": BASELINE_QUIET_MS,
            "capMs": BASELINE_CAP_MS, "probe": probe}
    try:
        data: dict[str, Any] = await evaluate_watched(frame, "fingerprint", args)
    except PlaywrightError:
        return None  # frame detached or navigating: absent from this print
    return data


def _frames(page: Page, main_only: bool = False) -> list[Frame]:
    # main_only: the "frame-fallback" fix ablated (webfovea.core.ablations), the naive print.
    if main_only:
        return [page.main_frame]
    return page.frames


def _local_point(frame: Frame, point: tuple[int, int] | None, hit: Hit | None
                 ) -> tuple[float, float] | None:
    if hit is not None and frame is hit.frame:
        return hit.x, hit.y
    if frame.parent_frame is None and point is not None:
        return float(point[0]), float(point[1])
    return None


async def _take(tabs: Tabs, phase: Phase, point: tuple[int, int] | None, hit: Hit | None,
                main_only: bool = False, *, probe: bool = False) -> list[FramePrint]:
    """``probe``: the primary frames (whose baseline is awaited) probe their age first."""
    frames = _frames(tabs.page, main_only)
    primary = {tabs.page.main_frame, hit.frame if hit else tabs.page.main_frame}
    results = await asyncio.gather(*(_evaluate(f, phase, _local_point(f, point, hit),
                                               probe=probe and f in primary)
                                     for f in frames))
    return [FramePrint(f, data, f in primary) for f, data in zip(frames, results, strict=True) if data]


@boundary
async def watch(page: Page) -> None:
    """Start the noise watchers in every frame (cheap, idempotent): call it when a page is
    shown to the model, so the model's thinking time is the watchers' baseline."""
    await asyncio.gather(*(_evaluate(f, "watch", None) for f in _frames(page)))


async def before(tabs: Tabs, *, point: tuple[int, int] | None, hit: Hit | None,
                 baseline: bool = True, main_only: bool = False) -> Fingerprint:
    """Snapshot every frame and open the action window. ``baseline``: on a page watched
    too briefly, first wait until its noise is known (skip it for actions whose note
    does not rest on the comparison, such as find_text and read_text)."""
    started = time.perf_counter()
    frames = await _take(tabs, "before", point, hit, main_only, probe=baseline)
    young = [f.frame for f in frames if f.data.get("young")]
    if young:  # all frames snapshot again after the wait, so their windows start together
        await asyncio.gather(*(_evaluate(f, "baseline", None) for f in young))
        frames = await _take(tabs, "before", point, hit, main_only)
    moving = any(f.data["snap"]["volatileAt"] for f in frames if hit and f.frame is hit.frame)
    canvas = await _canvas_before(tabs.page, hit, moving=moving)
    return Fingerprint(tuple(frames), tabs.tab_count, tabs.page.url, canvas,
                       ms=(time.perf_counter() - started) * 1000)


async def after(tabs: Tabs, *, point: tuple[int, int] | None, hit: Hit | None,
                canvas: CanvasPrint | None, main_only: bool = False) -> Fingerprint:
    """Compare every frame with its snapshot and close the action window."""
    started = time.perf_counter()
    frames = await _take(tabs, "after", point, hit, main_only)
    again = await _canvas(tabs.page, canvas.clip) if canvas else None
    return Fingerprint(tuple(frames), tabs.tab_count, tabs.page.url, again,
                       ms=(time.perf_counter() - started) * 1000)


async def peek(tabs: Tabs, *, hit: Hit) -> bool:
    """Has anything changed since ``before``, in any frame? Keeps the action window open."""
    frames = await _take(tabs, "peek", (round(hit.page_x), round(hit.page_y)), hit)
    return any(_frame_changes(None, f, text=False) or f.data.get("fresh") for f in frames)


def compare(before: Fingerprint, after: Fingerprint | None, *, text: bool) -> Comparison:
    """Everything feedback needs of the two prints. ``after`` is None when the page was not
    fingerprinted again (the action leaves the page alone, or a new tab took over)."""
    changes = diff(before, after, text=text) if after else []
    return Comparison(tuple(changes), _evidence(before, after, changes),
                      unreadable=after is not None and after.main is None,
                      animating=bool(before.canvas and before.canvas.animating),
                      moving=tuple(uncertain(after)) if after else ())


def _evidence(before: Fingerprint, after: Fingerprint | None, changes: list[Change]
              ) -> dict[str, Any]:
    ignored = sum(f.data.get("ignored", 0) for f in after.frames) if after else 0
    out: dict[str, Any] = {"changes": [c.label for c in changes],
                           "fingerprint_ms": round(before.ms + (after.ms if after else 0.0), 1),
                           "frames": len(before.frames)}
    if ignored:
        out["noise_ignored"] = ignored  # mutations in regions that change by themselves
    old, new = before.main, after.main if after else None
    if old and new and "state" in new.data:  # the main frame's size, for the trajectory
        out["nodes"] = [old.data["snap"]["nodes"], new.data["state"]["nodes"]]
        out["text_length"] = [old.data["snap"]["textLength"], new.data["state"]["textLength"]]
    return out


def diff(before: Fingerprint, after: Fingerprint, *, text: bool) -> list[Change]:
    """What the action changed. ``text``: compare visible text too (hover, SVG, canvas)."""
    changes: list[Change] = []
    if after.tabs != before.tabs:
        changes.append(Change("tabs", detail=str(after.tabs)))
    if before.main is not None and after.main is None and after.url != before.url:
        changes.append(Change("url", detail=short_url(after.url)))
    olds = {f.frame: f for f in before.frames}
    for new in after.frames:
        old = olds.get(new.frame)
        if old is not None:  # a new frame's <iframe> insertion is a mutation of its parent
            changes.extend(_frame_changes(old, new, text=text))
    if before.canvas and after.canvas and not before.canvas.animating and _differs(
            before.canvas.grey, after.canvas.grey):
        changes.append(Change(before.canvas.kind))
    return changes


def uncertain(after: Fingerprint) -> list[str]:
    """Regions that change by themselves, were aimed at and changed during the action,
    with nothing to tell whether the action did it."""
    return [label for f in after.frames for label in f.data.get("uncertain", ())]


def _frame_changes(old: FramePrint | None, new: FramePrint, *, text: bool) -> list[Change]:
    d = new.data
    frame = short_url(d["state"]["url"]) if new.frame.parent_frame and "state" in d else None
    if old is not None and old.data["id"] != d["id"]:  # the document was replaced
        same = old.data["snap"]["url"] == d.get("state", {}).get("url")
        return [Change("reload" if same else "url", frame, short_url(d["state"]["url"]))]
    if "changes" not in d:
        return []
    c: dict[str, Any] = d["changes"]
    # Noise can only be told apart in a frame watched long enough; a frame that appeared
    # just before the action (an ad slot, a lazy widget) keeps only its hard evidence.
    watched = new.primary or d["snapAge"] >= BASELINE_QUIET_MS
    out = []
    if "url" in c:
        out.append(Change("url", frame, short_url(c["url"])))
    if "title" in c:
        out.append(Change("title", frame, c["title"][:80]))
    if "content" in c and watched:
        out.append(Change("content", frame, ", ".join(c["content"])))
    if c.get("text") and text and watched:
        out.append(Change("text", frame))
    if "scroll" in c:
        out.append(Change("scroll", frame, _movement(c["scroll"])))
    if "container" in c:
        dx, dy, which = c["container"]
        out.append(Change("container", frame, f"{_movement([dx, dy])}, {which}"))
    if c.get("fields"):
        out.append(Change("fields", frame))
    if "focus" in c:
        out.append(Change("focus", frame, c["focus"]))
    if c.get("selection"):
        out.append(Change("selection", frame))
    return out


def _movement(delta: list[int]) -> str:
    dx, dy = delta
    parts = []
    if dy:
        parts.append(f"{'down' if dy > 0 else 'up'} {abs(dy)} px")
    if dx:
        parts.append(f"{'right' if dx > 0 else 'left'} {abs(dx)} px")
    return ", ".join(parts)


# --- canvas: where text cannot tell, a cheap image hash of the canvas region ---------------


async def _canvas(page: Page, clip: FloatRect) -> CanvasPrint | None:
    try:
        png = await page.screenshot(type="png", clip=clip)
    except PlaywrightError:
        return None
    with Image.open(io.BytesIO(png)) as img:
        grey = img.convert("L").resize(CANVAS_SAMPLE, Image.Resampling.BOX).tobytes()
    return CanvasPrint(clip, grey)


async def _canvas_before(page: Page, hit: Hit | None, *, moving: bool) -> CanvasPrint | None:
    """``moving``: the watcher saw it redraw by itself; else a second look may see it."""
    clip = hit.canvas_clip() if hit else None
    if clip is None:
        return None
    first = await _canvas(page, clip)
    await asyncio.sleep(CANVAS_RESAMPLE_S)
    second = await _canvas(page, clip)
    if first is None or second is None:
        return None
    kind: ChangeKind = "pixels" if hit and hit.graphic == "shadow" else "canvas"
    return CanvasPrint(clip, second.grey, animating=moving or _differs(first.grey, second.grey),
                       kind=kind)


def _differs(a: bytes, b: bytes) -> bool:
    one = Image.frombytes("L", CANVAS_SAMPLE, a)
    two = Image.frombytes("L", CANVAS_SAMPLE, b)
    return bool(ImageChops.difference(one, two).point(lambda v: v > CANVAS_TOLERANCE).getbbox())

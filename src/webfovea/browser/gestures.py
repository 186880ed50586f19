"""Pointer gestures as a person makes them: ``drag`` and ``scroll``.

A drag presses, moves in small steps spaced in time and rests before it releases: HTML5
drag-and-drop (SortableJS's native mode) starts only on a move after the press and takes
the drop target from the last ``dragover``, which a pointer that jumps and lets go at once
never delivers; sliders and map pans follow the steps the same way. A scroll moves the
container under the point by a fraction of that container's visible size (the page's when
it is the page), so a short list box is never jumped over. Both read back, once the page
has settled, what only the page can say: where the dragged item or slider ended up, and
whether the container reached its end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, JSHandle, Mouse

from ..core.config import Size
from .evidence import Effect
from .locate import Hit
from .scripts import at_point, js

DRAG_STEPS = 16
DRAG_STEP_S = 0.016  # one frame between moves: a hand moves about this smoothly
DRAG_PRESS_S = 0.05  # resting after the press, as a person does before moving
DRAG_HOLD_S = 0.15  # resting over the target before the release, so it takes the drop
SCROLL_FRACTION = 0.6  # of the visible size of what scrolls: 40 % stays on screen

_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


async def drag(mouse: Mouse, hit: Hit | None, start: tuple[int, int], end: tuple[int, int]
               ) -> Effect:
    """Press at ``start``, move to ``end`` in steps spaced in time, rest, release."""
    frame = hit.frame if hit else None
    subject = await _drag_subject(frame, hit)
    (x1, y1), (x2, y2) = start, end
    await mouse.move(x1, y1)
    await mouse.down()
    await asyncio.sleep(DRAG_PRESS_S)
    for i in range(1, DRAG_STEPS + 1):
        t = i / DRAG_STEPS
        await mouse.move(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
        await asyncio.sleep(DRAG_STEP_S)
    await asyncio.sleep(DRAG_HOLD_S)
    await mouse.up()
    return Effect(readback=_drag_readback(frame) if frame and subject else None)


async def _drag_subject(frame: Frame | None, hit: Hit | None) -> dict[str, Any] | None:
    if frame is None or hit is None:
        return None
    try:
        found: dict[str, Any] | None = await frame.evaluate(
            at_point("drag_subject"), {"x": hit.x, "y": hit.y, "phase": "before"})
    except PlaywrightError:
        return None
    return found


def _drag_readback(frame: Frame) -> Callable[[], Awaitable[list[str]]]:
    async def read() -> list[str]:
        try:
            where = await frame.evaluate(at_point("drag_subject"), {"x": 0, "y": 0, "phase": "after"})
        except PlaywrightError:
            return []
        return _drag_facts(where)
    return read


def _drag_facts(where: dict[str, Any] | None) -> list[str]:
    if not where:
        return []
    if where["kind"] == "slider":
        if where["after"] is None:
            return ["the slider it started on is gone"]
        if where["after"] == where["before"]:
            return [f"the slider still reads {where['after']}"]
        return [f"the slider now reads {where['after']} (was {where['before']})"]
    if where.get("gone"):
        return [f"'{where['name']}' is no longer where it was (it left the list)"]
    if not where["moved"]:
        return []  # a text selection or a drag that moved nothing: the page comparison says it
    place = f"'{where['name']}' is now item {where['after'] + 1} of {where['count']}"
    beside = [f"after '{where['prev']}'" if where["prev"] else "",
              f"before '{where['next']}'" if where["next"] else ""]
    shown = ", ".join(b for b in beside if b)
    return [f"{place} ({shown})" if shown else place]


async def scroll(mouse: Mouse, hit: Hit | None, point: tuple[int, int], direction: str, *,
                 viewport: Size) -> Effect:
    """Wheel at the point by a fraction of the visible size of the container that scrolls."""
    sx, sy = _DIRECTIONS[direction]
    target = await _scroll_target(hit, sx, sy)
    handle, size = target if target else (None, {"width": viewport.width, "height": viewport.height})
    dx = sx * round(size["width"] * SCROLL_FRACTION)
    dy = sy * round(size["height"] * SCROLL_FRACTION)
    await mouse.move(*point)
    await mouse.wheel(dx, dy)
    details: dict[str, Any] = {"direction": direction, "wheel": [dx, dy]}
    if target is None or hit is None:
        return Effect(details=details)
    return Effect(details=details, readback=_scroll_readback(hit.frame, handle, sx, sy))


async def _scroll_target(hit: Hit | None, sx: int, sy: int
                         ) -> tuple[JSHandle | None, dict[str, int]] | None:
    if hit is None:
        return None
    try:
        pair = await hit.frame.evaluate_handle(at_point("scroll_target"),
                                               {"x": hit.x, "y": hit.y, "dx": sx, "dy": sy})
        element = (await pair.get_property("0")).as_element()
        size: dict[str, int] = await (await pair.get_property("1")).json_value()
    except PlaywrightError:
        return None
    return element, size


def _scroll_readback(frame: Frame, handle: JSHandle | None, sx: int, sy: int
                     ) -> Callable[[], Awaitable[list[str]]]:
    async def read() -> list[str]:
        try:
            end = await frame.evaluate(js("scroll_end"), {"el": handle, "dx": sx, "dy": sy})
        except PlaywrightError:
            return []
        if not end:
            return []
        what = "the page" if handle is None else "that scroll container"
        if end == "none":
            return [f"{what} has nothing to scroll that way"]
        edge = {(0, 1): "bottom", (0, -1): "top", (1, 0): "right end", (-1, 0): "left end"}[(sx, sy)]
        return [f"{what} is now at its {edge}"]
    return read

"""A read-back that the action's own effect cut short: a control whose change loads another
page (a jump menu's ``onchange="location=..."``, a field that submits its form as it is
typed into) destroys the document the read-back was to look at. That is the action taking
effect, not failing: the read is given up, and the note's comparison of the page before and
after says where it went.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

T = TypeVar("T")

# What Playwright says when the document an evaluation ran in is replaced or its frame goes.
_SIGNS = ("Execution context was destroyed", "frame was detached", "Frame was detached",
          "Cannot find context with specified id")


def by_navigation(error: PlaywrightError) -> bool:
    """The evaluation failed because its document was navigated away from."""
    return any(sign in str(error) for sign in _SIGNS)


class Left:
    """The page navigated away before it could be read."""


LEFT = Left()


async def unless_navigated(read: Awaitable[T]) -> T | Left:
    """``await read``; :data:`LEFT` when the page navigated away under it (any other error
    is raised)."""
    try:
        return await read
    except PlaywrightError as e:
        if by_navigation(e):
            return LEFT
        raise


async def document_of(frame: Frame) -> float | Left:
    """Which document the frame shows (its time origin: a new one for every page loaded)."""
    return await unless_navigated(frame.evaluate("performance.timeOrigin"))


async def left_since(frame: Frame, document: float | Left) -> bool:
    """The frame shows another document than ``document`` (or is on its way to one)."""
    now = await document_of(frame)
    return isinstance(now, Left) or isinstance(document, Left) or now != document

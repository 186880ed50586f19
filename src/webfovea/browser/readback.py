"""Reading a control back once it has stopped changing.

The page may have settled (no timer, request or mutation the action started is still
running) while a control is still on its way to its value: an app whose server answers
the choice a round trip later (Gradio's dropdown behind 100 ms of latency shows '' first,
then 'Oslo'). A read-back that does not yet show what was chosen is read again until it
does, or until it has stayed the same for a moment, within a cap: the note then says what
the control shows at rest, never a passing state.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

STEADY_S = 1.0  # unchanged this long (round trips, a render): at rest
POLL_S = 0.05
CAP_S = 2.0  # at most this long after the page settled


async def at_rest(read: Callable[[], Awaitable[T]], done: Callable[[T], bool], *,
                  cap: float = CAP_S, steady: float = STEADY_S) -> T:
    """``read()`` until ``done`` holds for what it returns, or it returned the same for
    ``steady`` seconds, or ``cap`` seconds passed; the last value read."""
    started = time.monotonic()
    value = await read()
    since = started
    while not done(value):
        now = time.monotonic()
        if now - since >= steady or now - started >= cap:
            break
        await asyncio.sleep(POLL_S)
        again = await read()
        if again != value:
            value, since = again, time.monotonic()
    return value

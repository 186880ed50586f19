"""The user's stop (Ctrl-C, SIGTERM) and a closed stdout, turned into clean endings.

``run`` runs a coroutine with SIGINT and SIGTERM handled by cancelling it: every
``finally`` and ``except CancelledError`` on the way out runs (the agent records
``interrupted`` in ``result.json``, the bench marks its invocation interrupted),
then :class:`Interrupted` carries the signal to the command line, which prints one
line and exits 128 + the signal number (130 for SIGINT, 143 for SIGTERM), as shells do.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Coroutine
from types import FrameType
from typing import Any, TypeVar

from ..core.errors import WebfoveaError

T = TypeVar("T")
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(WebfoveaError):
    """The user stopped the command with a signal; ``code`` is the exit code it maps to."""

    status = "interrupted"

    def __init__(self, signum: int, detail: str = "") -> None:
        self.signum = signum
        name = signal.Signals(signum).name
        super().__init__(f"interrupted by {name}" + (f"; {detail}" if detail else ""))

    @property
    def code(self) -> int:
        return 128 + self.signum


class Terminated(KeyboardInterrupt):
    """SIGTERM outside an event loop: unwinds like Ctrl-C (a KeyboardInterrupt, so asyncio
    and context managers treat it as a stop rather than an error)."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


def install_handlers() -> None:
    """Make SIGINT and SIGTERM unwind the program (KeyboardInterrupt, :class:`Terminated`)
    instead of killing it mid-write; replaces the entry point's stop-at-once handlers."""
    for signum, handler in ((signal.SIGINT, signal.default_int_handler),
                            (signal.SIGTERM, _raise_terminated)):
        if signal.getsignal(signum) is not signal.SIG_IGN:  # ignored by the parent: stay so
            signal.signal(signum, handler)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` where SIGINT/SIGTERM cancel the coroutine and raise :class:`Interrupted`.

    A second signal cancels again, cutting the cleanup short (an impatient user).
    """
    received: list[int] = []
    previous = {s: signal.getsignal(s) for s in SIGNALS}

    async def main() -> T:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None

        def stop(signum: int) -> None:
            received.append(signum)
            task.cancel()

        for s in SIGNALS:
            loop.add_signal_handler(s, stop, s)
        try:
            return await coroutine
        finally:
            for s in SIGNALS:
                loop.remove_signal_handler(s)

    try:
        result = asyncio.run(main())
    except asyncio.CancelledError:
        if received:
            raise Interrupted(received[0]) from None
        raise
    finally:
        for s, handler in previous.items():
            if handler is not None:
                signal.signal(s, handler)
    if received:  # a coroutine that finished despite the cancellation was still stopped
        raise Interrupted(received[0])
    return result


def closed_stdout() -> int:
    """After a BrokenPipeError (``webfovea score RUN | head``): silence stdout for the
    interpreter's final flush and return 128 + SIGPIPE, the exit a shell expects."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + signal.SIGPIPE


def flush_stdout() -> int | None:
    """Flush stdout now, so a closed pipe shows here rather than as the interpreter's
    "Exception ignored" at exit; the exit code to use when it was closed."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return closed_stdout()
    return None

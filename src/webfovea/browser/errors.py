"""The browser's error boundary: Playwright's errors become the package's, here only.

As httpx maps its transport's exceptions at one seam, the calls the loop makes into
``browser/`` are translated by :func:`translated` (or the :func:`boundary` decorator), so
nothing above ``browser/`` catches, or even imports, Playwright.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from ..core.errors import BrowserError, PageTimeout

P = ParamSpec("P")
R = TypeVar("R")


def message(error: PlaywrightError) -> str:
    """Playwright's message without its call log: the first line."""
    return (error.message or str(error)).splitlines()[0]


@contextmanager
def translated() -> Iterator[None]:
    """A Playwright error inside becomes a BrowserError with its first line."""
    try:
        yield
    except PlaywrightTimeout as e:
        raise PageTimeout(message(e)) from e
    except PlaywrightError as e:
        raise BrowserError(message(e)) from e


def boundary(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """``translated`` around an async function of the browser package the loop calls."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with translated():
            return await fn(*args, **kwargs)

    return wrapper

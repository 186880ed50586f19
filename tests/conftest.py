"""Shared fixtures: one real headless Chromium for the test session, local page servers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from webfovea.browser.session import BrowserSession
from webfovea.config import BrowserConfig
from webfovea.testing.local_server import LocalServer

PAGES = Path(__file__).parent / "pages"


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[BrowserSession]:
    async with BrowserSession(BrowserConfig()) as session:
        yield session


@pytest.fixture(scope="session")
def pages() -> Iterator[LocalServer]:
    """tests/pages served on 127.0.0.1."""
    with LocalServer(PAGES) as server:
        yield server

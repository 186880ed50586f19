"""Shared fixtures: one real headless Chromium for the test session, local page servers."""

from __future__ import annotations

import re
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import settings

from counting_site import Counter, counting_site
from gallery_helpers import Browsers
from webfovea.browser.executor import Executor
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig
from webfovea.core.errors import ConfigError

PAGES = Path(__file__).parent / "pages"

# Hypothesis' per-example deadline is a timing assertion, and one slow example on a loaded
# machine fails a property that holds; speed lives in the benchmarks.
settings.register_profile("webfovea", deadline=None)
settings.load_profile("webfovea")


def pytest_configure(config: pytest.Config) -> None:
    """A suite started as a script's background job (``make test &``) inherits SIGINT
    ignored, and so would every command the tests start: the Ctrl-C tests' commands would
    rightly ignore their Ctrl-C. The tests run as from a terminal's foreground."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_SHARED: list[BrowserSession] = []


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[BrowserSession]:
    async with BrowserSession(BrowserConfig()) as session:
        _SHARED.append(session)
        yield session


@pytest_asyncio.fixture(autouse=True)
async def _shared_browser_outlives_the_test() -> AsyncIterator[None]:
    """A test that kills the session's browser (one that kills "every Chromium under this
    process", say) fails by name, and the browser is started again for the tests after it,
    instead of every later test failing with "browser has been closed"."""
    yield
    dead = [session for session in _SHARED if not session.connected]
    for session in dead:
        await session.restart()
    if dead:
        pytest.fail("the test session's shared browser died during this test (restarted)")


@pytest.fixture(scope="session")
def pages() -> Iterator[LocalServer]:
    """tests/pages served on 127.0.0.1."""
    with LocalServer(PAGES) as server:
        yield server


@pytest.fixture(scope="module")
def openai_key() -> Iterator[None]:
    """OPENAI_API_KEY set for a module's tests: the fake provider ignores keys, but the
    OpenAI client refuses to start without one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", "test-key")
        yield


@pytest.fixture(scope="session")
def other() -> Iterator[LocalServer]:
    """The same pages from another origin (``localhost``), for cross-origin frames."""
    with LocalServer(PAGES, host="localhost") as server:
        yield server


@pytest.fixture
def elsewhere() -> Iterator[tuple[str, type[Counter]]]:
    """Another site that counts every request reaching it (see counting_site)."""
    with counting_site() as site:
        yield site


Opener = Callable[[str], AbstractAsyncContextManager[Executor]]


@pytest.fixture(scope="session")
def opened(browser: BrowserSession) -> Opener:
    """``async with opened(url) as executor``: a fresh context on ``url`` and its executor."""

    @asynccontextmanager
    async def open_page(url: str) -> AsyncIterator[Executor]:
        tabs = await browser.new_tabs()
        try:
            await tabs.open(url)
            yield Executor(tabs, AgentConfig())
        finally:
            await tabs.close()

    return open_page


@pytest.fixture(scope="session")
def miniwob_html() -> Path:
    """MiniWoB++'s HTML tasks (the miniwob extra); a machine without them skips the test."""
    from webfovea.miniwob import assets

    try:
        return assets.html_root()
    except ConfigError as e:  # it names the extra to install
        pytest.skip(str(e))


GALLERY = Path(__file__).parent / "gallery"


@pytest.fixture(scope="session")
def gallery() -> Iterator[LocalServer]:
    """tests/gallery (pages built from real npm components by scripts/build_gallery.sh, which
    setup runs) served on 127.0.0.1: a page is ``gallery.url("/pages/<name>.html")``."""
    if not (GALLERY / "dist").is_dir():
        raise RuntimeError("tests/gallery/dist is missing: run scripts/build_gallery.sh (make setup does)")
    with LocalServer(GALLERY) as server:
        yield server


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def sized() -> AsyncIterator[Browsers]:
    """``async with sized.open(view, url) as executor``: a tab of the headless Chromium for
    that screen size (tests/gallery_helpers.py), one browser per size for the session."""
    browsers = Browsers()
    try:
        yield browsers
    finally:
        await browsers.close()


# Modules whose tests are long end-to-end runs (a bench, a suite, a docs build; 30–120 s
# each), longest first. xdist hands out work in collection order, so these start first and
# none is left running alone at the end while the other workers idle.
LONGEST_FIRST = (
    "test_answers_scoring", "test_docs", "test_dialects_openai_gemini_suite", "test_dialect_loop",
    "test_archives_suite", "test_answers_suite", "test_suite_run", "test_bench_ray",
    "test_preflight_contracts", "test_miniwob", "test_interrupts", "test_page_faults", "test_cli",
    "test_provider_faults", "test_mcp", "test_viewport_seen",
)
# Modules with a fixture of module or class scope (a bench run, a set of recorded runs).
SHARED_SETUP = re.compile(r"fixture\([^)]*scope=\"(module|class)\"")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(item.nodeid.split("::", 1)[0]).stem, len(rank)))


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``-n``, a module whose tests share a fixture of its own scope runs on one worker,
    so that setup is paid once instead of once per worker; every other test is balanced
    freely. (xdist's ``loadgroup`` marks do not group under pytest 9, which no longer takes
    the node id they rewrite.)"""
    from xdist.scheduler import LoadScopeScheduling

    shared = {f"tests/{path.name}" for path in Path(__file__).parent.glob("test_*.py")
              if SHARED_SETUP.search(path.read_text("utf-8"))}

    class SharedSetupTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in shared else nodeid

    return SharedSetupTogether(config, log)


# A rerun is a bug to find (Makefile): the summary says why each first try failed, which the
# rerun plugin's own summary (-rR) does not.
_RERUN_CAUSES: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        crash = getattr(report.longrepr, "reprcrash", None)
        why = crash.message if crash is not None else str(report.longrepr)[-800:]
        _RERUN_CAUSES.append(f"{report.nodeid} ({report.when}): {why}")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _RERUN_CAUSES:
        terminalreporter.section("why each rerun's first try failed")
        for cause in _RERUN_CAUSES:
            terminalreporter.line(cause[:2000])

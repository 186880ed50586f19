"""One MCP session's task: started by its first tool call, run by the ordinary agent loop,
ended by ``finish``, a limit, or the client leaving (then ``interrupted``)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..browser.session import BrowserSession
from ..core.domains import WEB_SCHEMES, DomainPolicy
from ..core.errors import ParseError
from ..core.task import Task
from ..loop.agent import run_task
from ..rundir.trajectory import ResultRecord
from .dialect import McpDialect
from .replies import Reply
from .settings import ServeSettings
from .tools import SCREENSHOT, kind_of, open_url

INSTRUCTION = "An MCP client's agent drives this session; its task is the client's."


class SessionRun:
    def __init__(self, settings: ServeSettings, browser: BrowserSession, *, name: str) -> None:
        self.settings, self.browser, self.name = settings, browser, name
        self.out: Path = settings.out / name
        self.dialect = McpDialect()
        self._task: asyncio.Task[ResultRecord] | None = None
        self._starting = asyncio.Lock()  # two first calls at once start one run
        self._attempts = 1

    async def call(self, name: str, arguments: dict[str, Any]) -> Reply:
        """One tool call, answered when the loop has executed it and looked again."""
        kind = kind_of(name)
        async with self._starting:
            if self._task is not None and kind == "open" and self._never_opened():
                self._again()
            if self._task is None:
                return await self._first(kind, name, arguments)
        # A later open is the navigate action: the loop guards, executes and records it.
        return Reply.of(await self.dialect.submit(name, arguments), out=self.out)

    async def _first(self, kind: str, name: str, arguments: dict[str, Any]) -> Reply:
        if kind == "open":
            try:
                url = open_url(arguments)
            except ParseError as e:
                return Reply.failed(str(e))
            refusal = self._refuse_entry(url)
            if refusal:
                return Reply.failed(refusal, guardrail="domain_lock")
            self._start(url)
            return Reply.of(await self.dialect.submit(SCREENSHOT, {}), out=self.out,
                            opened=url)
        if self.settings.url is None:
            return Reply.failed("No page is open yet: call open(url) first (or start the "
                                "server with --url).")
        self._start(self.settings.url)
        return Reply.of(await self.dialect.submit(name, arguments), out=self.out)

    def _refuse_entry(self, url: str) -> str | None:
        scheme = urlsplit(url).scheme.lower()
        if scheme not in WEB_SCHEMES:
            return (f"Refused by the domain lock: {scheme or 'scheme-less'}: pages are not "
                    "allowed; open an http(s) URL.")
        if self.settings.url is None:
            return None
        why = DomainPolicy.for_task(self.settings.url,
                                    self.settings.agent.allow_domains).verdict(url)
        return None if why is None else (
            f"Refused by the domain lock: a navigation to {url} was blocked: {why} (start the "
            "server with --allow-domain to let it go there).")

    def _never_opened(self) -> bool:
        """The run ended before its first step (an entry page that did not load): another
        ``open`` may try again in this session, as a run of its own."""
        task = self._task
        return (task is not None and task.done() and not task.cancelled()
                and task.result().steps == 0)

    def _again(self) -> None:
        self._attempts += 1
        self.out = self.settings.out / f"{self.name}-{self._attempts}"
        self.dialect, self._task = McpDialect(), None

    def _start(self, url: str) -> None:
        task = Task(instruction=INSTRUCTION, url=url, id=self.out.name)
        self._task = asyncio.create_task(self._run(task))

    async def _run(self, task: Task) -> ResultRecord:
        ended = ResultRecord(task=task.instruction, url=task.url, task_id=task.id,
                             status="interrupted")
        try:
            ended = await run_task(task, dialect=self.dialect, session=self.browser,
                                   config=self.settings.agent, out=self.out)
            return ended
        finally:
            self.dialect.end(ended)

    async def close(self) -> None:
        """The client left: a run still going ends ``interrupted`` and its context closes."""
        task = self._task
        if task is None or task.done():
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

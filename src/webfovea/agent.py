"""The loop: observe, ask the model, parse, guard, execute, record. Nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import events, feedback
from .browser import fingerprint
from .browser.capture import Screen, capture, visible_text
from .browser.domain_lock import DomainLock
from .browser.errors import translated
from .browser.executor import Executor, safe_execute
from .browser.session import BrowserSession, Tabs
from .config import AgentConfig
from .errors import BrowserError, PageTimeout, ParseError, TimeLimit, WebfoveaError
from .geometry import model_space
from .guard import Guard
from .models.base import Model, ModelReply, ModelRequest, SentImage, Usage
from .models.sent import sent_summary
from .parse import parse_reply
from .prompt import HistoryItem, Shown, build_request, coordinate_text, first_shown
from .rundir import TrajectoryWriter
from .snapshot.session import SiteSession
from .stages import Stages, stage
from .task import Task
from .text import well_formed
from .trajectory import ResultRecord, StepRecord, UsageRecord


async def run_task(task: Task, *, model: Model, session: BrowserSession, config: AgentConfig,
                   out: Path, tabs: Tabs | None = None) -> ResultRecord:
    """Run one task to a named status; writes ``out`` (DESIGN's run directory) as it goes.

    ``tabs``: a page the caller already opened on the task and keeps (MiniWoB runs a task's
    episodes one after another in one page); it is neither opened, locked nor closed here."""
    own = tabs is None
    writer = TrajectoryWriter(out)
    result = ResultRecord(task=task.instruction, url=task.url, task_id=task.id, model=model.name,
                          config=_jsonable(config))
    writer.write_result(result)
    guard = Guard(config)
    site: SiteSession | None = None
    lock: DomainLock | None = None  # the guardrail that lives in the browser
    events.emit(events.StepEvent("task_started", result.task_id))
    try:
        with translated():  # the browser's boundary: whatever Playwright raised is a BrowserError
            if tabs is None:
                site = SiteSession(config.site, task.id, task.url, out,
                                   host_rules=session.config.host_rules)
                result.site = site.record
                tabs = await session.new_tabs()
                lock = await DomainLock.for_task(tabs, task.url, config.allow_domains,
                                                 downstream=await site.attach(tabs))
                await tabs.open(task.url, timeout=min(60.0, guard.remaining()),
                                settle_cap=config.settle_cap)
            await _Run(task, model, tabs, guard, lock, writer, result).loop()
    except WebfoveaError as e:
        result.status, result.error = e.status, str(e)
        if lock and lock.blocked:  # e.g. an entry URL that redirects off the site
            result.error += f" ({lock.blocked[-1].sentence()})"
    except asyncio.CancelledError:  # the user's stop (or the bench's hard limit, which says so)
        result.status, result.error = "interrupted", f"stopped during step {result.steps + 1}"
        raise
    except Exception as e:  # a bug in webfovea: the run still ends with a named status
        result.status, result.error = "harness_error", f"{type(e).__name__}: {e}"
    finally:
        if site is not None and tabs is not None:
            await site.close()  # before the context closes: recorded bodies are read from it
        # Written before the tab closes: a second Ctrl-C may cut the close short.
        result.elapsed = time.monotonic() - guard.started
        writer.write_result(result)
        events.emit(events.StepEvent("task_done", result.task_id, result.steps,
                                     usage=result.usage, result=result))
        if own and tabs is not None:
            await tabs.close()
    return result


@dataclass
class _Run:
    """One task's loop state; each method is one stage of a step."""

    task: Task
    model: Model
    tabs: Tabs
    guard: Guard
    lock: DomainLock | None  # None on a page the caller opened (and guards)
    writer: TrajectoryWriter
    result: ResultRecord
    history: list[HistoryItem] = field(default_factory=list)
    shown: list[Shown] = field(default_factory=list)
    note: str = ""
    usage: Usage = field(default_factory=Usage)

    def __post_init__(self) -> None:
        self.config: AgentConfig = self.guard.config
        self.executor = Executor(self.tabs, self.config)

    async def loop(self) -> None:
        step = 0
        while (stop := self.guard.stop_reason(step)) is None:
            step += 1
            events.emit(events.StepEvent("step_started", self.result.task_id, step))
            try:
                # Everything in a step, page actions included, is bounded by the time left.
                record = await asyncio.wait_for(self.step(step), self.guard.remaining())
            except asyncio.TimeoutError:
                raise TimeLimit(f"the time limit ran out during step {step}") from None
            self.writer.append_step(record)
            self.result.steps, self.result.usage = step, self.usage_record(self.usage)
            self.writer.write_result(self.result)
            events.emit(events.StepEvent("step_done", self.result.task_id, step, record,
                                         self.result.usage))
            if self.result.status != "running":
                return
        self.result.status = stop
        if stop == "time_limit":  # said like the time limit that runs out inside a step
            self.result.error = (f"the time limit of {self.config.time_limit:g} s ran out "
                                 f"before step {step + 1}")

    async def step(self, step: int) -> StepRecord:
        with Stages().active() as stages:
            record = await self._step(step)
        record.stage_seconds = stages.rounded()
        return record

    async def _step(self, step: int) -> StepRecord:
        t0 = time.monotonic()
        screen = await self.capture()
        # Written in a thread while the model thinks: the disk is not on the step's path.
        saving = asyncio.ensure_future(asyncio.to_thread(self.writer.write_screen, step,
                                                         screen.png))
        try:
            return await self._decide_and_act(step, screen, t0)
        finally:
            with stage("trajectory_write"):
                await saving

    async def _decide_and_act(self, step: int, screen: Screen, t0: float) -> StepRecord:
        # The fingerprint's noise watchers learn the page while the model thinks: started
        # now, awaited once the reply is in, so the call does not wait for them (nor they
        # count as the model's time when the model answers at once).
        watching = asyncio.ensure_future(fingerprint.watch(self.tabs.page))
        try:
            return await self._ask_and_act(step, screen, t0, watching)
        finally:
            if not watching.done():  # the model call failed: the watchers are not needed
                watching.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebfoveaError):  # raised above
                await watching

    async def _ask_and_act(self, step: int, screen: Screen, t0: float,
                           watching: asyncio.Future[None]) -> StepRecord:
        with stage("prompt"):
            space = model_space(screen.sent, self.config.coords, self.config.smart_resize)
            sent = SentImage(screen.png, screen.sent.width, screen.sent.height)
            coords = coordinate_text(space, sent.width, sent.height, self.config.coords)
            oldest = first_shown(step, self.config)
            self.shown = [s for s in [*self.shown, Shown(step, sent, coords)] if s.step >= oldest]
            request = build_request(task=self.task.instruction, config=self.config,
                                    history=self.history, shown=self.shown, note=self.note)
        record = StepRecord(step=step, started_at=time.time(), url=screen.url, title=screen.title,
                            screenshot=self.writer.screen_path(step),
                            sent_size=(screen.sent.width, screen.sent.height),
                            page_size=(screen.page.width, screen.page.height),
                            model_size=(space.width, space.height))
        t_model = time.monotonic()
        reply = await self.ask(request)
        record.model_seconds = time.monotonic() - t_model
        with stage("fingerprints"):
            await watching
        record.raw_reply, record.usage = reply.text, self.usage_record(reply.usage)
        record.request = sent_summary(request)
        # What the viewer shows as sent: this step's own prompt text, and which steps'
        # screenshots rode along (by step number: the images are in screens/, not copied).
        record.request.update(image_steps=[s.step for s in self.shown],
                              turn_text=request.turns[-1].text if request.turns else "")
        note = await self.act(reply.text, record, screen)
        note.text = well_formed(note.text)  # page text (a dialog's, an element's) rides in it
        record.note, record.outcome = note.text, note.outcome
        record.guardrail, record.frame, record.details = note.guardrail, note.frame, note.details
        record.harness_seconds = time.monotonic() - t0 - record.model_seconds
        self.history.append(HistoryItem(step, record.thought, record.action_source or "(none)",
                                        note.text))
        self.note = note.text
        return record

    async def capture(self) -> Screen:
        """The screen; a page too busy to paint (an endless ``confirm()`` loop, a spinning
        script) is waited on, so the task's time limit ends it, not a screenshot timeout."""
        while True:
            try:
                return await capture(self.tabs.page, cap=self.config.image_cap)
            except PageTimeout:
                if self.tabs.gone():
                    raise

    def usage_record(self, usage: Usage) -> UsageRecord:
        price = self.config.price
        cost = None if price is None else price.cost(
            input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens)
        return UsageRecord(**asdict(usage), cost=cost)

    async def ask(self, request: ModelRequest) -> ModelReply:
        """One model call (with the client's retries), bounded by the task's remaining time."""
        reply = await self.model.complete(request, timeout=self.guard.remaining())
        self.usage.add(reply.usage)
        return reply

    async def act(self, text: str, record: StepRecord, screen: Screen) -> feedback.Note:
        """Parse the reply, apply the guardrails, execute; returns the note for the model."""
        try:
            with stage("parse"):
                parsed = parse_reply(text)
        except ParseError as e:
            record.parse_error = str(e)
            return feedback.Note("parse_error", str(e))
        action = parsed.action
        record.thought, record.stripped = parsed.thought, list(parsed.stripped)
        record.action, record.action_source = action.to_json(), action.source()
        refusal = self.guard.check(action)
        if refusal is not None:
            return feedback.refused(refusal.guardrail, refusal.note)
        if action.spec.ends_task:
            return await self.answer(action.text("content"))
        blocked_before = len(self.lock.blocked) if self.lock else 0
        with stage("execute"):
            note = await safe_execute(self.executor, action, screen)
        record.page_points = list(note.page_points)
        if self.lock and len(self.lock.blocked) > blocked_before:
            note.guardrail = note.guardrail or "domain_lock"
        escalation = self.guard.after(action, note.outcome, note.page_points)
        if escalation:
            note.text = f"{note.text} {escalation}"
        return note

    async def answer(self, content: str) -> feedback.Note:
        """The answer with its evidence: the page as it was when the answer was given."""
        result = self.result
        try:
            with translated():
                png = await self.tabs.page.screenshot(type="png")
            result.evidence = self.writer.write_evidence(png)
            self.writer.write_evidence_text(await visible_text(self.tabs.page))
        except BrowserError as e:
            result.error = f"evidence screenshot failed: {e}"
        result.answer_url, result.evidence_at = self.tabs.page.url, time.time()
        if not content.strip():
            result.status = "gave_up"
            return feedback.Note("answer", "Finished without an answer.")
        result.status, result.answer = "finished", content
        return feedback.Note("answer", "Answer recorded.")


def _jsonable(config: AgentConfig) -> dict[str, object]:
    data = asdict(config)
    data["image_cap"] = str(config.image_cap) if config.image_cap else None
    return data

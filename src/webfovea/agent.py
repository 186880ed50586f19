"""The loop: observe, ask the model, parse, guard, execute, record. Nothing else."""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.async_api import Error as PlaywrightError

from . import feedback
from .browser import fingerprint
from .browser.capture import Screen, capture, visible_text
from .browser.executor import Executor, safe_execute
from .browser.session import BrowserSession, Tabs
from .config import AgentConfig
from .errors import ParseError, TimeLimit, WebfoveaError
from .geometry import model_space
from .guard import Guard
from .models.base import Model, ModelReply, ModelRequest, SentImage, Usage
from .parse import parse_reply
from .prompt import HistoryItem, build_request
from .rundir import TrajectoryWriter
from .task import Task
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
    try:
        if tabs is None:
            tabs = await session.new_tabs()
            await guard.install(tabs, task.url)
            await tabs.open(task.url, timeout=min(60.0, guard.remaining()))
        await _Run(task, model, tabs, guard, writer, result).loop()
    except WebfoveaError as e:
        result.status, result.error = e.status, str(e)
        if guard.lock and guard.lock.blocked:  # e.g. an entry URL that redirects off the site
            result.error += f" ({guard.lock.blocked[-1].sentence()})"
    except PlaywrightError as e:
        result.status, result.error = "browser_error", (e.message or str(e)).splitlines()[0]
    finally:
        if own and tabs is not None:
            await tabs.close()
        result.elapsed = time.monotonic() - guard.started
        writer.write_result(result)
    return result


@dataclass
class _Run:
    """One task's loop state; each method is one stage of a step."""

    task: Task
    model: Model
    tabs: Tabs
    guard: Guard
    writer: TrajectoryWriter
    result: ResultRecord
    history: list[HistoryItem] = field(default_factory=list)
    images: list[SentImage] = field(default_factory=list)
    note: str = ""
    usage: Usage = field(default_factory=Usage)

    def __post_init__(self) -> None:
        self.config: AgentConfig = self.guard.config
        self.executor = Executor(self.tabs, self.config)

    async def loop(self) -> None:
        step = 0
        while (stop := self.guard.stop_reason(step)) is None:
            step += 1
            try:
                # Everything in a step, page actions included, is bounded by the time left.
                record = await asyncio.wait_for(self.step(step), self.guard.remaining())
            except asyncio.TimeoutError:
                raise TimeLimit(f"the time limit ran out during step {step}") from None
            self.writer.append_step(record)
            self.result.steps, self.result.usage = step, UsageRecord(**asdict(self.usage))
            self.writer.write_result(self.result)
            if self.result.status != "running":
                return
        self.result.status = stop

    async def step(self, step: int) -> StepRecord:
        t0 = time.monotonic()
        screen = await capture(self.tabs.page, cap=self.config.image_cap)
        # The fingerprint's noise watchers learn the page while the model thinks.
        await fingerprint.watch(self.tabs.page)
        space = model_space(screen.sent, self.config.coords, self.config.smart_resize)
        sent = SentImage(screen.png, screen.sent.width, screen.sent.height, f"step {step}")
        self.images = [*self.images, sent][-self.config.history_images:]
        request = build_request(task=self.task.instruction, config=self.config,
                                history=self.history, images=self.images, space=space,
                                note=self.note)
        record = StepRecord(step=step, started_at=time.time(), url=screen.url, title=screen.title,
                            screenshot=self.writer.write_screen(step, screen.png),
                            sent_size=(screen.sent.width, screen.sent.height),
                            page_size=(screen.page.width, screen.page.height),
                            model_size=(space.width, space.height))
        t_model = time.monotonic()
        reply = await self.ask(request)
        record.model_seconds = time.monotonic() - t_model
        record.raw_reply, record.usage = reply.text, UsageRecord(**asdict(reply.usage))
        note = await self.act(reply.text, record, screen)
        record.note, record.outcome = note.text, note.outcome
        record.guardrail, record.frame, record.details = note.guardrail, note.frame, note.details
        record.harness_seconds = time.monotonic() - t0 - record.model_seconds
        self.history.append(HistoryItem(step, record.thought, record.action_source or "(none)",
                                        note.text))
        self.note = note.text
        return record

    async def ask(self, request: ModelRequest) -> ModelReply:
        """One model call (with the client's retries), bounded by the task's remaining time."""
        reply = await self.model.complete(request, timeout=self.guard.remaining())
        self.usage.add(reply.usage)
        return reply

    async def act(self, text: str, record: StepRecord, screen: Screen) -> feedback.Note:
        """Parse the reply, apply the guardrails, execute; returns the note for the model."""
        try:
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
        if action.name == "finished":
            return await self.answer(action.text("content"))
        blocked_before = len(self.guard.lock.blocked) if self.guard.lock else 0
        note = await safe_execute(self.executor, action, screen)
        record.page_points = list(note.page_points)
        if self.guard.lock and len(self.guard.lock.blocked) > blocked_before:
            note.guardrail = note.guardrail or "domain_lock"
        escalation = self.guard.after(action, note.outcome, note.page_points)
        if escalation:
            note.text = f"{note.text} {escalation}"
        return note

    async def answer(self, content: str) -> feedback.Note:
        """The answer with its evidence: the page as it was when the answer was given."""
        result = self.result
        try:
            result.evidence = self.writer.write_evidence(await self.tabs.page.screenshot(type="png"))
            self.writer.write_evidence_text(await visible_text(self.tabs.page))
        except PlaywrightError as e:
            result.error = f"evidence screenshot failed: {e.message}"
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

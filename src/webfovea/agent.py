"""The loop: observe, ask the model, parse, guard, execute, record. Nothing else."""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.async_api import Error as PlaywrightError

from . import feedback
from .browser.capture import Screen, capture
from .browser.executor import Executor, safe_execute
from .browser.session import BrowserSession, Tabs
from .config import AgentConfig
from .errors import ParseError, TimeLimit, WebfoveaError
from .geometry import model_space
from .guard import Guard
from .models.base import Model, ModelReply, ModelRequest, SentImage, Usage
from .parse import ParsedReply, parse_reply
from .prompt import HistoryItem, build_request
from .task import Task
from .trajectory import ResultRecord, StepRecord, TrajectoryWriter, UsageRecord


@dataclass
class _State:
    history: list[HistoryItem] = field(default_factory=list)
    images: list[SentImage] = field(default_factory=list)
    note: str = ""
    usage: Usage = field(default_factory=Usage)


async def run_task(task: Task, *, model: Model, session: BrowserSession, config: AgentConfig,
                   out: Path) -> ResultRecord:
    """Run one task to a named status; writes ``out`` (DESIGN's run directory) as it goes."""
    writer = TrajectoryWriter(out)
    result = ResultRecord(task=task.instruction, url=task.url, task_id=task.id, model=model.name,
                          config=_jsonable(config))
    writer.write_result(result)
    guard = Guard(config)
    tabs: Tabs | None = None
    try:
        tabs = await session.new_tabs()
        await guard.install(tabs, task.url)
        await tabs.open(task.url, timeout=min(60.0, guard.remaining()))
        await _loop(task, model, tabs, config, guard, writer, result)
    except WebfoveaError as e:
        result.status, result.error = e.status, str(e)
    except PlaywrightError as e:
        result.status, result.error = "browser_error", (e.message or str(e)).splitlines()[0]
    finally:
        if tabs is not None:
            await tabs.close()
        result.elapsed = time.monotonic() - guard.started
        writer.write_result(result)
    return result


async def _loop(task: Task, model: Model, tabs: Tabs, config: AgentConfig, guard: Guard,
                writer: TrajectoryWriter, result: ResultRecord) -> None:
    executor = Executor(tabs, config)
    state = _State()
    step = 0
    while (stop := guard.stop_reason(step)) is None:
        step += 1
        record = await _step(step, task, model, tabs, executor, guard, writer, state, result)
        writer.append_step(record)
        result.steps, result.usage = step, UsageRecord(**asdict(state.usage))
        writer.write_result(result)
        if result.status == "finished":
            return
    result.status = stop


async def _step(step: int, task: Task, model: Model, tabs: Tabs, executor: Executor, guard: Guard,
                writer: TrajectoryWriter, state: _State, result: ResultRecord) -> StepRecord:
    t0 = time.monotonic()
    screen = await capture(tabs.page, cap=executor.config.image_cap)
    space = model_space(screen.sent, executor.config.coords, executor.config.smart_resize)
    state.images = [*state.images, SentImage(screen.png, screen.sent.width, screen.sent.height,
                                             f"step {step}")][-executor.config.history_images:]
    request = build_request(task=task.instruction, config=executor.config, history=state.history,
                            images=state.images, space=space, note=state.note)
    record = StepRecord(step=step, started_at=time.time(), url=screen.url,
                        screenshot=writer.write_screen(step, screen.png),
                        sent_size=(screen.sent.width, screen.sent.height),
                        page_size=(screen.page.width, screen.page.height),
                        model_size=(space.width, space.height))
    harness = time.monotonic() - t0
    reply = await _ask(model, request, guard)
    state.usage.add(reply.usage)
    record.model_seconds = reply_seconds = time.monotonic() - t0 - harness
    record.raw_reply, record.usage = reply.text, UsageRecord(**asdict(reply.usage))
    note = await _act(reply.text, record, screen, executor, guard, tabs, writer, result)
    record.note, record.outcome = note.text, note.outcome
    record.guardrail, record.frame = note.guardrail, note.frame
    record.details = note.details
    record.harness_seconds = time.monotonic() - t0 - reply_seconds
    state.history.append(HistoryItem(step, record.thought, record.action_source or "(none)",
                                     note.text))
    state.note = note.text
    return record


async def _ask(model: Model, request: ModelRequest, guard: Guard) -> ModelReply:
    """One model call, bounded by the task's remaining wall time."""
    remaining = guard.remaining()
    if remaining <= 0:
        raise TimeLimit("the task's time limit ran out before the model was asked")
    try:
        return await asyncio.wait_for(model.complete(request, timeout=remaining), remaining)
    except asyncio.TimeoutError:
        raise TimeLimit("the task's time limit ran out while waiting for the model") from None


async def _act(text: str, record: StepRecord, screen: Screen, executor: Executor, guard: Guard,
               tabs: Tabs, writer: TrajectoryWriter, result: ResultRecord) -> feedback.Note:
    """Parse the reply, apply the guardrails, execute; returns the note for the model."""
    try:
        parsed: ParsedReply = parse_reply(text)
    except ParseError as e:
        record.parse_error = str(e)
        return feedback.Note("parse_error", str(e))
    action = parsed.action
    record.thought, record.stripped = parsed.thought, list(parsed.stripped)
    record.action, record.action_source = action.to_json(), action.source()
    refusal = guard.check(action)
    if refusal is not None:
        return feedback.refused(refusal.guardrail, refusal.note)
    if action.name == "finished":
        await _record_answer(action.text("content"), tabs, writer, result)
        return feedback.Note("answer", "Answer recorded.")
    note = await safe_execute(executor, action, screen)
    record.page_points = list(note.page_points)
    escalation = guard.after(action, note.outcome, note.page_points)
    if escalation:
        note.text = f"{note.text} {escalation}"
    return note


async def _record_answer(answer: str, tabs: Tabs, writer: TrajectoryWriter,
                         result: ResultRecord) -> None:
    """The answer with its evidence: the page as it was when the answer was given."""
    try:
        png = await tabs.page.screenshot(type="png")
        result.evidence = writer.write_evidence(png)
    except PlaywrightError as e:
        result.error = f"evidence screenshot failed: {e.message}"
    result.status, result.answer = "finished", answer
    result.answer_url, result.evidence_at = tabs.page.url, time.time()


def _jsonable(config: AgentConfig) -> dict[str, object]:
    data = asdict(config)
    data["image_cap"] = str(config.image_cap) if config.image_cap else None
    return data

"""The loop: observe, ask the model, parse, guard, execute, record. Nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..actions.geometry import ModelSpace, model_space
from ..answers.gate import Answered, AnswerGate
from ..browser import feedback, fingerprint
from ..browser.capture import FrameText, Screen, capture, frame_texts, joined, png_size
from ..browser.document_view import DocumentView
from ..browser.domain_lock import DomainLock
from ..browser.errors import translated
from ..browser.executor import Executor, safe_execute
from ..browser.marks import Mark, Marker, centres, decode, draw_on, elements_text
from ..browser.network import NetworkRecorder, network_recorder
from ..browser.session import BrowserSession, Tabs
from ..core.config import AgentConfig
from ..core.errors import BrowserError, PageTimeout, TimeLimit, WebfoveaError
from ..core.stages import Stages, stage
from ..core.task import Task
from ..core.text import well_formed
from ..dialects import factory, make_dialect, skills
from ..dialects.base import NOT_EXECUTED, ActionResult, Call, Decision, Dialect, Observation
from ..dialects.grounder import Grounder
from ..dialects.task_prompt import task_prompt
from ..models.base import Model, SentImage, Usage
from ..rundir import events
from ..rundir.network import known_secrets
from ..rundir.store import TrajectoryWriter
from ..rundir.trajectory import ResultRecord, StepRecord, UsageRecord
from ..snapshot.session import SiteSession
from . import points
from .guard import Guard


def _dialect(model: Model, config: AgentConfig) -> Dialect:
    """``config.dialect`` speaking to ``model`` for one task. The oracle speaks a native
    dialect through that dialect's wire format, behind a fake provider
    (:mod:`webfovea.dialects.loopback.oracle_bridge`); composed here, where the model is known."""
    if config.dialect != "text" and model.name.startswith("oracle"):
        from ..dialects.loopback.oracle_bridge import OracleBridge
        from ..models.oracle import OracleModel

        if isinstance(model, OracleModel):
            return OracleBridge(model, config, factory(config.dialect))
    return make_dialect(model, config)


async def run_task(task: Task, *, model: Model | None = None, dialect: Dialect | None = None,
                   session: BrowserSession, config: AgentConfig, out: Path,
                   tabs: Tabs | None = None) -> ResultRecord:
    """Run one task to a named status; writes ``out`` (the run directory, docs/contracts.md) as it goes.

    Exactly one of ``model`` (asked through ``config.dialect``) and ``dialect`` (a ready one,
    e.g. the MCP server's bridge; the caller closes it). ``tabs``: a page the caller already
    opened on the task and keeps (MiniWoB runs a task's episodes one after another in one
    page); it is neither opened, locked nor closed here."""
    if dialect is not None and model is None:
        speaker, name = dialect, dialect.name
    elif model is not None and dialect is None:
        speaker, name = _dialect(model, config), model.name
    else:
        raise TypeError("run_task takes exactly one of model= and dialect=")
    own = tabs is None
    writer = TrajectoryWriter(out)
    result = new_result(task, name, config)
    writer.write_result(result)
    guard = Guard(config, expects_answer=bool(task.answer and task.answer.strip()))
    site: SiteSession | None = None
    lock: DomainLock | None = None  # the guardrail that lives in the browser
    documents: DocumentView | None = None  # PDFs and data downloads shown as pages
    network: NetworkRecorder | None = None  # the site's requests, into network.jsonl
    events.emit(events.StepEvent("task_started", result.task_id))
    try:
        with translated():  # the browser's boundary: whatever Playwright raised is a BrowserError
            if tabs is None:
                site = SiteSession(config.site, task.id, task.url, out,
                                   host_rules=session.config.host_rules)
                result.site = site.record
                tabs = await session.new_tabs()
                network = _network(tabs, config, out)  # before the entry page loads
                documents = _documents(config, session, out)
                lock = await DomainLock.for_task(tabs, task.url, config.allow_domains,
                                                 downstream=await site.attach(tabs),
                                                 documents=documents,
                                                 block_domains=config.block_domains,
                                                 block_reason=config.block_reason)
                await tabs.open(task.url, timeout=min(60.0, guard.remaining()),
                                settle_cap=config.settle_cap)
            else:
                network = _network(tabs, config, out)
            run = _Run(task, speaker, tabs, guard, lock, writer, result,
                       host_rules=session.config.host_rules, network=network)
            try:
                await run.loop()
            finally:
                await run.aclose()
                if dialect is None:
                    await speaker.aclose()
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
        if tabs is not None:  # before the context closes: bodies are read from it
            await tabs.stop_recording()
        if site is not None and tabs is not None:
            await site.close()  # before the context closes: recorded bodies are read from it
        if documents is not None:
            result.documents = documents.records
        # Written before the tab closes: a second Ctrl-C may cut the close short.
        result.elapsed = time.monotonic() - guard.started
        writer.write_result(result)
        events.emit(events.StepEvent("task_done", result.task_id, result.steps,
                                     usage=result.usage, result=result))
        if own and tabs is not None:
            await tabs.close()
    return result


def _network(tabs: Tabs, config: AgentConfig, out: Path) -> NetworkRecorder:
    """Record the task's XHR and fetch requests; the keys the run knows (the providers'
    variables, the grounder's named one) are redacted."""
    tabs.network = network_recorder(out, secrets=known_secrets(
        config.grounder.api_key_env if config.grounder else None))
    return tabs.network


def _documents(config: AgentConfig, session: BrowserSession, out: Path) -> DocumentView | None:
    """The document view of a task (off with ``--max-download-mb 0``)."""
    if config.max_download_mb <= 0:
        return None
    return DocumentView(out / "documents", max_bytes=int(config.max_download_mb * 1e6),
                        allow_downloads=session.config.downloads)


@dataclass
class _Run:
    """One task's loop state; each method is one stage of a step."""

    task: Task
    dialect: Dialect
    tabs: Tabs
    guard: Guard
    lock: DomainLock | None  # None on a page the caller opened (and guards)
    writer: TrajectoryWriter
    result: ResultRecord
    note: str = ""
    results: tuple[ActionResult, ...] = ()  # the last decision's, answered by the dialect
    usage: Usage = field(default_factory=Usage)
    host_rules: tuple[str, ...] = ()  # the browser's (a suite oracle grounder finds its lane)
    network: NetworkRecorder | None = None  # told each step's number

    def __post_init__(self) -> None:
        self.config: AgentConfig = self.guard.config
        self.executor = Executor(self.tabs, self.config,
                                 policy=self.lock.policy if self.lock else None)
        self.answers = AnswerGate(self.config, self.task.instruction, self.writer)
        self.task_text = task_prompt(self.task, keytra=self.config.keytra)
        picked = skills.skills_for(self.task, self.config.skills) if self.config.skills else ()
        self.skills = skills.section(picked)  # the same text at every step: the cache prefix
        self.result.skills = [s.record() for s in picked]
        self.grounder = Grounder(self.config.grounder, host_rules=self.host_rules
                                 ) if self.config.grounder else None
        self.marker = Marker()
        self.marks: list[Mark] = []  # this step's numbered elements (--observation)

    async def aclose(self) -> None:
        if self.grounder is not None:
            await self.grounder.aclose()

    async def loop(self) -> None:
        step = 0
        while (stop := self.guard.stop_reason(step)) is None:
            step += 1
            if self.network is not None:
                self.network.step = step
            events.emit(events.StepEvent("step_started", self.result.task_id, step))
            try:
                # Everything in a step, page actions included, is bounded by the time left.
                record = await asyncio.wait_for(self.step(step), self.guard.remaining())
            except asyncio.TimeoutError:
                raise TimeLimit(f"the time limit ran out during step {step}") from None
            self.writer.append_step(record)
            self.result.steps, self.result.usage = step, self.usage_by_role()
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
        screen = await self.observe(await self.capture())
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
        elements = elements_text(self.marks, screen.page, screen.sent, self.config.elements_cap
                                 ) if "elements" in self.config.observation else ""
        obs = Observation(step, self.task_text, sent, space, screen.page, screen.url,
                          self.note, self.results, skills=self.skills, elements=elements)
        record = StepRecord(step=step, started_at=time.time(), url=screen.url, title=screen.title,
                            screenshot=self.writer.screen_path(step),
                            sent_size=(screen.sent.width, screen.sent.height),
                            page_size=(screen.page.width, screen.page.height),
                            scroll_offset=screen.offset, zoom=screen.zoom,
                            model_size=(space.width, space.height),
                            element_marks=[m.to_json() for m in self.marks])
        # The page's text is recorded for answer grounding while the model thinks.
        decision, _ = await asyncio.gather(self.dialect.decide(obs, timeout=self.guard.remaining()),
                                           self.answers.record_page(step, self.tabs))
        self.usage.add(decision.usage)
        record.model_seconds = decision.model_seconds
        with stage("fingerprints"):
            await watching
        record.raw_reply, record.usage = decision.raw, self.usage_record(decision.usage)
        record.request = decision.request_summary
        record.thought, record.stripped = decision.thought, list(decision.stripped)
        if self.confirmation_needed(decision, record):
            self.results = ()
        else:
            self.results = await self.act(decision, record, screen)
        record.harness_seconds = time.monotonic() - t0 - record.model_seconds
        self.note = record.note if len(self.results) < 2 else batch_note(self.results)
        return record

    def confirmation_needed(self, decision: Decision, record: StepRecord) -> bool:
        """A vendor's safety check: the task stops unless the user acknowledged them all
        (``--acknowledge-safety-checks``); either way the checks are recorded."""
        checks = [asdict(c) for c in decision.safety_checks]
        if not checks:
            return False
        if self.config.acknowledge_safety_checks:
            record.acknowledged_safety_checks = checks
            return False
        said = "; ".join(f"{c.code}: {c.message}" for c in decision.safety_checks)
        self.result.status, self.result.safety_checks = "needs_confirmation", checks
        self.result.error = (f"the provider asked for confirmation ({said}); rerun with "
                             "--acknowledge-safety-checks to acknowledge such checks")
        record.note, record.outcome = f"Stopped for confirmation: {said}", "refused"
        record.guardrail = "safety_check"
        return True

    async def observe(self, screen: Screen) -> Screen:
        """The screen as the model gets it (and screens/ keeps it): with marks drawn under
        ``--observation marks*``; the elements are collected for marks and lists alike."""
        mode = self.config.observation
        if mode == "screenshot":
            return screen
        with stage("marks"), translated():
            if "marks" not in mode:
                self.marks = await self.marker.collect(self.tabs.page)
                return screen
            # The PNG is decoded in a thread while the page reports its elements.
            image = asyncio.ensure_future(asyncio.to_thread(decode, screen.png))
            try:
                self.marks = await self.marker.collect(self.tabs.page)
            finally:
                decoded = await image
            drawn, _ = await asyncio.to_thread(draw_on, decoded, self.marks, screen.page)
        return replace(screen, png=drawn)

    async def capture(self) -> Screen:
        """The screen; a page too busy to paint (an endless ``confirm()`` loop, a spinning
        script) is waited on, so the task's time limit ends it, not a screenshot timeout."""
        while True:
            try:
                return await capture(self.tabs.page, cap=self.config.image_cap)
            except PageTimeout:
                if self.tabs.gone():
                    raise

    def usage_by_role(self) -> UsageRecord:
        """The planner's usage (the totals, as ever) with every role's beside it."""
        total = self.usage_record(self.usage)
        roles = {"planner": total.model_copy()}
        if self.grounder is not None:
            roles["grounder"] = self.grounder.usage_record()
        if self.result.verifier is not None:
            roles["verifier"] = self.result.verifier.usage
        total.by_role = roles
        return total

    def usage_record(self, usage: Usage) -> UsageRecord:
        price = self.config.price
        cost = None if price is None else price.cost(
            input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens)
        return UsageRecord(**asdict(usage), cost=cost)

    async def act(self, decision: Decision, record: StepRecord,
                  screen: Screen) -> tuple[ActionResult, ...]:
        """Guard and execute the decision's calls in order; the first refusal or failure stops
        the batch (the rest are answered as not executed). The first call fills the step's
        own fields; a native dialect's calls are all listed in ``record.calls``."""
        if decision.parse_error is not None and not decision.calls:
            record.parse_error = decision.parse_error
            record.note, record.outcome = well_formed(decision.parse_error), "parse_error"
            return ()
        results: list[ActionResult] = []
        stopped: str | None = None
        for index, call in enumerate(decision.calls):
            if stopped is not None:
                results.append(skipped(call, stopped))
                record.calls.append(_skipped_entry(results[-1], call))
                continue
            note = await self.perform(call, screen, record)
            note.text = well_formed(note.text)  # page text (a dialog's, an element's) rides in it
            self.answers.record_note(record.step, screen.url, call.action, note.text)
            if index == 0:
                self.fill(record, call, note)
            # A guardrail that held the action (the domain lock blocking where a click led)
            # refuses it as much as a refusal before it ran.
            failed = note.outcome in FAILED or note.guardrail is not None
            results.append(ActionResult(call.call_id, call.action, note.text, note.outcome,
                                        failed, True, note.guardrail, _image(note.image)))
            record_call(record, call, note)
            if failed:
                stopped = "failed" if note.outcome in ("error", "parse_error") else "refused"
            elif self.result.status != "running":
                stopped = "the end of the task"
        if not any(c.native for c in decision.calls):
            record.calls = []  # the text dialect: the step's own fields say it all
        return tuple(results)

    def fill(self, record: StepRecord, call: Call, note: feedback.Note) -> None:
        if call.action is not None:
            record.action, record.action_source = call.action.to_json(), call.action.source()
        if call.action is None and call.guardrail is None:
            record.parse_error = call.error
        record.note, record.outcome = note.text, note.outcome
        record.guardrail, record.frame, record.details = note.guardrail, note.frame, note.details
        record.page_points = list(note.page_points)

    async def perform(self, call: Call, screen: Screen, record: StepRecord) -> feedback.Note:
        """One call through the guardrails and the executor; returns the note for the model."""
        if call.guardrail is not None:
            return feedback.refused(call.guardrail, call.error or "Refused.")
        action = call.action
        if action is None:
            return feedback.Note("parse_error", call.error or "The call could not be read.")
        refusal = self.guard.check(action)
        if refusal is not None:
            return feedback.refused(refusal.guardrail, refusal.note)
        if action.spec.asks_person:
            return self.ask_person()
        if action.spec.ends_task:  # finished() without content: no answer (navigation only)
            return await self.answer(action.text("content") if "content" in action.args else None,
                                     record)
        resolved = await points.resolve(
            action, screen, self.space(screen), self.tabs, grounder=self.grounder,
            marks=centres(self.marks, screen.page, self.space(screen))
            if "marks" in self.config.observation else None, time_left=self.guard.remaining())
        record.point_forms.extend(resolved.forms)
        if resolved.action is None:
            assert resolved.failure is not None
            return resolved.failure
        action = resolved.action
        blocked_before = len(self.lock.blocked) if self.lock else 0
        with stage("execute"):
            note = await safe_execute(self.executor, action, screen)
        if resolved.said:
            note.text = f"{resolved.said} {note.text}"
        if self.lock and len(self.lock.blocked) > blocked_before:
            note.guardrail = note.guardrail or "domain_lock"
        escalation = self.guard.after(action, note.outcome, note.page_points)
        if escalation:
            note.text = f"{note.text} {escalation}"
        return note

    def space(self, screen: Screen) -> ModelSpace:
        return model_space(screen.sent, self.config.coords, self.config.smart_resize)

    def ask_person(self) -> feedback.Note:
        """call_user(): the model gives up, asking for a person; the task ends ``gave_up``."""
        self.result.status = "gave_up"
        self.result.error = ASKED_PERSON
        return feedback.Note("answer", f"Ended: {ASKED_PERSON}.")

    async def answer(self, content: str | None, record: StepRecord) -> feedback.Note:
        """The answer with its evidence (the page as it was when the answer was given),
        accepted or sent back by the answer checks (webfovea.answers). ``None``: finished()
        without content, which ends a task that asks for no answer."""
        result = self.result
        png: bytes | None = None
        frames: list[FrameText] = []
        try:
            # Full size, through the capture's fast path: the pixels a person sees (the
            # visual viewport), about a third of the browser CPU of page.screenshot, which
            # hides the caret by restyling the page and back (tests/test_viewport_seen.py).
            png = (await capture(self.tabs.page, cap=None)).png
            result.evidence = self.writer.write_evidence(png)
            frames = await frame_texts(self.tabs.page)
            self.writer.write_evidence_text(joined(frames))
        except BrowserError as e:
            result.error = f"evidence screenshot failed: {e}"
        result.answer_url, result.evidence_at = self.tabs.page.url, time.time()
        if content is None:
            result.status = "finished"
            return feedback.Note("answer", "Finished (no answer given).")
        if not content.strip():
            result.status = "gave_up"
            return feedback.Note("answer", "Finished without an answer.")
        decision = await self.answers.decide(Answered(
            content, record.step, record.thought, self.tabs.page.url, record.title, frames, png,
            acted=self.guard.acted, time_left=self.guard.remaining()))
        result.grounding, result.verifier = decision.grounding, decision.verifier
        if decision.guardrail is not None:
            return feedback.refused(decision.guardrail, decision.note)
        result.status, result.answer = "finished", content
        return feedback.Note("answer", decision.note)


FAILED = ("refused", "error", "parse_error")  # outcomes that stop a batch
ASKED_PERSON = "the model asked for a person (call_user): it could not go on alone"


def _image(png: bytes | None) -> SentImage | None:
    if png is None:
        return None
    size = png_size(png)
    return SentImage(png, size.width, size.height)


def skipped(call: Call, why: str) -> ActionResult:
    return ActionResult(call.call_id, call.action, NOT_EXECUTED.format(why=why), "unknown",
                        error=True, executed=False)


def record_call(record: StepRecord, call: Call, note: feedback.Note) -> None:
    record.calls.append({
        "call_id": call.call_id, "native": call.native,
        "action": call.action.to_json() if call.action else None,
        "action_source": call.action.source() if call.action else "",
        "error": call.error, "note": note.text, "outcome": note.outcome, "executed": True,
        "guardrail": note.guardrail, "page_points": [list(p) for p in note.page_points]})


def _skipped_entry(result: ActionResult, call: Call) -> dict[str, object]:
    return {"call_id": call.call_id, "native": call.native,
            "action": call.action.to_json() if call.action else None,
            "action_source": call.action.source() if call.action else "",
            "error": call.error, "note": result.note, "outcome": result.outcome,
            "executed": False, "guardrail": None, "page_points": []}


def batch_note(results: tuple[ActionResult, ...]) -> str:
    """The notes of a batch as one text (what a dialect without per-call results reads)."""
    return " ".join(f"[{i}] {(r.action.source() if r.action else 'call')}: {r.note}"
                    for i, r in enumerate(results, 1))


def new_result(task: Task, model: str, config: AgentConfig) -> ResultRecord:
    """A task's ``result.json`` record as the task starts (``running``); its ending fills it
    in, also an ending before the loop (the ``run`` command's pre-flight)."""
    return ResultRecord(task=task.instruction, url=task.url, task_id=task.id, model=model,
                        config=_jsonable(config))


def _jsonable(config: AgentConfig) -> dict[str, object]:
    data = asdict(config)
    data["image_cap"] = str(config.image_cap) if config.image_cap else None
    data["ablate"] = sorted(config.ablate)
    return data

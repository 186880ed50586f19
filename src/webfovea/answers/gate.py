"""The one call the loop makes when the agent gives an answer (``_Run.answer``), and the
two small ones that feed it (each step's page text, ``read_text`` results).

Order at ``finished``: grounding (``--grounding``; the evidence screenshot's OCR text only
when a part is not in the page text and an engine is installed), then the verifier
(``--verifier``).
``challenge`` sends an answer back once per task when it came before any action, is not
grounded, or was given on a CAPTCHA, login, error or blocked page; the same answer again is
accepted and keeps its marks. A verifier's rejection goes back as the next note, at most
``rejections`` times; one more and the answer stands, ``disputed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from ..actions.registry import Action
from ..browser.capture import FrameText, frame_texts, joined
from ..browser.session import Tabs
from ..core.config import AgentConfig
from ..core.errors import BrowserError
from ..documents import ocr
from ..rundir.store import TrajectoryWriter
from ..rundir.trajectory import GroundingRecord, SeenAt, UsageRecord, VerifierCall, VerifierRecord
from . import verifier
from .grounding import ground, missing
from .pages import classify
from .seen import Indexed, SessionText

GUARDRAIL_GROUNDING = "answer_grounding"
GUARDRAIL_VERIFIER = "answer_verifier"


@dataclass(frozen=True)
class Decision:
    accepted: bool
    note: str  # for the model: why it was sent back, or what the checks said
    guardrail: str | None = None  # the refusing check, when sent back
    grounding: GroundingRecord | None = None
    verifier: VerifierRecord | None = None


@dataclass(frozen=True)
class Answered:
    """The answer and the page it was given on, as the loop has them."""

    content: str
    step: int
    thought: str
    url: str
    title: str
    frames: Sequence[FrameText]
    evidence_png: bytes | None
    acted: bool  # an action other than finished ran before
    time_left: float


@dataclass
class AnswerGate:
    config: AgentConfig
    task: str
    writer: TrajectoryWriter
    seen: SessionText = field(default_factory=SessionText)
    challenged: bool = False
    rejections: int = 0
    verdict: VerifierRecord | None = None

    @property
    def policy(self) -> str:
        """``--grounding``, off when the "grounding" fix is ablated (webfovea.core.ablations)."""
        return "off" if "grounding" in self.config.ablate else self.config.grounding

    async def record_page(self, step: int, tabs: Tabs) -> None:
        """The page's text at this step (while the model thinks); a page that cannot be
        read now leaves no text, never an error."""
        if self.policy == "off":
            return
        try:
            self.seen.add_page(step, await frame_texts(tabs.page))
        except BrowserError:
            return

    def record_note(self, step: int, url: str, action: Action | None, note: str) -> None:
        """A ``read_text`` result: page text the model read in its note."""
        if action is not None and action.name == "read_text" and self.policy != "off":
            self.seen.add_read_text(step, url, note)

    async def decide(self, answered: Answered) -> Decision:
        grounding = await self._ground(answered)
        send_back = self._challenge(grounding)
        self.challenged = self.challenged or send_back
        grounding.challenged = self.challenged  # an answer given again keeps the mark
        if send_back:
            return Decision(False, challenge_note(answered.content, grounding),
                            GUARDRAIL_GROUNDING, grounding, self.verdict)
        if self.config.verifier is None:
            return Decision(True, "Answer recorded.", None, grounding)
        return await self._verify(answered, grounding)

    async def _ground(self, answered: Answered) -> GroundingRecord:
        if self.policy == "off":
            return GroundingRecord(status="not_checked", note="grounding is off (--grounding off)")
        self.seen.add_page(answered.step, answered.frames)
        checked = partial(ground, answered.content, seen=self.seen, task=self.task,
                          thought=answered.thought, page=classify(answered.title, answered.frames),
                          before_action=not answered.acted)
        first = checked()
        if not missing(first):
            return first
        screen = await ocr.screen_text(answered.evidence_png, time_left=answered.time_left)
        if screen.use != "read":
            first.ocr, first.ocr_error = screen.use, screen.error
            return first
        at = SeenAt(step=answered.step, url=answered.url, source="ocr")
        return checked(screen=(at, Indexed(screen.text)), ocr="read")

    def _challenge(self, grounding: GroundingRecord) -> bool:
        if self.policy != "challenge" or self.challenged:
            return False
        return (grounding.before_action or grounding.page != "ok"
                or grounding.status in ("ungrounded", "partly_grounded"))

    async def _verify(self, answered: Answered, grounding: GroundingRecord) -> Decision:
        assert self.config.verifier is not None
        req = verifier.request(task=self.task, answer=answered.content, grounding=grounding,
                               url=answered.url, page_text=joined(list(answered.frames)),
                               evidence=verifier.evidence_image(answered.evidence_png,
                                                                self.config.image_cap))
        call = await verifier.verify(self.config.verifier, req, step=answered.step,
                                     answer=answered.content, timeout=answered.time_left)
        self.writer.append_verifier(call)
        record = self._record(call)
        if call.verdict == "reject" and self.rejections < self.config.verifier.rejections:
            self.rejections += 1
            record.verdict = "rejected"
            record.rejections = self.rejections
            return Decision(False, rejection_note(answered.content, call.reason),
                            GUARDRAIL_VERIFIER, grounding, record)
        if call.verdict == "reject":
            record.verdict = "disputed"
            return Decision(True, f"Answer recorded, disputed by the verifier: {call.reason}",
                            None, grounding, record)
        if call.verdict == "error":
            return Decision(True, f"Answer recorded; the verifier gave no verdict ({call.reason}).",
                            None, grounding, record)
        return Decision(True, f"Answer recorded; the verifier accepted it: {call.reason}",
                        None, grounding, record)

    def _record(self, call: VerifierCall) -> VerifierRecord:
        """The task's verifier record, with this call's verdict and every call's usage."""
        before = self.verdict or VerifierRecord(verdict="error", model=call.model)
        usage = _added(before.usage, call.usage)
        self.verdict = VerifierRecord(
            verdict="accepted" if call.verdict == "accept" else "error",
            reason=call.reason, model=call.model, calls=before.calls + 1,
            rejections=self.rejections, usage=usage)
        return self.verdict


def _added(a: UsageRecord, b: UsageRecord) -> UsageRecord:
    unknown = (a.calls and a.cost is None) or b.cost is None
    cost = None if unknown else (a.cost or 0.0) + (b.cost or 0.0)
    return UsageRecord(input_tokens=a.input_tokens + b.input_tokens,
                       output_tokens=a.output_tokens + b.output_tokens,
                       cache_read_tokens=a.cache_read_tokens + b.cache_read_tokens,
                       cache_write_tokens=a.cache_write_tokens + b.cache_write_tokens,
                       calls=a.calls + b.calls, retries=a.retries + b.retries, cost=cost)


def challenge_note(answer: str, grounding: GroundingRecord) -> str:
    reasons = []
    if grounding.before_action:
        reasons.append("you answered before doing anything on the page")
    if grounding.page != "ok":
        reasons.append(f"{grounding.page_reason}, not a page that can show the answer")
    if grounding.status in ("ungrounded", "partly_grounded"):
        reasons.append(grounding.note)
    return (f"Not accepted yet: you answered '{answer[:200]}', but {'; '.join(reasons)}. "
            "Check that the answer is visible on the current page: bring the page that shows "
            "it on screen, then reply finished(content=...) again. If you are sure, reply with "
            "the same answer and it will be accepted, marked as not grounded.")


def rejection_note(answer: str, reason: str) -> str:
    return (f"Not accepted yet: an independent check of the page rejected the answer "
            f"'{answer[:200]}': {reason or 'no reason given'}. Look again (the right row, "
            "column, table, year and unit), then reply finished(content=...) with the answer "
            "the page shows.")


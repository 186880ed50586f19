"""Step and result records: what one step and one task's outcome hold (the run directory
contract, docs/contracts.md).

``webfovea.rundir.store`` writes and reads them in the run directory.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..core.sites import SiteRecord

Outcome = Literal["changed", "no_change", "unknown", "refused", "error", "parse_error", "answer"]


class UsageRecord(BaseModel):
    input_tokens: int = 0  # billed at the base rate: neither cache reads nor cache writes
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    calls: int = 0
    retries: int = 0
    reasoning_tokens: int = 0  # of output_tokens: a reasoning model's hidden thinking
    cost: float | None = None  # USD under the run's price; None when the price is unknown
    # result.json only: the same per model role (planner, grounder, verifier); the totals
    # above stay the planner's, as before roles existed.
    by_role: dict[str, UsageRecord] = Field(default_factory=dict)

    @property
    def prompt_tokens(self) -> int:
        """Every input token, cached or not (what "tokens in" means in tables)."""
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens


class StepRecord(BaseModel):
    """One line of ``steps.jsonl``: what a step sent, what the model replied, what the harness
    did with it and what happened (the run directory)."""

    step: int
    started_at: float
    url: str = ""
    title: str = ""  # page title when the screenshot was taken
    screenshot: str = ""  # path relative to the run dir, e.g. screens/001.png
    sent_size: tuple[int, int] = (0, 0)  # image as sent to the model
    page_size: tuple[int, int] = (0, 0)  # viewport in CSS pixels, measured
    # Where the screenshot shows the document: the visual viewport's top-left in document
    # CSS pixels (scroll offset + pinch pan), and the pinch zoom.
    scroll_offset: tuple[float, float] = (0.0, 0.0)
    zoom: float = 1.0
    model_size: tuple[float, float] = (0, 0)  # the model's coordinate space
    raw_reply: str = ""
    thought: str = ""
    action: dict[str, Any] | None = None  # Action.to_json()
    action_source: str = ""
    stripped: list[str] = Field(default_factory=list)  # tokens/text the parser discarded
    parse_error: str | None = None
    page_points: list[tuple[int, int]] = Field(default_factory=list)
    outcome: Outcome = "unknown"
    note: str = ""
    guardrail: str | None = None
    frame: str | None = None  # frame URL the action landed in, when a child frame
    details: dict[str, Any] = Field(default_factory=dict)
    model_seconds: float = 0.0
    harness_seconds: float = 0.0
    stage_seconds: dict[str, float] = Field(default_factory=dict)  # harness time by stage
    usage: UsageRecord = Field(default_factory=UsageRecord)
    # What the request held (webfovea.models.sent): layout, text lengths, image sizes.
    request: dict[str, Any] = Field(default_factory=dict)
    # A native dialect's calls of this turn, in order (the first also fills the fields above):
    # {call_id, native, action, action_source, error, note, outcome, executed, guardrail,
    # page_points}. Empty for the text dialect.
    calls: list[dict[str, Any]] = Field(default_factory=list)
    acknowledged_safety_checks: list[dict[str, Any]] = Field(default_factory=list)
    # Point forms the step's actions gave (loop.points): {arg, form, given, point, grounder:
    # the grounder's call (request_bytes, raw, point, seconds, usage, error) for a target}.
    point_forms: list[dict[str, Any]] = Field(default_factory=list)
    # --observation marks*/elements: the numbered elements of this step's observation
    # ({number, role, name, value, tag, box in page CSS px, frame}); screens/ has them drawn.
    element_marks: list[dict[str, Any]] = Field(default_factory=list)


GroundingStatus = Literal["grounded", "partly_grounded", "ungrounded", "not_checked"]
PartKind = Literal["number", "date", "name", "phrase"]
# seen: in text the session saw; derived: computed by the final thought from seen values;
# task: a word the task itself offers (an option to choose); missing: nowhere.
PartState = Literal["seen", "derived", "task", "missing"]
PageKind = Literal["ok", "captcha", "login", "error", "blocked"]
# Which source found a part (a derived part: its first operand's); "": not found.
PartSource = Literal["page text", "read_text", "evidence screenshot (OCR)", "task", ""]
# not_installed: no engine (see webfovea.documents.ocr); not_needed: every part was in the page
# text; read: the screenshot was read; failed: it could not be (ocr_error says why).
OcrUse = Literal["not_installed", "not_needed", "read", "failed"]
VerifierVerdict = Literal["accepted", "rejected", "disputed", "error"]
CallVerdict = Literal["accept", "reject", "error"]  # one verifier reply


class SeenAt(BaseModel):
    """Where a piece of text was seen: the step whose screenshot showed the page (the
    answer's own page: the step that answered), its URL and child frame, and the source."""

    step: int
    url: str = ""
    frame: str | None = None  # the child frame's URL; None: the top-level page
    source: Literal["page", "read_text", "ocr"] = "page"  # ocr: the evidence screenshot
    place: str = ""  # in a document view: "page 3 of 12", "sheet “Q1”, row 5"


class GroundingPart(BaseModel):
    kind: PartKind
    text: str  # the part as the answer wrote it
    state: PartState
    where: list[SeenAt] = Field(default_factory=list)  # derived: one per operand
    how: str = ""  # derived: the arithmetic, e.g. "sum of 8 values"
    found_by: PartSource = ""  # which source found it; "": not found


class GroundingRecord(BaseModel):
    """How the answer's checkable parts relate to the text this session saw."""

    status: GroundingStatus
    parts: list[GroundingPart] = Field(default_factory=list)
    page: PageKind = "ok"  # what the answer's page is, when it is not an ordinary page
    page_reason: str = ""
    before_action: bool = False  # answered before any action on the page
    note: str = ""  # one sentence for people and for the model
    challenged: bool = False  # this answer was sent back once to bring the evidence
    ocr: OcrUse = "not_needed"  # the evidence screenshot's text (webfovea.documents.ocr)
    ocr_error: str = ""


class VerifierRecord(BaseModel):
    """The independent verifier's last word on the answer, and what all its calls used."""

    verdict: VerifierVerdict
    reason: str = ""
    model: str = ""
    calls: int = 0
    rejections: int = 0
    usage: UsageRecord = Field(default_factory=UsageRecord)


class VerifierCall(BaseModel):
    """One verifier request and its verdict (a line of ``verifier.jsonl``)."""

    step: int
    answer: str
    verdict: CallVerdict
    reason: str = ""
    reply: str = ""  # the verifier's raw reply text ('' when it gave none)
    model: str = ""
    seconds: float = 0.0
    usage: UsageRecord = Field(default_factory=UsageRecord)
    at: float = Field(default_factory=time.time)


class DocumentRecord(BaseModel):
    """What result.json lists for each document a task met: opened, saved or refused."""

    url: str
    kind: str  # pdf, csv, tsv, xlsx, xls, ods, json, txt; "" for a refused other type
    content_type: str
    size: int  # bytes received; refused over the cap: its Content-Length (0: streamed)
    sha256: str = ""
    path: str = ""  # the saved copy, relative to the run directory ("" when not saved)
    shown: bool = False  # opened in the document view
    pages: int | None = None  # a PDF's pages
    rows: int | None = None  # a data file's rows, all sheets
    frame: bool = False  # opened inside a frame (<iframe>, <embed>) rather than a tab
    open_seconds: float = 0.0  # from the response headers to the view served
    note: str = ""  # the sentence the agent was told


class SkillRecord(BaseModel):
    """One skill put in the task's system text (``--skills``)."""

    kind: Literal["all", "site", "task"]
    path: str  # relative to the skills directory
    sha256: str  # of the file as read
    chars: int = 0  # of the file's text
    truncated: bool = False  # cut to --skill-cap in the prompt


class ResultRecord(BaseModel):
    """``result.json``: how a task ended (status, answer, evidence), its steps, time, usage
    and settings; rewritten after every step, so it never says ``running`` after an end."""

    task: str
    url: str
    task_id: str = ""
    status: str = "running"
    answer: str | None = None
    answer_url: str | None = None
    evidence: str | None = None
    evidence_at: float | None = None
    steps: int = 0
    elapsed: float = 0.0
    usage: UsageRecord = Field(default_factory=UsageRecord)
    error: str | None = None
    model: str = ""
    config: dict[str, Any] = Field(default_factory=dict)
    started_at: float = Field(default_factory=time.time)
    site: SiteRecord = Field(default_factory=SiteRecord)  # live, recording or replaying
    # needs_confirmation: the vendor's safety checks that stopped the task ({code, message, id})
    safety_checks: list[dict[str, Any]] = Field(default_factory=list)
    grounding: GroundingRecord | None = None  # None: no answer given
    documents: list[DocumentRecord] = Field(default_factory=list)  # PDFs and data files met
    verifier: VerifierRecord | None = None  # None: no verifier ran
    skills: list[SkillRecord] = Field(default_factory=list)  # --skills: those put in the prompt

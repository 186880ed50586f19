"""Evidence-based scoring (``webfovea score RUN_DIR --judge-evidence SPEC``).

For each finished task a judge sees the task, the answer, the evidence screenshot and text,
the last few steps (their screenshots, actions and notes) and the site's API requests
(``network.jsonl``, in brief) and says whether the evidence supports the answer: in the
spirit of the live-web benchmarks' own judges (WebVoyager's auto-evaluator, Online-Mind2Web's
WebJudge). Its verdict goes into the task's ``score.json``;
with the reference verdict it gives the task's category (:func:`outcomes.evidence_category`).
A screenshot that is missing or does not decode is named on stderr and left out of the request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..browser.capture import downsample
from ..core.config import Size
from ..core.errors import ModelError
from ..models.base import Model, ModelRequest, SentImage, Turn
from ..rundir.images import RunImages
from ..rundir.outcomes import evidence_category
from ..rundir.store import EvidenceRecord, ScoreRecord, TaskRun, load_run, write_score
from .excerpt import excerpt
from .site_requests import requests_text

LAST_STEPS = 3
EXCERPT_CHARS = 6000
IMAGE_CAP = Size(1440, 810)
SYSTEM = """You judge whether a web agent's answer is supported by the evidence it collected.
You see the task, the agent's answer, the screenshot of the page when it answered, that page's
text, its last steps (screenshots, actions and the harness's notes) and, when recorded, the
site's API requests (what the page asked the site and a bit of each response). Decide only
from this evidence, not from what you know: the answer is supported if the evidence shows it answers the
task (right entity, row, period and unit); not supported if the evidence contradicts it or shows
no such value; cannot tell if the evidence is insufficient either way.
Reply with exactly two lines:
Evidence: supported | not supported | cannot tell
Reason: <one sentence>"""
_VERDICT = re.compile(r"^\W*evidence\W*[:=]\W*(supported|not supported|cannot tell)\b",
                      re.I | re.M)
_REASON = re.compile(r"^\W*reason\W*[:=]\s*(.+)$", re.I | re.M)
Said = Literal["supported", "not_supported", "cannot_tell", "error"]
_SAID: dict[str, Said] = {"supported": "supported", "not supported": "not_supported",
                          "cannot tell": "cannot_tell"}


@dataclass(frozen=True)
class Judged:
    task: str
    record: EvidenceRecord


def request(run: TaskRun, reader: RunImages | None = None) -> ModelRequest:
    result = run.result
    reader = reader or RunImages()
    lines = [f"Task: {result.task}", f"Answer: {result.answer}",
             f"Answer page: {result.answer_url or '(unknown)'}"]
    shown: list[SentImage | None] = []
    for step in run.steps[-LAST_STEPS:]:
        lines.append(f"Step {step.step}: {step.action_source or '(no action)'} -> {step.note}")
        if step.screenshot:
            shown.append(_image(run.dir / step.screenshot, f"step {step.step}", reader))
    evidence = run.dir / (result.evidence or "evidence.png")
    if result.evidence or evidence.is_file():
        shown.append(_image(evidence, "evidence", reader))
    images = [i for i in shown if i is not None]
    text = excerpt(run.evidence_text or "", result.answer or "", EXCERPT_CHARS)
    lines.append(f"Text of the answer page (excerpt):\n{text}")
    requests = requests_text(run.dir, result.answer or "")
    if requests:
        lines.append(requests)
    return ModelRequest(system=SYSTEM, turns=(Turn("user", "\n".join(lines), tuple(images)),),
                        max_tokens=300, task=result.task)


def _image(path: Path, label: str, reader: RunImages) -> SentImage | None:
    png = reader.read(path)
    if not isinstance(png, bytes):
        return None
    small, size, _ = downsample(png, IMAGE_CAP)
    return SentImage(small, size.width, size.height, label=label)


def parse(text: str) -> tuple[Said, str]:
    m = _VERDICT.search(text)
    if m is None:
        return "error", f"the judge replied without an 'Evidence:' line: {text[:200]!r}"
    said = _SAID[" ".join(m.group(1).lower().split())]
    reason = _REASON.search(text)
    return said, reason.group(1).strip() if reason else ""


async def judge_run(run_dir: Path, model: Model, *, timeout: float = 120.0,
                    images: RunImages | None = None) -> list[Judged]:
    """Judge every finished task of a bench run; each verdict lands in its ``score.json``."""
    judged = []
    reader = images or RunImages()
    for run in load_run(run_dir).tasks:
        if run.result.status != "finished" or run.score is None:
            continue
        try:
            reply = await model.complete(request(run, reader), timeout=timeout)
            said, reason = parse(reply.text)
        except ModelError as e:
            said, reason = "error", f"the evidence judge could not be asked: {e}"
        record = EvidenceRecord(
            verdict=said, reason=reason, judge=model.name,
            category=evidence_category(run.score.correct, None if said == "error" else said))
        write_score(run.dir, _with(run.score, record))
        judged.append(Judged(run.label, record))
    return judged


def _with(score: ScoreRecord, evidence: EvidenceRecord) -> ScoreRecord:
    return score.model_copy(update={"evidence": evidence})

"""Grounding: is each checkable part of the answer in text this session saw?

A part is ``seen`` (where: the newest sighting), ``derived`` (a number the final thought
computes from values that were seen: a sum of them all, or a difference, ratio, product or
sum of two), ``task`` (a word the task offers as an option: "increased or decreased") or
``missing``. The status follows: every part seen or derived is ``grounded``; some missing
``partly_grounded``; none seen ``ungrounded``; nothing checkable ``not_checked``.

``screen`` is the evidence screenshot's OCR text (webfovea.documents.ocr), looked at after every
page text, so a part counts as found there only when no page text has it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from decimal import Decimal, DivisionByZero, InvalidOperation

from ..documents.place import find_place
from ..matching.dates import same_date
from ..matching.normalize import TOLERANCE
from ..matching.numbers import find_numbers, prepare, within
from ..rundir.trajectory import (
    GroundingPart,
    GroundingRecord,
    GroundingStatus,
    OcrUse,
    PartSource,
    SeenAt,
)
from .pages import ORDINARY, PageVerdict
from .parts import Part, answer_parts, searchable
from .seen import Indexed, SessionText

WHOLE_ANSWER_WORDS = 20  # an answer this short is first looked for as it is written
OPTION_WORDS = 6  # an option a task offers is a word or a few
MAX_OPERANDS = 40  # numbers of the final thought tried as operands
PIXELS = "not found in the page text (it may be drawn in an image or chart)"
OCR: PartSource = "evidence screenshot (OCR)"
SOURCES: dict[str, PartSource] = {"page": "page text", "read_text": "read_text", "ocr": OCR}


def ground(answer: str, *, seen: SessionText, task: str = "", thought: str = "",
           page: PageVerdict = ORDINARY, before_action: bool = False,
           screen: tuple[SeenAt, Indexed] | None = None, ocr: OcrUse = "not_needed",
           ocr_error: str = "") -> GroundingRecord:
    texts = seen.newest_first() + ([screen] if screen else [])
    operands = _operands(thought, texts)
    parts = _whole(answer, texts) or [_derive(p, _check(p, texts, task), operands)
                                      for p in answer_parts(answer)] or _option(answer, task)
    parts = [_found(p) for p in parts]
    status = _status(parts, bool(operands))
    return GroundingRecord(status=status, parts=parts, page=page.kind, page_reason=page.reason,
                           before_action=before_action, note=_note(status, parts, page),
                           ocr=ocr, ocr_error=ocr_error)


def missing(record: GroundingRecord) -> bool:
    """Some part was not found: the evidence screenshot's text may have it."""
    return any(p.state == "missing" for p in record.parts)


def _found(part: GroundingPart) -> GroundingPart:
    if part.state == "task":
        part.found_by = "task"
    elif part.where:
        part.found_by = SOURCES[part.where[0].source]
    return part


def _whole(answer: str, texts: list[tuple[SeenAt, Indexed]]) -> list[GroundingPart] | None:
    """The answer found as written (a headline, a full name): one part, seen."""
    phrase = searchable(answer)
    if not phrase or len(phrase.split()) > WHOLE_ANSWER_WORDS or len(phrase.split()) < 2:
        return None
    for at, text in texts:
        if f" {phrase} " in text.normalised:
            return [GroundingPart(kind="phrase", text=answer.strip(), state="seen",
                                  where=[_placed(at, text, answer)])]
    return None


def _option(answer: str, task: str) -> list[GroundingPart]:
    """An answer of plain words ("increased") that the task offers as an option."""
    phrase = searchable(answer)
    if phrase and len(phrase.split()) <= OPTION_WORDS and f" {phrase} " in f" {searchable(task)} ":
        return [GroundingPart(kind="phrase", text=answer.strip(), state="task")]
    return []


def _check(part: Part, texts: list[tuple[SeenAt, Indexed]], task: str) -> GroundingPart:
    for at, text in texts:
        if _in(part, text):
            return GroundingPart(kind=part.kind, text=part.text, state="seen",
                                 where=[_placed(at, text, part.text)])
    if part.phrase and f" {part.phrase} " in f" {searchable(task)} ":
        return GroundingPart(kind=part.kind, text=part.text, state="task")
    return GroundingPart(kind=part.kind, text=part.text, state="missing")


def _placed(at: SeenAt, text: Indexed, found: str) -> SeenAt:
    """``at`` with the document place (page, sheet and row) when the text is a document's."""
    place = find_place(text.text, found)
    return at.model_copy(update={"place": place}) if place else at


def _in(part: Part, text: Indexed) -> bool:
    if part.kind == "number":
        return any(within(a, r, TOLERANCE) for a in part.numbers for r in text.numbers)
    if part.kind == "date":
        return any(same_date(a, d) for a in part.dates for d in text.dates)
    return f" {part.phrase} " in text.normalised


def _operands(thought: str, texts: list[tuple[SeenAt, Indexed]]) -> list[tuple[Decimal, SeenAt]]:
    """The numbers the final thought names that were seen, each with its newest sighting.
    An operand is the page's value exactly (copied from it); only the result of the
    arithmetic gets the scorer's tolerance, for rounding."""
    found: dict[Decimal, SeenAt] = {}
    for n in find_numbers(prepare(thought))[:MAX_OPERANDS]:
        value = n.readings[0]
        where = next((at for at, text in texts if value in text.numbers), None)
        if where is not None:
            found.setdefault(value, where)
    return list(found.items())


def _derive(part: Part, checked: GroundingPart,
            operands: list[tuple[Decimal, SeenAt]]) -> GroundingPart:
    if checked.state != "missing" or part.kind != "number" or len(operands) < 2:
        return checked
    for how, value, used in _results(operands):
        if any(within(a, value, TOLERANCE) for a in part.numbers):
            return GroundingPart(kind="number", text=part.text, state="derived",
                                 where=[at for _, at in used], how=how)
    return checked


def _results(operands: list[tuple[Decimal, SeenAt]]
             ) -> Iterator[tuple[str, Decimal, list[tuple[Decimal, SeenAt]]]]:
    yield f"sum of {len(operands)} values", sum((v for v, _ in operands), Decimal(0)), operands
    for a, b in itertools.permutations(operands, 2):
        yield "difference", a[0] - b[0], [a, b]
        yield "sum", a[0] + b[0], [a, b]
        yield "product", a[0] * b[0], [a, b]
        try:
            yield "ratio", a[0] / b[0], [a, b]
        except (DivisionByZero, InvalidOperation):
            continue


def _status(parts: list[GroundingPart], supported: bool) -> GroundingStatus:
    states = [p.state for p in parts]
    if not states:
        return "not_checked"
    evidence = [s for s in states if s in ("seen", "derived")]
    if "missing" not in states:
        # Only the task's own options: grounded when the reasoning rests on seen values.
        return "grounded" if evidence or supported else "not_checked"
    return "partly_grounded" if evidence else "ungrounded"


def _note(status: GroundingStatus, parts: list[GroundingPart], page: PageVerdict) -> str:
    missing = [p.text for p in parts if p.state == "missing"]
    computed = any(p.state == "derived" for p in parts)
    said = {"grounded": "every checkable part was seen" + (
                " or computed from seen values" if computed else ""),
            "not_checked": "nothing in the answer can be checked against page text",
            "partly_grounded": f"{_listed(missing)} {PIXELS}",
            "ungrounded": f"{_listed(missing)} {PIXELS}"}[status]
    if status == "grounded":
        steps = sorted({at.step for p in parts for at in p.where})
        said += f" (step {', '.join(map(str, steps))})" if steps else " (the task's own option)"
        places = sorted({at.place for p in parts for at in p.where if at.place})
        said += f" (in the document: {'; '.join(places)})" if places else ""
    read = [p.text for p in parts if p.found_by == OCR]
    if read:
        said += f"; {_listed(read)} only in the {OCR}"
    return said + (f"; {page.reason}" if page.kind != "ok" else "")


def _listed(texts: list[str]) -> str:
    return ", ".join(f"'{t}'" for t in texts)

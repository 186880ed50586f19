"""Turning captured page text into the final answer (the ``Answer`` of a plan).

Sites format their programmatic answers with :func:`fmt_number` too, so an answer
computed from the page and the answer computed from the data are the same string.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .layout import norm
from .spec import Answer
from .web import SuiteError


@dataclass(frozen=True)
class Capture:
    label: str
    value: str


def capture(text: str, pattern: str, slot: str) -> Capture | None:
    """The ``value`` (else whole match) and ``label`` (else the slot name) of ``pattern``."""
    m = re.search(pattern, text, re.S | re.I)
    if m is None:
        return None
    groups = m.groupdict()
    value = groups.get("value") or m.group(0)
    label = groups.get("label") or slot
    return Capture(label=label.strip(), value=value.strip())


def to_number(text: str) -> float:
    cleaned = re.sub(r"[^0-9.\-]", "", text)
    try:
        return float(cleaned)
    except ValueError as exc:
        raise SuiteError(f"captured text {text!r} is not a number") from exc


def fmt_number(value: float, decimals: int = 0) -> str:
    """Answers are plain numbers: no separators, fixed decimals, no negative zero."""
    text = f"{value:.{decimals}f}"
    return text[1:] if re.fullmatch(r"-0(\.0*)?", text) else text


def compute(answer: Answer, captures: Mapping[str, Capture]) -> str:
    missing = [s for s in answer.slots if s not in captures]
    if missing:
        raise SuiteError(f"answer needs slots that were never captured: {', '.join(missing)}")
    got = [captures[s] for s in answer.slots]
    if answer.op == "text":
        return got[0].value
    if answer.op == "count":
        return str(sum(1 for c in got if norm(c.value) == norm(answer.match)))
    nums = [to_number(c.value) for c in got]
    if answer.op in ("max_label", "min_label"):
        pick = max if answer.op == "max_label" else min
        return pick(zip(nums, (c.label for c in got), strict=True), key=lambda pair: pair[0])[1]
    if answer.op == "trend":
        up, down = answer.match.split("|")
        return up if nums[-1] > nums[0] else down
    return fmt_number(_arithmetic(answer, nums), answer.decimals)


def _arithmetic(answer: Answer, nums: list[float]) -> float:
    if answer.op == "number":
        return nums[0]
    if answer.op == "sum":
        return sum(nums)
    if answer.op == "difference":
        return nums[0] - nums[1]
    if answer.op == "ratio":
        return nums[0] / nums[1]
    raise SuiteError(f"unknown answer operation {answer.op!r}")

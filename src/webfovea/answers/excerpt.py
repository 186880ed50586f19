"""A bounded excerpt of a page's text around where the answer stands in it, for the
verifier and the evidence judge (a long document's answer is rarely in its first page)."""

from __future__ import annotations

import re


def excerpt(text: str, answer: str, limit: int) -> str:
    at = _where(text, answer.strip())
    start = max(0, at - limit // 2) if at >= 0 else 0
    return text[start:start + limit]


def _where(text: str, answer: str) -> int:
    if not answer:
        return -1
    at = text.find(answer)
    if at >= 0:
        return at
    digits = re.sub(r"\D", "", answer)
    if len(digits) < 2:  # a digit or two stands everywhere: no place to centre on
        return -1
    # The number as the page may group it: 1298 as 1,298 or 1 298.
    m = re.search(r"(?<!\d)" + r"[,.\s'’]?".join(digits) + r"(?!\d)", text)
    return m.start() if m else -1

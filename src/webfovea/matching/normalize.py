"""Text as answers are compared: case, accents, punctuation and whitespace folded away, and
the relative tolerance two numbers may differ by."""

from __future__ import annotations

import unicodedata
from decimal import Decimal

from ..core.text import fold
from .numbers import prepare

TOLERANCE = Decimal("0.005")  # 0.5 % relative, inclusive


def normalize(text: str) -> str:
    """Case, accents, punctuation and whitespace folded away.

    Punctuation between digits stays ("1.5" must not become "15", nor "3/4" "34");
    symbols stay too, so "$5" and "€5" stay different.
    """
    text = fold(prepare(text))
    out = []
    for i, c in enumerate(text):
        if unicodedata.category(c)[0] == "P" and not _numeric_mark(text, i):
            out.append(" ")
        else:
            out.append(c)
    return " ".join("".join(out).split())


def _numeric_mark(text: str, i: int) -> bool:
    """A separator between digits, or a minus sign starting a number."""
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i < len(text) - 1 else " "
    if text[i] == "-" and after.isdigit() and not before.isalnum():
        return True
    return before.isdigit() and after.isdigit()

"""Text folding shared by the matchers that compare what a model wrote with what a page or
a reference holds (a select's options, an answer)."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Compatibility forms decomposed, case folded, accents dropped: 'Côte' → 'cote'."""
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in decomposed if not unicodedata.combining(c))

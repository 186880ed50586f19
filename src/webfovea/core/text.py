"""Text folding shared by the matchers that compare what a model wrote with what a page or
a reference holds (a select's options, an answer)."""

from __future__ import annotations

import unicodedata


def well_formed(text: str) -> str:
    """``text`` with every lone UTF-16 surrogate replaced by U+FFFD.

    JSON may carry one (``"\\ud83d"``: a model server that cut an emoji at a token
    boundary, a page that cut its title mid-emoji), and Python keeps it; it cannot be
    encoded as UTF-8, so it would fail every write of the run directory and every later
    request. Text from a model or a page passes here on its way in."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def fold(text: str) -> str:
    """Compatibility forms decomposed, case folded, accents dropped: 'Côte' → 'cote'."""
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in decomposed if not unicodedata.combining(c))

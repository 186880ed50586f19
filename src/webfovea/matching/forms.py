"""A reference's alternatives and glosses: ``107.8/107.77``, ``Dublin（都柏林）``,
``2025 (FY2025)`` each accept every form they give. A unit gloss (``2895（千人）``) is not an
alternative: the quantity reader applies it.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .dateforms import reference_date
from .numbers import prepare
from .quantities import reference_quantity
from .units import SCALE_PATTERN, read_after

_GLOSSED = re.compile(r"(?P<outer>.+?)\s*[（(](?P<inner>[^（）()]+)[)）]\s*")
_UNIT_GLOSS = re.compile(r"(?:" + SCALE_PATTERN + r")?\s*(?P<rest>.*)")


def reference_forms(reference: str) -> list[str]:
    """The forms the reference accepts; one (itself) when it gives no alternatives."""
    text = prepare(reference).strip()
    glossed = _GLOSSED.fullmatch(text)
    if glossed and not _unit_gloss(glossed.group("inner")):
        return [glossed.group("outer").strip(), glossed.group("inner").strip(), text]
    if "/" in text and not reference_date(text):
        parts = [p.strip() for p in text.split("/")]
        if len(parts) > 1 and all(parts) and _alike(parts):
            return parts
    return [text]


def _unit_gloss(inner: str) -> bool:
    """``千人``, ``万吨``, ``%``, ``USD``: a scale and/or a unit, nothing else."""
    m = _UNIT_GLOSS.fullmatch(inner.strip())
    rest = m.group("rest").strip() if m else inner
    if rest in ("", "%", "％"):
        return True
    return read_after(rest)[2] == len(rest)


def _alike(parts: list[str]) -> bool:
    """Alternatives are of one kind: numbers close to each other (``107.8/107.77``, not the
    fraction ``3/4``), or texts (not ``USD/kg``, whose second part is a unit)."""
    quantities = [reference_quantity(p) for p in parts]
    if all(q is not None for q in quantities):
        values = [q.readings[0][0] for q in quantities if q is not None]
        top = max(abs(v) for v in values)
        return top > 0 and (max(values) - min(values)) <= top * Decimal("0.01")
    return not any(quantities) and not any(read_after(p)[2] == len(p) for p in parts)

"""A reference's alternatives and glosses: ``107.8/107.77``, ``Dublin（都柏林）``,
``2025 (FY2025)`` each accept every form they give. A unit gloss (``2895（千人）``) is not an
alternative: the quantity reader applies it.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .dateforms import reference_date
from .numbers import prepare
from .quantities import Quantity, read_quantities, reference_quantity
from .text import script
from .units import SCALE_PATTERN, read_after

_GLOSSED = re.compile(r"(?P<outer>.+?)\s*[（(](?P<inner>[^（）()]+)[)）]\s*")
_UNIT_GLOSS = re.compile(r"(?:" + SCALE_PATTERN + r")?\s*(?P<rest>.*)")


def reference_forms(reference: str) -> list[str]:
    """The forms the reference accepts; one (itself) when it gives no alternatives."""
    text = prepare(reference).strip()
    glossed = _GLOSSED.fullmatch(text)
    if glossed and not _unit_gloss(glossed.group("inner")):
        outer, inner = glossed.group("outer").strip(), glossed.group("inner").strip()
        # A qualifier ("Apple (company)", "iPhone 15 (2023)") is not another form.
        return [outer, inner, text] if _gloss_of(outer, inner) else [outer, text]
    if "/" in text and not reference_date(text):
        parts = [p.strip() for p in text.split("/")]
        if len(parts) > 1 and all(parts) and _alike(parts):
            return parts
    return [text]


def _gloss_of(outer: str, inner: str) -> bool:
    """The inner text names the same thing: another script (``Dublin（都柏林）``), the same
    number (``2025（FY2025）``) or an acronym (``World Health Organization (WHO)``)."""
    scripts = script(outer), script(inner)
    if all(scripts) and scripts[0] != scripts[1]:
        return True
    numbers = [reference_quantity(x) or _only_number(x) for x in (outer, inner)]
    if numbers[0] is not None and numbers[1] is not None:
        return numbers[0].readings[0] == numbers[1].readings[0]
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", outer) if w[0].isupper())
    return len(inner) >= 2 and inner.replace(".", "") == initials


def _only_number(text: str) -> Quantity | None:
    found = read_quantities(text)
    return found[0] if len(found) == 1 else None


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
    # Texts only in different scripts: "TCP/IP" or "AC/DC" is one name, not two forms.
    return (not any(quantities) and not any(read_after(p)[2] == len(p) for p in parts)
            and None not in {script(p) for p in parts}
            and len({script(p) for p in parts}) == len(parts))

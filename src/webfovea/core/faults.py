"""Test-only fault injection: deliberately broken harness variants.

``webfovea diagnose`` must name the stage a fault breaks; its tests run real
tasks with one of these switched on through the ``WEBFOVEA_FAULTS`` variable
(comma-separated). Off in normal runs; the run records which were on.
"""

from __future__ import annotations

import os
from typing import Literal

Fault = Literal["coords_3_4", "no_enter", "no_frame_fingerprint", "no_token_strip"]
FAULTS: tuple[Fault, ...] = ("coords_3_4", "no_enter", "no_frame_fingerprint", "no_token_strip")


def enabled() -> frozenset[str]:
    raw = os.environ.get("WEBFOVEA_FAULTS", "")
    names = frozenset(n.strip() for n in raw.split(",") if n.strip())
    unknown = names - set(FAULTS)
    if unknown:
        raise ValueError(f"unknown WEBFOVEA_FAULTS {sorted(unknown)}; known: {', '.join(FAULTS)}")
    return names


def active(name: Fault) -> bool:
    return name in enabled()

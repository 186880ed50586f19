"""What an action handler itself knows about its action, before the fingerprint comparison."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Effect:
    facts: list[str] = field(default_factory=list)  # phrases for the note
    failed: str | None = None  # the action could not be performed: why
    settles: bool = True  # False for actions that never change the page (finished)
    compare_text: bool = False  # whole effect may be text (hover, SVG/canvas targets)
    details: dict[str, Any] = field(default_factory=dict)
    checked: bool = False  # the handler verified its own effect (fill read-back, select)

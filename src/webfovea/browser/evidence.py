"""What the page did around one action, as plain data: the browser side measures it,
:mod:`webfovea.browser.feedback` words it without touching the page, and a test can hand
feedback evidence without a browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

ChangeKind = Literal["url", "reload", "title", "content", "text", "scroll", "container",
                     "fields", "focus", "selection", "canvas", "pixels", "tabs"]


@dataclass
class Effect:
    """What an action handler itself knows about its action, before the fingerprint
    comparison."""

    facts: list[str] = field(default_factory=list)  # phrases for the note
    failed: str | None = None  # the action could not be performed: why
    settles: bool = True  # False for actions that never change the page (finished)
    compare_text: bool = False  # whole effect may be text (hover, SVG/canvas targets)
    details: dict[str, Any] = field(default_factory=dict)
    checked: bool = False  # the handler verified its own effect (fill read-back, select)
    # Read once the page has settled: what the action left behind that only the page can
    # say (where a dragged item ended up, what a custom dropdown shows), as more facts.
    readback: Callable[[], Awaitable[list[str]]] | None = None
    image: bytes | None = None  # PNG an observation returns to the model (zoom)


@dataclass(frozen=True)
class Change:
    kind: ChangeKind
    frame: str | None = None  # short URL of the child frame it happened in; None: the page
    detail: str = ""

    @property
    def label(self) -> str:
        return f"frame:{self.kind}" if self.frame else self.kind


@dataclass
class PageEvent:
    """Something the page did on its own that the next note must mention."""

    kind: str  # "new_tab" | "dialog" | "tab_closed" | "download" | "blocked" | "missing" | "document"
    detail: str


@dataclass(frozen=True)
class Target:
    """The element under the action's point, as a note names it."""

    description: str  # tag, role, own text, frame and clickability
    clickable: bool
    graphic: bool  # SVG, canvas or closed shadow root: its effect may be text or pixels only
    frame: str | None = None  # short URL of the child frame it is in; None: the page
    options: tuple[str, ...] | None = None  # a <select>'s options; None: not a dropdown


@dataclass(frozen=True)
class Comparison:
    """The page before and after the action, compared."""

    changes: tuple[Change, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)  # for the step record
    unreadable: bool = False  # fingerprinted again, but the main frame could not be read
    animating: bool = False  # the canvas under the point redraws by itself
    moving: tuple[str, ...] = ()  # regions that change by themselves and changed meanwhile

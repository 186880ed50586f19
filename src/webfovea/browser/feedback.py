"""Before/after evidence → one honest sentence for the model (the feedback words of docs/contracts.md).

Three states for an executed action: it took effect (``changed``), it made
**no detectable change** (and the note names the element under the point and
whether it is clickable), or its effect is ``unknown`` (the page had not settled
at the cap, could not be read, or the canvas under the point animates by itself).
Nothing is called a success unless something was checked. Points in notes are the
model's own coordinates, as it wrote them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions.registry import Action, Point
from ..rundir.trajectory import Outcome
from .evidence import Change, Comparison, Effect, PageEvent, Target

NO_CHANGE = "no detectable change"
NAIVE_NOTE = "Done."  # every note, with the "feedback" fix ablated (webfovea.core.ablations)
MAX_PHRASES = 4

_PAGE_WORDS = {
    "url": "the page navigated to {d}", "reload": "the page reloaded",
    "title": "the title changed to '{d}'", "content": "the page content changed (in {d})",
    "text": "the visible text changed", "scroll": "the page scrolled ({d})",
    "container": "the scroll container under the point scrolled ({d})",
    "fields": "a form field changed", "focus": "the focus moved to {d}",
    "selection": "the text selection or caret changed",
    "canvas": "the canvas under the point was redrawn",
    "pixels": "the component under the point (a closed shadow root) was redrawn",
    "tabs": "the number of open tabs is now {d}",
}
_FRAME_WORDS = {
    "url": "the frame {f} navigated to {d}", "reload": "the frame {f} reloaded",
    "title": "the title of the frame {f} changed to '{d}'",
    "content": "the content inside the frame {f} changed (in {d})",
    "text": "the visible text inside the frame {f} changed",
    "scroll": "the frame {f} scrolled ({d})",
    "container": "a scroll container inside the frame {f} scrolled ({d})",
    "fields": "a form field inside the frame {f} changed",
    "focus": "the focus moved to {d} inside the frame {f}",
    "selection": "the text selection or caret inside the frame {f} changed",
}


@dataclass
class Note:
    outcome: Outcome
    text: str
    guardrail: str | None = None
    frame: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    page_points: tuple[tuple[int, int], ...] = ()
    image: bytes | None = None  # an observation's own image (zoom), for the dialect to send


def refused(guardrail: str, text: str) -> Note:
    return Note("refused", text, guardrail=guardrail)


def failed_note(text: str, details: dict[str, Any] | None = None) -> Note:
    return Note("error", text, details=details or {})


def describe_changes(changes: Sequence[Change]) -> str:
    words: list[str] = []
    for c in changes:
        table = _FRAME_WORDS if c.frame else _PAGE_WORDS
        word = table[c.kind].format(f=c.frame, d=c.detail).replace(" ()", "")
        if word not in words:
            words.append(word)
    return ", ".join(words[:MAX_PHRASES])


# A page can raise thousands of dialogs or open hundreds of tabs in one step; the note
# names the first few and counts the rest, so it stays short whatever the page does.
MAX_EVENTS = 5


def _events_text(events: list[PageEvent]) -> str:
    parts = []
    for e in events[:MAX_EVENTS]:
        if e.kind == "new_tab":
            parts.append(f"a new tab opened ({e.detail}) and is now shown")
        elif e.kind in ("blocked", "missing", "document"):  # each a sentence of its own
            parts.append(e.detail)
        elif e.kind == "dialog":
            parts.append(f"a dialog appeared and was accepted: {e.detail}")
        elif e.kind == "tab_closed":
            parts.append(f"the tab closed; now showing {e.detail}")
        else:
            parts.append(f"{e.kind}: {e.detail}")
    if len(events) > MAX_EVENTS:
        parts.append(f"… and {len(events) - MAX_EVENTS:,} more page events")
    return "; ".join(parts)


def _where(action: Action) -> str:
    """' at (x,y)' in the model's coordinates, '' for actions without a point."""
    point = action.args.get("start_box")
    return f" at ({point.x:g},{point.y:g})" if isinstance(point, Point) else ""


def compose(*, action: Action, points: tuple[tuple[int, int], ...], target: Target | None,
            effect: Effect, page: Comparison, settled: bool, events: list[PageEvent]) -> Note:
    """The note for one executed action: ``points`` in page coordinates, ``target`` the
    element under the first one, ``page`` the fingerprints before and after compared."""
    details = dict(effect.details)
    if target is not None:  # structured, so readers (diagnose) never parse the note's wording
        details.update(element=target.description, clickable=target.clickable)
    if effect.failed:
        note = Note("error", f"The {action.name}{_where(action)} failed: {effect.failed}.",
                    details=details)
    elif action.spec.observes:
        note = _observed(effect, details, events)
    else:
        details.update(page.details)
        note = _judged(action, target, effect, page, settled, events, details)
    note.frame, note.page_points = (target.frame if target else None), points
    note.image = effect.image
    return note


def _observed(effect: Effect, details: dict[str, Any], events: list[PageEvent]) -> Note:
    """find_text / read_text: their own sentence, then what the page did meanwhile (a
    document the entry URL opened, a dialog); not finding is no change."""
    outcome: Outcome = "changed" if details.get("found") else "no_change"
    said = "; ".join(p for p in (*effect.facts, _events_text(events)) if p)
    return Note(outcome, f"The {said}.", details=details)


def _judged(action: Action, target: Target | None, effect: Effect, page: Comparison,
            settled: bool, events: list[PageEvent], details: dict[str, Any]) -> Note:
    head = f"The {action.name}{_where(action)}"
    facts = list(effect.facts)
    if action.spec.holds_pointer and not any(c.kind == "text" for c in page.changes):
        facts.insert(0, "visible text unchanged")
    said = "; ".join(p for p in (describe_changes(page.changes), _events_text(events), *facts)
                     if p)
    if page.changes or events:
        return Note("changed", f"{head} took effect: {said}.", details=details)
    extra = f"; {'; '.join(facts)}" if facts else ""
    if not settled:
        return Note("unknown", f"{head} was performed, but the page was still loading when the "
                               f"wait ended, so its effect is unknown{extra}.", details=details)
    if page.unreadable:
        return Note("unknown", f"{head} was performed, but the page could not be read "
                               f"afterwards, so its effect is unknown{extra}.", details=details)
    if page.animating:
        return Note("unknown", f"{head} was performed, but the canvas there animates by itself, "
                               f"so a redraw could not be judged{extra}.", details=details)
    if page.moving:
        return Note("unknown", f"{head} was performed, but the element there ({page.moving[0]}) "
                               "changes by itself and changed meanwhile, so whether the action "
                               f"did anything is unknown{extra}.", details=details)
    # Nothing differs: even a handler's own fact (an option selected that was already
    # selected) is no change, so the repeat detector sees a repeated no-op.
    return Note("no_change", _no_change(head, target, extra), details=details)


def _no_change(head: str, target: Target | None, extra: str) -> str:
    if target is None:
        return f"{head} made {NO_CHANGE}{extra}."
    text = f"{head} made {NO_CHANGE}; the element there is {target.description}{extra}"
    if target.options is not None:
        text += ("; it is a dropdown whose list does not show in screenshots, so use "
                 "select(start_box=..., option=...) with one of: "
                 + ", ".join(f"'{o}'" for o in target.options[:20]))
    return text + "."

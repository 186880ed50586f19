"""Before/after evidence → one honest sentence for the model (DESIGN's feedback words).

Three states for an executed action: it took effect (``changed``), it made
**no detectable change** (and the note names the element under the point and
whether it is clickable), or its effect is ``unknown`` (the page had not settled
at the cap, could not be read, or the canvas under the point animates by itself).
Nothing is called a success unless something was checked. Points in notes are the
model's own coordinates, as it wrote them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Action, Point
from .trajectory import Outcome

if TYPE_CHECKING:
    from .browser.executor import Effect, Mapped
    from .browser.fingerprint import Change, Fingerprint
    from .browser.locate import Hit
    from .browser.session import PageEvent

NO_CHANGE = "no detectable change"
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


def refused(guardrail: str, text: str) -> Note:
    return Note("refused", text, guardrail=guardrail)


def failed_note(text: str, details: dict[str, Any] | None = None) -> Note:
    return Note("error", text, details=details or {})


def describe_changes(changes: list[Change]) -> str:
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
        elif e.kind == "blocked":
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


def compose(*, mapped: Mapped, hit: Hit | None, effect: Effect, before: Fingerprint,
            after: Fingerprint | None, settled: bool, events: list[PageEvent]) -> Note:
    """The note for one executed action. ``after`` is None when the page was not
    fingerprinted again (the action does not touch the page, or a new tab took over)."""
    from .browser import fingerprint  # late: feedback must not import the browser at load time
    from .browser.locate import short_url

    action = mapped.action
    frame = short_url(hit.frame.url) if hit and hit.in_child_frame else None
    details = dict(effect.details)
    if effect.failed:
        note = Note("error", f"The {action.name}{_where(action)} failed: {effect.failed}.",
                    details=details)
    elif action.spec.budget == "observe":
        note = _observed(effect, details)
    else:
        text = effect.compare_text or bool(hit and hit.graphic)
        changes = fingerprint.diff(before, after, text=text) if after else []
        details.update(_evidence(before, after, changes))
        animating = bool(before.canvas and before.canvas.animating)
        moving = fingerprint.uncertain(after) if after else []
        note = _judged(action, hit, effect, after, settled, events, changes, details,
                       animating=animating, moving=moving)
    note.frame, note.page_points = frame, mapped.points
    return note


def _evidence(before: Fingerprint, after: Fingerprint | None, changes: list[Change]
              ) -> dict[str, Any]:
    ignored = sum(f.data.get("ignored", 0) for f in after.frames) if after else 0
    out: dict[str, Any] = {"changes": [c.label for c in changes],
                           "fingerprint_ms": round(before.ms + (after.ms if after else 0.0), 1),
                           "frames": len(before.frames)}
    if ignored:
        out["noise_ignored"] = ignored  # mutations in regions that change by themselves
    old, new = before.main, after.main if after else None
    if old and new and "state" in new.data:  # the main frame's size, for the trajectory
        out["nodes"] = [old.data["snap"]["nodes"], new.data["state"]["nodes"]]
        out["text_length"] = [old.data["snap"]["textLength"], new.data["state"]["textLength"]]
    return out


def _observed(effect: Effect, details: dict[str, Any]) -> Note:
    """find_text / read_text: their own sentence; not finding is no change."""
    outcome: Outcome = "changed" if details.get("found") else "no_change"
    return Note(outcome, f"The {'; '.join(effect.facts)}.", details=details)


def _judged(action: Action, hit: Hit | None, effect: Effect, after: Fingerprint | None,
            settled: bool, events: list[PageEvent], changes: list[Change],
            details: dict[str, Any], *, animating: bool, moving: list[str]) -> Note:
    head = f"The {action.name}{_where(action)}"
    facts = list(effect.facts)
    if action.name == "hover" and not any(c.kind == "text" for c in changes):
        facts.insert(0, "visible text unchanged")
    said = "; ".join(p for p in (describe_changes(changes), _events_text(events), *facts) if p)
    if changes or events:
        return Note("changed", f"{head} took effect: {said}.", details=details)
    extra = f"; {'; '.join(facts)}" if facts else ""
    if not settled:
        return Note("unknown", f"{head} was performed, but the page was still loading when the "
                               f"wait ended, so its effect is unknown{extra}.", details=details)
    if after is not None and after.main is None:
        return Note("unknown", f"{head} was performed, but the page could not be read "
                               f"afterwards, so its effect is unknown{extra}.", details=details)
    if animating:
        return Note("unknown", f"{head} was performed, but the canvas there animates by itself, "
                               f"so a redraw could not be judged{extra}.", details=details)
    if moving:
        return Note("unknown", f"{head} was performed, but the element there ({moving[0]}) "
                               "changes by itself and changed meanwhile, so whether the action "
                               f"did anything is unknown{extra}.", details=details)
    # Nothing differs: even a handler's own fact (an option selected that was already
    # selected) is no change, so the repeat detector sees a repeated no-op.
    return Note("no_change", _no_change(head, hit, extra), details=details)


def _no_change(head: str, hit: Hit | None, extra: str) -> str:
    if hit is None:
        return f"{head} made {NO_CHANGE}{extra}."
    text = f"{head} made {NO_CHANGE}; the element there is {hit.describe()}{extra}"
    select = hit.info.get("select") if hit.info else None
    if select:
        text += ("; it is a dropdown whose list does not show in screenshots, so use "
                 "select(start_box=..., option=...) with one of: "
                 + ", ".join(f"'{o}'" for o in select["options"][:20]))
    return text + "."

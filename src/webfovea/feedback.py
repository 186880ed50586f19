"""Before/after evidence → one honest sentence for the model (DESIGN's feedback words).

Three states for an executed action: it took effect (``changed``), it made
**no detectable change** (and the note names the element under the point and
whether it is clickable), or its effect is ``unknown`` (the page had not
settled at the cap). Nothing is called a success unless something was checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .trajectory import Outcome

if TYPE_CHECKING:
    from .browser.executor import Effect, Mapped
    from .browser.fingerprint import Fingerprint
    from .browser.locate import Hit
    from .browser.session import PageEvent

NO_CHANGE = "no detectable change"

_CHANGE_WORDS = {
    "url": "the page navigated", "title": "the title changed", "nodes": "the page content changed",
    "scrollX": "the page scrolled", "scrollY": "the page scrolled",
    "container": "the scroll container moved", "fields": "a form field changed",
    "focus": "the focus moved", "textHash": "the visible text changed", "tabs": "a tab opened or closed",
    "frames": "the frames on the page changed",
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


def describe_changes(changes: list[str]) -> str:
    words: list[str] = []
    for change in changes:
        in_frame = change.startswith("frame:")
        word = _CHANGE_WORDS.get(change.removeprefix("frame:"), change)
        word = f"{word} inside a frame" if in_frame else word
        if word not in words:
            words.append(word)
    return ", ".join(words[:4])


def _events_text(events: list[PageEvent]) -> str:
    parts = []
    for e in events:
        if e.kind == "new_tab":
            parts.append(f"a new tab opened ({e.detail}) and is now shown")
        elif e.kind == "dialog":
            parts.append(f"a dialog appeared and was accepted: {e.detail}")
        elif e.kind == "tab_closed":
            parts.append(f"the tab closed; now showing {e.detail}")
        else:
            parts.append(f"{e.kind}: {e.detail}")
    return "; ".join(parts)


def compose(*, mapped: Mapped, hit: Hit | None, effect: Effect, before: Fingerprint,
            after: Fingerprint, settled: bool, events: list[PageEvent]) -> Note:
    from .browser import fingerprint  # late: feedback must not import the browser at load time

    note = _compose(mapped=mapped, hit=hit, effect=effect, before=before, after=after,
                    settled=settled, events=events, changes=fingerprint.diff(
                        before, after, text=effect.compare_text) if effect.settles else [])
    note.page_points = mapped.points
    return note


def _compose(*, mapped: Mapped, hit: Hit | None, effect: Effect, before: Fingerprint,
             after: Fingerprint, settled: bool, events: list[PageEvent],
             changes: list[str]) -> Note:

    name = mapped.action.name
    where = f" at ({mapped.points[0][0]},{mapped.points[0][1]})" if mapped.points else ""
    frame = hit.frame.url if hit and hit.in_child_frame else None
    details = dict(effect.details)
    if effect.failed:
        return Note("error", f"The {name}{where} failed: {effect.failed}.", frame=frame,
                    details=details)
    facts = "; ".join(effect.facts)
    extra = _events_text(events)
    details["changes"] = changes
    if events or changes:
        said = "; ".join(p for p in (describe_changes(changes), extra, facts) if p)
        return Note("changed", f"The {name}{where} took effect: {said}.", frame=frame,
                    details=details)
    if not settled:
        text = f"The {name}{where} was performed, but the page was still loading when the wait " \
               f"ended, so its effect is unknown{'; ' + facts if facts else ''}."
        return Note("unknown", text, frame=frame, details=details)
    if effect.checked:
        return Note("changed" if facts else "unknown", f"The {name}{where}: {facts}.", frame=frame,
                    details=details)
    element = hit.describe() if hit else "the page"
    text = f"The {name}{where} made {NO_CHANGE}; the element there is {element}."
    if hit and hit.info and hit.info.get("select"):
        options = hit.info["select"]["options"]
        text += (" It is a dropdown whose list does not show in screenshots; use "
                 "select(start_box=..., option=...) with one of: "
                 + "; ".join(f"'{o}'" for o in options[:20]) + ".")
    return Note("no_change", text, frame=frame, details=details)

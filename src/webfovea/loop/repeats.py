"""Repeat detector and scroll circuit breaker: escalating notes, never an ending.

The same action at the same point (within a few pixels) that keeps making no
detectable change, or scrolling in the same direction with nothing moving,
gets a note from the third time on that grows more insistent. It never stops
the task: an idle stop killed tasks that would have succeeded (the paper's
ablation). Any action that changes the page clears
every count, because the same point may now hold something else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..actions.registry import Action, Point

THRESHOLD = 3
# Page pixels: models rarely repeat a point exactly, and a few pixels is the same target.
TOLERANCE = 12
_COUNTED = frozenset({"no_change", "error"})

PagePoints = tuple[tuple[int, int], ...]


@dataclass
class _Seen:
    name: str
    args: tuple[tuple[str, str], ...]
    points: PagePoints
    count: int = 0

    def same(self, name: str, args: tuple[tuple[str, str], ...], points: PagePoints) -> bool:
        return (self.name, self.args) == (name, args) and len(self.points) == len(points) and all(
            abs(a[0] - b[0]) <= TOLERANCE and abs(a[1] - b[1]) <= TOLERANCE
            for a, b in zip(self.points, points, strict=True))


def _key(action: Action, points: PagePoints) -> tuple[str, tuple[tuple[str, str], ...], PagePoints]:
    args = tuple(sorted((k, v) for k, v in action.args.items() if not isinstance(v, Point)))
    if action.spec.scrolls:
        points = ()  # the circuit breaker: any scroll this way that moves nothing counts
    return action.name, args, points


def escalation(action: Action, count: int) -> str:
    """The note for the ``count``-th time the action had no effect ('' below the threshold)."""
    if count < THRESHOLD:
        return ""
    scroll = action.spec.scrolls
    said = f"{'Scrolling this way' if scroll else 'This'} has had no effect {count} times; " \
           "try something else"
    hint = ("find_text(), or scroll another area" if scroll
            else "a different element, or another kind of action")
    if count == THRESHOLD:
        return f"{said}."
    if count == THRESHOLD + 1:
        return f"{said}: {hint}."
    return f"{said}. Repeating it will not work: look at the screenshot again and use {hint}."


@dataclass
class RepeatDetector:
    seen: list[_Seen] = field(default_factory=list)

    def record(self, action: Action, outcome: str, points: PagePoints) -> str:
        """Count an executed action's outcome; the escalating note, or ''."""
        if outcome == "changed":
            self.seen.clear()
            return ""
        if outcome not in _COUNTED:
            return ""
        name, args, key_points = _key(action, points)
        entry = next((s for s in self.seen if s.same(name, args, key_points)), None)
        if entry is None:
            entry = _Seen(name, args, key_points)
            self.seen.append(entry)
        entry.count += 1
        return escalation(action, entry.count)

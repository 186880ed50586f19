"""Following a task's plan from reported layouts: the decision core of the oracle.

:class:`PlanRunner` sees what a model sees plus the page's own layout report: it
never reads the site's data. Each call to :meth:`PlanRunner.next_move` takes the
latest composed layout and returns one :class:`Move` in top-level viewport CSS
pixels; the caller converts the point to the image space it answers in and
phrases the move as a reply (``click(start_box='(x,y)')`` …), or, in tests,
performs it with Playwright. Results of ``read_text`` come back through
:meth:`PlanRunner.note`, as a model reads them from the feedback note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..actions.registry import Action, ArgValue, Point
from .layout import Element, Layout
from .plan import Capture, capture, compute
from .spec import Click, Fill, FindText, Hover, Read, ReadText, Select, Step, SuiteTask, Wait
from .web import SuiteError

MoveKind = Literal["click", "hover", "select", "fill", "scroll", "find_text", "read_text",
                   "wait", "finished"]


class PlanStuck(SuiteError):
    """A plan step did not take effect within its move budget (the page did not react)."""


@dataclass(frozen=True)
class Move:
    kind: MoveKind
    point: tuple[float, float] | None = None  # top-level viewport CSS pixels
    text: str = ""  # select: option; fill: content; find_text/read_text: text; finished: answer
    direction: Literal["up", "down"] | None = None
    thought: str = ""
    target: str = ""  # the element's data-fovea id: what the oracle names with target='…'


class PlanRunner:
    """Walks one task's plan; keep one per task attempt."""

    def __init__(self, task: SuiteTask, *, max_moves_per_step: int = 15) -> None:
        self.task = task
        self.cursor = 0
        self.captures: dict[str, Capture] = {}
        self.max_moves = max_moves_per_step
        self._moves_on_step = 0
        self._pending: ReadText | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.task.plan.steps

    def note(self, text: str) -> None:
        """Feed the text a ``read_text`` move returned (the step's feedback note)."""
        step = self._pending
        if step is None:
            return
        self._pending = None
        got = capture(text, step.pattern, step.into)
        if got is None:
            raise PlanStuck(f"read_text({step.label!r}) returned no match for {step.pattern!r}")
        self.captures[step.into] = got

    def next_move(self, layout: Layout) -> Move:
        while self.cursor < len(self.steps):
            step = self.steps[self.cursor]
            move = self._move_for(step, layout)
            if move is None:
                self.cursor += 1
                self._moves_on_step = 0
                continue
            self._moves_on_step += 1
            if self._moves_on_step > self.max_moves:
                raise PlanStuck(f"{self.task.id}: step {self.cursor + 1} {step} not done after "
                                f"{self.max_moves} moves")
            return move
        answer = compute(self.task.plan.answer, self.captures)
        # The values it read, named in the thought as an honest model shows its working:
        # answer grounding can then follow a computed answer back to the page.
        read = "; ".join(self.captures[s].value for s in self.task.plan.answer.slots)
        return Move("finished", text=answer, thought="All plan steps done; answering from the "
                    f"values read on the page: {read}.")

    def _thought(self, what: str) -> str:
        return f"Step {self.cursor + 1} of {len(self.steps)}: {what}."

    def _move_for(self, step: Step, layout: Layout) -> Move | None:
        if isinstance(step, Read):
            return self._read(step, layout)
        if isinstance(step, ReadText):
            if step.into in self.captures:
                return None
            self._pending = step
            return Move("read_text", text=step.label, thought=self._thought(
                f"read the text next to '{step.label}'"))
        if layout.holds(step.until):
            return None
        if isinstance(step, FindText):
            return Move("find_text", text=step.text, thought=self._thought(
                f"bring '{step.text}' into view"))
        if isinstance(step, Wait):
            return Move("wait", thought=self._thought("wait for the page to change"))
        return self._act(step, layout)

    def _read(self, step: Read, layout: Layout) -> Move | None:
        el = layout.get(step.target)
        if el is None or not el.in_view or el.hit is False:
            return self._reveal(el, layout, step.target)
        got = capture(el.text, step.pattern, step.into)
        if got is None:
            raise PlanStuck(f"{self.task.id}: {step.target} shows {el.text!r}, which does not "
                            f"match {step.pattern!r}")
        if step.label_from:
            label = layout.get(step.label_from)
            if label is None or not label.in_view:
                return self._reveal(label, layout, step.label_from)
            got = Capture(label=label.text, value=got.value)
        self.captures[step.into] = got
        return None

    def _act(self, step: Click | Hover | Select | Fill, layout: Layout) -> Move:
        el = layout.get(step.target)
        if el is None or not el.in_view or el.hit is False:
            return self._reveal(el, layout, step.target)
        point = el.centre
        if isinstance(step, Select):
            return Move("select", point, step.option, thought=self._thought(
                f"choose '{step.option}' in the dropdown"), target=el.id)
        if isinstance(step, Fill):
            content = step.text + ("\n" if step.submit else "")
            return Move("fill", point, content, thought=self._thought(
                f"type '{step.text}'" + (" and press Enter" if step.submit else "")),
                target=el.id)
        kind: MoveKind = "hover" if isinstance(step, Hover) else "click"
        return Move(kind, point, thought=self._thought(f"{kind} on {step.target}"), target=el.id)

    def _reveal(self, el: Element | None, layout: Layout, target: str) -> Move:
        """Scroll toward an element outside the viewport, or wait for one not shown yet."""
        middle = (layout.viewport_w / 2, layout.viewport_h / 2)
        if el is None or not el.visible:
            return Move("wait", thought=self._thought(f"wait for {target} to appear"))
        centre_y = el.centre[1]
        direction: Literal["up", "down"] = "down" if centre_y > layout.viewport_h / 2 else "up"
        return Move("scroll", middle, direction=direction, thought=self._thought(
            f"scroll {direction} to bring {target} into view"))


TARGET = "the element {id}"  # how the oracle names an element for a grounder


def to_action(move: Move, *, scale_x: float, scale_y: float, targets: bool = False) -> Action:
    """The move as a registry action, its point scaled from page CSS pixels to the image space
    the model answers in (scale = image size / viewport size, both measured). ``targets``:
    an element's point is named instead (``target='the element <id>'``, for a grounder)."""
    args: dict[str, ArgValue] = {}
    if targets and move.target:
        args["target"] = TARGET.format(id=move.target)
    elif move.point is not None:
        args["start_box"] = Point(round(move.point[0] * scale_x), round(move.point[1] * scale_y))
    if move.kind == "select":
        args["option"] = move.text
    elif move.kind in ("fill", "finished"):
        args["content"] = move.text
    elif move.kind == "find_text":
        args["text"] = move.text
    elif move.kind == "read_text":
        args["label"] = move.text
    elif move.kind == "scroll":
        args["direction"] = move.direction or "down"
    if move.kind == "scroll" and move.point is None:
        raise SuiteError("a scroll move needs a point")
    return Action(move.kind, args)


def reply_text(move: Move, *, scale_x: float, scale_y: float, targets: bool = False) -> str:
    """The move phrased as a model reply in the reply grammar."""
    action = to_action(move, scale_x=scale_x, scale_y=scale_y, targets=targets)
    return f"Thought: {move.thought}\nAction: {action.source()}"

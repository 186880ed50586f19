"""Point sources: the one place a point form (``target='…'``, ``mark=N``; actions.POINT_FORMS)
or a point left out where the grammar allows it (UI-TARS's ``scroll(direction='down')``: the
screenshot's centre) becomes a point of the planner's model space, between parse and execute.

The executor then maps it to the page by the measured ratio like any point the model wrote.
The step records both, the form the model gave and the point it became; the planner's note
starts with where the point landed and on what, or says why there is none (then nothing runs:
a form that cannot be placed is never a guessed click).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..actions.geometry import ModelSpace, OutsideImage, to_page
from ..actions.registry import Action, ArgValue, Point, form_args
from ..browser.capture import Screen
from ..browser.feedback import Note
from ..browser.locate import hit_test
from ..browser.session import Tabs
from ..dialects.grounder import Grounder
from ..models.base import SentImage

MarkCentres = dict[int, Point]  # a mark's number -> its centre in the planner's model space


@dataclass
class Resolution:
    action: Action | None  # every point filled in; None when a form could not be placed
    failure: Note | None = None
    said: str = ""  # where each form landed, the start of the planner's note
    forms: list[dict[str, Any]] = field(default_factory=list)  # for the step record


def given_forms(action: Action) -> dict[str, tuple[str, str]]:
    """The point forms ``action`` carries: argument name -> (its point argument, its form)."""
    return {n: f for n, f in form_args(action.spec).items() if n in action.args}


async def resolve(action: Action, screen: Screen, space: ModelSpace, tabs: Tabs, *,
                  grounder: Grounder | None, marks: MarkCentres | None,
                  time_left: float) -> Resolution:
    """``action`` with its point forms replaced by points (an action without any: itself)."""
    forms = given_forms(action)
    formed = {point for point, _ in forms.values()}
    omitted = [a.name for a in action.spec.args if a.kind == "point" and a.omissible
               and a.name not in action.args and a.name not in formed]
    if not forms and not omitted:
        return Resolution(action)
    args: dict[str, ArgValue] = {k: v for k, v in action.args.items() if k not in forms}
    out = Resolution(None)
    sentences: list[str] = []
    for name in omitted:
        args[name] = centre = Point(space.width / 2, space.height / 2)
        out.forms.append({"arg": name, "form": "omitted", "given": "",
                          "point": [centre.x, centre.y]})
        sentences.append(f"No point was given: the {action.name} is at the screenshot's centre "
                         f"({centre.x:g},{centre.y:g}).")
    for name, (point_arg, form) in forms.items():
        value = str(action.args[name])
        entry: dict[str, Any] = {"arg": point_arg, "form": form, "given": value}
        out.forms.append(entry)
        if form == "mark":
            point, failure = _mark(value, marks)
        else:
            point, failure, placement = await _target(value, screen, space, grounder, time_left)
            entry["grounder"] = placement
        if point is None:
            out.failure = failure
            return out
        entry["point"] = [point.x, point.y]
        args[point_arg] = point
        sentences.append(await _landed(form, value, point, screen, space, tabs))
    out.action, out.said = Action(action.name, args), " ".join(sentences)
    return out


async def _target(description: str, screen: Screen, space: ModelSpace,
                  grounder: Grounder | None, time_left: float
                  ) -> tuple[Point | None, Note | None, dict[str, Any] | None]:
    if grounder is None:  # the parser accepts target= only with a grounder
        return None, Note("error", f"No grounder places '{description}' in this run."), None
    image = SentImage(screen.png, screen.sent.width, screen.sent.height)
    placement = await grounder.place(description, image, space, time_left=time_left)
    if placement.planner_point is None:
        return None, Note("error", f"The grounder could not place '{description}': "
                                   f"{placement.error}. Nothing was done; describe the element "
                                   "differently (its text, its place on the page)."), placement.to_json()
    return placement.planner_point, None, placement.to_json()


def _mark(value: str, marks: MarkCentres | None) -> tuple[Point | None, Note | None]:
    number = int(value)
    if not marks or number not in marks:
        shown = f"1 to {max(marks)}" if marks else "none"
        return None, Note("error", f"There is no mark {number} on this screenshot (marks: "
                                   f"{shown}). Nothing was done.")
    return marks[number], None


async def _landed(form: str, value: str, point: Point, screen: Screen, space: ModelSpace,
                  tabs: Tabs) -> str:
    """'The grounder put 'X' at (812,141) on <button> 'Search'.' (or mark N's centre)."""
    try:
        page_point = to_page(point, space=space, page=screen.page)
    except OutsideImage:
        return ""
    hit = await hit_test(tabs.page, *page_point)
    on = hit.describe() if hit else "nothing"
    at = f"({point.x:g},{point.y:g})"
    if form == "mark":
        return f"Mark {value} is at {at} on {on}."
    return f"The grounder put '{value}' at {at} on {on}."

"""The overlay layers of a step's screenshot in the viewer, drawn apart from the image as sent
so the reader can switch each off: the elements the step numbered (its ``element_marks``,
``--observation``) and the points its point forms were placed at (``target=`` by the
grounder, ``mark=N`` at the mark's centre). All in the sent image's pixels, like the
viewer's other marks.
"""

from __future__ import annotations

from typing import Any

from ..rundir.trajectory import StepRecord


def layers(s: StepRecord) -> dict[str, Any] | None:
    """The step's layers; None when it recorded neither elements nor point forms (or no
    sizes to scale them by)."""
    if not (s.element_marks or s.point_forms) or 0 in (*s.sent_size, *s.page_size,
                                                       *s.model_size):
        return None
    return {"elements": _elements(s), "placed": _placed(s)}


def _elements(s: StepRecord) -> list[dict[str, Any]]:
    """Each numbered element's box, from page CSS pixels to the sent image's."""
    sx, sy = s.sent_size[0] / s.page_size[0], s.sent_size[1] / s.page_size[1]
    out = []
    for mark in s.element_marks:
        x, y, w, h = mark["box"]
        out.append({"number": mark["number"], "role": mark["role"], "name": mark["name"],
                    "framed": bool(mark.get("frame")),
                    "box": [round(x * sx, 1), round(y * sy, 1), round(w * sx, 1),
                            round(h * sy, 1)]})
    return out


def _placed(s: StepRecord) -> list[dict[str, Any]]:
    """Each point form's point, from the planner's model space to the sent image's pixels;
    a form that could not be placed keeps its error and no point."""
    sx, sy = s.sent_size[0] / s.model_size[0], s.sent_size[1] / s.model_size[1]
    out = []
    for form in s.point_forms:
        point = form.get("point")
        grounder = form.get("grounder") or {}
        out.append({"form": form["form"], "given": form["given"],
                    "point": [round(point[0] * sx, 1), round(point[1] * sy, 1)] if point
                    else None, "error": grounder.get("error"),
                    "raw": grounder.get("raw")})
    return out

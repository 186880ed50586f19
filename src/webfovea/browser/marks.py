"""Observation modes (``--observation marks|elements|marks+elements``): the page's interactive
elements, numbered, drawn on the screenshot and/or listed beside it.

The page reports its own elements (``js/marks.js``, in every frame, open shadow roots
included); each child frame's boxes are moved by its iframe's content origin into top-level
viewport CSS pixels and clipped to the iframe. A number belongs to one element for as long as
its document lives (:class:`Marker` keeps the numbers of a task), so an unchanged page shows
the same numbers at every step. Drawing happens on the image exactly as sent, at the measured
ratio of that image to the viewport; labels go to the first corner where they cover no other
label.
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from ..actions.geometry import ModelSpace
from ..actions.registry import Point
from ..core.config import Size
from .scripts import js

Box = tuple[float, float, float, float]  # x, y, width, height
COLOURS = ((230, 25, 75), (0, 110, 200), (0, 150, 70), (145, 30, 180), (245, 110, 0),
           (0, 130, 130), (170, 110, 40), (200, 0, 120))
_FONT_SIZE = 13


@dataclass(frozen=True)
class Mark:
    number: int
    role: str
    name: str
    value: str
    tag: str
    box: Box  # top-level viewport CSS pixels
    frame: str | None = None  # the child frame's URL; None: the top document

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "box": [round(v, 1) for v in self.box]}


def colour(number: int) -> tuple[int, int, int]:
    return COLOURS[(number - 1) % len(COLOURS)]


class Marker:
    """One task's numbering: (frame, the document's own id) -> a number, kept across steps."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[str, int], int] = {}

    async def collect(self, page: Page) -> list[Mark]:
        marks: list[Mark] = []
        for frame in page.frames:
            found = await _frame_marks(frame)
            for raw, box in found:
                key = (_frame_key(frame, page), int(raw["id"]))
                number = self._numbers.setdefault(key, len(self._numbers) + 1)
                marks.append(Mark(number, str(raw["role"]), str(raw["name"]), str(raw["value"]),
                                  str(raw["tag"]), box,
                                  None if frame is page.main_frame else frame.url))
        return sorted(marks, key=lambda m: m.number)


def _frame_key(frame: Frame, page: Page) -> str:
    return "" if frame is page.main_frame else f"{frame.name}|{frame.url}"


async def _frame_marks(frame: Frame) -> list[tuple[dict[str, Any], Box]]:
    """The frame's elements with their boxes in top-level viewport pixels (a detached or
    unreachable frame has none)."""
    try:
        raw: list[dict[str, Any]] = await frame.evaluate(js("marks"))
        if frame.parent_frame is None:
            return [(r, (r["x"], r["y"], r["w"], r["h"])) for r in raw]
        element = await frame.frame_element()
        outer = await element.bounding_box()
        inner = await element.evaluate("e => [e.clientLeft, e.clientTop, e.clientWidth, "
                                       "e.clientHeight]")
    except PlaywrightError:
        return []
    if outer is None:
        return []
    ox, oy = outer["x"] + inner[0], outer["y"] + inner[1]
    clip = (ox, oy, ox + inner[2], oy + inner[3])
    out = []
    for r in raw:
        box = (r["x"] + ox, r["y"] + oy, r["w"], r["h"])
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        if clip[0] <= cx < clip[2] and clip[1] <= cy < clip[3]:
            out.append((r, box))
    return out


def _scaled(box: Box, sx: float, sy: float) -> tuple[int, int, int, int]:
    x, y, w, h = box
    return round(x * sx), round(y * sy), round((x + w) * sx), round((y + h) * sy)


Label = tuple[int, int, int, int]  # a number's box in the image's pixels


def draw(png: bytes, marks: list[Mark], page: Size) -> tuple[bytes, list[Label]]:
    """``png`` (the image as sent) with each mark's outline and number drawn on it; the
    labels' boxes, in the marks' order."""
    return draw_on(decode(png), marks, page)


def decode(png: bytes) -> Image.Image:
    """The image as sent, ready to draw on: decoded while the marks are still being
    collected (the loop overlaps the two), so only the drawing and the encoding follow."""
    with Image.open(io.BytesIO(png)) as original:
        return original.convert("RGB")


def draw_on(image: Image.Image, marks: list[Mark], page: Size) -> tuple[bytes, list[Label]]:
    """:func:`draw` on an image :func:`decode` gave (drawn in place)."""
    sx, sy = image.width / page.width, image.height / page.height
    canvas = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=_FONT_SIZE)
    placed: list[Label] = []
    for mark in marks:
        x0, y0, x1, y1 = _scaled(mark.box, sx, sy)
        canvas.rectangle((x0, y0, x1, y1), outline=colour(mark.number), width=2)
        text = str(mark.number)
        left, top, right, bottom = canvas.textbbox((0, 0), text, font=font)
        size = (round(right - left) + 6, round(bottom - top) + 4)
        label = _label_place((x0, y0, x1, y1), size, placed, image.size)
        placed.append(label)
        canvas.rectangle(label, fill=colour(mark.number))
        canvas.text((label[0] + 3 - left, label[1] + 2 - top), text, fill=(255, 255, 255),
                    font=font)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue(), placed


def _label_place(box: tuple[int, int, int, int], size: tuple[int, int],
                 placed: list[tuple[int, int, int, int]],
                 bounds: tuple[int, int]) -> tuple[int, int, int, int]:
    """The first of the box's corners (inside, then outside above) where the label covers no
    label already drawn; the first corner when every one does."""
    x0, y0, x1, y1 = box
    w, h = size
    corners = [(x0, y0), (x1 - w, y0), (x0, y1 - h), (x1 - w, y1 - h), (x0, y0 - h),
               (x1 - w, y0 - h), (x0, y1), (x1 - w, y1)]
    options = []
    for cx, cy in corners:
        cx = min(max(cx, 0), max(0, bounds[0] - w))
        cy = min(max(cy, 0), max(0, bounds[1] - h))
        options.append((cx, cy, cx + w, cy + h))
    for option in options:
        if not any(_overlap(option, other) for other in placed):
            return option
    return options[0]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def centres(marks: list[Mark], page: Size, space: ModelSpace) -> dict[int, Point]:
    """Each mark's centre in the model's space (what ``mark=N`` resolves to)."""
    out = {}
    for mark in marks:
        cx, cy = mark.centre
        out[mark.number] = Point(round(cx * space.width / page.width, 1),
                                 round(cy * space.height / page.height, 1))
    return out


def elements_text(marks: list[Mark], page: Size, sent: Size, cap: int) -> str:
    """The list appended to the observation: number, role, name, value, centre in the
    image's pixels; at most ``cap`` entries, the rest counted."""
    sx, sy = sent.width / page.width, sent.height / page.height
    lines = []
    for mark in marks[:cap]:
        cx, cy = mark.centre
        value = f" value '{mark.value}'" if mark.value and mark.value != mark.name else ""
        where = " (in a frame)" if mark.frame else ""
        lines.append(f"[{mark.number}] {mark.role} '{mark.name}'{value} at "
                     f"({round(cx * sx)},{round(cy * sy)}){where}")
    if len(marks) > cap:
        lines.append(f"… and {len(marks) - cap} more not listed (--elements-cap {cap})")
    head = "Interactive elements (number, role, name, value, centre in the screenshot's pixels):"
    return "\n".join([head, *lines]) if lines else f"{head} none found."

"""Coordinate spaces and conversions (the contract in docs/contracts.md). Pure functions.

page    CSS pixels of the viewport
capture screenshot pixels = page x device scale factor
sent    the image actually sent: capture downsampled to fit the image cap
model   the space the model answers in: image | norm1000 | smart_resize

page point = model point x (page size / model size), every size measured at
runtime for that very screenshot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.config import CoordSpace, Size, SmartResize
from .registry import Point


class OutsideImage(ValueError):
    """A model point outside the model space: refused, never clamped."""


def fit_within(size: Size, cap: Size | None) -> Size:
    """The largest size with ``size``'s aspect that fits in ``cap`` (never upscaled)."""
    if cap is None:
        return size
    scale = min(1.0, cap.width / size.width, cap.height / size.height)
    if scale >= 1.0:
        return size
    return Size(max(1, round(size.width * scale)), max(1, round(size.height * scale)))


def _round_by(n: float, factor: int) -> int:
    return round(n / factor) * factor  # Python's round (banker's), as Qwen's reference code


def _floor_by(n: float, factor: int) -> int:
    return math.floor(n / factor) * factor


def _ceil_by(n: float, factor: int) -> int:
    return math.ceil(n / factor) * factor


def smart_resize(size: Size, grid: SmartResize) -> Size:
    """Qwen2.5-VL / UI-TARS resize: sides multiples of the patch factor within min/max pixels."""
    f = grid.factor
    h_bar = max(f, _round_by(size.height, f))
    w_bar = max(f, _round_by(size.width, f))
    if h_bar * w_bar > grid.max_pixels:
        beta = math.sqrt(size.height * size.width / grid.max_pixels)
        h_bar = max(f, _floor_by(size.height / beta, f))
        w_bar = max(f, _floor_by(size.width / beta, f))
    elif h_bar * w_bar < grid.min_pixels:
        beta = math.sqrt(grid.min_pixels / (size.height * size.width))
        h_bar = _ceil_by(size.height * beta, f)
        w_bar = _ceil_by(size.width * beta, f)
    return Size(w_bar, h_bar)


@dataclass(frozen=True)
class ModelSpace:
    """The size of the space model points are expressed in."""

    width: float
    height: float


def model_space(sent: Size, coords: CoordSpace, grid: SmartResize) -> ModelSpace:
    if coords == "norm1000":
        return ModelSpace(1000.0, 1000.0)
    if coords == "smart_resize":
        s = smart_resize(sent, grid)
        return ModelSpace(float(s.width), float(s.height))
    return ModelSpace(float(sent.width), float(sent.height))


def to_page(point: Point, *, space: ModelSpace, page: Size) -> tuple[int, int]:
    """Map a model point to a page point (CSS px), rounding, refusing points outside."""
    if not (0 <= point.x <= space.width and 0 <= point.y <= space.height):
        raise OutsideImage(
            f"the point ({point.x:g},{point.y:g}) is outside the image, which is "
            f"{space.width:g}x{space.height:g}; give a point inside it"
        )
    x = round(point.x * page.width / space.width)
    y = round(point.y * page.height / space.height)
    # The far edge (x == width) is a valid answer but not an addressable pixel.
    return min(x, page.width - 1), min(y, page.height - 1)


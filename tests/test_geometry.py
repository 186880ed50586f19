"""Coordinate spaces (the contract in docs/contracts.md): pure conversions."""

from __future__ import annotations

import pytest

from webfovea.actions.geometry import (
    ModelSpace,
    OutsideImage,
    fit_within,
    model_space,
    smart_resize,
    to_page,
)
from webfovea.actions.registry import Point
from webfovea.core.config import Size, SmartResize

PAGE = Size(1920, 1080)


def test_fit_within_keeps_aspect_and_never_upscales() -> None:
    assert fit_within(Size(1920, 1080), Size(1440, 810)) == Size(1440, 810)
    assert fit_within(Size(3840, 2160), Size(1440, 810)) == Size(1440, 810)
    assert fit_within(Size(1000, 1000), Size(1440, 810)) == Size(810, 810)
    assert fit_within(Size(800, 600), Size(1440, 810)) == Size(800, 600)
    assert fit_within(Size(1920, 1080), None) == Size(1920, 1080)


def test_smart_resize_matches_the_qwen_grid() -> None:
    grid = SmartResize()
    assert smart_resize(Size(1440, 810), grid) == Size(1428, 812)
    assert smart_resize(Size(1920, 1080), grid) == Size(1932, 1092)
    small = smart_resize(Size(100, 50), grid)  # below min_pixels: scaled up onto the grid
    assert small.width % 28 == 0 and small.height % 28 == 0
    assert small.width * small.height >= grid.min_pixels
    capped = smart_resize(Size(1920, 1080), SmartResize(max_pixels=1280 * 28 * 28))
    assert capped.width * capped.height <= 1280 * 28 * 28


def test_python_rounding_on_the_grid() -> None:
    # 1414 / 28 = 50.5 → round-half-even gives 50, not 51.
    assert smart_resize(Size(1414, 812), SmartResize()).width == 1400


@pytest.mark.parametrize(("coords", "point", "expected"), [
    ("image", Point(720, 405), (960, 540)),
    ("image", Point(0, 0), (0, 0)),
    ("image", Point(1440, 810), (1919, 1079)),
    ("norm1000", Point(500, 500), (960, 540)),
    ("norm1000", Point(1000, 0), (1919, 0)),
    ("smart_resize", Point(714, 406), (960, 540)),
])
def test_model_points_map_by_the_measured_ratio(coords: str, point: Point,
                                                expected: tuple[int, int]) -> None:
    space = model_space(Size(1440, 810), coords, SmartResize())  # type: ignore[arg-type]
    assert to_page(point, space=space, page=PAGE) == expected


def test_points_are_rounded_not_truncated() -> None:
    space = ModelSpace(1440, 810)
    # 10.6 * 4/3 = 14.13 → 14; 11 * 4/3 = 14.67 → 15 (truncation would give 14)
    assert to_page(Point(10.6, 11), space=space, page=PAGE) == (14, 15)


def test_points_outside_the_image_are_refused() -> None:
    space = ModelSpace(1440, 810)
    with pytest.raises(OutsideImage, match="outside the image"):
        to_page(Point(1500, 10), space=space, page=PAGE)
    with pytest.raises(OutsideImage):
        to_page(Point(10, 811), space=space, page=PAGE)


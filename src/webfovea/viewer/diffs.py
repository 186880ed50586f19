"""What changed on screen between two steps: the changed regions of two screenshots as boxes.

The viewer outlines them on the later screenshot. Computed here, when the page is written,
because a page opened from disk may not read its own images' pixels (file:// images taint a
canvas). Pixels are compared on a grid of cells, so anti-aliasing and a blinking caret do not
outline the whole page; touching changed cells join into one region.
"""

from __future__ import annotations

from PIL import Image, ImageChops

CELL = 12  # grid cell, in image pixels
THRESHOLD = 32  # a pixel changed when a channel moved by more than this (of 255)
MAX_REGIONS = 12  # more than this: the smaller ones are merged into one box around them all

Box = tuple[int, int, int, int]  # x, y, width, height in image pixels


def changed_regions(before: Image.Image, after: Image.Image) -> list[Box] | None:
    """The regions of ``after`` that differ from ``before``; None when the two cannot be
    compared (the image size changed)."""
    if before.size != after.size:
        return None
    diff = ImageChops.difference(before.convert("RGB"), after.convert("RGB")).convert("L")
    mask = diff.point(lambda v: 255 if v > THRESHOLD else 0)
    grid = _cells(mask)
    return _limit([_scale(box, mask.size) for box in _components(grid)])


def _cells(mask: Image.Image) -> list[list[bool]]:
    """Which grid cells hold a changed pixel (a cell is changed when its maximum is)."""
    w, h = mask.size
    cols, rows = -(-w // CELL), -(-h // CELL)
    padded = Image.new("L", (cols * CELL, rows * CELL))
    padded.paste(mask)
    small = padded.reduce(CELL)  # the mean of each cell: > 0 when any pixel in it changed
    data = small.tobytes()
    return [[data[r * cols + c] > 0 for c in range(cols)] for r in range(rows)]


def _components(grid: list[list[bool]]) -> list[Box]:
    """Bounding boxes, in cells, of the groups of changed cells touching each other
    (diagonals included)."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    seen = [[False] * cols for _ in range(rows)]
    boxes = []
    for r0 in range(rows):
        for c0 in range(cols):
            if not grid[r0][c0] or seen[r0][c0]:
                continue
            seen[r0][c0] = True
            stack, (top, left, bottom, right) = [(r0, c0)], (r0, c0, r0, c0)
            while stack:
                r, c = stack.pop()
                top, left, bottom, right = min(top, r), min(left, c), max(bottom, r), max(right, c)
                for rr in range(max(0, r - 1), min(rows, r + 2)):
                    for cc in range(max(0, c - 1), min(cols, c + 2)):
                        if grid[rr][cc] and not seen[rr][cc]:
                            seen[rr][cc] = True
                            stack.append((rr, cc))
            boxes.append((left, top, right - left + 1, bottom - top + 1))
    return boxes


def _scale(box: Box, size: tuple[int, int]) -> Box:
    x, y, w, h = (v * CELL for v in box)
    return x, y, min(w, size[0] - x), min(h, size[1] - y)


def _limit(boxes: list[Box]) -> list[Box]:
    """At most MAX_REGIONS boxes, largest first; the rest joined into one box."""
    boxes.sort(key=lambda b: b[2] * b[3], reverse=True)
    if len(boxes) <= MAX_REGIONS:
        return boxes
    rest = boxes[MAX_REGIONS - 1:]
    x0, y0 = min(b[0] for b in rest), min(b[1] for b in rest)
    x1, y1 = max(b[0] + b[2] for b in rest), max(b[1] + b[3] for b in rest)
    return [*boxes[:MAX_REGIONS - 1], (x0, y0, x1 - x0, y1 - y0)]

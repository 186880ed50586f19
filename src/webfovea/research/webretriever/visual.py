"""``trajectory_visual/<n>.png``: step n's screenshot with its action drawn on it — a ring
at each point the action acted on and the action's text on a band across the top, as the
reference runner's audit images show it — and the stand-in for a screenshot that is gone."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

_RED = (230, 30, 30, 255)
_BAND = (0, 0, 0, 170)
_FONT_SIZE = 18
_RING = 14  # radius in image pixels
_GREY = (200, 200, 200)


def visual(png: bytes, points: Sequence[tuple[float, float]], text: str) -> bytes:
    """``png`` with a ring at each point (image pixels) and ``text`` across the top.
    The default font draws Latin text; a glyph it lacks (CJK) shows as a box: the action's
    exact text is in ``result.json``."""
    with Image.open(io.BytesIO(png)) as opened:
        image = opened.convert("RGBA")
    band = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(band)
    font = ImageFont.load_default(size=_FONT_SIZE)
    shown = text if len(text) <= 160 else text[:157] + "..."
    draw.rectangle((0, 0, image.width, _FONT_SIZE + 12), fill=_BAND)
    draw.text((8, 6), shown, fill=(255, 255, 255, 255), font=font)
    for x, y in points:
        draw.ellipse((x - _RING, y - _RING, x + _RING, y + _RING), outline=_RED,
                     width=4)
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=_RED)
    return _png(Image.alpha_composite(image, band).convert("RGB"))


def placeholder(size: tuple[int, int], text: str) -> bytes:
    """A grey image of ``size`` that says why it stands where a screenshot should."""
    image = Image.new("RGB", (max(1, size[0]), max(1, size[1])), _GREY)
    ImageDraw.Draw(image).text((16, 16), text, fill=(0, 0, 0),
                               font=ImageFont.load_default(size=_FONT_SIZE))
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()

"""Whether two browser-use screenshots differ only by browser-use's interaction highlight.

browser-use (0.13) draws corner brackets round an element it clicks, or a ring and dot at a
point it clicks, in its ``interaction_highlight_color`` (``rgb(255, 127, 39)`` by default)
fading over a second, and they are still on the page when the next step's screenshot is
taken. So a click that changed nothing leaves screenshots that are not byte-identical.
Every pixel of such an overlay is the page's pixel blended toward that one colour; a pixel
that any real change of the page made is, but for chance, not.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

HIGHLIGHT = (255, 127, 39)
_TOLERANCE = 6  # per channel: the blend is rounded to whole values, and so is its alpha


def only_highlight(before: bytes, after: bytes) -> bool:
    """True when the screenshots are identical, or every pixel that differs is one side's
    pixel blended toward the highlight colour (the overlay appearing or fading)."""
    if before == after:
        return True
    a, b = (Image.open(io.BytesIO(png)).convert("RGB") for png in (before, after))
    if a.size != b.size:
        return False
    box = ImageChops.difference(a, b).getbbox()
    if box is None:
        return True
    pairs = zip(a.crop(box).getdata(), b.crop(box).getdata(), strict=True)
    return all(p == q or _blended(p, q) or _blended(q, p) for p, q in pairs)


def _blended(base: tuple[int, ...], over: tuple[int, ...]) -> bool:
    """``over`` is ``base`` + t·(HIGHLIGHT − base) for one t in (0, 1], channel by channel."""
    pull = [h - c for h, c in zip(HIGHLIGHT, base, strict=True)]
    strongest = max(range(3), key=lambda i: abs(pull[i]))
    if abs(pull[strongest]) <= _TOLERANCE:
        return False
    t = (over[strongest] - base[strongest]) / pull[strongest]
    if not 0 < t <= 1.02:
        return False
    return all(abs(base[i] + t * pull[i] - over[i]) <= _TOLERANCE for i in range(3))

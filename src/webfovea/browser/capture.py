"""Screenshot and downsample: the image the model receives, with every size measured."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ..config import Size
from ..geometry import fit_within
from .errors import boundary
from .scripts import js


@dataclass(frozen=True)
class Screen:
    """One observation: the PNG as sent and the sizes needed to map points back."""

    png: bytes
    sent: Size  # pixels of the image sent to the model (measured from the bytes)
    capture: Size  # pixels of the raw screenshot (viewport x device scale factor)
    page: Size  # viewport in CSS pixels, measured in the page
    url: str
    title: str


def downsample(png: bytes, cap: Size | None) -> tuple[bytes, Size, Size]:
    """Fit a PNG within ``cap``; returns (bytes, sent size, original size)."""
    with Image.open(io.BytesIO(png)) as img:
        original = Size(*img.size)
        target = fit_within(original, cap)
        if target == original:
            return png, original, original
        small = img.convert("RGB").resize((target.width, target.height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    # Low compression: encoding speed matters more than bytes on loopback and in base64.
    small.save(out, format="PNG", compress_level=1)
    return out.getvalue(), target, original


@boundary
async def capture(page: Page, *, cap: Size | None) -> Screen:
    state = await page.evaluate(js("page_state"))
    raw = await page.screenshot(type="png", caret="initial")
    png, sent, original = downsample(raw, cap)
    return Screen(png=png, sent=sent, capture=original,
                  page=Size(int(state["width"]), int(state["height"])), url=page.url,
                  title=str(state["title"]))


@boundary
async def visible_text(page: Page) -> str:
    """What the page and each of its frames render as text, frame by frame."""
    parts = []
    for frame in page.frames:
        try:
            text: str = await frame.evaluate(js("visible_text"))
        except PlaywrightError:
            continue  # a detached frame shows nothing
        header = "" if frame.parent_frame is None else f"\n--- frame {frame.url}\n"
        parts.append(header + text)
    return "".join(parts)

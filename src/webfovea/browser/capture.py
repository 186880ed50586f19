"""The image the model receives, rendered by Chromium at the size it is sent.

Chromium draws the viewport straight at the sent size (``Page.captureScreenshot`` with a
scaled clip over the visual viewport, wherever the page is scrolled) and encodes it: no
full-size PNG is decoded, resized and re-encoded in
Python. The sizes are still measured, never assumed: the sent size is read from the PNG
header of the very bytes sent, the viewport from the page. When Chromium's rounding of
the scaled side differs from :func:`~webfovea.actions.geometry.fit_within` (a few caps at odd
aspect ratios), the full-size screenshot is downsampled here instead, so the image the
model sees always has exactly the size the cap promises.
"""

from __future__ import annotations

import base64
import io
import struct
import weakref
from dataclasses import dataclass
from typing import Any

from PIL import Image
from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from ..actions.geometry import fit_within
from ..core.config import Size
from ..core.stages import stage
from ..core.text import well_formed
from .errors import boundary
from .scripts import js

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Screen:
    """One observation: the PNG as sent and the sizes needed to map points back."""

    png: bytes
    sent: Size  # pixels of the image sent to the model (measured from the bytes)
    capture: Size  # pixels of the full-resolution viewport (page x device pixel ratio)
    page: Size  # viewport in CSS pixels, measured in the page
    url: str
    title: str
    # Where the image shows the document: the visual viewport's top-left in document CSS
    # pixels (the window's scroll offset plus any pinch-zoom pan) and the pinch zoom.
    offset: tuple[float, float] = (0.0, 0.0)
    zoom: float = 1.0


def png_size(png: bytes) -> Size:
    """Width and height from a PNG's header (IHDR is always the first chunk)."""
    if len(png) < 24 or not png.startswith(_PNG_SIGNATURE) or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", png[16:24])
    return Size(width, height)


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


# One DevTools session per page, opened on first capture and dropped with the page, and
# the device metrics it last set on the page.
_sessions: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()
_metrics: weakref.WeakKeyDictionary[Page, dict[str, Any]] = weakref.WeakKeyDictionary()


async def _devtools(page: Page) -> CDPSession:
    session = _sessions.get(page)
    if session is None:
        session = await page.context.new_cdp_session(page)
        _sessions[page] = session
    return session


async def _render(page: Page, state: dict[str, Any], target: Size) -> bytes:
    """The viewport drawn by Chromium at ``target`` size, as PNG."""
    session = await _devtools(page)
    viewport = Size(int(state["width"]), int(state["height"]))
    ratio = float(state["ratio"])
    # A clipped capture resets the page's device metrics to this session's own when it is
    # done; without ours that is none, which would drop the context's device scale factor
    # and screen size after the first screenshot. Ours repeats the page's metrics (no
    # resize happens), and the clip's scale then counts device pixels. The override stays
    # with the session across navigations: sent again only when the page's metrics moved.
    metrics = {"width": viewport.width, "height": viewport.height, "deviceScaleFactor": ratio,
               "mobile": False, "screenWidth": int(state["screenWidth"]),
               "screenHeight": int(state["screenHeight"])}
    if _metrics.get(page) != metrics:
        await session.send("Emulation.setDeviceMetricsOverride", metrics)
        _metrics[page] = metrics
    reply = await session.send("Page.captureScreenshot", {
        "format": "png",
        "clip": _seen(state, viewport, scale=target.width / (viewport.width * ratio)),
        # Chromium's fast PNG settings: the same pixels, encoded in a fraction of the time
        # for a somewhat larger file (cheap on loopback, small next to model latency).
        "optimizeForSpeed": True,
    })
    return base64.b64decode(reply["data"])


def _seen(state: dict[str, Any], viewport: Size, *, scale: float) -> dict[str, float]:
    """The clip of what a person sees: the visual viewport, in document CSS pixels.

    A clip is placed in the document, not in the window: at the scroll offset (and the
    pinch-zoom pan) it draws what is on the screen; at (0, 0) it drew the top of the
    document, white where that was no longer painted. A pinch zoom shows ``1 / zoom`` of
    the layout viewport enlarged to fill the screen, so the clip shrinks by the zoom and
    its scale grows by it: the image keeps the screen's size.
    """
    zoom = float(state["zoom"]) or 1.0
    return {"x": float(state["left"]), "y": float(state["top"]),
            "width": viewport.width / zoom, "height": viewport.height / zoom,
            "scale": scale * zoom}


@boundary
async def capture(page: Page, *, cap: Size | None) -> Screen:
    with stage("capture"):
        state = await page.evaluate(js("page_state"))
        viewport = Size(int(state["width"]), int(state["height"]))
        full = Size(round(viewport.width * state["ratio"]), round(viewport.height * state["ratio"]))
        target = fit_within(full, cap)
        png = await _render(page, state, target)
    with stage("encode"):
        sent = png_size(png)
    if sent != target:
        png, sent, full = await _fallback(page, cap)
    return Screen(png=png, sent=sent, capture=full, page=viewport, url=page.url,
                  title=well_formed(str(state["title"])),
                  offset=(float(state["left"]), float(state["top"])), zoom=float(state["zoom"]))


async def _fallback(page: Page, cap: Size | None) -> tuple[bytes, Size, Size]:
    """Full-size screenshot downsampled here: for the rare cap Chromium rounds otherwise."""
    with stage("capture"):
        raw = await page.screenshot(type="png", caret="initial")
    with stage("encode"):
        return downsample(raw, cap)


@dataclass(frozen=True)
class FrameText:
    """The text one frame renders; ``frame`` is None for the top-level page."""

    url: str
    frame: str | None
    text: str


@boundary
async def frame_texts(page: Page) -> list[FrameText]:
    """What the page and each of its frames render as text (open shadow roots included)."""
    texts = []
    for frame in page.frames:
        try:
            text: str = await frame.evaluate(js("visible_text"))
        except PlaywrightError:
            continue  # a detached frame shows nothing
        texts.append(FrameText(frame.url, None if frame.parent_frame is None else frame.url,
                               well_formed(text)))  # the evidence file is UTF-8
    return texts


def joined(texts: list[FrameText]) -> str:
    """Frame texts as one document, each child frame under a ``--- frame URL`` header."""
    return "".join(t.text if t.frame is None else f"\n--- frame {t.frame}\n{t.text}"
                   for t in texts)


async def visible_text(page: Page) -> str:
    """What the page and each of its frames render as text, frame by frame."""
    return joined(await frame_texts(page))

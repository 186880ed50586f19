"""The evidence screenshot's text, read by OCR where an engine is installed.

The engine is Tesseract (Debian's ``tesseract-ocr`` ships its English model) driven by the
``pytesseract`` wrapper (``pip install webfovea[ocr]``); nothing is downloaded at run time.
Without either, :func:`available` is false and grounding reads page text only. OCR runs in a
worker thread (it takes a second or more) and only when an answer part was not in the page
text; an engine that fails or overruns leaves no text and a named mark, never an error.
"""

from __future__ import annotations

import asyncio
import importlib.util
import io
import shutil
from dataclasses import dataclass
from functools import cache

from ..rundir.trajectory import OcrUse

MAX_SECONDS = 30.0  # a screenshot reads in a few seconds; more means a stuck engine


@dataclass(frozen=True)
class ScreenText:
    use: OcrUse
    text: str = ""
    error: str = ""


@cache
def available() -> bool:
    """The wrapper importable and the ``tesseract`` binary on PATH (checked once)."""
    return importlib.util.find_spec("pytesseract") is not None and shutil.which("tesseract") is not None


async def screen_text(png: bytes | None, *, time_left: float) -> ScreenText:
    if not available():
        return ScreenText("not_installed")
    if png is None:
        return ScreenText("failed", error="no evidence screenshot")
    seconds = min(MAX_SECONDS, time_left)
    if seconds <= 1:
        return ScreenText("failed", error="no time left for OCR")
    return await asyncio.to_thread(_read, png, seconds)


def _read(png: bytes, seconds: float) -> ScreenText:
    import pytesseract
    from PIL import Image

    try:
        with Image.open(io.BytesIO(png)) as image:
            text = pytesseract.image_to_string(image, lang="eng", timeout=seconds)
    except (pytesseract.TesseractError, RuntimeError, OSError) as e:  # RuntimeError: timeout
        return ScreenText("failed", error=f"OCR failed: {e}"[:300])
    return ScreenText("read", text=str(text))

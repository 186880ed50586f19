"""Pieces of the real-component feedback tests and benchmark (the screens, the browsers and
`act` are in gallery_helpers): pixel counts in screenshots, a fake model that answers by
finding a colour in the image it received, the generated PDF, timings of a run."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PIL import Image

from gallery_helpers import sent_crop
from webfovea.browser.capture import Screen
from webfovea.dialects.loopback.fake_provider import FakeRequest
from webfovea.rundir.store import read_steps

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom in page CSS pixels
Fractions = tuple[float, float, float, float]  # left, top, right, bottom as fractions of an image


def count(screen: Screen, box: Box, match: Callable[[RGB], bool]) -> tuple[int, int]:
    """Pixels of the sent image inside ``box`` (page pixels) that ``match``, and all of them."""
    pixels = rgb_pixels(sent_crop(screen, *box))
    return sum(1 for p in pixels if match(p)), len(pixels)


def rgb_pixels(image: Image.Image) -> list[RGB]:
    """An RGB image's pixels row by row (``getdata`` is deprecated from Pillow 12.1, and its
    replacement is not in the Pillow 10 we support)."""
    raw = image.tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def near(colour: RGB, tolerance: int = 30) -> Callable[[RGB], bool]:
    return lambda p: all(abs(a - b) <= tolerance for a, b in zip(p, colour, strict=True))


Pick = Literal["centre", "top", "right"]


def find_colour(image: Image.Image, colour: RGB, *, tolerance: int = 30,
                region: Fractions | None = None, pick: Pick = "centre") -> tuple[int, int] | None:
    """Where (image pixels) the pixels near ``colour`` are, optionally within ``region``
    given as fractions of the image (left, top, right, bottom): their centroid, or the
    topmost or rightmost of them."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    left, top, right, bottom = region or (0, 0, 1, 1)
    box = (round(left * w), round(top * h), round(right * w), round(bottom * h))
    crop = rgb.crop(box)
    match = near(colour, tolerance)
    cw = crop.size[0]
    hits = [(i % cw, i // cw) for i, p in enumerate(rgb_pixels(crop)) if match(p)]
    if not hits:
        return None
    if pick == "top":
        x, y = min(hits, key=lambda q: (q[1], q[0]))
    elif pick == "right":
        x, y = max(hits, key=lambda q: (q[0], -q[1]))
    else:
        x, y = sum(q[0] for q in hits) // len(hits), sum(q[1] for q in hits) // len(hits)
    return box[0] + x, box[1] + y


@dataclass(frozen=True)
class Look:
    """One step of :class:`ColourPolicy`: the action ``template`` (``{x}``, ``{y}`` where
    ``colour`` was found, ``{x2}`` = x + ``shift``) and where to look."""

    template: str
    colour: RGB
    region: Fractions | None = None
    pick: Pick = "centre"
    shift: int = 0


@dataclass
class ColourPolicy:
    """A fake model that answers in the received image's pixels: each step finds a colour
    in the latest image and writes its action there; after the steps it answers what
    ``answer`` reads in the last image."""

    steps: Sequence[Look]
    answer: Callable[[Image.Image], str]
    patience: int = 3  # wait() this many times for a colour that is not there yet
    look_first: bool = False  # wait() once before the first step, as a careful person would
    done: int = 0
    waits: int = 0

    def __call__(self, request: FakeRequest) -> str:
        image = request.images[-1]
        if self.look_first and not self.waits:
            self.waits += 1
            return "Thought: let it finish drawing.\nAction: wait()"
        if self.done < len(self.steps):
            look = self.steps[self.done]
            at = find_colour(image, look.colour, region=look.region, pick=look.pick)
            if at is None and self.waits < self.patience:  # still loading, as a person sees it
                self.waits += 1
                return "Thought: it is still loading.\nAction: wait()"
            if at is None:
                return f"Thought: I cannot see it.\nAction: finished(content='missing {look.colour}')"
            self.done += 1
            action = look.template.format(x=at[0], y=at[1], x2=at[0] + look.shift)
            return f"Thought: there.\nAction: {action}"
        return f"Thought: done.\nAction: finished(content='{self.answer(image)}')"


# --- the PDF the pdf.js viewer shows: a tiny writer, so no binary file is committed -------

PAGES = 12


def page_lines(n: int) -> list[str]:
    """Words on page ``n`` (1-based): a heading and a few lines a reader can look for."""
    heading = "Annual report 2024" if n == 1 else f"Section {n}: {'Operations' if n % 2 else 'Finance'}"
    return [heading, f"Page {n} of {PAGES}", f"Revenue grew in region {n * 7}.",
            f"Staff count at year end: {100 + n * 13}."]


def _content(lines: list[str]) -> bytes:
    ops = ["BT", "/F1 28 Tf", "72 720 Td"]
    for i, line in enumerate(lines):
        safe = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        if i == 1:
            ops.append("/F1 16 Tf")
        ops.append(f"({safe}) Tj")
        ops.append("0 -36 Td")
    ops.append("ET")
    # A footer near the bottom edge, so a viewport shorter than a page still shows ink.
    ops += ["BT", "/F1 14 Tf", "72 60 Td", f"(Annual report 2024, {lines[1]}) Tj", "ET"]
    return "\n".join(ops).encode("latin-1")


def pdf_bytes(pages: int = PAGES) -> bytes:
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for n in range(1, pages + 1):
        stream = _content(page_lines(n))
        content_id = len(objects) + 1
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        page_id = len(objects) + 1
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content_id, font))
        kids.append(page_id)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)




@dataclass(frozen=True)
class Timing:
    harness_median: float  # seconds per step, everything but the model call
    settle_median: float  # seconds per acting step in the settle stage


def timing(run_dir: Path) -> Timing:
    """Per-step medians from the run's steps.jsonl."""
    steps = read_steps(run_dir)
    settles = [s.stage_seconds["settle"] for s in steps if "settle" in s.stage_seconds]
    return Timing(statistics.median(s.harness_seconds for s in steps),
                  statistics.median(settles) if settles else 0.0)

"""Calibration: in which coordinate space does this model (behind this provider) answer?

Six numbered coloured discs at known positions are drawn on a synthetic image of
a chosen size; the model is asked, in its dialect (the text grammar, or a native
computer-use protocol, where the image is that protocol's screenshot), to click each
one; a native dialect's points are read after its own coordinate translation (declared
display, 0–999 grid), as a run would use them. The least-squares ratio of its points to the true ones is the
factor between the space it answers in and the image sent: 1.0 means image
pixels; about 0.75 for a 1920x1080 image means the provider silently
downsampled it to 1440x810 (the paper's 1.324/1.350); other spaces are matched
against norm1000 and smart_resize.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..actions.geometry import model_space
from ..core.config import COORD_SPACES, AgentConfig, Size, SmartResize
from ..dialects import make_dialect
from ..dialects.base import Decision, Observation
from ..models.base import Model, SentImage

# Where the markers sit, as fractions of the image: corners matter most, because
# a scale error grows with the distance from (0,0).
MARKERS: tuple[tuple[float, float], ...] = (
    (0.1, 0.12), (0.5, 0.15), (0.92, 0.1), (0.08, 0.9), (0.55, 0.6), (0.93, 0.92),
)
COLOURS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("red", (230, 25, 25)), ("blue", (25, 60, 230)), ("green", (20, 170, 40)),
    ("orange", (245, 140, 0)), ("purple", (140, 40, 190)), ("teal", (0, 150, 150)),
)
RADIUS = 18


# A point further than this from where the fitted scale puts its marker (image pixels,
# a little more than the disc's diameter) means the model did not find that marker.
MAX_RESIDUAL = 2.5 * RADIUS
# Per-marker scales further apart than this (relative) cannot be one coordinate space.
MAX_SCALE_SPREAD = 0.08


@dataclass(frozen=True)
class MarkerResult:
    index: int
    truth: tuple[float, float]
    answer: tuple[float, float] | None
    reply: str
    residual: float | None = None  # image pixels between the answer, unscaled, and the truth
    missed: str | None = None  # why there is no point (no click, an untranslatable call)


@dataclass(frozen=True)
class Calibration:
    size: Size
    markers: tuple[MarkerResult, ...]
    factor_x: float | None
    factor_y: float | None
    suggestion: str
    reliable: bool = True  # False: the model cannot localise; nothing is recommended

    def lines(self) -> list[str]:
        out = [f"image sent: {self.size}"]
        for m in self.markers:
            got = (f"({m.answer[0]:g},{m.answer[1]:g})" if m.answer
                   else f"no point ({m.missed})" if m.missed else "no point")
            off = f", residual {m.residual:.1f} px" if m.residual is not None else ""
            out.append(f"marker {m.index}: true ({m.truth[0]:g},{m.truth[1]:g}), model {got}{off}")
        if self.factor_x is not None and self.factor_y is not None:
            out.append(f"model space / image: x {self.factor_x:.3f}, y {self.factor_y:.3f}")
        out.append(self.suggestion)
        return out


def marker_image(size: Size) -> tuple[bytes, list[tuple[float, float]]]:
    img = Image.new("RGB", (size.width, size.height), (245, 245, 240))
    draw = ImageDraw.Draw(img)
    centres = []
    for i, ((fx, fy), (_, rgb)) in enumerate(zip(MARKERS, COLOURS, strict=True), 1):
        x, y = round(fx * size.width), round(fy * size.height)
        draw.ellipse((x - RADIUS, y - RADIUS, x + RADIUS, y + RADIUS), fill=rgb)
        draw.text((x + RADIUS + 4, y - 6), str(i), fill=(90, 90, 90))
        centres.append((float(x), float(y)))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue(), centres


def _task(index: int) -> str:
    colour = COLOURS[index - 1][0]
    return f"calibration: click the centre of the {colour} disc numbered {index}."


def _answer(decision: Decision) -> tuple[tuple[float, float] | None, str | None]:
    """The point of the decision's first call when it is a click, else why there is none."""
    if decision.parse_error or not decision.calls:
        return None, decision.parse_error or "the reply has no call"
    call = decision.calls[0]
    if call.action is None or call.error:
        return None, call.error or "the call could not be translated"
    if call.action.name != "click":
        return None, f"the call is {call.action.name}, not a click"
    point = call.action.point()
    return (point.x, point.y), None


def suggest(size: Size, fx: float, fy: float, grid: SmartResize) -> str:
    """Name the coordinate convention whose space matches the measured factors (5 %)."""
    for coords in COORD_SPACES:
        space = model_space(size, coords, grid)
        ex, ey = space.width / size.width, space.height / size.height
        if abs(fx / ex - 1) < 0.05 and abs(fy / ey - 1) < 0.05:
            return f"suggested: --coords {coords}"
    return (f"no convention matches: the model answers in a {size.width * fx:.0f}x"
            f"{size.height * fy:.0f} space; the provider likely resized the image. Send images "
            f"no larger than that (--image-cap) and use --coords image")


def _fit(truth: list[float], answer: list[float]) -> float:
    """Least-squares scale through the origin: far markers weigh most, as they should."""
    return sum(a * t for a, t in zip(answer, truth, strict=True)) / sum(t * t for t in truth)


DEFAULT_SIZE = Size(1440, 810)
DEFAULT_GRID = SmartResize()


async def calibrate(model: Model, *, size: Size = DEFAULT_SIZE, grid: SmartResize = DEFAULT_GRID,
                    timeout: float = 120.0, dialect: str = "text",
                    dialect_version: str | None = None) -> Calibration:
    """Ask for each marker in ``dialect`` (a fresh conversation each: one step of a task)."""
    png, centres = marker_image(size)
    image = SentImage(png, size.width, size.height)
    # Image coordinates: the fit then says what space the points are in, relative to the image.
    config = AgentConfig(coords="image", smart_resize=grid, image_cap=None, dialect=dialect,
                         dialect_version=dialect_version)
    space = model_space(size, "image", grid)
    results = []
    for i, truth in enumerate(centres, 1):
        obs = Observation(step=1, task=_task(i), image=image, space=space, page_size=size,
                          url="about:blank", note="")
        speaker = make_dialect(model, config)
        try:
            decision = await speaker.decide(obs, timeout=timeout)
        finally:
            await speaker.aclose()
        answer, missed = _answer(decision)
        results.append(MarkerResult(i, truth, answer, decision.raw, missed=missed))
    return judge(size, results, grid)


def judge(size: Size, results: list[MarkerResult], grid: SmartResize) -> Calibration:
    """Fit the scale, measure each marker's residual, and recommend only when every marker
    was found and the markers agree on one scale."""
    pairs = [(r.truth, r.answer) for r in results if r.answer]
    if not pairs:
        return Calibration(size, tuple(results), None, None,
                           "the model gave no usable point; check its replies above",
                           reliable=False)
    fx = _fit([t[0] for t, _ in pairs], [a[0] for _, a in pairs])
    fy = _fit([t[1] for t, _ in pairs], [a[1] for _, a in pairs])
    measured = [_with_residual(r, fx, fy) for r in results]
    problem = _unreliable(measured, fx, fy)
    if problem:
        return Calibration(size, tuple(measured), fx, fy,
                           f"the model cannot localise reliably at {size}: {problem}; "
                           "no setting is recommended", reliable=False)
    return Calibration(size, tuple(measured), fx, fy, suggest(size, fx, fy, grid))


def _with_residual(r: MarkerResult, fx: float, fy: float) -> MarkerResult:
    if r.answer is None or fx <= 0 or fy <= 0:
        return r
    dx, dy = r.answer[0] / fx - r.truth[0], r.answer[1] / fy - r.truth[1]
    return MarkerResult(r.index, r.truth, r.answer, r.reply, (dx * dx + dy * dy) ** 0.5,
                        r.missed)


def _unreliable(results: list[MarkerResult], fx: float, fy: float) -> str:
    """Why the markers do not support a recommendation; empty when they do."""
    missing = [r.index for r in results if r.answer is None]
    if missing:
        return f"no point for marker(s) {', '.join(map(str, missing))}"
    if fx <= 0 or fy <= 0:
        return "the fitted scale is not positive"
    far = [r for r in results if r.residual is not None and r.residual > MAX_RESIDUAL]
    if far:
        worst = max(r.residual or 0.0 for r in far)
        return (f"{len(far)} of {len(results)} markers off by more than {MAX_RESIDUAL:g} px "
                f"(worst {worst:.0f} px)")
    for axis, f in ((0, fx), (1, fy)):
        # Markers near the origin say little about scale: a few pixels there is a lot.
        reach = max(r.truth[axis] for r in results) / 2
        scales = [r.answer[axis] / r.truth[axis] for r in results
                  if r.answer and r.truth[axis] >= reach]
        if len(scales) > 1 and (max(scales) - min(scales)) / f > MAX_SCALE_SPREAD:
            return f"the markers disagree on the {'xy'[axis]} scale ({min(scales):.2f}-{max(scales):.2f})"
    return ""

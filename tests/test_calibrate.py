"""`webfovea calibrate`: measuring the space a model answers in, against a resizing provider."""

from __future__ import annotations

import subprocess
import sys

from PIL import Image, ImageChops

from webfovea.core.config import Size
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.models.loader import load_model
from webfovea.tools.calibrate import COLOURS, calibrate


def _disc_finder(request: FakeRequest) -> str:
    """A pixel-accurate 'model': finds the named disc in the image it was given."""
    text = request.turns[-1].text
    rgb = next(c for name, c in COLOURS if f"the {name} disc" in text)
    bands = request.images[-1].convert("RGB").split()
    masks = [b.point(lambda v, want=want: 255 if abs(v - want) < 30 else 0)
             for b, want in zip(bands, rgb, strict=True)]
    box = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2]).getbbox()
    assert box is not None
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return f"Thought: there.\nAction: click(start_box='({x:.0f},{y:.0f})')"


async def test_a_resizing_provider_shows_as_a_three_quarter_factor() -> None:
    with FakeProvider(_disc_finder, resize_images_to=(1440, 810)) as fp:
        model = load_model("openai:m", base_url=fp.base_url)
        full = await calibrate(model, size=Size(1920, 1080))
        capped = await calibrate(model, size=Size(1440, 810))
        await model.aclose()
    assert full.factor_x is not None and full.factor_y is not None
    assert abs(full.factor_x - 0.75) < 0.01 and abs(full.factor_y - 0.75) < 0.01
    assert "no convention matches" in full.suggestion and "a 1440x81" in full.suggestion
    assert capped.factor_x is not None and abs(capped.factor_x - 1) < 0.01
    assert capped.suggestion == "suggested: --coords image"


def test_calibrate_command_prints_the_suggestion() -> None:
    with FakeProvider(_disc_finder) as fp:
        proc = subprocess.run([sys.executable, "-m", "webfovea", "calibrate", "--model", "openai:m",
                               "--base-url", fp.base_url], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "suggested: --coords image" in proc.stdout
    assert proc.stdout.count("marker ") == 6


def test_marker_image_is_what_the_model_gets() -> None:
    from io import BytesIO

    from webfovea.tools.calibrate import marker_image
    png, centres = marker_image(Size(1440, 810))
    img = Image.open(BytesIO(png)).convert("RGB")
    for (x, y), (_, rgb) in zip(centres, COLOURS, strict=True):
        assert img.getpixel((int(x), int(y))) == rgb


def _ignores_the_image(request: FakeRequest) -> str:
    """A 'model' that never looks: always the middle of the screen."""
    return "Thought: probably here.\nAction: click(start_box='(700,400)')"


def test_calibrate_refuses_when_the_model_cannot_localise() -> None:
    with FakeProvider(_ignores_the_image) as fp:
        proc = subprocess.run([sys.executable, "-m", "webfovea", "calibrate", "--model", "openai:m",
                               "--base-url", fp.base_url], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "cannot localise reliably" in proc.stdout and "suggested" not in proc.stdout
    assert "--image-cap" not in proc.stdout
    assert proc.stdout.count("residual") == 6  # each marker's error is shown


def test_calibrate_shows_small_residuals_when_the_model_finds_the_markers() -> None:
    with FakeProvider(_disc_finder) as fp:
        proc = subprocess.run([sys.executable, "-m", "webfovea", "calibrate", "--model", "openai:m",
                               "--base-url", fp.base_url], capture_output=True, text=True, timeout=60)
    residuals = [float(line.split("residual ")[1].split(" px")[0])
                 for line in proc.stdout.splitlines() if "residual" in line]
    assert len(residuals) == 6 and max(residuals) < 3

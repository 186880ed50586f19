"""Issue 22 item 6: ``check`` and ``calibrate`` in each dialect. The calibration image goes out
as the protocol's screenshot through the fake provider's real wire format, a 'model' finds the
named disc in the image it received and answers in the protocol's own call and space; the fit
reads the point after the dialect's translation, as a run would."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from PIL import ImageChops

from webfovea.core.config import Size
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.dialects.loopback.fake_tools import FakeCall, FakeReply
from webfovea.dialects.loopback.native_reply import NativeReply
from webfovea.models.loader import load_model
from webfovea.tools.calibrate import COLOURS, calibrate

SIZE = Size(1440, 810)


def _disc(request: FakeRequest) -> tuple[float, float, int, int]:
    """Where the disc the request names is in its (last) image, in that image's pixels, and
    the image's size as received."""
    text = "\n".join(t.text for t in request.turns)
    rgb = next(c for name, c in COLOURS if f"the {name} disc" in text)
    image = request.images[-1].convert("RGB")
    masks = [b.point(lambda v, want=want: 255 if abs(v - want) < 30 else 0)
             for b, want in zip(image.split(), rgb, strict=True)]
    box = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2]).getbbox()
    assert box is not None
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, image.width, image.height


def _anthropic(request: FakeRequest) -> FakeReply:
    x, y, _, _ = _disc(request)  # the declared display is the screenshot: its pixels
    return FakeReply("there", (FakeCall("computer", {"action": "left_click",
                                                     "coordinate": [round(x), round(y)]}),))


def _openai(request: FakeRequest) -> NativeReply:
    x, y, _, _ = _disc(request)
    return NativeReply(items=({"type": "computer_call", "actions": [
        {"type": "click", "button": "left", "x": round(x), "y": round(y)}]},))


def _gemini(request: FakeRequest) -> NativeReply:
    x, y, w, h = _disc(request)  # the 0-999 grid over the screenshot
    return NativeReply(items=({"functionCall": {"name": "click", "args": {
        "x": round(x * 1000 / w), "y": round(y * 1000 / h)}}},))


def _gemini_in_pixels(request: FakeRequest) -> NativeReply:
    x, y, _, _ = _disc(request)  # wrong: screenshot pixels where the protocol wants 0-999
    return NativeReply(items=({"functionCall": {"name": "click", "args": {
        "x": round(x), "y": round(y)}}},))


def _tools(request: FakeRequest) -> FakeReply:
    x, y, _, _ = _disc(request)
    return FakeReply("there", (FakeCall("click", {"start_box": [round(x), round(y)]}),))


def _spec(dialect: str, fp: FakeProvider) -> tuple[str, str]:
    return {"anthropic-computer": ("anthropic:claude-opus-4-6", fp.anthropic_base_url),
            "openai-computer": ("openai:gpt-5.4", fp.base_url),
            "gemini-computer": ("gemini:gemini-3.5-flash", fp.anthropic_base_url),
            "tools": ("openai:qwen3-vl", fp.base_url)}[dialect]


POLICIES: dict[str, Callable[[FakeRequest], Any]] = {
    "anthropic-computer": _anthropic, "openai-computer": _openai,
    "gemini-computer": _gemini, "tools": _tools}
# The route each dialect's request arrives on, and what its tool declaration must hold.
WIRE = {"anthropic-computer": ("anthropic", '"display_width_px": 1440'),
        "openai-computer": ("openai-responses", '{"type": "computer"}'),
        "gemini-computer": ("gemini", '"computerUse"'),
        "tools": ("openai", '"name": "click"')}


@pytest.mark.parametrize("dialect", sorted(POLICIES))
async def test_a_policy_in_the_protocols_space_calibrates_to_one(dialect: str) -> None:
    with FakeProvider(POLICIES[dialect]) as fp:
        spec, url = _spec(dialect, fp)
        model = load_model(spec, base_url=url)
        try:
            result = await calibrate(model, size=SIZE, dialect=dialect)
        finally:
            await model.aclose()
        # The image went out as that protocol's screenshot (its own route), at full size.
        provider, declared = WIRE[dialect]
        assert {r.provider for r in fp.requests} == {provider}
        assert all(declared in json.dumps(r.body.get("tools")) for r in fp.requests)
        assert all(r.images[-1].size == (SIZE.width, SIZE.height) for r in fp.requests)
    assert len(fp.requests) == 6
    assert result.reliable, result.lines()
    assert result.factor_x is not None and result.factor_y is not None
    assert abs(result.factor_x - 1) < 0.01 and abs(result.factor_y - 1) < 0.01
    assert result.suggestion == "suggested: --coords image"


async def test_a_gemini_policy_answering_in_pixels_is_flagged() -> None:
    with FakeProvider(_gemini_in_pixels) as fp:
        model = load_model("gemini:gemini-3.5-flash", base_url=fp.anthropic_base_url)
        try:
            result = await calibrate(model, size=SIZE, dialect="gemini-computer")
        finally:
            await model.aclose()
    assert not result.reliable
    # Points beyond 999 are outside the grid: missed, with the dialect's reason.
    missed = [m for m in result.markers if m.answer is None]
    assert missed and all(m.missed for m in missed)
    assert result.factor_x is not None and abs(result.factor_x - 1) > 0.2
    assert "no setting is recommended" in result.suggestion


def _not_a_click(request: FakeRequest) -> NativeReply:
    return NativeReply(items=({"type": "computer_call", "actions": [{"type": "wait"}]},))


async def test_a_call_that_is_not_a_click_is_a_missed_marker_with_its_reason() -> None:
    with FakeProvider(_not_a_click) as fp:
        model = load_model("openai:gpt-5.4", base_url=fp.base_url)
        try:
            result = await calibrate(model, size=SIZE, dialect="openai-computer")
        finally:
            await model.aclose()
    assert not result.reliable
    assert all(m.answer is None and m.missed == "the call is wait, not a click"
               for m in result.markers)
    assert "no point (the call is wait, not a click)" in "\n".join(result.lines())


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=120)


def test_check_preflights_the_responses_endpoint_and_calibrates_in_its_dialect() -> None:
    with FakeProvider(_openai, models=["gpt-5.4"]) as fp:
        proc = _command("check", "--model", "openai:gpt-5.4", "--base-url", fp.base_url,
                        "--dialect", "openai-computer")
        providers = {r.provider for r in fp.requests}
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"pre-flight: openai:gpt-5.4: {fp.base_url} answers and serves gpt-5.4" in proc.stdout
    assert "dialect: openai-computer" in proc.stdout
    assert "suggested: --coords image" in proc.stdout
    assert providers == {"openai-responses"}


def test_check_names_a_model_the_anthropic_endpoint_does_not_serve() -> None:
    with FakeProvider(_anthropic, models=["claude-other"]) as fp:
        proc = _command("check", "--model", "anthropic:claude-opus-4-6", "--base-url",
                        fp.anthropic_base_url, "--dialect", "anthropic-computer")
    assert proc.returncode == 2
    assert "'claude-opus-4-6' is not served" in proc.stderr and "--no-preflight" in proc.stderr


def test_check_says_the_gemini_preflight_is_skipped() -> None:
    with FakeProvider(_gemini) as fp:
        proc = _command("check", "--model", "gemini:gemini-3.5-flash", "--base-url",
                        fp.anthropic_base_url, "--dialect", "gemini-computer")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pre-flight: skipped for gemini:gemini-3.5-flash" in proc.stdout
    assert "suggested: --coords image" in proc.stdout


def test_calibrate_command_flags_gemini_pixels() -> None:
    with FakeProvider(_gemini_in_pixels) as fp:
        proc = _command("calibrate", "--model", "gemini:gemini-3.5-flash", "--base-url",
                        fp.anthropic_base_url, "--dialect", "gemini-computer")
    assert proc.returncode == 1
    assert "cannot localise reliably" in proc.stdout and "suggested" not in proc.stdout


def test_an_unknown_dialect_is_a_usage_error() -> None:
    proc = _command("calibrate", "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                    "--dialect", "morse")
    assert proc.returncode == 2 and "--dialect 'morse' is not a dialect" in proc.stderr


def _anthropic_toolset(request: FakeRequest) -> FakeReply:
    x, y, _, _ = _disc(request)
    return FakeReply("there", (FakeCall("left_click", {"coordinate": [round(x), round(y)]},
                                        toolset="computer"),))


@pytest.mark.parametrize(("dialect", "version", "spec", "policy"), [
    ("openai-computer", "preview", "openai:computer-use-preview", _openai),
    ("anthropic-computer", "computer_toolset_20260801", "anthropic:claude-opus-4-6",
     _anthropic_toolset)])
async def test_the_other_tool_versions_calibrate_to_one(dialect: str, version: str, spec: str,
                                                        policy: Callable[[FakeRequest], Any]
                                                        ) -> None:
    with FakeProvider(policy) as fp:
        url = fp.base_url if spec.startswith("openai:") else fp.anthropic_base_url
        model = load_model(spec, base_url=url)
        try:
            result = await calibrate(model, size=SIZE, dialect=dialect, dialect_version=version)
        finally:
            await model.aclose()
    assert result.reliable, result.lines()
    assert result.factor_x is not None and abs(result.factor_x - 1) < 0.01

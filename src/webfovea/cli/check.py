"""``webfovea check --model SPEC [--base-url URL] [--dialect D]``: the pre-flight check alone,
then a one-image calibration in the model's dialect, so a new setup is known to work before
a run spends anything. ``webfovea calibrate`` is the calibration alone (its handler is here
too: both resolve the model and dialect the same way)."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.config import Size
from ..core.errors import ConfigError
from ..dialects import dialect_names
from ..models import profiles

if TYPE_CHECKING:
    from ..tools.calibrate import Calibration

# The handler imports what it runs when called (see webfovea.cli.main): parsing stays light.

Command = Callable[[argparse.Namespace], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> dict[str, Command]:
    p = subparsers.add_parser("check", help="check an endpoint and model before a run: "
                                            "pre-flight, then a one-image calibration")
    p.add_argument("--model", default=None, help="a profile or a spec (openai:<name>, ...)")
    p.add_argument("--base-url")
    p.add_argument("--config", type=Path, default=None, help="TOML config file")
    p.add_argument("--size", default=None, help="calibration image WxH (default: the image cap)")
    add_calibration_options(p)
    return {"check": cmd_check}


def add_calibration_options(p: argparse.ArgumentParser) -> None:
    """--dialect and --dialect-version (check, calibrate): run's flags, run's defaults."""
    from ..console.options import DIALECT_HELP

    p.add_argument("--dialect", default=None, help=DIALECT_HELP)
    p.add_argument("--dialect-version", default=None,
                   help="a native protocol's tool version (default: the profile's, else picked "
                        "from the model name)")


def resolve(ns: argparse.Namespace) -> profiles.Resolved:
    """The model, endpoint and dialect as run resolves them (flags > env > config > profile)."""
    settings = argparse.Namespace(model=ns.model, base_url=ns.base_url,
                                  config=getattr(ns, "config", None), coords=None,
                                  image_cap=None, history=None, dialect=ns.dialect,
                                  dialect_version=ns.dialect_version)
    resolved = profiles.apply(settings)
    if resolved.dialect not in dialect_names():
        raise ConfigError(f"--dialect {resolved.dialect!r} is not a dialect: use one of "
                          f"{', '.join(dialect_names())}")
    return resolved


def preflight_line(resolved: profiles.Resolved) -> str:
    """The pre-flight's one line. The Responses API (openai-computer) and the tools dialect
    live under an OpenAI base URL, the computer tool under an Anthropic one: their model
    listings are what is checked; the Gemini API has no such check yet, which is said."""
    from ..models.preflight import preflight

    if resolved.model.startswith("gemini:"):
        return (f"pre-flight: skipped for {resolved.model} (the Gemini API's endpoint is not "
                "checked); the calibration below is the first request")
    checked = asyncio.run(preflight(resolved.model, resolved.base_url))
    return f"pre-flight: {checked.said if checked else 'no endpoint to check'}"


def calibrate_resolved(resolved: profiles.Resolved, size: Size) -> Calibration:
    from ..models.loader import load_model
    from ..tools.calibrate import calibrate

    model = load_model(resolved.model, base_url=resolved.base_url)

    async def go() -> Calibration:
        try:
            return await calibrate(model, size=size, grid=resolved.smart_resize,
                                   dialect=resolved.dialect,
                                   dialect_version=resolved.dialect_version)
        finally:
            await model.aclose()

    result = asyncio.run(go())
    print(f"dialect: {resolved.dialect}")
    print("\n".join(result.lines()))
    return result


def cmd_check(ns: argparse.Namespace) -> int:
    resolved = resolve(ns)
    print(preflight_line(resolved))
    cap = resolved.image_cap if resolved.image_cap.lower() != "none" else "1440x810"
    result = calibrate_resolved(resolved, Size.parse(ns.size or cap, flag="--size"))
    if result.reliable:
        print(f"profile coords: {resolved.coords}")
    return 0 if result.reliable else 1


def cmd_calibrate(ns: argparse.Namespace) -> int:
    result = calibrate_resolved(resolve(ns), Size.parse(ns.size, flag="--size"))
    return 0 if result.reliable else 1

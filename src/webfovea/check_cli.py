"""``webfovea check --model SPEC [--base-url URL]``: the pre-flight check alone, then a
one-image calibration, so a new setup is known to work before a run spends anything."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from . import profiles
from .config import Size

if TYPE_CHECKING:
    from .calibrate import Calibration

# The handler imports what it runs when called (see webfovea.cli): parsing stays light.

Command = Callable[[argparse.Namespace], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> dict[str, Command]:
    p = subparsers.add_parser("check", help="check an endpoint and model before a run: "
                                            "pre-flight, then a one-image calibration")
    p.add_argument("--model", default=None, help="a profile or a spec (openai:<name>, ...)")
    p.add_argument("--base-url")
    p.add_argument("--config", type=Path, default=None, help="TOML config file")
    p.add_argument("--size", default=None, help="calibration image WxH (default: the image cap)")
    return {"check": cmd_check}


def cmd_check(ns: argparse.Namespace) -> int:
    from .calibrate import calibrate
    from .models.loader import load_model
    from .models.preflight import preflight

    settings = argparse.Namespace(model=ns.model, base_url=ns.base_url, config=ns.config,
                                  coords=None, image_cap=None, history=None)
    resolved = profiles.apply(settings)
    checked = asyncio.run(preflight(resolved.model, resolved.base_url))
    print(f"pre-flight: {checked.said if checked else 'no endpoint to check'}")
    cap = resolved.image_cap if resolved.image_cap.lower() != "none" else "1440x810"
    size = Size.parse(ns.size or cap, flag="--size")
    model = load_model(resolved.model, base_url=resolved.base_url)

    async def go() -> Calibration:
        try:
            return await calibrate(model, size=size, grid=resolved.smart_resize)
        finally:
            await model.aclose()

    result = asyncio.run(go())
    print("\n".join(result.lines()))
    if result.reliable:
        print(f"profile coords: {resolved.coords}")
    return 0 if result.reliable else 1

"""Chromium features turned off for every browser we launch, Playwright's own kept.

A full Chromium in new headless mode (Debian's, Google Chrome) builds the address bar's
popup as a WebUI page for every browser context, that is for every task: a renderer of
its own that spends about 0.6 CPU-seconds drawing UI nobody sees, more than a task's
screenshots (benchmarks/bench_workers.py, benchmarks/step_overhead.py). Switched off,
Chromium keeps the plain popup it had before, also in headed mode.

Chromium honours only the last ``--disable-features``, and Playwright passes one of its
own (features its screenshots, routing and HTTP navigations rely on). So ours repeats
Playwright's list, read from the arguments this Playwright really passes: a launch of a
stand-in executable that writes down its arguments and exits. When that cannot be read,
nothing is added and Playwright's list stands alone.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Playwright

UNSEEN_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
_FLAG = "--disable-features="

_read_once: list[tuple[str, ...]] = []  # one Playwright package per process: read once


async def disable_features_arg(pw: Playwright) -> list[str]:
    """``[--disable-features=<Playwright's>,<ours>]`` for ``pw``'s launches, or ``[]``."""
    theirs = await playwright_disabled_features(pw)
    return [_FLAG + ",".join((*theirs, *UNSEEN_UI))] if theirs else []


async def playwright_disabled_features(pw: Playwright) -> tuple[str, ...]:
    """The features this Playwright disables at every Chromium launch (read once per
    process); empty when they could not be read."""
    if not _read_once:
        _read_once.append(await _read(pw))
    return _read_once[0]


async def _read(pw: Playwright) -> tuple[str, ...]:
    if os.name != "posix":
        return ()
    with tempfile.TemporaryDirectory(prefix="webfovea-launch-") as tmp:
        written, stand_in = Path(tmp) / "arguments", Path(tmp) / "chromium"
        stand_in.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {shlex.quote(str(written))}\n"
                            "exit 1\n")
        stand_in.chmod(0o755)
        with contextlib.suppress(PlaywrightError):  # it exits at once: the launch fails
            await pw.chromium.launch(executable_path=str(stand_in), timeout=15_000)
        if not written.is_file():
            return ()
        arguments = written.read_text().splitlines()
    value = next((a.removeprefix(_FLAG) for a in reversed(arguments) if a.startswith(_FLAG)), "")
    return tuple(f for f in value.split(",") if f)

"""Chromium features turned off for every browser we launch, Playwright's own kept.

A full Chromium in new headless mode (Debian's, Google Chrome) builds the address bar's
popup as a WebUI page for every browser context, that is for every task: a renderer of
its own that spends about 0.6 CPU-seconds drawing UI nobody sees, more than a task's
screenshots (benchmarks/bench_workers.py, benchmarks/step_overhead.py). Switched off,
Chromium keeps the plain popup it had before, also in headed mode.

Chromium honours only the last ``--disable-features``, and Playwright passes one of its
own (features its screenshots, routing and HTTP navigations rely on). So one switch goes in
its place: Playwright's list plus ours, read from the arguments this Playwright really
passes (a launch of a stand-in executable that writes down its arguments and exits), and
Playwright's own switch is left out by that exact text. When it cannot be read, nothing
changes and Playwright's list stands alone.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Playwright

UNSEEN_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
_FLAG = "--disable-features="



@dataclass(frozen=True)
class FeatureSwitch:
    """What a launch passes: ``args`` added, ``replaced`` left out of Playwright's own."""

    args: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)


_read_once: list[str] = []  # one Playwright package per process: read once


async def disable_features(pw: Playwright) -> FeatureSwitch:
    """The one ``--disable-features`` switch for ``pw``'s launches: Playwright's list and
    ours, in place of Playwright's switch; no change when Playwright's could not be read."""
    theirs = await playwright_switch(pw)
    if not theirs:
        return FeatureSwitch()
    features = [f for f in theirs.removeprefix(_FLAG).split(",") if f]
    return FeatureSwitch([_FLAG + ",".join((*features, *UNSEEN_UI))], [theirs])


async def playwright_switch(pw: Playwright) -> str:
    """The ``--disable-features`` switch this Playwright passes at every Chromium launch
    (read once per process); empty when it could not be read."""
    if not _read_once:
        _read_once.append(await _read(pw))
    return _read_once[0]


async def _read(pw: Playwright) -> str:
    if os.name != "posix":
        return ""
    with tempfile.TemporaryDirectory(prefix="webfovea-launch-") as tmp:
        written, stand_in = Path(tmp) / "arguments", Path(tmp) / "chromium"
        stand_in.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {shlex.quote(str(written))}\n"
                            "exit 1\n")
        stand_in.chmod(0o755)
        with contextlib.suppress(PlaywrightError):  # it exits at once: the launch fails
            await pw.chromium.launch(executable_path=str(stand_in), timeout=15_000)
        if not written.is_file():
            return ""
        arguments = written.read_text().splitlines()
    return next((a for a in reversed(arguments) if a.startswith(_FLAG)), "")

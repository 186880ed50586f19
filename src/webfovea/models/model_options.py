"""The pre-flight check shared by ``run`` and ``bench`` (the flags live in
:mod:`webfovea.console.options`, profiles and the config file in :mod:`webfovea.models.profiles`)."""

from __future__ import annotations

import logging
import sys

from .preflight import preflight


async def preflight_or_skip(model: str, base_url: str | None, *, time_limit: float,
                            skip: bool = False) -> None:
    """The endpoint check before any browser starts: ConfigError (exit 2) saying what to fix,
    ModelError (exit 3) when the endpoint stays unreachable through the retries, which end
    within ``time_limit`` seconds (the task's). An endpoint that answers but whose model
    name could not be checked gets one line on stderr, and the run goes on."""
    if skip:
        return
    checked = await preflight(model, base_url, time_limit=time_limit)
    if checked is None:
        return
    if checked.complete:  # what was checked, for a log; the terminal stays for the steps
        logging.getLogger("webfovea.preflight").debug("pre-flight: %s", checked.said)
    else:
        print(f"webfovea: pre-flight: {checked.said}", file=sys.stderr)

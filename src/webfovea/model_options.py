"""The pre-flight check shared by ``run`` and ``bench`` (the flags live in
:mod:`webfovea.options`, profiles and the config file in :mod:`webfovea.profiles`)."""

from __future__ import annotations

import logging

from .models.preflight import preflight


def preflight_or_skip(model: str, base_url: str | None, *, skip: bool = False) -> None:
    """The endpoint check before any browser starts; ConfigError (exit 2) saying what to fix."""
    if skip:
        return
    said = preflight(model, base_url)
    if said:  # what was checked, for a log; the terminal stays for the steps
        logging.getLogger("webfovea.preflight").debug("pre-flight: %s", said)

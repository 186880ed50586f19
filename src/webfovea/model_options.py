"""Model options shared by ``run`` and ``bench``: the history layout and the pre-flight
check (the profile and config-file options live in :mod:`webfovea.profiles`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .config import HISTORY_LAYOUTS
from .models.preflight import preflight


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--history", choices=HISTORY_LAYOUTS, default=None,
                   help="blocks (default): earlier steps as turns, a prefix providers cache; "
                        "rolling: the old single-turn layout, for comparison")
    p.add_argument("--config", type=Path, default=None,
                   help="TOML config file (default ./webfovea.toml, else "
                        "~/.config/webfovea/config.toml): [run] settings, [profiles.NAME], "
                        "[prices.\"provider:model\"]")
    p.add_argument("--no-preflight", action="store_true",
                   help="skip the check of the endpoint and model made before the browser starts")


def preflight_or_skip(ns: argparse.Namespace) -> None:
    """The endpoint check before any browser starts; ConfigError (exit 2) saying what to fix."""
    if getattr(ns, "no_preflight", False):
        return
    said = preflight(ns.model, ns.base_url)
    if said:
        print(f"pre-flight: {said}", file=sys.stderr)

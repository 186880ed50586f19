"""Trajectories of other agents into our run directory (``webfovea import-trajectory``)."""

from __future__ import annotations

from pathlib import Path

from ...core.errors import ConfigError
from .record import Foreign


def read_trajectory(path: Path, source: str) -> Foreign:
    """``path`` read as ``source``'s log; ConfigError naming what is wrong."""
    if not path.is_file():
        raise ConfigError(f"{path} is not a file")
    if source == "anthropic-cu":
        from .anthropic_cu import read
    elif source == "openai-cua":
        from .openai_cua import read
    elif source == "browser-use":
        from .browser_use import read
    else:
        raise ConfigError(f"--from must be browser-use, openai-cua or anthropic-cu, not {source!r}")
    return read(path)

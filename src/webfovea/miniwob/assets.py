"""Where the installed `miniwob` package keeps its HTML tasks, and what each task declares.

Only the package's files are used: its Python side (gymnasium, Selenium) is never imported,
so ``find_spec`` locates it without running its ``__init__``.
"""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

from ..core.errors import ConfigError

DEFAULT_LIMIT_MS = 10_000  # core.js: the limit of a task that sets none
_LIMIT_RE = re.compile(r"core\.EPISODE_MAX_TIME\s*=\s*(\d+)")
# Variants of one task share a family: click-tab-2-hard, use-autocomplete-nodelay → click-tab, …
_VARIANT_RE = re.compile(r"(-\d+)?(-(nodelay|easy|medium|hard|soft|large|transfer|nl|turk))*$")


@cache
def html_root() -> Path:
    """The package's ``html`` directory (holding ``core/``, ``common/`` and ``miniwob/``)."""
    spec = importlib.util.find_spec("miniwob")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        root = Path(location) / "html"
        if (root / "miniwob").is_dir() and (root / "core" / "core.js").is_file():
            return root
    raise ConfigError("MiniWoB++ is not installed: pip install 'webfovea[miniwob]' "
                      "(the `miniwob` package from PyPI ships the task pages)")


def task_names() -> list[str]:
    return sorted(p.stem for p in (html_root() / "miniwob").glob("*.html"))


def task_path(name: str) -> str:
    """The task page's path under the served root."""
    return f"miniwob/{name}.html"


def time_limit_ms(name: str) -> int:
    """The task's own episode limit, as its page sets ``core.EPISODE_MAX_TIME``."""
    text = (html_root() / task_path(name)).read_text(encoding="utf-8")
    match = _LIMIT_RE.search(text)
    return int(match.group(1)) if match else DEFAULT_LIMIT_MS


def family(name: str) -> str:
    return _VARIANT_RE.sub("", name) or name


def resolve(names: list[str] | None) -> list[str]:
    """The tasks asked for (None: all), each checked against the installed package."""
    known = task_names()
    if names is None:
        return known
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ConfigError(f"unknown MiniWoB task(s): {', '.join(unknown)}; "
                          f"`webfovea miniwob --list` shows the {len(known)} installed ones")
    return names

"""Page-side JavaScript, kept in real .js files next to this module."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def js(name: str) -> str:
    """Source of ``browser/js/<name>.js``: a single function expression for ``evaluate``."""
    return resources.files("webfovea.browser").joinpath("js").joinpath(f"{name}.js").read_text("utf-8")

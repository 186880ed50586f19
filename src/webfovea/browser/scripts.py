"""Page-side JavaScript, kept in real .js files next to this module."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from playwright.async_api import Frame

# What the lean form of a watched script returns where the watcher is missing.
_MISSING = "webfovea: no watcher in this frame"


@cache
def js(name: str) -> str:
    """Source of ``browser/js/<name>.js``: a single function expression for ``evaluate``."""
    return resources.files("webfovea.browser").joinpath("js").joinpath(f"{name}.js").read_text("utf-8")


@cache
def watched(name: str) -> str:
    """``at_point(name)`` run after ``watch.js``, for frames the context's init script
    missed (documents that existed before it, about:blank frames written by script)."""
    return f"(args) => {{\n{js('watch')}\nreturn ({at_point(name)})(args);\n}}"


@cache
def lean(name: str) -> str:
    """``at_point(name)`` where the watcher already runs, else the missing mark: the
    watcher's source (30 KB) is sent and compiled only for frames that lack it."""
    return (f"(args) => window[Symbol.for('webfovea.watch')] ? ({at_point(name)})(args) "
            f": {json.dumps(_MISSING)}")


async def evaluate_watched(frame: Frame, name: str, args: dict[str, Any]) -> Any:
    """``watched(name)`` evaluated in ``frame``, in one round trip where the context's init
    script installed the watcher (every document it loaded); a second one, with the
    watcher's source, elsewhere."""
    result = await frame.evaluate(lean(name), args)
    if result == _MISSING:
        result = await frame.evaluate(watched(name), args)
    return result


@cache
def at_point(name: str) -> str:
    """``js(name)`` with ``elementAt`` (``element_at.js``: the innermost element at a point,
    through open shadow roots) and ``deep`` (``deep.js``: queries, containment and words
    through open shadow roots and slots) in scope, so every script that starts from a point
    or looks for a control's parts walks into shadow roots the same way."""
    return (f"(args) => {{\nconst elementAt = ({js('element_at')});\nconst deep = ({js('deep')})();\n"
            f"return ({js(name)})(args);\n}}")

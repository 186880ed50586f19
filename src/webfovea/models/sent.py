"""What a request held, in the step record: enough for ``webfovea cost`` to price the
run again without the images (layout, text lengths, image sizes, breakpoints)."""

from __future__ import annotations

from typing import Any

from webfovea.models.base import ModelRequest


def sent_summary(request: ModelRequest) -> dict[str, Any]:
    turns = request.turns
    return {
        "system_chars": len(request.system),
        "turns": len(turns),
        "text_chars": sum(len(t.text) + sum(len(i.label) for i in t.images) for t in turns),
        "images": [[i.width, i.height] for t in turns for i in t.images],
        "breakpoints": int(request.cache_system) + sum(t.cache for t in turns),
    }


MAX_BREAKPOINTS = 4  # Anthropic refuses more cache_control blocks than this


def breakpoint_turns(request: ModelRequest) -> set[int]:
    """Indexes of the turns that get a cache breakpoint: user turns the request marks, the
    latest first when they (with the system's) would pass the limit. Only user turns:
    the documented place for breakpoints in messages is user content."""
    room = MAX_BREAKPOINTS - (1 if request.cache_system and request.system else 0)
    marked = [i for i, t in enumerate(request.turns) if t.cache and t.role == "user"]
    return set(marked[-room:]) if room > 0 else set()

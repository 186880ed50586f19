"""Hotkey names as models write them → the browser's key strings (pure: the hotkey blacklist
and the executor both read keys through here)."""

from __future__ import annotations

import re

_ALIASES = {
    "ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta",
    "win": "Meta", "super": "Meta", "alt": "Alt", "option": "Alt", "shift": "Shift",
    "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab",
    "space": "Space", "backspace": "Backspace", "delete": "Delete", "del": "Delete",
    "home": "Home", "end": "End", "pageup": "PageUp", "pagedown": "PageDown",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight", "insert": "Insert",
}


def key_parts(key: str) -> list[str]:
    """'ctrl a' / 'Ctrl+A' → ['ctrl', 'a']; a lone '+' is the plus key ('ctrl +')."""
    words = key.lower().split()
    if len(words) == 1 and len(words[0]) > 1:
        words = [w or "+" for w in re.split(r"(?<!^)\+(?!$)", words[0])]
    return [w for w in words if w]


def to_playwright(key: str) -> str:
    out = []
    for part in key_parts(key):
        if part in _ALIASES:
            out.append(_ALIASES[part])
        elif len(part) >= 2 and part[0] == "f" and part[1:].isdigit():
            out.append(part.upper())
        else:
            out.append(part)
    return "+".join(out)

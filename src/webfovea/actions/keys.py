"""Hotkey names as models write them → the browser's key strings (pure: the hotkey blacklist
and the executor both read keys through here)."""

from __future__ import annotations

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


def key_names(key: str) -> list[str]:
    """The one reading of a key combination as models write it: lower-case names.

    'Ctrl+A', 'ctrl  a' and ' Ctrl + A ' are ['ctrl', 'a']; the plus key is the last word
    when that is a lone '+' ('ctrl +') or ends doubled ('ctrl++'); anywhere else '+' and
    white space only separate names, so ``' '.join`` of the names reads back as the same
    names (the parser stores that form; the executor and the blacklist read it here).
    """
    words = key.lower().split()
    names: list[str] = []
    for i, word in enumerate(words):
        plus = i == len(words) - 1 and (word == "+" or word.endswith("++"))
        names += [n for n in (word[:-1] if plus else word).split("+") if n]
        if plus:
            names.append("+")
    return names


def browser_name(name: str) -> str:
    """One name from :func:`key_names` → the browser's key string ('ctrl' → 'Control')."""
    if name in _ALIASES:
        return _ALIASES[name]
    if len(name) >= 2 and name[0] == "f" and name[1:].isdigit():
        return name.upper()
    return name


def to_playwright(key: str) -> str:
    return "+".join(browser_name(n) for n in key_names(key))

"""Each vendor's key spelling → the hotkey spelling of the closed set (``ctrl a``), so the hotkey
blacklist and the executor read native key presses exactly as they read a text reply's.

Claude's computer tool writes xdotool keysyms joined by ``+`` (``ctrl+l``, ``Return``,
``Page_Down``, ``super``); OpenAI's computer tool and Qwen's ``computer_use`` send lists of CUA
names (``["CTRL", "L"]``, ``ARROWDOWN``). Names the shared alias table (:mod:`webfovea.actions.keys`)
already reads (ctrl, cmd, esc, enter, arrowdown…) pass through lower-cased.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions.keys import key_names

# xdotool keysyms and CUA names that webfovea.actions.keys spells otherwise (all lower-case).
_SPELLINGS = {
    "control_l": "ctrl", "control_r": "ctrl", "ctl": "ctrl", "shift_l": "shift",
    "shift_r": "shift", "alt_l": "alt", "alt_r": "alt", "super_l": "super", "super_r": "super",
    "meta_l": "meta", "meta_r": "meta", "cmd_l": "cmd", "win_l": "win", "kp_enter": "enter",
    "linefeed": "enter", "prior": "pageup", "next": "pagedown", "page_up": "pageup",
    "page_down": "pagedown", "kp_page_up": "pageup", "kp_page_down": "pagedown",
    "kp_up": "up", "kp_down": "down", "kp_left": "left", "kp_right": "right",
    "kp_home": "home", "kp_end": "end", "kp_delete": "delete", "kp_insert": "insert",
    "arrow_up": "up", "arrow_down": "down", "arrow_left": "left", "arrow_right": "right",
    "minus": "-", "equal": "=", "plus": "+", "bracketleft": "[", "bracketright": "]",
    "period": ".", "comma": ",", "slash": "/", "backslash": "\\", "semicolon": ";",
    "apostrophe": "'", "grave": "`", "spacebar": "space", "escape": "esc", "return": "enter",
}


class KeySpellingError(ValueError):
    """A key text that names no key, or several combinations at once."""


def _spelled(name: str) -> str:
    low = name.strip().lower()
    return _SPELLINGS.get(low, low)


def from_xdotool(text: str) -> str:
    """``ctrl+shift+Tab`` / ``Return`` → ``ctrl shift tab`` / ``enter``."""
    combos = text.split()
    if not combos:
        raise KeySpellingError("the key text is empty")
    if len(combos) > 1 and all("+" in c or len(c) > 1 for c in combos):
        raise KeySpellingError(f"'{text}' holds {len(combos)} key presses; send one key "
                               "combination per call")
    return " ".join(_spelled(n) for n in key_names(text))


def from_names(names: Sequence[str]) -> str:
    """Key names pressed together (``["CTRL", "A"]``) → ``ctrl a``."""
    spelled = [_spelled(n) for n in names if n.strip()]
    if not spelled:
        raise KeySpellingError("no key was named")
    return " ".join(spelled)

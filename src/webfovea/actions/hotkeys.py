"""The hotkey blacklist: key combinations that act on the browser rather than the page.

A combination is refused when its key matches an entry and it holds at least
the entry's modifiers (``ctrl shift w`` is refused by ``ctrl w``). Control and
Meta count as the same modifier, so the macOS spelling of a shortcut is
refused too. Shortcuts web apps commonly claim for themselves (``ctrl k``,
``ctrl e``) stay allowed: they only reach the browser UI in a headed window.
"""

from __future__ import annotations

from dataclasses import dataclass

from .keys import browser_name, key_names

_MODIFIERS = {"control": "mod", "meta": "mod", "alt": "alt", "shift": "shift"}

# why → combinations, written as a model would write them.
_BLACKLIST: dict[str, tuple[str, ...]] = {
    "closes a tab or window": ("ctrl w", "ctrl f4", "alt f4", "ctrl q"),
    "opens a tab or window": ("ctrl t", "ctrl n"),
    "switches tabs": ("ctrl tab", "ctrl pageup", "ctrl pagedown",
                      *(f"ctrl {n}" for n in range(1, 10))),
    "focuses the address bar": ("ctrl l", "alt d", "f6"),
    "prints the page": ("ctrl p",),
    "saves the page": ("ctrl s",),
    "opens the developer tools": ("f12", "ctrl shift i", "ctrl shift j", "ctrl shift c",
                                  "ctrl alt i", "ctrl alt j", "ctrl alt c"),
    "shows the page source": ("ctrl u",),
    "opens a browser page (history, downloads, bookmarks, files, menus)": (
        "ctrl h", "ctrl j", "ctrl o", "ctrl d", "ctrl shift b", "ctrl shift o",
        "ctrl shift delete", "alt home", "alt f", "alt e"),
    "navigates back or forward; use go_back()": ("alt left", "alt right", "ctrl [", "ctrl ]"),
    "reloads the page; use reload(), which has a budget": ("f5", "ctrl r"),
    "zooms the browser, which would break the coordinates": ("ctrl =", "ctrl -", "ctrl 0"),
}


@dataclass(frozen=True)
class Combo:
    modifiers: frozenset[str]
    keys: frozenset[str]

    @classmethod
    def parse(cls, key: str) -> Combo:
        parts = [browser_name(n).lower() for n in key_names(key)]
        modifiers = frozenset(_MODIFIERS[p] for p in parts if p in _MODIFIERS)
        return cls(modifiers, frozenset(p for p in parts if p not in _MODIFIERS))

    def covers(self, pressed: Combo) -> bool:
        """True when ``pressed`` is this combination, possibly with extra modifiers."""
        return bool(self.keys) and self.keys <= pressed.keys and self.modifiers <= pressed.modifiers


_RULES: tuple[tuple[Combo, str], ...] = tuple(
    (Combo.parse(combo), why) for why, combos in _BLACKLIST.items() for combo in combos
)


def blacklisted(key: str) -> str | None:
    """Why ``key`` is refused (e.g. 'closes a tab or window'), or None when it may be pressed."""
    pressed = Combo.parse(key)
    return next((why for rule, why in _RULES if rule.covers(pressed)), None)

"""Per-task plans of ``miniwob-oracle``: the current DOM (as ``probe.js`` reports it) → one move.

Each policy is a function of the page as it is now plus a small memory, so it recovers
from any step that did not take effect: it simply sees the same state and acts again.
Moves carry points in viewport CSS pixels; :mod:`webfovea.miniwob.models` scales them to
the image the oracle was sent. A policy reads the page to plan and never acts on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Memory = dict[str, Any]


@dataclass(frozen=True)
class El:
    """One rendered element of the task area (``probe.js``)."""

    data: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.data[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def at(self, fx: float, fy: float = 0.5) -> tuple[float, float]:
        """A point at a fraction of the box (0,0 top-left)."""
        return self.x + self.w * fx, self.y + self.h * fy

    def has_class(self, name: str) -> bool:
        return name in str(self.cls).split()


@dataclass(frozen=True)
class Move:
    name: str
    thought: str
    points: dict[str, tuple[float, float]] = field(default_factory=dict)
    args: dict[str, str] = field(default_factory=dict)


class View:
    def __init__(self, probe: dict[str, Any]) -> None:
        self.utterance: str = probe["utterance"]
        self.bold: list[str] = probe["bold"]
        self.viewport_w, self.viewport_h = probe["viewport"]["w"], probe["viewport"]["h"]
        self.selection: str = probe["selection"]
        self.extra: dict[str, Any] = probe.get("extra") or {}
        self.elements = [El(e) for e in probe["elements"]]

    def all(self, tag: str | None = None, *, cls: str | None = None, own: str | None = None,
            id: str | None = None, text: str | None = None) -> Iterator[El]:
        for e in self.elements:
            if tag is not None and e.tag != tag:
                continue
            if cls is not None and not e.has_class(cls):
                continue
            if own is not None and e.own != own:
                continue
            if text is not None and e.text != text:
                continue
            if id is not None and e.id != id:
                continue
            yield e

    def first(self, tag: str | None = None, **kw: Any) -> El | None:
        return next(self.all(tag, **kw), None)

    def need(self, tag: str | None = None, **kw: Any) -> El:
        found = self.first(tag, **kw)
        if found is None:
            raise Stuck(f"no {tag or 'element'} with {kw} on the page")
        return found

    def quoted(self, index: int = 0) -> str:
        found = re.findall(r'"([^"]*)"', self.utterance)
        if len(found) <= index:
            raise Stuck(f"no quoted text #{index + 1} in the utterance {self.utterance!r}")
        return str(found[index])

    def in_view(self, e: El) -> bool:
        return bool(e.y >= 0 and e.y + e.h <= self.viewport_h and e.x >= 0
                    and e.x + e.w <= self.viewport_w)


class Stuck(Exception):
    """The page offers no way on for the plan (the policy answers finished, empty)."""


def click(e: El, what: str, point: tuple[float, float] | None = None) -> Move:
    return Move("click", f"Click {what}.", {"start_box": point or e.centre})


def fill(e: El, text: str, what: str) -> Move:
    return Move("fill", f"Type '{text}' into {what}.", {"start_box": e.centre}, {"content": text})


def submit(v: View) -> Move:
    button = v.first("button", id="subbtn") or v.first("button", own="Submit") or v.need("button")
    return click(button, f"the {button.own or 'submit'} button")


Policy = Callable[[View, Memory], Move]
POLICIES: dict[str, Policy] = {}


def policy(*names: str) -> Callable[[Policy], Policy]:
    def register(fn: Policy) -> Policy:
        for name in names:
            POLICIES[name] = fn
        return fn
    return register


# --- clicking --------------------------------------------------------------------------------


@policy("click-test", "click-test-2")
def _click_test(v: View, m: Memory) -> Move:
    label = v.quoted() if '"' in v.utterance else None
    return click(v.need("button", own=label) if label else v.need("button"), "the button")


@policy("click-button")
def _click_button(v: View, m: Memory) -> Move:
    return click(v.need("button", own=v.quoted()), f"the \"{v.quoted()}\" button")


@policy("click-link")
def _click_link(v: View, m: Memory) -> Move:
    return click(v.need("span", cls="alink", own=v.quoted()), f"the link \"{v.quoted()}\"")


@policy("click-dialog")
def _click_dialog(v: View, m: Memory) -> Move:
    return click(v.need("button", cls="ui-dialog-titlebar-close"), "the dialog's x")


@policy("click-dialog-2")
def _click_dialog_2(v: View, m: Memory) -> Move:
    label = v.quoted()
    if label == "x":
        return click(v.need("button", cls="ui-dialog-titlebar-close"), "the dialog's x")
    return click(v.need("button", text=label), f"the dialog's {label} button")


@policy("click-tab")
def _click_tab(v: View, m: Memory) -> Move:
    tab = re.search(r"Tab #\d", v.utterance)
    if tab is None:
        raise Stuck("no tab named in the utterance")
    return click(v.need("a", own=tab.group()), tab.group())


@policy("click-tab-2", "click-tab-2-easy", "click-tab-2-medium", "click-tab-2-hard")
def _click_tab_2(v: View, m: Memory) -> Move:
    target = v.quoted()
    link = v.first("span", cls="alink", own=target)
    if link is not None:
        return click(link, f"the link \"{target}\"")
    tried: list[str] = m.setdefault("tabs", [])
    for tab in v.all("a"):
        if tab.own.startswith("Tab #") and tab.own not in tried:
            tried.append(tab.own)
            return click(tab, f"{tab.own} to look for the link")
    raise Stuck(f"the link {target!r} is in no tab")


def _wanted_names(v: View) -> list[str]:
    match = re.match(r"Select (.*) and click Submit\.?$", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    text = match.group(1)
    return [] if text == "nothing" else [w.strip() for w in text.split(",")]


def _toggle_boxes(v: View, wanted: Callable[[str], bool], kind: str) -> Move:
    for label in v.all("label"):
        box = next((e for e in v.all("input") if e.type == kind and _inside(e, label)), None)
        if box is not None and box.checked != wanted(label.text):
            return click(box, f"the {kind} of '{label.text}'")
    return submit(v)


def _inside(inner: El, outer: El) -> bool:
    cx, cy = inner.centre
    return bool(outer.x <= cx <= outer.x + outer.w and outer.y <= cy <= outer.y + outer.h)


@policy("click-checkboxes", "click-checkboxes-large", "click-checkboxes-transfer")
def _click_checkboxes(v: View, m: Memory) -> Move:
    names = _wanted_names(v)
    return _toggle_boxes(v, lambda text: text in names, "checkbox")


@policy("click-checkboxes-soft")
def _click_checkboxes_soft(v: View, m: Memory) -> Move:
    # The task asks for synonyms; the page's own synonym table stands in for a model's vocabulary.
    groups: list[list[str]] = v.extra.get("synonyms") or []
    names = _wanted_names(v)
    meant = {w for n in names for g in groups if n in g for w in g}
    return _toggle_boxes(v, lambda text: text in meant, "checkbox")


@policy("click-option")
def _click_option(v: View, m: Memory) -> Move:
    names = _wanted_names(v)
    return _toggle_boxes(v, lambda text: text in names, "radio")


@policy("click-collapsible")
def _click_collapsible(v: View, m: Memory) -> Move:
    header = v.need("h3")
    if header.attrs.get("aria-expanded") != "true":
        return click(header, "the section header to expand it")
    return submit(v)


@policy("click-collapsible-2", "click-collapsible-2-nodelay")
def _click_collapsible_2(v: View, m: Memory) -> Move:
    target = v.quoted()
    link = v.first("span", cls="alink", own=target)
    if link is not None and v.in_view(link):
        return click(link, f"the link \"{target}\"")
    tried: list[str] = m.setdefault("sections", [])
    for header in v.all("h3"):
        if header.text not in tried:
            tried.append(header.text)
            return click(header, f"{header.text} to look for the link")
    raise Stuck(f"the link {target!r} is in no section")


@policy("focus-text")
def _focus_text(v: View, m: Memory) -> Move:
    return click(v.need("input", id="tt"), "the text box")


@policy("focus-text-2")
def _focus_text_2(v: View, m: Memory) -> Move:
    order = {"1st": "tt1", "2nd": "tt2", "3rd": "tt3"}
    which = next((k for k in order if k in v.utterance), "1st")
    return click(v.need("input", id=order[which]), f"the {which} text box")


# --- forms -----------------------------------------------------------------------------------


def _fill_then_submit(v: View, pairs: list[tuple[El, str, str]]) -> Move:
    for field_, text, what in pairs:
        if field_.value != text:
            return fill(field_, text, what)
    return submit(v)


@policy("enter-text")
def _enter_text(v: View, m: Memory) -> Move:
    return _fill_then_submit(v, [(v.need("input", id="tt"), v.quoted(), "the text field")])


@policy("enter-text-2")
def _enter_text_2(v: View, m: Memory) -> Move:
    word = v.quoted()
    text = word.upper() if "upper case" in v.utterance else word.lower()
    return _fill_then_submit(v, [(v.need("input", id="tt"), text, "the text field")])


@policy("enter-password")
def _enter_password(v: View, m: Memory) -> Move:
    secret = v.quoted()
    return _fill_then_submit(v, [(v.need("input", id="password"), secret, "the password field"),
                                 (v.need("input", id="verify"), secret, "the verify field")])


@policy("login-user")
def _login_user(v: View, m: Memory) -> Move:
    return _fill_then_submit(v, [(v.need("input", id="username"), v.quoted(0), "the username"),
                                 (v.need("input", id="password"), v.quoted(1), "the password")])


@policy("enter-date")
def _enter_date(v: View, m: Memory) -> Move:
    wanted = v.bold[0] if v.bold else ""
    field_ = v.need("input", id="tt")
    month, day, year = wanted.split("/")
    if field_.value != f"{year}-{month}-{day}":
        # Aim at the field's right half on purpose: the native-widget fill must not care.
        return Move("fill", f"Type {wanted} into the date field.", {"start_box": field_.at(0.75)},
                    {"content": wanted})
    return submit(v)


@policy("enter-time")
def _enter_time(v: View, m: Memory) -> Move:
    match = re.search(r"Enter (.+) as the time", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    field_ = v.need("input", id="tt")
    if not m.get("typed"):
        m["typed"] = True
        return Move("fill", f"Type {match.group(1)} into the time field.",
                    {"start_box": field_.at(0.5)}, {"content": match.group(1)})
    return submit(v)


@policy("choose-list")
def _choose_list(v: View, m: Memory) -> Move:
    match = re.match(r"Select (.+) from the list and click Submit", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    box = v.need("select")
    if box.selected != [match.group(1)]:
        return Move("select", f"Choose {match.group(1)} in the list.", {"start_box": box.centre},
                    {"option": match.group(1)})
    return submit(v)


@policy("click-scroll-list")
def _click_scroll_list(v: View, m: Memory) -> Move:
    match = re.match(r"Select (.+) from the scroll list and click Submit", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    wanted = [w.strip() for w in match.group(1).split(",")]
    box = v.need("select")
    for i, name in enumerate(wanted):
        if name not in box.selected or (i == 0 and len(box.selected) > len(wanted)):
            mode = "replace" if i == 0 else "add"
            return Move("select", f"Choose {name} in the list, keeping the others ({mode}).",
                        {"start_box": box.at(0.5, 0.3)}, {"option": name, "mode": mode})
    return submit(v)

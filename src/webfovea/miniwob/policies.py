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

    @property
    def shown(self) -> bool:
        """A click somewhere on the element lands on it (not scrolled away, not covered)."""
        return self.spot is not None

    @property
    def aim(self) -> tuple[float, float]:
        """Where to click it: the centre, or a visible part when something covers the centre."""
        return (float(self.spot[0]), float(self.spot[1])) if self.spot else self.centre

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
    return Move("click", f"Click {what}.", {"start_box": point or e.aim})


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


@policy("click-test")
def _click_test(v: View, m: Memory) -> Move:
    label = v.quoted() if '"' in v.utterance else None
    return click(v.need("button", own=label) if label else v.need("button"), "the button")


@policy("click-button")
def _click_button(v: View, m: Memory) -> Move:
    return click(v.need("button", own=v.quoted()), f"the \"{v.quoted()}\" button")


@policy("click-test-2", "click-test-transfer")
def _click_test_transfer(v: View, m: Memory) -> Move:
    label = re.search(r"Click button (\w+)", v.utterance)
    if label is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    return click(v.need("button", own=label.group(1)), f"button {label.group(1)}")


@policy("click-button-sequence")
def _click_button_sequence(v: View, m: Memory) -> Move:
    order = re.findall(r"button (\w+)", v.utterance)
    done = int(m.get("clicked", 0))
    if done >= len(order):
        raise Stuck("every button was clicked and the episode goes on")
    m["clicked"] = done + 1
    return click(v.need("button", own=order[done]), f"button {order[done]}")


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
    # A tab counts as searched once the page shows it selected (as in click-collapsible-2).
    searched: list[str] = m.setdefault("tabs", [])
    tabs = [(li, a) for li in v.all("li", cls="ui-tabs-tab") for a in v.all("a", cls="ui-tabs-anchor")
            if _inside(a, li)]  # labelled "Tab #2", or just "2" in -hard
    for li, a in tabs:
        if li.attrs.get("aria-selected") == "true" and a.own not in searched:
            searched.append(a.own)
    for _, a in tabs:
        if a.own not in searched:
            return click(a, f"{a.own} to look for the link")
    raise Stuck(f"the link {target!r} is in no tab")


def _wanted_names(v: View) -> list[str]:
    match = re.match(r"Select (?:words similar to )?(.*) and click Submit\.?$", v.utterance)
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


@policy("click-collapsible", "click-collapsible-nodelay")
def _click_collapsible(v: View, m: Memory) -> Move:
    header = v.need("h3")
    if header.attrs.get("aria-expanded") != "true":
        return click(header, "the section header to expand it")
    return submit(v)


@policy("click-collapsible-2", "click-collapsible-2-nodelay")
def _click_collapsible_2(v: View, m: Memory) -> Move:
    target = v.quoted()
    if m.pop("sliding", False):
        # jQuery slides sections on a 13 ms interval the settle does not follow: a click
        # aimed now, at a link or the next header, could land on something that moved.
        return Move("wait", "Wait for the sections to finish sliding.")
    link = v.first("span", cls="alink", own=target)
    if link is not None:  # in the open section (closed ones are not rendered)
        return click(link, f"the link \"{target}\"") if link.shown else reveal(v, m, target)
    # A section counts as searched once the page shows it open: a click aimed while the
    # accordion still slides may land elsewhere, and the next look simply aims again.
    searched: list[str] = m.setdefault("sections", [])
    headers = list(v.all("h3"))
    for header in headers:
        if header.attrs.get("aria-expanded") == "true" and header.text not in searched:
            searched.append(header.text)
    for header in headers:
        if header.text not in searched:
            m["sliding"] = True
            return click(header, f"{header.text} to look for the link")
    raise Stuck(f"the link {target!r} is in no section")


def reveal(v: View, m: Memory, text: str) -> Move:
    """Scroll the next match of ``text`` into view (find_text centres it in its scroll box);
    the utterance quotes the same words, so its match comes first."""
    key = f"find:{text}"
    m[key] = int(m.get(key, 0)) + 1
    if m[key] > 6:
        raise Stuck(f"{text!r} never came into view")
    return Move("find_text", f"Bring '{text}' into view.", args={"text": text})


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


@policy("enter-text", "enter-text-dynamic")
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


# --- reading, scrolling, keys ----------------------------------------------------------------


def _scrolled_to(box: El, where: str) -> bool:
    if where == "top":
        return bool(box.scrollTop <= 0)
    return bool(box.scrollTop + box.clientHeight >= box.scrollHeight - 2)


@policy("scroll-text")
def _scroll_text(v: View, m: Memory) -> Move:
    area = v.need("textarea", id="text-area")
    if not _scrolled_to(area, "bottom"):
        return Move("scroll", "Scroll the text area to its end to see the last word.",
                    {"start_box": area.centre}, {"direction": "down"})
    words = str(area.value).split()
    last = re.sub(r"[^A-Za-z0-9]", "", words[-1]) if words else ""
    return _fill_then_submit(v, [(v.need("input", id="answer-input"), last, "the answer field")])


@policy("scroll-text-2")
def _scroll_text_2(v: View, m: Memory) -> Move:
    where = "bottom" if "to the bottom" in v.utterance else "top"
    area = v.need("textarea", id="text-area")
    if not _scrolled_to(area, where):
        return Move("scroll", f"Scroll the text area to the {where}.", {"start_box": area.centre},
                    {"direction": "down" if where == "bottom" else "up"})
    return submit(v)


@policy("text-transform")
def _text_transform(v: View, m: Memory) -> Move:
    shown = "".join(e.own for e in v.all("span") if _inside(e, v.need("div", id="captcha")))
    return _fill_then_submit(v, [(v.need("input", id="tt"), shown, "the text field")])


@policy("copy-paste", "copy-paste-2")
def _copy_paste(v: View, m: Memory) -> Move:
    areas = list(v.all("textarea"))
    nth = re.search(r"the (\d)\w\w text area", v.utterance)  # copy-paste-2: one of several
    index = int(nth.group(1)) - 1 if nth else 0
    if index >= len(areas):
        raise Stuck(f"no text area #{index + 1}")
    source = areas[index]
    target = v.need("input", id="answer-input")
    if target.value == source.value and source.value:
        return submit(v)
    plan = [lambda: click(source, "into the text area"),
            lambda: Move("hotkey", "Select all of its text.", args={"key": "ctrl a"}),
            lambda: Move("hotkey", "Copy it.", args={"key": "ctrl c"}),
            lambda: click(target, "into the answer field"),
            lambda: Move("hotkey", "Paste.", args={"key": "ctrl v"})]
    step = int(m.get("step", 0))
    if step >= len(plan):
        raise Stuck("the pasted text does not match the text area's")
    m["step"] = step + 1
    return plan[step]()


@policy("navigate-tree")
def _navigate_tree(v: View, m: Memory) -> Move:
    target = v.quoted()
    found = next((e for e in v.all("span") if e.own == target and v.in_view(e)), None)
    if found is not None:
        return click(found, f"'{target}'")
    for hit in v.all("div", cls="hitarea"):
        if hit.has_class("expandable-hitarea"):
            return click(hit, "a collapsed folder's toggle to open it")
    raise Stuck(f"{target!r} is in no folder")


# --- dragging and widgets --------------------------------------------------------------------


@policy("drag-box")
def _drag_box(v: View, m: Memory) -> Move:
    small, large = v.need("div", id="draggableSmall"), v.need("div", id="draggableLarge")
    if not (small.x > large.x and small.y > large.y and small.x + small.w < large.x + large.w
            and small.y + small.h < large.y + large.h):
        return Move("drag", "Drag the small box into the middle of the large one.",
                    {"start_box": small.centre, "end_box": large.centre})
    return submit(v)


_ORDINAL = {"top": 1, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}


@policy("drag-items")
def _drag_items(v: View, m: Memory) -> Move:
    match = re.match(r"Drag (.+?) (to the (top|bottom|\w+) position|to the (top|bottom)|"
                     r"(up|down) by one position)\.", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    items = [e for e in v.all("li") if e.has_class("ui-state-default")]
    names = [e.text for e in items]
    index = names.index(match.group(1))
    phrase = match.group(2)
    if "up by one" in phrase:
        goal = index - 1
    elif "down by one" in phrase:
        goal = index + 1
    elif "bottom" in phrase:
        goal = len(items) - 1
    else:
        goal = _ORDINAL[(match.group(3) or match.group(4))] - 1
    source, dest = items[index], items[goal]
    # Past the middle of the destination row, so the sortable list takes the new place.
    end_y = dest.y + dest.h * (0.8 if goal > index else 0.2)
    return Move("drag", f"Drag {match.group(1)} to position {goal + 1}.",
                {"start_box": source.centre, "end_box": (dest.centre[0], end_y)})


@policy("use-slider")
def _use_slider(v: View, m: Memory) -> Move:
    match = re.match(r"Select (-?\d+) with the slider", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    want, value = int(match.group(1)), int(v.need(id="val").own)
    if value == want:
        return submit(v)
    track, handle = v.need("div", id="slider"), v.need("span", cls="ui-slider-handle")
    vertical = track.has_class("ui-slider-vertical")
    pos = handle.centre[1] if vertical else handle.centre[0]
    seen: list[tuple[float, int]] = m.setdefault("seen", [])
    if not seen or seen[-1][1] != value:
        seen.append((pos, value))
    known = {val: p for p, val in seen}
    if len(known) < 2:  # one more (position, value) pair fixes the scale
        mid = track.centre
        return Move("drag", "Drag the handle to the middle to learn the scale.",
                    {"start_box": handle.centre, "end_box": mid})
    (p0, v0), (p1, v1) = seen[-2], seen[-1]
    if abs(want - value) <= 3 or p0 == p1:
        key = ("up" if vertical else "right") if want > value else ("down" if vertical else "left")
        return Move("hotkey", f"Nudge the slider by one ({value} → {want}).", args={"key": key})
    goal = p1 + (want - v1) * (p1 - p0) / (v1 - v0)
    end = (handle.centre[0], goal) if vertical else (goal, handle.centre[1])
    return Move("drag", f"Drag the handle to where {want} should be.",
                {"start_box": handle.centre, "end_box": end})


@policy("use-autocomplete", "use-autocomplete-nodelay")
def _use_autocomplete(v: View, m: Memory) -> Move:
    start = v.bold[0] if v.bold else v.quoted()
    end = v.bold[1] if len(v.bold) > 1 else ""
    field_ = v.need("input", id="tags")
    value = str(field_.value)
    if value.startswith(start) and value.endswith(end) and (value != start or not end):
        return submit(v)
    items = [e for e in v.all("li") if e.has_class("ui-menu-item")]
    pick = next((e for e in items if e.text.startswith(start) and e.text.endswith(end)), None)
    if pick is None:
        return fill(field_, start, "the tags field to see the suggestions")
    if v.in_view(pick):
        return click(pick, f"the suggestion '{pick.text}'")
    return fill(field_, pick.text, "the tags field (the suggestion is below the visible area)")


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


@policy("choose-date", "choose-date-easy", "choose-date-medium", "choose-date-nodelay")
def _choose_date(v: View, m: Memory) -> Move:
    match = re.match(r"Select (\d+)/(\d+)/(\d+) as the date", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    month, day, year = (int(g) for g in match.groups())
    field_ = v.need("input", id="datepicker")  # read-only: only the calendar sets it
    if field_.value == f"{month:02d}/{day:02d}/{year}":
        return submit(v)
    return calendar(v, field_, month, day, year)


def calendar(v: View, field_: El, month: int, day: int, year: int) -> Move:
    """The next move towards a date in a jQuery UI date picker bound to ``field_``."""
    shown_month, shown_year = v.first("span", cls="ui-datepicker-month"), v.first(
        "span", cls="ui-datepicker-year")
    if shown_month is None or shown_year is None:
        return click(field_, "the date field to open the calendar")
    have = int(shown_year.own) * 12 + _MONTHS.index(shown_month.own)
    want = year * 12 + month - 1
    if have != want:
        arrow = v.need("a", cls="ui-datepicker-next" if want > have else "ui-datepicker-prev")
        return click(arrow, f"{'Next' if want > have else 'Prev'} to reach {_MONTHS[month - 1]}")
    cell = next((e for e in v.all("a", own=str(day)) if e.has_class("ui-state-default")), None)
    if cell is None:
        raise Stuck(f"day {day} is not in the calendar")
    return click(cell, f"day {day}")


@policy("search-engine")
def _search_engine(v: View, m: Memory) -> Move:
    query = v.quoted()
    nth = re.search(r"click the (\d+)\w* search result", v.utterance)
    if nth is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    index = int(nth.group(1)) - 1
    box = v.need("input", id="search-text")
    titles = list(v.all("a", cls="search-title"))
    if not titles or box.value != query:
        if box.value != query:
            return fill(box, query, "the search box")
        return click(v.need("button", id="search"), "Search")
    for t in titles:
        if t.attrs.get("data-result") == str(index) and v.in_view(t):
            return click(t, f"result {index + 1}")
        if t.attrs.get("data-result") == str(index):
            return Move("scroll", "Scroll to the result.", {"start_box": t.centre},
                        {"direction": "down" if t.y > v.viewport_h else "up"})
    page = str(index // 3 + 1)
    link = next((e for e in v.all("a") if e.own == page), None)
    if link is None:
        raise Stuck(f"no page link {page}")
    return click(link, f"page {page} of the results")

"""``select`` on custom dropdowns: ARIA comboboxes and listboxes (react-select, MUI Select,
Tom Select, Dash's dcc.Dropdown) and library widgets over a hidden native ``<select>``
(Select2, Tom Select).

The control is operated as a user would: opened with a real click where the model
pointed, the option matched among those the open list holds (exact, normalised,
substring, as for native ones; typed into the control's search field when the list shows
none that matches), scrolled into view inside the menu and clicked with the real mouse,
so the library's own handlers run. A library ``<select>`` that no list could be opened for
is set directly, with the change events a choice fires. Once the page has settled, the
note reads back what the control now shows: never what was meant.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from playwright.async_api import ElementHandle, Frame, JSHandle, Page
from playwright.async_api import Error as PlaywrightError

from . import readback, virtual_select
from .evidence import Effect
from .locate import Hit
from .native_inputs import MAX_LISTED, match_option, normalise
from .scripts import at_point, js

OPEN_WAIT_MS = 2000  # a menu opens within a frame or two; a lazy one after a fetch
FILTER_WAIT_S = 1.5  # a searchable control filters as it is typed into, or after a fetch
FILTER_POLL_S = 0.1


@dataclass(frozen=True)
class Control:
    """A custom dropdown found at the point, as page handles."""

    combo: ElementHandle | None  # the ARIA combobox (or listbox popup button)
    backing: ElementHandle | None  # the native <select> a library hid behind it
    box: ElementHandle  # what the user sees of the control


async def find(hit: Hit) -> Control | None:
    """The custom dropdown at the hit, or None."""
    try:
        found = await hit.frame.evaluate_handle(at_point("custom_control"), {"x": hit.x, "y": hit.y})
        combo, backing, box = [(await found.get_property(k)).as_element()
                               for k in ("combo", "backing", "box")]
    except PlaywrightError:
        return None
    return Control(combo, backing, box) if box is not None else None


async def select(page: Page, hit: Hit, wanted: str, mode: str) -> Effect:
    """Choose ``wanted`` in the custom dropdown at the hit."""
    control = await find(hit)
    if control is None:
        return Effect(failed="there is no dropdown (<select>, combobox or list box) at that "
                             f"point, only {hit.describe()}")
    shown = await _shows(hit.frame, control)
    if shown and normalise(shown) == normalise(wanted):  # opening and closing it would be noise
        return Effect(facts=[f"the dropdown already shows '{shown}'; nothing was done"],
                      details={"selected": shown, "match": "shown", "custom": True})
    listbox = await _open(page, hit, control)
    if listbox is None:
        if control.backing is not None:
            return await _set_backing(hit, control, wanted, mode, why="as no list of options opened")
        return Effect(failed="clicking the dropdown there opened no list of options (no "
                             "role=listbox appeared); click it and look at the screenshot")
    options, multiple, mirror = await _options(listbox)
    if mirror:  # a virtualised list: the rows in view, not the mirror's few options
        chosen_row = await virtual_select.select(
            page, hit, listbox, wanted, mode=mode, multiple=multiple,
            typeable=await _typeable(hit.frame), parts={"combo": control.combo, "box": control.box},
            readback=lambda text: _readback(hit, text))
        if chosen_row is not None:
            return chosen_row
        options, multiple, _ = await _options(listbox)  # it has grown in by now
    index, how = match_option([o["text"] for o in options], wanted)
    seen = [o["text"] for o in options]
    if index is None and await _typeable(hit.frame):
        await page.keyboard.type(wanted)
        listbox, options, multiple, index, how = await _filtered(hit.frame, control, wanted)
    if index is None or listbox is None:
        return await _no_match(page, hit, control, wanted, mode, seen)
    chosen = options[index]
    if chosen["selected"]:
        await page.keyboard.press("Escape")
        return Effect(facts=[f"'{chosen['text']}' was already selected; nothing changed"],
                      details={"selected": chosen["text"], "match": how, "custom": True})
    if mode == "replace" and control.backing is not None and await _holds_others(control.backing):
        await page.keyboard.press("Escape")  # replacing is one assignment of the <select>
        return await _set_backing(hit, control, wanted, mode,
                                  why="so that it replaces the options chosen before (a click "
                                      "in its list would add to them)")
    point = await hit.frame.evaluate(at_point("option_point"), {"list": listbox, "index": index})
    if point is None:
        await page.keyboard.press("Escape")
        return Effect(failed=f"'{chosen['text']}' is in the list but could not be brought into "
                             "view to be clicked")
    dx, dy = hit.page_x - hit.x, hit.page_y - hit.y
    await page.mouse.move(point["x"] + dx, point["y"] + dy)
    await page.mouse.click(point["x"] + dx, point["y"] + dy)
    facts = [f"chose '{chosen['text']}' ({how} match) in its open list"]
    if not multiple and mode == "add":
        facts.append("this dropdown holds one option at a time, so it replaced the previous one")
    return Effect(facts=facts, checked=True,
                  details={"selected": chosen["text"], "match": how, "mode": mode, "custom": True},
                  readback=_readback(hit, chosen["text"], adds=multiple and mode == "replace"))


async def _open(page: Page, hit: Hit, control: Control) -> JSHandle | None:
    """The control's open list: opened by a click at the point unless it is open already."""
    frame = hit.frame
    arg = {"combo": control.combo, "box": control.box}
    expanded = control.combo is not None and await control.combo.get_attribute("aria-expanded") == "true"
    if not expanded:
        where = await frame.evaluate(at_point("open_point"), {"x": hit.x, "y": hit.y, **arg})
        await page.mouse.click(where["x"] + hit.page_x - hit.x, where["y"] + hit.page_y - hit.y)
    try:
        found = await frame.wait_for_function(at_point("listbox_of"), arg=arg, timeout=OPEN_WAIT_MS)
    except PlaywrightError:
        return None
    return found


async def _holds_others(backing: ElementHandle) -> bool:
    """A multiple <select> with options selected: a click on an option would add to them."""
    state = await backing.evaluate(js("select_state"))
    return bool(state["multiple"] and state["selected"])


async def _options(listbox: JSHandle) -> tuple[list[dict[str, Any]], bool, bool]:
    state = await listbox.evaluate(at_point("listbox_options"))
    return state["options"], bool(state["multiple"]), bool(state["mirror"])


async def _typeable(frame: Frame) -> bool:
    """The control put the focus in a text field (its search box): typing filters the list."""
    value = await frame.evaluate(js("active_value"))
    return bool(value and value["tag"] == "input" and not value["readOnly"])


async def _filtered(frame: Frame, control: Control, wanted: str
                    ) -> tuple[JSHandle | None, list[dict[str, Any]], bool, int | None, str]:
    """The list after typing ``wanted``: polled until an option matches or the wait ends."""
    arg = {"combo": control.combo, "box": control.box}
    deadline = time.monotonic() + FILTER_WAIT_S
    listbox: JSHandle | None = None
    options: list[dict[str, Any]] = []
    multiple = False
    while True:
        listbox = (await frame.evaluate_handle(at_point("listbox_of"), arg)).as_element()
        if listbox is not None:
            options, multiple, _ = await _options(listbox)
            index, how = match_option([o["text"] for o in options], wanted)
            if index is not None:
                return listbox, options, multiple, index, how
        if time.monotonic() >= deadline:
            return listbox, options, multiple, None, ""
        await asyncio.sleep(FILTER_POLL_S)


async def _no_match(page: Page, hit: Hit, control: Control, wanted: str, mode: str,
                    seen: list[str]) -> Effect:
    """``seen``: the options the open list showed before anything was typed."""
    await page.keyboard.press("Escape")  # leave the control closed, as it was
    if control.backing is not None:  # the list may show only some (Tom Select's maxOptions)
        return await _set_backing(hit, control, wanted, mode, why="as its open list did not offer it")
    listed = "; ".join(f"'{o}'" for o in seen[:MAX_LISTED]) or "no options"
    return Effect(failed=f"no option matches '{wanted}'; the open list showed: {listed}",
                  details={"options": seen, "custom": True})


async def _set_backing(hit: Hit, control: Control, wanted: str, mode: str, *, why: str) -> Effect:
    """Set the hidden native <select> behind the widget and fire its change events; ``why``
    ends the note's sentence saying so."""
    assert control.backing is not None
    state = await control.backing.evaluate(js("select_state"))
    names: list[str] = state["options"]
    index, how = match_option(names, wanted)
    if index is None:
        return Effect(failed=f"no option matches '{wanted}'; the options are: "
                             + "; ".join(f"'{o}'" for o in names[:MAX_LISTED]),
                      details={"options": names, "custom": True})
    before: list[int] = state["selected"]
    keep = before if state["multiple"] and mode == "add" else []
    chosen = sorted({*keep, index})
    if chosen == before:
        return Effect(facts=[f"'{names[index]}' was already selected; nothing changed"],
                      details={"selected": names[index], "match": how, "custom": True})
    await hit.frame.evaluate(js("set_backing"), {"select": control.backing, "indices": chosen})
    return Effect(facts=[f"set its <select> to '{names[index]}' ({how} match) and fired the "
                         f"change events, {why}"],
                  checked=True,
                  details={"selected": names[index], "match": how, "mode": mode, "custom": True,
                           "backing": True},
                  readback=_readback(hit, names[index]))


async def _shows(frame: Frame, control: Control) -> str | None:
    shows = await frame.evaluate(at_point("control_shows"), {
        "combo": control.combo, "box": control.box, "backing": control.backing})
    shown: str | None = shows["shown"]
    return shown


def _readback(hit: Hit, chosen: str, *, adds: bool = False) -> Callable[[], Awaitable[list[str]]]:
    """What the control at the point shows once the page settled (found again: a library
    may have re-rendered it). ``adds``: a multi-select asked to replace, which a click on an
    option cannot do: say so when the control still shows others."""
    async def shows_now() -> dict[str, Any] | None:
        control = await find(hit)
        if control is None:
            return None
        try:
            shows: dict[str, Any] = await hit.frame.evaluate(at_point("control_shows"), {
                "combo": control.combo, "box": control.box, "backing": control.backing})
        except PlaywrightError:
            return {}
        return shows

    def showing(shows: dict[str, Any] | None) -> bool:
        return shows is not None and normalise(chosen) in normalise(shows.get("shown") or "")

    async def read() -> list[str]:
        shows = await readback.at_rest(shows_now, showing)  # an app's round trip later
        if shows is None:
            return ["the dropdown is no longer there to read back"]
        if not shows:
            return []
        facts = _shown_facts(chosen, shows)
        if adds and shows["shown"] and normalise(shows["shown"]) != normalise(chosen):
            facts.append("this control adds to its choices, so the others it shows stay "
                         "chosen (remove them on the control)")
        return facts
    return read


def _shown_facts(chosen: str, shows: dict[str, Any]) -> list[str]:
    facts = []
    shown: str | None = shows["shown"]
    if shown is not None:
        if normalise(chosen) in normalise(shown):
            facts.append(f"the dropdown now shows '{shown[:100]}'")
        else:
            facts.append(f"but the dropdown shows '{shown[:100]}', not '{chosen}'")
    held: list[str] | None = shows["backing"]
    if held is not None:
        facts.append("its <select> holds " + (", ".join(f"'{h}'" for h in held) or "nothing"))
    if shows["expanded"]:
        facts.append("its list is still open")
    return facts

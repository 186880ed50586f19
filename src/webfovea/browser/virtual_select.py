"""``select`` in a virtualised option list: only the rows in view exist, and the
``role=listbox`` the control names is an accessibility mirror of a few options, with no
box to see (Ant Design's Select: the active option and its two neighbours, 0x0 px).

The option is looked for where the user looks, among the rows in view
(``visible_rows.js``): typed into the control's search field when it has one (the list
filters), else reached by turning the mouse wheel inside the list, as a user scrolls it
(the library moves its rows on ``wheel``, not on a scroll position set from outside),
down to the list's end and then up to its start; then the row is clicked with the real
mouse. A missing option's note lists the rows in view when the list opened, never the
mirror's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Frame, JSHandle, Page

from .evidence import Effect
from .locate import Hit
from .native_inputs import MAX_LISTED, match_option
from .scripts import at_point

OPEN_WAIT_S = 1.5
MOVE_WAIT_S = 0.4  # the library moves its rows within a frame or two of the wheel
POLL_S = 0.015
FILTER_WAIT_S = 1.5
MAX_TURNS = 200  # a list of thousands of rows is not scanned to its end

ReadBack = Callable[[], Awaitable[list[str]]]


@dataclass(frozen=True)
class Row:
    """One row in view: its words and the centre of its shown part, frame CSS pixels."""

    text: str
    x: float
    y: float
    selected: bool
    clickable: bool


@dataclass(frozen=True)
class View:
    rows: list[Row]
    wheel: tuple[float, float]  # where the wheel moves the list
    step: float  # a turn that moves the list by its height less a row, in wheel units
    row: float  # a turn that moves it by one row, in wheel units
    like: list[str]  # the classes every row has, to know them again

    @property
    def texts(self) -> list[str]:
        return [r.text for r in self.rows]


async def view(frame: Frame, listbox: JSHandle, frames: int = 0, like: list[str] | None = None
               ) -> View | None:
    """The rows of the list in view after ``frames`` animation frames, or None when no
    list of rows is found; ``like``: the classes of the rows found before."""
    got: dict[str, Any] | None = await frame.evaluate(
        at_point("visible_rows"), {"list": listbox, "frames": frames, "like": like})
    if not got:
        return None
    rows = [Row(r["text"], r["x"], r["y"], r["selected"], r["clickable"]) for r in got["rows"]]
    step = max(got["height"] - got["row"], got["row"]) * got["scale"]
    return View(rows, (got["wheel"]["x"], got["wheel"]["y"]), step, got["row"] * got["scale"],
                got["like"])


async def steady_view(frame: Frame, listbox: JSHandle) -> View | None:
    """The rows once they show and stand still: a list slides and grows in as it opens,
    and its rows are laid out a frame or two after its mirror."""
    deadline = time.monotonic() + OPEN_WAIT_S
    last = await view(frame, listbox)
    while time.monotonic() < deadline:
        await asyncio.sleep(POLL_S)
        now = await view(frame, listbox)
        if now is not None and now == last:
            return now
        last = now
    return last


def _exact(texts: list[str], wanted: str) -> int | None:
    """An exact or normalised match: a substring one may be bettered further on."""
    index, how = match_option(texts, wanted)
    return index if how in ("exact", "normalised") else None


class Scan:
    """The list moved by the wheel, remembering every row that passed."""

    def __init__(self, page: Page, hit: Hit, listbox: JSHandle, first: View) -> None:
        self.page, self.hit, self.listbox, self.now = page, hit, listbox, first
        self.passed: list[str] = list(first.texts)
        self.turns = 0

    async def turn(self, down: bool, by: float | None = None) -> bool:
        """One turn of the wheel inside the list (``by`` wheel units, else its height less
        a row); False when the rows did not move (its end)."""
        if self.turns >= MAX_TURNS:
            return False
        if self.turns == 0:
            dx, dy = self.hit.page_x - self.hit.x, self.hit.page_y - self.hit.y
            await self.page.mouse.move(self.now.wheel[0] + dx, self.now.wheel[1] + dy)
        self.turns += 1
        step = by or self.now.step
        await self.page.mouse.wheel(0, step if down else -step)
        deadline = time.monotonic() + MOVE_WAIT_S
        last = self.now
        while time.monotonic() < deadline:  # until the rows moved and then stood still
            moved = await view(self.hit.frame, self.listbox, frames=1)
            if moved is None:
                break
            if moved == last and moved.texts != self.now.texts:
                break
            last = moved
        if last.texts == self.now.texts:
            return False
        self.now = last
        self.passed += [t for t in last.texts if t not in self.passed]
        return True

    async def back_to(self, shown: list[str]) -> None:
        """Up in one turn past the rows already seen, to where the list opened."""
        if not shown or not self.now.texts or shown[0] not in self.passed:
            return
        rows = self.passed.index(self.now.texts[0]) - self.passed.index(shown[0])
        if rows > 0:
            await self.turn(False, by=rows * self.now.row)

    async def until(self, down: bool, found: Callable[[View], int | None]) -> int | None:
        """Turn the wheel one way until ``found`` gives a row of the view in place, or the end."""
        while (index := found(self.now)) is None:
            if not await self.turn(down):
                return None
        return index


@dataclass(frozen=True)
class Reached:
    row: Row | None
    how: str
    shown: list[str]  # the rows in view when the list opened
    passed: int  # rows it scrolled past, all told
    filtered: list[str] | None = None  # the rows in view once ``wanted`` was typed


async def reach(page: Page, hit: Hit, listbox: JSHandle, wanted: str, *, typeable: bool,
                parts: dict[str, Any]) -> Reached | None:
    """The row for ``wanted`` brought into view (by typing, else by the wheel), or the
    rows seen when no row matches; None when the list shows no rows. ``parts``: the
    control's combobox and box, to find its list again once typing re-rendered it."""
    first = await steady_view(hit.frame, listbox)
    if first is None:
        return None
    shown = first.texts
    if typeable and match_option(shown, wanted)[0] is None:
        await page.keyboard.type(wanted)
        filtered = await _filtered(hit.frame, parts, wanted, first.like)
        rows = filtered.rows if filtered is not None else []
        index, how = match_option([r.text for r in rows], wanted)
        return Reached(rows[index] if index is not None else None, how, shown, len(rows),
                       filtered=[r.text for r in rows])
    scan = Scan(page, hit, listbox, first)
    index = await scan.until(True, lambda v: _exact(v.texts, wanted))
    if index is None:  # above where it opened: no need to read the rows seen again
        await scan.back_to(shown)
        index = await scan.until(False, lambda v: _exact(v.texts, wanted))
    if index is None:  # a substring match, from the start (where the scan ended) down
        _, how = match_option(scan.passed, wanted)
        if not how:
            return Reached(None, "", shown, len(scan.passed))
        index = await scan.until(True, lambda v: match_option(v.texts, wanted)[0])
    if index is None:
        return Reached(None, "", shown, len(scan.passed))
    return Reached(scan.now.rows[index], match_option(scan.now.texts, wanted)[1], shown,
                   len(scan.passed))


async def _filtered(frame: Frame, parts: dict[str, Any], wanted: str, like: list[str]
                    ) -> View | None:
    """The rows once typing ``wanted`` filtered them, polled until one matches or the wait
    ends; the list is found again each time (the library renders a new one)."""
    deadline = time.monotonic() + FILTER_WAIT_S
    rows = None
    while time.monotonic() < deadline:
        listbox = (await frame.evaluate_handle(at_point("listbox_of"), parts)).as_element()
        rows = await view(frame, listbox, like=like) if listbox is not None else None
        if rows is not None and match_option(rows.texts, wanted)[0] is not None:
            return rows
        await asyncio.sleep(0.1)
    return rows


async def select(page: Page, hit: Hit, listbox: JSHandle, wanted: str, *, typeable: bool,
                 parts: dict[str, Any], multiple: bool, mode: str,
                 readback: Callable[[str], ReadBack]) -> Effect | None:
    """Choose ``wanted`` in the open virtualised list; ``readback(text)`` reads the control
    back once the page settled. None when no rows show beside the list: it was no mirror
    but a menu growing in from nothing, to be read as one."""
    reached = await reach(page, hit, listbox, wanted, typeable=typeable, parts=parts)
    if reached is None:
        return None
    row = reached.row
    if row is None:
        await page.keyboard.press("Escape")  # leave the control closed, as it was
        listed = "; ".join(f"'{o}'" for o in reached.shown[:MAX_LISTED]) or "no options"
        if reached.filtered is None:
            after = f" (none of the {reached.passed} rows it scrolls through matches)"
        else:
            left = "; ".join(f"'{o}'" for o in reached.filtered[:MAX_LISTED]) or "no options"
            after = f", and once '{wanted}' was typed into its search field: {left}"
        return Effect(failed=f"no option matches '{wanted}'; the open list showed: {listed}{after}",
                      details={"options": reached.shown, "custom": True, "virtual": True})
    if row.selected:
        await page.keyboard.press("Escape")
        return Effect(facts=[f"'{row.text}' was already selected; nothing changed"],
                      details={"selected": row.text, "match": reached.how, "custom": True})
    if not row.clickable:
        await page.keyboard.press("Escape")
        return Effect(failed=f"'{row.text}' is in the list but something covers it there")
    dx, dy = hit.page_x - hit.x, hit.page_y - hit.y
    await page.mouse.move(row.x + dx, row.y + dy)
    await page.mouse.click(row.x + dx, row.y + dy)
    facts = [f"chose '{row.text}' ({reached.how} match) in its open list{_how_reached(reached, wanted)}"]
    if not multiple and mode == "add":
        facts.append("this dropdown holds one option at a time, so it replaced the previous one")
    return Effect(facts=facts, checked=True,
                  details={"selected": row.text, "match": reached.how, "mode": mode,
                           "custom": True, "virtual": True},
                  readback=readback(row.text))


def _how_reached(reached: Reached, wanted: str) -> str:
    if reached.filtered is not None:
        return f", filtered by typing '{wanted}' into its search field"
    assert reached.row is not None
    return ", scrolled to it" if reached.row.text not in reached.shown else ""

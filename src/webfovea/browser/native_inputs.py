"""``fill`` on native date/time inputs and ``select`` on single and multiple ``<select>``s.

Both are widgets whose real interface never shows in a headless screenshot (the picker,
the option list) and whose keyboard behaviour depends on where the pointer lands (the
segment of a date field), so the executor sets them through the element itself and
reads back what the page holds afterwards; the note says that, never what was meant.
"""

from __future__ import annotations

import re
from typing import Any

from ..actions.native_values import EXAMPLES, NotAValue, to_input_value
from ..core.text import fold
from .evidence import Effect
from .locate import Hit
from .navigated import Left, unless_navigated
from .scripts import js

MAX_LISTED = 40
LOADED = "its change loaded another page, so the dropdown was not read back"


async def native_input(hit: Hit) -> dict[str, Any] | None:
    """The native date/time input at the hit (type, value), or None for any other element."""
    element = await hit.handle()
    if element is None:
        return None
    info: dict[str, Any] | None = await element.evaluate(js("native_input"))
    return info


async def fill_native(hit: Hit, info: dict[str, Any], content: str) -> Effect:
    """Set the date/time input to what ``content`` means, whatever segment the point is on."""
    kind = info["type"]
    if info["disabled"] or info["readOnly"]:
        return Effect(failed=f"the {kind} field there is {'disabled' if info['disabled'] else 'read-only'}")
    try:
        value = to_input_value(kind, content)
    except NotAValue:
        return Effect(failed=f"'{content}' is not a {kind} this field can hold; type it like "
                             f"{EXAMPLES[kind]}; the field still holds '{info['value']}'")
    element = await hit.handle()
    if element is None:
        return Effect(failed=f"the {kind} field disappeared before it could be set")
    held = await element.evaluate(js("set_native_value"), value)
    shown = f"'{held}'" + (f" (from '{content}')" if held != content else "")
    fact = (f"the {kind} field now holds {shown}" if held == value
            else f"the {kind} field did not accept '{value}' (from '{content}') and holds '{held}'")
    return Effect(facts=[fact], checked=True,
                  details={"typed": content, "readback": held, "native": kind, "enter": False})


async def select(hit: Hit, wanted: str, mode: str) -> Effect:
    """Choose ``wanted`` in the <select> at the hit; on a multi-select ``add`` keeps the others."""
    select_info = hit.info.get("select") if hit.info else None
    element = await hit.handle() if select_info else None
    if element is None or not select_info:
        return Effect(failed=f"there is no dropdown (<select>) at that point, only {hit.describe()}")
    target = (await element.evaluate_handle(js("select_target"))).as_element()
    if target is None:
        return Effect(failed="the dropdown disappeared before it could be set")
    state = await target.evaluate(js("select_state"))
    options: list[str] = state["options"]
    index, how = match_option(options, wanted)
    if index is None:
        return Effect(failed=f"no option matches '{wanted}'; the options are: "
                             + "; ".join(f"'{o}'" for o in options[:MAX_LISTED]),
                      details={"options": options})
    before: list[int] = state["selected"]
    keep = before if state["multiple"] and mode == "add" else []
    chosen = sorted({*keep, index})
    if chosen == before:
        return Effect(facts=[f"'{options[index]}' was already selected; nothing changed"],
                      details={"selected": options[index], "match": how, "now": _names(options, before)})
    await target.select_option(index=chosen)
    read = await unless_navigated(target.evaluate(js("select_state")))
    if isinstance(read, Left):  # its change handler loaded another page: the choice took effect
        return Effect(facts=[f"selected '{options[index]}' ({how} match)", LOADED],
                      checked=True, details={"selected": options[index], "match": how,
                                             "mode": mode, "navigated": True})
    after: list[int] = read["selected"]
    return Effect(facts=_select_facts(options, index, how, before, after, state["multiple"], mode),
                  checked=True, details={"selected": options[index], "match": how, "mode": mode,
                                         "now": _names(options, after)})


def _names(options: list[str], indices: list[int]) -> list[str]:
    return [options[i] for i in indices]


def _select_facts(options: list[str], index: int, how: str, before: list[int], after: list[int],
                  multiple: bool, mode: str) -> list[str]:
    facts = [f"selected '{options[index]}' ({how} match)"]
    if not multiple:
        if mode == "add":
            facts.append("this dropdown holds one option at a time, so it replaced the previous one")
        return facts
    now = ", ".join(f"'{o}'" for o in _names(options, after)) or "nothing"
    facts.append(f"now selected: {now}")
    dropped = [options[i] for i in before if i not in after]
    if dropped:
        facts.append("no longer selected: " + ", ".join(f"'{o}'" for o in dropped)
                     + " (use mode='add' to keep options selected)")
    return facts


def normalise(text: str) -> str:
    """Case, accents, punctuation and spacing folded away: 'COTE D'IVOIRE' ~ 'Côte d'Ivoire'."""
    return " ".join(re.sub(r"[^\w\s]", " ", fold(text)).split())


def match_option(options: list[str], wanted: str) -> tuple[int | None, str]:
    """Exact, then normalised, then substring match; (index, which rule) or (None, '')."""
    for i, o in enumerate(options):
        if o == wanted:
            return i, "exact"
    norm = normalise(wanted)
    for i, o in enumerate(options):
        if normalise(o) == norm:
            return i, "normalised"
    if norm:
        hits = [i for i, o in enumerate(options) if norm in normalise(o)]
        if hits:
            return hits[0], "substring"
    return None, ""

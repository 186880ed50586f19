"""``miniwob-oracle`` plans for widget tasks: text selection by drag, a resizable text area,
a colour picker and a hover menu. Same rules as :mod:`.policies`: read the page to plan,
answer one move in viewport CSS pixels, recover by seeing the same state again."""

from __future__ import annotations

import re

from .policies import El, Memory, Move, Stuck, View, click, fill, policy, submit

_ORDINALS = {"1st": 0, "2nd": 1, "3rd": 2}


def _letters(text: str) -> str:
    return re.sub(r"\s+", "", text)


@policy("highlight-text", "highlight-text-2")
def _highlight_text(v: View, m: Memory) -> Move:
    box = v.need("div", id="randomText")
    which = re.search(r"the (\d\w\w) paragraph", v.utterance)
    if which is not None:
        paragraphs = [p for p in v.all("p") if _inside_box(p, box)]
        if len(paragraphs) <= _ORDINALS[which.group(1)]:
            raise Stuck(f"no {which.group(1)} paragraph")
        box = paragraphs[_ORDINALS[which.group(1)]]
    if v.selection and _letters(v.selection) == _letters(box.text):
        return submit(v)
    tries = int(m.get("drags", 0))
    if tries >= 3:
        raise Stuck("the drag did not select the paragraph")
    m["drags"] = tries + 1
    # From the left edge of the first line to the bottom-right corner, past the last word.
    return Move("drag", "Select the paragraph by dragging across it.",
                {"start_box": (box.x + 0.5, box.y + 3), "end_box": (box.x + box.w - 1, box.y + box.h - 2)})


def _inside_box(inner: El, outer: El) -> bool:
    cx, cy = inner.centre
    return bool(outer.x <= cx <= outer.x + outer.w and outer.y <= cy <= outer.y + outer.h)


_RESIZE_STEP = 15  # CSS pixels: clearly past the initial size, well inside the task area


@policy("resize-textarea")
def _resize_textarea(v: View, m: Memory) -> Move:
    match = re.search(r"the (width|height) is (larger|smaller)", v.utterance)
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    dimension, direction = match.groups()
    area = v.need("textarea", id="tt")
    size = area.w if dimension == "width" else area.h
    initial = float(m.setdefault("initial", size))
    if (size > initial) if direction == "larger" else (size < initial):
        return click(v.need("button", id="submit"), "Submit")
    # The corner grip: the edge handles are mostly clipped by the wrapper around the area.
    handle = v.need("div", cls="ui-resizable-se")
    sign = 1 if direction == "larger" else -1
    start = handle.centre
    end = (start[0] + sign * _RESIZE_STEP, start[1]) if dimension == "width" else (
        start[0], start[1] + sign * _RESIZE_STEP)
    return Move("drag", f"Drag the {dimension} handle to make it {direction}.",
                {"start_box": start, "end_box": end})


@policy("use-colorwheel", "use-colorwheel-2")
def _use_colorwheel(v: View, m: Memory) -> Move:
    field_ = v.need("input", id="col")
    swatch = v.first("div", cls="cc")
    if swatch is not None:  # -2 shows the colour as a swatch: what a model reads off the image
        style = re.search(r"background-color:\s*#?([0-9a-fA-F]{6})", str(swatch.attrs.get("style", "")))
        if style is None:
            raise Stuck("the swatch has no colour")
        want = style.group(1).lower()
    else:
        name = re.match(r"Select (\w+) with the color picker", v.utterance)
        colours = v.extra.get("colours") or {}
        if name is None or name.group(1) not in colours:
            raise Stuck(f"no colour named in {v.utterance!r}")
        # The page's own name table stands in for a model's knowledge of colour names.
        want = str(colours[name.group(1)]).lstrip("#").lower()
    if str(field_.value).lower() != want:
        return fill(field_, want, "the colour field (its hex value)")
    if v.first("canvas") is not None:  # the picker is open and covers Submit; it closes on a click outside
        return click(v.need("div", id="query"), "outside the picker to close it")
    return submit(v)


@policy("click-menu")
def _click_menu(v: View, m: Memory) -> Move:
    match = re.match(r"Select (.+)$", v.utterance.strip())
    if match is None:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    path = [p.strip() for p in match.group(1).split(">")]
    shown = {e.own: e for e in v.all("div") if e.own and v.in_view(e)}
    for depth, name in enumerate(path):
        item = shown.get(name)
        if item is None:
            raise Stuck(f"menu item {name!r} is not shown")
        if depth == len(path) - 1:
            return click(item, f"'{name}'")
        if path[depth + 1] not in shown:  # jQuery UI opens a submenu on hover, never on click
            return Move("hover", f"Hover '{name}' to open its submenu.", {"start_box": item.at(0.3)})
    raise Stuck(f"empty menu path in {v.utterance!r}")

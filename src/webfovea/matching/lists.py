"""Lists, rankings and sets: items split on new lines, ``、，；,;`` (and "和 / and" where an
answer runs short), ordinal prefixes (``第一名：``, ``1.``, ``No. 1``, ``#1``, ``1st``)
stripped, and items paired by their content — a leading number alone never pairs two.

A ranking matches item by item in order; a set in any order; a missing or extra item is
wrong. Items a typed rule cannot tell (another script, a possible short form) leave the
list undecided unless another item already makes it wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .numbers import prepare
from .verdict import Rule, Verdict, correct, undecided, wrong

ItemVerdict = Callable[[str, str], Verdict]

_ORDINAL = re.compile(
    r"^\s*(?:第\s*[一二三四五六七八九十\d]+\s*[名位个]?\s*[：:、.．]?"
    r"|(?i:no)\.?\s*\d+\s*[:.)、：]?|#\s*\d+\s*[:.)：]?|(?i:top\s*\d+\s*[:：])"
    r"|\d+\s*(?i:st|nd|rd|th)\b\s*[:.)：]?|[(（]?\d{1,2}\s*[.)）、．:：](?!\d)|[①-⑳])\s*")
_SEPARATORS = re.compile(r"\n|[、，；;]|(?<!\d),|,(?!\d)")
_CONJUNCTIONS = re.compile(r"\s*(?:和|以及|及|(?i:\s(?:and|&)\s))\s*")
_ORDER_WORDS = re.compile(
    r"前\s*[0-9一二三四五六七八九十]+|排名|排行|排序|名次|依次|顺序|"
    r"(?i:\btop\s*(?:\d+|three|five|ten)\b|\brank|\bin order\b|\border\b)")


def split_items(text: str, *, conjunctions: bool = False) -> tuple[list[str], bool]:
    """(items, numbered): the items with their ordinal prefixes stripped, and whether any
    had one. ``conjunctions`` also splits on 和 / and."""
    parts = _split_outside_brackets(prepare(text).strip())
    if conjunctions:
        parts = [p for part in parts for p in _CONJUNCTIONS.split(part)]
    items, numbered = [], False
    for part in parts:
        stripped = _ORDINAL.sub("", part, count=1).strip(" .。")
        numbered = numbered or stripped != part.strip(" .。")
        if stripped:
            items.append(stripped)
    return items, numbered


def is_ranking(task: str, numbered: bool) -> bool:
    """The task asks for an order or a top N, or the reference is numbered."""
    return numbered or bool(_ORDER_WORDS.search(task))


def answer_items(answer: str, wanted: int) -> list[str]:
    """The answer's items; "和 / and" split only when the separators give too few."""
    items, _ = split_items(answer)
    if len(items) < wanted:
        items, _ = split_items(answer, conjunctions=True)
    return items


def list_verdict(refs: Sequence[str], found: Sequence[str], *, ranking: bool,
                 item: ItemVerdict) -> Verdict:
    rule: Rule = "ranking" if ranking else "set"
    table = [[item(r, a) for a in found] for r in refs]
    pairs = _pairing(table, lambda v: v.correct)
    if len(pairs) == len(refs) == len(found):
        in_order = all(i == j for i, j in pairs.items())
        if in_order or not ranking:
            return correct(rule, f"all {len(refs)} items match"
                                 + (" in order" if ranking else " (in any order)"))
        return wrong(rule, "the right items in the wrong order: " + ", ".join(found))
    if len(found) != len(refs):
        return _count_verdict(table, refs, found, pairs, rule)
    if ranking:
        return _ranking_in_place(table, refs, rule)
    return _set_leftovers(table, refs, pairs, rule)


def _count_verdict(table: list[list[Verdict]], refs: Sequence[str], found: Sequence[str],
                   pairs: dict[int, int], rule: Rule) -> Verdict:
    missing = [r for i, r in enumerate(refs) if i not in pairs]
    extra = [a for j, a in enumerate(found) if j not in pairs.values()]
    if not extra:
        return wrong(rule, f"{len(found)} items for {len(refs)}: missing {', '.join(missing)}")
    if not missing:
        return wrong(rule, f"{len(found)} items for {len(refs)}: extra {', '.join(extra)}")
    if nothing := _unmatched(table, pairs, refs):
        return wrong(rule, f"{len(found)} items for {len(refs)}, and no item of the answer is "
                           f"{nothing}")
    return undecided(rule, f"{len(found)} items for {len(refs)}; unpaired: "
                           f"{', '.join(missing)} / {', '.join(extra)}")


def _ranking_in_place(table: list[list[Verdict]], refs: Sequence[str], rule: Rule) -> Verdict:
    for i in range(len(refs)):
        v = table[i][i]
        if v.decision == "wrong" and not any(x.decision != "wrong" for x in table[i]):
            return wrong(rule, f"item {i + 1}: {v.why}")
    reasons = {table[i][i].why for i in range(len(refs)) if not table[i][i].correct}
    return undecided(rule, "some items cannot be told by a typed rule: "
                           + "; ".join(sorted(reasons)))


def _set_leftovers(table: list[list[Verdict]], refs: Sequence[str], pairs: dict[int, int],
                   rule: Rule) -> Verdict:
    missing = _unmatched(table, pairs, refs)
    if missing:
        return wrong(rule, f"no item of the answer is {missing}")
    return undecided(rule, "some items cannot be told by a typed rule")


def _unmatched(table: list[list[Verdict]], pairs: dict[int, int],
               refs: Sequence[str] = ()) -> str:
    """A reference item that every unpaired answer item is decidedly not ("" if none)."""
    taken = set(pairs.values())
    for i, row in enumerate(table):
        if i not in pairs and all(v.decision == "wrong" for j, v in enumerate(row)
                                  if j not in taken):
            return refs[i] if refs else f"item {i + 1} of the reference"
    return ""


def _pairing(table: list[list[Verdict]], ok: Callable[[Verdict], bool]) -> dict[int, int]:
    """A maximum pairing of reference items to answer items (augmenting paths);
    preferring each item's own place, so a ranking in order pairs i with i."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        order = sorted(range(len(table[i])), key=lambda j: j != i)
        for j in order:
            if ok(table[i][j]) and j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(table)):
        augment(i, set())
    return {i: j for j, i in owner.items()}


def _split_outside_brackets(text: str) -> list[str]:
    """Split on the separators, never inside （…） or (…)."""
    parts, depth, start = [], 0, 0
    for m in re.finditer(r"[（(]|[）)]|" + _SEPARATORS.pattern, text):
        token = m.group(0)
        if token in "（(":
            depth += 1
        elif token in "）)":
            depth = max(0, depth - 1)
        elif depth == 0:
            parts.append(text[start:m.start()])
            start = m.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]

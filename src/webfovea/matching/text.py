"""Free text against a text reference: equal after folding, stated after a lead-in
("答案是复旦大学"), or else told apart only when that is safe.

A typed rule cannot know synonyms or translations, so an answer in another script than the
reference (``Chang'e`` for ``嫦娥``) or one that may be a short or long form of it (``NYC``
for ``New York City``, ``华东师大`` for ``华东师范大学``) is undecided, never wrong.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from .normalize import normalize
from .numbers import prepare
from .verdict import Verdict, correct, undecided, wrong

_LEAD_IN_END = re.compile(r"(?:[:：]|是|为|(?i:\b(?:is|are|was|were)))\s*$")
_NEGATION = re.compile(r"不|没|非|未|(?i:\bnot\b|n't\b|\bno\b)")
_MINOR = {"of", "the", "and", "for", "in", "at", "a", "an", "de", "du"}


def text_verdict(reference: str, answer: str) -> Verdict:
    ref, ans = _squash(reference), _squash(answer)
    if ref == ans:
        return correct("text", "equal after folding case, width, spaces and punctuation")
    if not ans:
        return wrong("text", "the answer holds no text")
    ref_script, ans_script = script(reference), script(answer)
    if ref_script and ans_script and ref_script != ans_script:
        return undecided("script", f"the answer is in {ans_script} script, the reference in "
                                   f"{ref_script}: a translation needs a judge")
    if _after_lead_in(reference, answer):
        return correct("text", "the answer states the reference after a lead-in")
    if _short_form(reference, answer):
        return undecided("text", "one may be a short or long form of the other "
                                 "(contained, an abbreviation or acronym)")
    return wrong("text", f"{answer.strip()!r} is other text than {reference.strip()!r}")


def script(text: str) -> str | None:
    """The writing system most of ``text``'s letters use (``CJK``, ``LATIN``, ...)."""
    names = Counter(unicodedata.name(c, "?").split()[0] for c in text if c.isalpha())
    return names.most_common(1)[0][0] if names else None


def _squash(text: str) -> str:
    return normalize(text).replace(" ", "")


def _after_lead_in(reference: str, answer: str) -> bool:
    """``答案是：X``, ``The answer is X.``: the answer ends with the reference and what comes
    before it ends like a lead-in and denies nothing."""
    text = prepare(answer).strip().rstrip("。.!！")
    ref = _squash(reference)
    for cut in range(len(text) - 1, 0, -1):
        if _squash(text[cut:]) == ref:
            before = text[:cut]
            return bool(_LEAD_IN_END.search(before)) and not _NEGATION.search(before)
    return False


def _short_form(reference: str, answer: str) -> bool:
    ref, ans = _squash(reference), _squash(answer)
    short, long = sorted((ref, ans), key=len)
    if not short or short in long:
        return bool(short)
    if script(long) == "CJK":
        return len(short) >= 2 and _subsequence(short, long)
    words = [set(normalize(x).split()) for x in (reference, answer)]
    return words[0] <= words[1] or words[1] <= words[0] or _acronym(short, normalize(
        reference if long == ref else answer))


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(c in it for c in short)


def _acronym(short: str, long_words: str) -> bool:
    words = long_words.split()
    initials = "".join(w[0] for w in words)
    major = "".join(w[0] for w in words if w not in _MINOR)
    return short in (initials, major) and len(short) >= 2

"""The answer scorer on a table of tricky pairs, and the optional model judge.

The judge is a real OpenAI-protocol HTTP server (FakeProvider) answering YES or NO.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webfovea.bench.judge import Judge
from webfovea.bench.scorer import Verdict, match, normalize, score, split_items
from webfovea.models.loader import load_model
from webfovea.testing import FakeProvider, FakeRequest

# (reference, answer, answer_type, correct, matcher that decided)
PAIRS = [
    # thousands separators in both conventions
    ("1234.5", "1,234.5", "auto", True, "numeric"),
    ("1234.5", "1.234,5", "auto", True, "numeric"),
    ("1,234.5", "1234.5", "auto", True, "numeric"),
    ("1234567.89", "€1.234.567,89", "auto", True, "numeric"),
    ("1234567.8", "1 234 567,8", "auto", True, "numeric"),
    ("1234.5", "1'234.5", "auto", True, "numeric"),
    ("1,234", "1.234", "auto", True, "numeric"),  # ambiguous either way: both readings kept
    ("1.5", "15", "auto", False, "numeric"),  # punctuation between digits is never dropped
    # scale words, currency, units
    ("$3.2 million", "3200000", "auto", True, "numeric"),
    ("3200000", "$3.2 million", "auto", True, "numeric"),
    ("$3.2B", "3.2 billion dollars", "auto", True, "numeric"),
    ("1.2 million", "1,200,000 people", "auto", True, "numeric"),
    ("500000", "500k", "auto", True, "numeric"),
    ("5 m", "5M", "auto", False, "numeric"),  # 5 metres is not 5 million
    ("$5", "€5", "auto", False, "numeric"),
    ("$5", "5 USD", "auto", True, "numeric"),
    ("5 km", "5 miles", "auto", False, "numeric"),
    ("42", "The answer is 42.", "auto", True, "numeric"),
    ("12", "twelve", "auto", True, "numeric"),
    # negative numbers
    ("-5", "−5", "auto", True, "numeric"),
    ("-7.5", "-7.50%", "auto", True, "numeric"),
    ("(1,234)", "-1234", "auto", True, "numeric"),
    ("-5", "5", "auto", False, "numeric"),
    ("(1,234)", "1,234", "auto", False, "numeric"),
    # the 0.5 % relative tolerance, inclusive
    ("1000", "1005", "auto", True, "numeric"),
    ("1000", "1005.01", "auto", False, "numeric"),
    ("200", "199", "auto", True, "numeric"),
    ("200", "198.99", "auto", False, "numeric"),
    ("0", "0.0", "auto", True, "numeric"),
    ("0", "0.001", "auto", False, "numeric"),
    # percent: the number as written; 12% is 12, not 0.12 (see webfovea.matching.numbers)
    ("12%", "12 percent", "auto", True, "numeric"),
    ("12%", "12", "auto", True, "numeric"),
    ("12%", "0.12", "auto", False, "numeric"),
    ("0.12", "12%", "auto", False, "numeric"),
    # dates
    ("2024-03-15", "March 15, 2024", "auto", True, "date"),
    ("2024-03-15", "3/15/2024", "auto", True, "date"),
    ("March 15, 2024", "3/15/2024", "auto", True, "date"),
    ("March 15, 2024", "15 March 2024", "auto", True, "date"),
    ("15.03.2024", "2024-03-15", "auto", True, "date"),
    ("March 15, 2024", "The census was taken on Friday, March 15, 2024.", "auto", True, "date"),
    ("2024-03-15", "2024-03-16", "auto", False, "date"),
    ("2024-03-15", "发布日期：2024年3月15日", "auto", True, "date"),  # Chinese, in a sentence
    ("2024年3月15日", "2024 年 3 月 16 号", "auto", False, "date"),
    ("2024-03", "2024年3月", "auto", True, "date"),
    ("2024-03-15", "March 2024", "auto", False, "date"),  # vaguer than the reference
    ("March 2024", "March 15, 2024", "auto", True, "date"),
    ("3/4/2024", "2024-04-03", "auto", True, "date"),  # day/month order ambiguous
    # lists, any order
    ("Paris, London", "london and paris", "auto", True, "list"),
    ("Paris; London; Berlin", "Berlin, Paris, London", "auto", True, "list"),
    ("1,234, 5,678", "5678; 1234", "auto", True, "list"),
    ("Paris, London", "Paris", "auto", False, "list"),
    ("Paris, London", "Paris, London, Rome", "auto", False, "list"),
    # exact: case, whitespace, punctuation, accents
    ("The Eiffel Tower", "  the eiffel   tower. ", "auto", True, "exact"),
    ("São Paulo", "Sao Paulo", "auto", True, "exact"),
    ("iPhone 15 Pro", "iPhone 15", "auto", False, "exact"),  # not a number: words before it
    # explicit answer types
    ("2024", "2024-01-01", "text", False, "exact"),
    ("7", "seven days", "number", True, "numeric"),
    ("2024-03-15", "15 Mar 2024", "date", True, "date"),
]


@pytest.mark.parametrize(("reference", "answer", "answer_type", "correct", "matcher"), PAIRS)
def test_tricky_pairs(reference: str, answer: str, answer_type: str, correct: bool,
                      matcher: str) -> None:
    verdict = match(reference, answer, answer_type)  # type: ignore[arg-type]
    assert (verdict.correct, verdict.matcher) == (correct, matcher), verdict.detail


def test_verdicts_explain_themselves() -> None:
    assert "within 0.5 %" in match("1000", "1005").detail
    assert "not within 0.5 %" in match("1000", "1005.01").detail
    assert "ambiguous" in match("1,234", "1.234").detail
    assert "ambiguous" not in match("1,234", "1234").detail
    assert "currency differs" in match("$5", "€5").detail
    assert "2 different numbers" in match("42", "between 40 and 42").detail


def test_several_numbers_are_inconclusive_but_a_read_mismatch_is_final() -> None:
    assert not match("42", "between 40 and 42").conclusive
    assert not match("42", "I could not find it").conclusive
    assert match("42", "43").conclusive
    assert match("2024-03-15", "2024-03-16").conclusive


def test_normalize_keeps_punctuation_between_digits() -> None:
    assert normalize("  Hello,   WORLD! ") == "hello world"
    assert normalize("1.5") == "1.5"
    assert normalize("3/4") == "3/4"
    assert normalize("-5 (approx.)") == "-5 approx"
    assert normalize("well-known") == "well known"


def test_split_items_keeps_numbers_whole() -> None:
    assert split_items("1,234, 5,678 and 9") == ["1,234", "5,678", "9"]
    assert split_items("a;b | c") == ["a", "b", "c"]


async def verdict(reference: str | None, answer: str, status: str = "finished",
                  judge: Judge | None = None) -> Verdict:
    return await score(reference=reference, answer=answer, answer_type="auto", status=status,
                       question="Which one?", judge=judge)


async def test_status_and_missing_reference_decide_before_matching() -> None:
    unscored = await verdict(None, "1")
    assert unscored == Verdict(None, "none", "the task has no reference answer")
    timed_out = await verdict("1", "1", status="time_limit")
    assert (timed_out.correct, timed_out.matcher) == (False, "status")
    empty = await verdict("1", "  ")
    assert (empty.correct, empty.matcher) == (False, "status")


# -- the judge ---------------------------------------------------------------------------------


def judge_policy(request: FakeRequest) -> str:
    text = request.turns[0].text
    if "Candidate answer: garbled" in text:
        return "Perhaps."
    return "YES" if "Candidate answer: NYC" in text else "NO"


@pytest.fixture
def judge_server() -> Iterator[FakeProvider]:
    with FakeProvider(judge_policy) as fp:
        yield fp


async def test_judge_decides_only_inconclusive_misses(judge_server: FakeProvider) -> None:
    judge = Judge(load_model("openai:judge", base_url=judge_server.base_url))
    try:
        same = await verdict("New York City", "NYC", judge=judge)
        assert (same.correct, same.matcher) == (True, "judge")
        assert "openai:judge judged it equivalent" in same.detail
        other = await verdict("New York City", "Boston", judge=judge)
        assert (other.correct, other.matcher) == (False, "judge")
        # Numbers read on both sides are final: the judge is not even asked.
        asked = len(judge_server.requests)
        number = await verdict("42", "NYC 43", judge=judge)
        assert (number.correct, number.matcher) == (False, "numeric")
        assert len(judge_server.requests) == asked
        garbled = await verdict("Paris", "garbled", judge=judge)
        assert (garbled.correct, garbled.matcher) == (False, "exact")
        assert "the judge failed" in garbled.detail
    finally:
        await judge.aclose()

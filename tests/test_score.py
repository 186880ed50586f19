"""The answer scorer on a table of tricky pairs, and the optional model judge.

The judge is a real OpenAI-protocol HTTP server (FakeProvider) answering YES or NO.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webfovea.bench.judge import Judge
from webfovea.bench.scorer import Verdict, match, score
from webfovea.matching.lists import split_items
from webfovea.matching.normalize import normalize
from webfovea.models.loader import load_model
from webfovea.testing import FakeProvider, FakeRequest

# (reference, answer, answer_type, decision, the rule that decided). The old 0.5 % tolerance
# for integers was a false accept (issue 45): an integer matches only its own value.
PAIRS = [
    # thousands separators in both conventions
    ("1234.5", "1,234.5", "auto", "correct", "decimal"),
    ("1234.5", "1.234,5", "auto", "correct", "decimal"),
    ("1,234.5", "1234.5", "auto", "correct", "decimal"),
    ("1234567.89", "€1.234.567,89", "auto", "correct", "decimal"),
    ("1234567.8", "1 234 567,8", "auto", "correct", "decimal"),
    ("1234.5", "1'234.5", "auto", "correct", "decimal"),
    # 1.234 is a decimal in Chinese answers: only the other reading agrees, so a judge decides
    ("1,234", "1.234", "auto", "undecided", "decimal"),
    ("1.5", "15", "auto", "wrong", "decimal"),  # punctuation between digits is never dropped
    # scale words, currency, units
    ("$3.2 million", "3200000", "auto", "correct", "decimal"),
    ("3200000", "$3.2 million", "auto", "correct", "integer"),
    ("$3.2B", "3.2 billion dollars", "auto", "correct", "decimal"),
    ("1.2 million", "1,200,000 people", "auto", "correct", "decimal"),
    ("500000", "500k", "auto", "correct", "integer"),
    ("5 m", "5M", "auto", "wrong", "integer"),  # 5 metres is not 5 million
    ("$5", "€5", "auto", "wrong", "unit"),
    ("$5", "5 USD", "auto", "correct", "integer"),
    ("5 km", "5 miles", "auto", "wrong", "unit"),
    ("42", "The answer is 42.", "auto", "correct", "integer"),
    ("12", "twelve", "auto", "correct", "integer"),
    # negative numbers
    ("-5", "−5", "auto", "correct", "integer"),
    # the same digits with a % nothing asked for: 0.437% for 0.437 was a false accept
    ("-7.5", "-7.50%", "auto", "undecided", "percent"),
    ("(1,234)", "-1234", "auto", "correct", "integer"),
    ("-5", "5", "auto", "wrong", "integer"),
    ("(1,234)", "1,234", "auto", "wrong", "integer"),
    # an integer is its own value; a decimal is within half a unit of its last digit
    ("1000", "1005", "auto", "wrong", "integer"),
    ("1000", "1005.01", "auto", "wrong", "integer"),
    ("200", "199", "auto", "wrong", "integer"),
    ("0", "0.0", "auto", "correct", "integer"),
    ("0", "0.001", "auto", "wrong", "integer"),
    ("2.50", "2.5", "auto", "correct", "decimal"),
    ("2.5", "2.54", "auto", "correct", "decimal"),
    ("2.5", "2.56", "auto", "wrong", "decimal"),
    ("2.54", "2.5", "auto", "undecided", "rounding"),
    # percent: converted when the reference (or the task) says %
    ("12%", "12 percent", "auto", "correct", "percent"),
    ("12%", "12", "auto", "correct", "percent"),
    ("12%", "0.12", "auto", "correct", "percent"),
    ("0.12", "12%", "auto", "undecided", "percent"),  # nothing says % was meant
    # dates
    ("2024-03-15", "March 15, 2024", "auto", "correct", "date"),
    ("2024-03-15", "3/15/2024", "auto", "correct", "date"),
    ("March 15, 2024", "3/15/2024", "auto", "correct", "date"),
    ("March 15, 2024", "15 March 2024", "auto", "correct", "date"),
    ("15.03.2024", "2024-03-15", "auto", "correct", "date"),
    ("March 15, 2024", "The census was taken on Friday, March 15, 2024.", "auto", "correct",
     "date"),
    ("2024-03-15", "2024-03-16", "auto", "wrong", "date"),
    ("2024-03-15", "March 2024", "auto", "wrong", "date"),  # vaguer than the reference
    ("March 2024", "March 15, 2024", "auto", "correct", "date"),
    ("3/4/2024", "2024-04-03", "auto", "correct", "date"),  # day/month order ambiguous
    ("2024-03-15", "发布日期：2024年3月15日", "auto", "correct", "date"),  # Chinese, in a sentence
    ("2024年3月15日", "2024 年 3 月 16 号", "auto", "wrong", "date"),
    ("2024-03", "2024年3月", "auto", "correct", "date"),
    # lists, any order
    ("Paris, London", "london and paris", "auto", "correct", "set"),
    ("Paris; London; Berlin", "Berlin, Paris, London", "auto", "correct", "set"),
    ("1,234, 5,678", "5678; 1234", "auto", "correct", "set"),
    ("Paris, London", "Paris", "auto", "wrong", "set"),
    ("Paris, London", "Paris, London, Rome", "auto", "wrong", "set"),
    # text: case, whitespace, punctuation, accents
    ("The Eiffel Tower", "  the eiffel   tower. ", "auto", "correct", "text"),
    ("São Paulo", "Sao Paulo", "auto", "correct", "text"),
    ("iPhone 15 Pro", "iPhone 15", "auto", "undecided", "text"),  # maybe a short form
    ("Paris", "Berlin", "auto", "wrong", "text"),
    # explicit answer types
    ("2024", "2024-01-01", "text", "undecided", "text"),
    ("7", "seven days", "number", "correct", "integer"),
    ("2024-03-15", "15 Mar 2024", "date", "correct", "date"),
]


@pytest.mark.parametrize(("reference", "answer", "answer_type", "decision", "rule"), PAIRS)
def test_tricky_pairs(reference: str, answer: str, answer_type: str, decision: str,
                      rule: str) -> None:
    verdict = match(reference, answer, answer_type)  # type: ignore[arg-type]
    assert (verdict.decision, verdict.matcher) == (decision, rule), verdict.detail


def test_verdicts_explain_themselves() -> None:
    assert "1005 is not 1000" in match("1000", "1005").detail
    assert "to ±0.05" in match("2.5", "2.54").detail
    assert "ambiguous separator" in match("1,234", "1.234").detail
    assert "ambiguous" not in match("1,234", "1234").detail
    assert "currency differs" in match("$5", "€5").detail
    assert "hedges between 40 and 42" in match("42", "between 40 and 42").detail


def test_a_hedge_is_wrong_and_an_unreadable_answer_undecided() -> None:
    assert match("42", "between 40 and 42").decision == "wrong"
    assert match("42", "I could not find it").decision == "undecided"
    assert match("42", "43").decision == "wrong"
    assert match("2024-03-15", "2024-03-16").decision == "wrong"


def test_normalize_keeps_punctuation_between_digits() -> None:
    assert normalize("  Hello,   WORLD! ") == "hello world"
    assert normalize("1.5") == "1.5"
    assert normalize("3/4") == "3/4"
    assert normalize("-5 (approx.)") == "-5 approx"
    assert normalize("well-known") == "well known"


def test_split_items_keeps_numbers_whole() -> None:
    assert split_items("1,234, 5,678 and 9", conjunctions=True)[0] == ["1,234", "5,678", "9"]
    assert split_items("a;b\nc")[0] == ["a", "b", "c"]


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


async def test_judge_decides_only_undecided_answers(judge_server: FakeProvider) -> None:
    judge = Judge(load_model("openai:judge", base_url=judge_server.base_url))
    try:
        same = await verdict("New York City", "NYC", judge=judge)  # maybe an acronym
        assert (same.decision, same.matcher, same.rule) == ("correct", "judge", "text")
        assert "openai:judge judged it equivalent" in same.detail
        other = await verdict("New York City", "New York", judge=judge)
        assert (other.decision, other.matcher) == ("wrong", "judge")
        # What a typed rule decided is final: the judge is not even asked.
        asked = len(judge_server.requests)
        number = await verdict("42", "NYC 43", judge=judge)
        assert (number.decision, number.matcher) == ("wrong", "integer")
        city = await verdict("New York City", "Boston", judge=judge)
        assert (city.decision, city.matcher) == ("wrong", "text")
        assert len(judge_server.requests) == asked
        garbled = await verdict("Paris", "garbled Paris", judge=judge)
        assert (garbled.decision, garbled.matcher) == ("undecided", "text")
        assert "the judge failed" in garbled.detail
    finally:
        await judge.aclose()

"""Issue 45: the answer matcher on a labelled table (tests/data/answer_table.jsonl).

Each row holds a task (the published Protocol III sample's instructions, or none), a
reference, an answer, the label a careful grader gives it (``correct`` / ``wrong``) and the
verdict the typed matcher is expected to give (``correct`` / ``wrong`` / ``undecided``).
The rows are built from the issue's shapes and ``evaluation/protocol3_sample_8.json``: for
every rule a correct answer in several notations and the wrong answers closest to it (off by
one, a hundred times off, another unit, the right names in the wrong order, one missing, a
hedge), and some in the other direction (the notations as references).

The one promise: no false accept — no answer a grader calls wrong is called correct.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from webfovea.bench.scorer import match

TABLE = Path(__file__).parent / "data" / "answer_table.jsonl"
RULES = ("integer", "decimal", "percent", "unit", "hedge", "date", "ranking", "set", "forms",
         "text", "script")


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines()]


def _decide(row: dict[str, Any]) -> str:
    return match(row["reference"], row["answer"], task=row["task"]).decision


@pytest.fixture(scope="module")
def decided() -> list[tuple[dict[str, Any], str]]:
    return [(row, _decide(row)) for row in _rows()]


def test_the_table_covers_every_rule_both_ways(decided: list[tuple[dict[str, Any], str]]) -> None:
    labels = Counter((row["rule"], row["label"]) for row, _ in decided)
    for rule in RULES:
        assert labels[(rule, "correct")] >= 2 and labels[(rule, "wrong")] >= 1, rule
    assert {row["rule"] for row, _ in decided} == set(RULES)
    assert len(decided) >= 250


def test_no_false_accept(decided: list[tuple[dict[str, Any], str]]) -> None:
    false_accepts = [(row["reference"], row["answer"]) for row, decision in decided
                     if decision == "correct" and row["label"] == "wrong"]
    assert false_accepts == []


def test_each_row_gets_its_expected_verdict(decided: list[tuple[dict[str, Any], str]]) -> None:
    off = [(row["rule"], row["reference"][:30], row["answer"], row["expect"], decision)
           for row, decision in decided if decision != row["expect"]]
    assert off == []


def test_agreement_per_rule(decided: list[tuple[dict[str, Any], str]]) -> None:
    """Printed (pytest -s) as the closing note's table: per rule, how often the typed verdict
    is the grader's label, and where it is undecided instead (the judge's share)."""
    lines = [f"{'rule':8} {'rows':>4} {'agree':>6} {'correct':>8} {'wrong':>6} {'undecided':>9}"]
    total = Counter[str]()
    for rule in RULES:
        rows = [(row, d) for row, d in decided if row["rule"] == rule]
        agree = sum(d == row["label"] for row, d in rows)
        counts = Counter(d for _, d in rows)
        total.update({"rows": len(rows), "agree": agree, **counts})
        lines.append(f"{rule:8} {len(rows):4} {100 * agree / len(rows):5.0f}% "
                     f"{counts['correct']:8} {counts['wrong']:6} {counts['undecided']:9}")
    lines.append(f"{'all':8} {total['rows']:4} {100 * total['agree'] / total['rows']:5.0f}% "
                 f"{total['correct']:8} {total['wrong']:6} {total['undecided']:9}")
    print("\n" + "\n".join(lines))
    # Every disagreement is an undecided verdict or a false reject, never a false accept,
    # and the typed rules decide most of the table themselves.
    assert total["agree"] >= 0.85 * total["rows"]
    assert total["undecided"] <= 0.15 * total["rows"]

"""The report's statistics at their edges: many discordant pairs, 0/N and N/N."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from webfovea.bench.compare import mcnemar_exact
from webfovea.bench.report import Rate


def _exact(fixed: int, broken: int) -> float:
    """The same test in exact integer arithmetic (slow, but never overflows)."""
    n, k = fixed + broken, min(fixed, broken)
    return float(min(Fraction(1), 2 * Fraction(sum(math.comb(n, i) for i in range(k + 1)),
                                               2**n)))


@pytest.mark.parametrize(("fixed", "broken"), [(1024, 0), (540, 484), (600, 600), (2000, 1900),
                                                (5000, 10), (3, 1)])
def test_mcnemar_survives_a_thousand_discordant_pairs(fixed: int, broken: int) -> None:
    assert mcnemar_exact(fixed, broken) == pytest.approx(_exact(fixed, broken), rel=1e-9,
                                                         abs=1e-300)


def test_mcnemar_at_the_float_floor() -> None:
    assert 0.0 <= mcnemar_exact(1100, 0) < 1e-300  # 2 / 2**1100 rounds to zero, no OverflowError


@pytest.mark.parametrize(("correct", "n", "low", "high"), [(0, 10, 0.0, 0.2775),
                                                           (10, 10, 0.7225, 1.0),
                                                           (5, 10, 0.2366, 0.7634)])
def test_wilson_interval(correct: int, n: int, low: float, high: float) -> None:
    interval = Rate(correct, n).interval
    assert interval is not None
    assert interval == pytest.approx((low, high), abs=5e-4)


def test_no_zero_error_bar_at_the_edges() -> None:
    assert Rate(0, 10).shown() == "0.0% (95% CI 0.0–27.8) (0/10)"
    assert Rate(10, 10).shown() == "100.0% (95% CI 72.2–100.0) (10/10)"
    assert Rate(2, 8).shown() == "25.0% ± 15.3 (2/8)"
    assert Rate(0, 0).shown() == "n/a (no scored task)"

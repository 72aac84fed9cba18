"""The chi-square test of dice fairness (analytics/stats.py): the exact p-value and the verdicts."""

from __future__ import annotations

import math
import random

import pytest

from analytics.stats import (
    FLAG_P, MIN_DICE, chi2_sf, chi2_statistic, dice_p_value, fairness_verdict, is_flagged,
)

# Upper quantiles of the chi-square distribution (any statistics table): P(X >= x) = p
TABLE = [(5, 11.0705, 0.05), (5, 15.0863, 0.01), (5, 20.5150, 0.001), (5, 4.3515, 0.5),
         (1, 3.8415, 0.05), (2, 5.9915, 0.05), (3, 7.8147, 0.05), (4, 9.4877, 0.05),
         (6, 12.5916, 0.05), (10, 18.3070, 0.05)]


@pytest.mark.parametrize("df,x,p", TABLE)
def test_chi2_sf_matches_the_printed_tables(df, x, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-4)


def _density(x: float, k: int) -> float:
    return x ** (k / 2 - 1) * math.exp(-x / 2) / (2 ** (k / 2) * math.gamma(k / 2))


@pytest.mark.parametrize("df", [3, 4, 5, 7, 8])
def test_chi2_sf_is_the_integral_of_the_density(df):
    # Simpson's rule on [x, 200], where the tail beyond is negligible
    for x in (0.5, 2.0, 5.0, 11.0, 25.0):
        n, b = 4000, 200.0
        h = (b - x) / n
        total = _density(x, df) + _density(b, df) + sum(
            (4 if i % 2 else 2) * _density(x + i * h, df) for i in range(1, n))
        assert chi2_sf(x, df) == pytest.approx(total * h / 3, rel=1e-6, abs=1e-12)


def test_chi2_sf_edges():
    assert chi2_sf(0.0, 5) == 1.0
    assert chi2_sf(-1.0, 5) == 1.0
    assert chi2_sf(float("inf"), 5) == 0.0
    assert 0.0 <= chi2_sf(2000.0, 5) < 1e-300
    with pytest.raises(ValueError, match="whole number"):
        chi2_sf(1.0, 0)
    with pytest.raises(ValueError):
        chi2_sf(1.0, 2.5)


def test_chi2_statistic():
    assert chi2_statistic([10, 10, 10, 10, 10, 10]) == 0.0
    assert chi2_statistic([0, 0, 0, 0, 0, 30]) == pytest.approx(150.0)
    assert chi2_statistic([0] * 6) == 0.0


def test_fair_dice_are_flagged_about_as_often_as_the_threshold_says():
    rng = random.Random(5)
    groups = 2000
    p_values = []
    for _ in range(groups):
        counts = [0] * 6
        for _ in range(120):
            counts[rng.randrange(6)] += 1
        p_values.append(dice_p_value(counts))
    # p-values of fair dice are (nearly) uniform: about 10% below 0.1, 50% below 0.5
    assert 0.08 < sum(p < 0.1 for p in p_values) / groups < 0.12
    assert 0.46 < sum(p < 0.5 for p in p_values) / groups < 0.54
    assert sum(is_flagged(p) for p in p_values) <= 8     # expected 2 at 0.001


def test_a_loaded_die_is_flagged():
    counts = [20, 20, 20, 20, 20, 50]  # 150 dice, a third of them sixes
    p = dice_p_value(counts)
    assert is_flagged(p)
    assert fairness_verdict(p, 150, 1).startswith("flagged: very uneven")


def test_verdicts_in_plain_words():
    assert fairness_verdict(None, 12, 10) == f"too few dice to judge (12 rolled, {MIN_DICE} needed)"
    assert fairness_verdict(0.3, 100, 10) == "consistent with fair dice"
    assert fairness_verdict(0.005, 100, 10).startswith("somewhat uneven (p = 0.005), not flagged")
    # flagged, but among 500 tests 0.5 such flags are expected by chance
    many = fairness_verdict(0.0005, 100, 500)
    assert many.startswith("flagged: uneven (p = 5.0e-04), but with 500 groups checked about 0.5")
    # flagged and below 0.05 / tests (Bonferroni)
    assert fairness_verdict(1e-6, 100, 500).startswith("flagged: very uneven (p = 1.0e-06)")
    assert not is_flagged(FLAG_P) and is_flagged(FLAG_P / 2) and not is_flagged(None)

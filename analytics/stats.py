"""Dice fairness: the chi-square test of face counts against a fair die, and its verdict in words.

    chi2_statistic([10, 12, 9, 11, 8, 10])      # 1.0
    chi2_sf(11.0705, 5)                          # 0.05: P(X >= x) for 5 degrees of freedom
    fairness_verdict(p, dice, tests)             # "consistent with fair dice", "flagged: ..."

The p-value is exact: the chi-square survival function is the regularized upper incomplete gamma
function Q(k/2, x/2), which has a closed form for whole k (even k: a Poisson tail; odd k: erfc
plus a finite sum), so no numerical library is needed.

The threshold (docs/analytics.md, "Dice fairness"): a group of dice is tested when it has at
least MIN_DICE dice (5 expected per face, the usual condition for the chi-square approximation),
and flagged when p < FLAG_P. Many groups are tested at once (every player of every game), so
about FLAG_P of the fair ones are flagged by chance alone; a flag that stays below ALPHA after
the Bonferroni correction (p x the number of tests) is called unlikely to be chance.
"""

from __future__ import annotations

from math import erfc, exp, fsum, isfinite, pi, sqrt
from typing import Sequence

FACES = 6
DEGREES_OF_FREEDOM = FACES - 1
FLAG_P = 0.001           # flag a group of dice whose p-value is below this
ALPHA = 0.05             # family-wise level of the Bonferroni-corrected verdict
MIN_DICE = 5 * FACES     # fewer dice than this are not tested (expected count < 5 per face)


def chi2_statistic(counts: Sequence[int]) -> float:
    """Pearson's statistic of face counts against equal expected counts."""
    n = sum(counts)
    if n == 0:
        return 0.0
    expected = n / len(counts)
    return fsum((c - expected) ** 2 for c in counts) / expected


def chi2_sf(x: float, df: int = DEGREES_OF_FREEDOM) -> float:
    """P(X >= x) for X chi-square distributed with `df` (a whole number >= 1) degrees of freedom.

    Q(df/2, x/2) in closed form: for even df, exp(-h) * sum_{k<df/2} h^k / k!; for odd df,
    erfc(sqrt h) + exp(-h) * sum_{k=1}^{(df-1)/2} h^(k-1/2) / Gamma(k+1/2), with h = x/2.
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"degrees of freedom must be a whole number >= 1, not {df!r}")
    if not isfinite(x):
        return 0.0 if x > 0 else 1.0
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term = exp(-h)
        total = term
        for k in range(1, df // 2):
            term *= h / k
            total += term
    else:
        total = erfc(sqrt(h))
        term = exp(-h) * sqrt(h) / (sqrt(pi) / 2)       # k = 1: h^(1/2) / Gamma(3/2)
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= h / (k + 0.5)                        # Gamma(k + 3/2) = (k + 1/2) Gamma(k + 1/2)
    return min(1.0, max(0.0, total))


def dice_p_value(counts: Sequence[int]) -> float:
    """The chi-square p-value of six face counts against a fair die."""
    return chi2_sf(chi2_statistic(counts), len(counts) - 1)


def is_flagged(p: float | None) -> bool:
    return p is not None and p < FLAG_P


def fairness_verdict(p: float | None, dice: int, tests: int) -> str:
    """The verdict in plain words for one group of `dice` dice with p-value `p`, when `tests`
    groups were tested at the same level (for the multiple-testing wording)."""
    if p is None or dice < MIN_DICE:
        return f"too few dice to judge ({dice} rolled, {MIN_DICE} needed)"
    if p >= 0.01:
        return "consistent with fair dice"
    if p >= FLAG_P:
        return (f"somewhat uneven (p = {p:.3f}), not flagged: with {tests} groups checked, "
                f"results like this are common by chance")
    if p * max(tests, 1) < ALPHA:
        return (f"flagged: very uneven (p = {p:.1e}); unlikely to be chance even among the "
                f"{tests} groups checked (Bonferroni) — look at these dice")
    expected = FLAG_P * tests
    return (f"flagged: uneven (p = {p:.1e}), but with {tests} groups checked about "
            f"{expected:.1f} such flags are expected from fair dice; not proof of anything")

"""Exact odds of one roll of the classic Risk dice: 1-3 attacker dice against 1-2 defender dice,
highest against highest, ties to the defender (every Risk-family game that compares dice this way
shares it)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

CLASSIC_MAX_DICE = (3, 2)    # attacker, defender


@dataclass(frozen=True)
class RollOdds:
    """One roll of 1-3 attacker dice against 1-2 defender dice, highest against highest, ties to
    the defender: `losses` holds (attacker loses, defender loses, probability), exact Fractions
    summing to 1."""

    attacker_dice: int
    defender_dice: int
    losses: tuple[tuple[int, int, Fraction], ...]

    @property
    def expected_attacker_losses(self) -> Fraction:
        return sum((p * a for a, _, p in self.losses), Fraction(0))

    @property
    def expected_defender_losses(self) -> Fraction:
        return sum((p * d for _, d, p in self.losses), Fraction(0))


@lru_cache(maxsize=None)
def roll_odds(attacker_dice: int, defender_dice: int) -> RollOdds:
    """The exact distribution of the troops lost in one roll of the classic dice, unmodified.
    Raises ValueError outside 1-3 attacker and 1-2 defender dice."""
    most_a, most_d = CLASSIC_MAX_DICE
    if not (1 <= attacker_dice <= most_a and 1 <= defender_dice <= most_d):
        raise ValueError(f"a roll is 1-{most_a} attacker dice against 1-{most_d} defender dice; "
                         f"got {attacker_dice} against {defender_dice}")
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for faces in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        att = sorted(faces[:attacker_dice], reverse=True)
        dfn = sorted(faces[attacker_dice:], reverse=True)
        lost_a = sum(a <= d for a, d in zip(att, dfn))
        counts[lost_a, min(attacker_dice, defender_dice) - lost_a] += 1
    total = 6 ** (attacker_dice + defender_dice)
    return RollOdds(attacker_dice, defender_dice,
                    tuple((a, d, Fraction(n, total)) for (a, d), n in sorted(counts.items()) if n))

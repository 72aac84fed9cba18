"""The Risk Europe battle odds as they were computed before the row sweep (issue #15): a Markov
chain over (attacker's units, defender's units, rank, castle re-roll available), every state
visited once with a dict of probability mass, every rank's joint outcomes enumerated per state.
Slow (seconds for whole armies) and plainly correct; tests/test_odds.py checks the sweep in
engine/risk_europe/odds.py against it, exactly with fractions and to 1e-12 with floats."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from engine.risk_europe.engine import RANK_UNIT, expected_dice
from engine.risk_europe.odds import (
    DEFAULT_POLICY, GENERAL_ATTACK, Policy, army_after_losses, rank_outcomes,
)
from engine.risk_europe.state import Units


def reference_outcomes(attacker: Units, defender: Units, castle: bool, policy: Policy = DEFAULT_POLICY,
                       exact: bool = False) -> dict[tuple[int, int], float | Fraction]:
    """{(attacker's units left, defender's units left): probability} of the battle's ends."""
    order = policy.casualty_order
    att_left = [army_after_losses(attacker, attacker.total - n, order) for n in range(attacker.total + 1)]
    def_left = [army_after_losses(defender, defender.total - n, order) for n in range(defender.total + 1)]
    att_ranks = [_ranks_present(army) for army in att_left]
    def_ranks = [_ranks_present(army) for army in def_left]
    reroll_policy = None if policy.reroll == "never" else policy.reroll
    zero = Fraction(0) if exact else 0.0

    mass: dict = defaultdict(lambda: zero)
    first = _NEXT_RANK[att_ranks[-1] | def_ranks[-1]][1]
    mass[attacker.total, defender.total, first, castle] = zero + 1
    ends: dict = defaultdict(lambda: zero)
    for a in range(attacker.total, 0, -1):
        for d in range(defender.total, 0, -1):
            for rank in range(1, GENERAL_ATTACK + 1):
                for can_reroll in (True, False):
                    p = mass.pop((a, d, rank, can_reroll), None)
                    if not p:
                        continue
                    na, nd = expected_dice(rank, att_left[a], def_left[d])
                    rerolling = reroll_policy if can_reroll and nd else None
                    start = rank + 1 if rank < GENERAL_ATTACK else 1
                    for q, ah, dh, used in rank_outcomes(rank, na, nd, rerolling,
                                                         min(a, nd) if rerolling else 0, exact):
                        a2, d2 = max(a - dh, 0), max(d - ah, 0)
                        if a2 == 0 or d2 == 0:
                            ends[a2, d2] += p * q
                        else:
                            r2 = _NEXT_RANK[att_ranks[a2] | def_ranks[d2]][start]
                            again = can_reroll and not used if start > 1 else castle
                            mass[a2, d2, r2, again] += p * q
    return dict(ends)


def _ranks_present(army: Units) -> int:
    return sum(1 << rank for rank, unit in RANK_UNIT.items() if getattr(army, unit))


_NEXT_RANK = [[next((r for r in range(start, GENERAL_ATTACK) if bits >> r & 1), GENERAL_ATTACK)
               for start in range(GENERAL_ATTACK + 1)] for bits in range(1 << GENERAL_ATTACK)]

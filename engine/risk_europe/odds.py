"""Exact battle odds for Risk Europe: `battle_odds(attacker, defender, castle)` gives the
probability of every way a battle can end, computed from the rules (no sampling).

The model (rulebook, "Battles in Disputed Territories", p.15-18; the engine's reading in
engine/risk_europe/engine.py, `expected_dice`, `rank_hits`, `_first_rank`):

* A battle is a Markov chain over states (attacker's army, defender's army, rank about to be
  rolled, castle re-roll still available this cycle). Ranks 1-3 (siege 2 dice each hitting on 3+,
  archers 1 die on 5+, cavalry 1 die on 3+) are rolled by both sides at once, with independent
  binomial hit counts; a rank that neither side has units for is skipped. Rank 4, the General
  Attack, is rolled every cycle: min(3, units) attacker dice against min(2, units) defender dice,
  highest against highest, ties to the defender; its outcome distribution is found by enumerating
  the dice. Hits beyond an army's size are lost (RE-RULING-CASUALTIES-CAP); both armies gone is a
  simultaneous elimination. Every General Attack removes at least one unit, so the chain is acyclic
  and ends.
* The owners choose their casualties; the odds are computed under a POLICY (`Policy`):

  - casualties, default `CHEAPEST_FIRST`: each side removes footmen, then archers, then cavalry,
    then siege weapons (spend cost 1/2/3/10), which is what most players do. Ordering by combat
    value instead ("keep the strongest": expected hits per unit and cycle 0, 1/3, 2/3, 4/3; every
    unit counts the same in the General Attack) gives the same order, so it is not a separate
    policy. Any other order can be given (`Policy(casualty_order=...)`).
  - castle re-roll, default `"below-average"`: the defender re-rolls all its dice of the first
    rank of the cycle in which its hits that count fall short of what they count on average. With
    `A` attacker units, `h` the defender's hits and `E` the defender's mean hits for that rank and
    these dice counts (ranks 1-3: dice x P(hit); rank 4: the mean over all attacker and defender
    dice), the defender re-rolls when min(h, A) < min(E, A). The re-roll replaces only the
    defender's dice (the attacker's stand, RE-RULING-REROLL-WINDOW) and must be kept; it comes back
    when the cycle restarts at rank 1. `"never"` ignores the castle.

* The state space is small because a casualty policy fixes which units are left after `k` losses:
  a side's army is a number (units left), and a battle of `A` against `D` units has at most
  `A x D x 4 x 2` states. With floats (the default) they are swept one attacker count (a ROW) at
  a time, every defender count of the row at once as numpy vectors: per rank, the defender's hit
  distribution for each defender count times the attacker's hits as a matrix (the two sides' hits
  in ranks 1-3 are independent, and each side's dice depend only on its own units), built once
  per dice count and memoized; the one loop inside a row (cycles in which the defender scores no
  hit) is a triangular linear system, a power series where the defender rolls no dice in ranks
  1-3 (section "the row sweep"). With exact Fractions
  (`exact=True`), and for small battles (fewer than SWEEP_FROM states, where it is the faster),
  the chain is visited one state at a time with a dict of probability mass, every rank's joint
  outcomes per state (`chain_ends`: what every battle was computed with before issue #15, and
  what tests/test_odds.py checks the sweep against). Results are memoized per battle and policy.

`luck(odds, attacker_lost, defender_lost)` is outcome minus expectation for a battle that was
fought. `odds_of(text)` is RULESET.odds: the battle and the policy in words, as `ledger odds` takes
them. The classic dice's single roll (`roll_odds`) is engine.core.dice_odds. docs/odds.md has worked examples; bench/bench_odds.py the timings.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Any, Callable, Iterable, NamedTuple, Union

from engine.core.errors import LedgerError
from engine.risk_europe.engine import (
    COST, RANK_HITS_ON, RANK_UNIT, expected_dice, rank_hits,
)
from engine.risk_europe.common import GENERAL_RANK
from engine.risk_europe.state import Units

Probability = Union[float, Fraction]
UnitType = str          # a field of Units: "footman", "archer", "cavalry", "siege"
Hits = tuple[int, int]  # (hits scored by the attacker, hits scored by the defender)

UNIT_TYPES: tuple[UnitType, ...] = Units._fields
CHEAPEST_FIRST: tuple[UnitType, ...] = tuple(sorted(UNIT_TYPES, key=lambda u: COST[u]))
REROLL_POLICIES = ("below-average", "never")
GENERAL_ATTACK = GENERAL_RANK     # the rank after the ranked ones (data/rule_tables.json)


@dataclass(frozen=True)
class Policy:
    """How the owners choose casualties and when a castle's defender re-rolls (module docstring)."""

    casualty_order: tuple[UnitType, ...] = CHEAPEST_FIRST
    reroll: str = "below-average"

    def __post_init__(self) -> None:
        if sorted(self.casualty_order) != sorted(UNIT_TYPES):
            raise ValueError(f"a casualty order names each of {', '.join(UNIT_TYPES)} once; "
                             f"got {self.casualty_order!r}")
        if self.reroll not in REROLL_POLICIES:
            raise ValueError(f"the castle re-roll policy is one of {', '.join(REROLL_POLICIES)}; "
                             f"got {self.reroll!r}")

    def describe(self) -> str:
        order = ("cheapest first" if self.casualty_order == CHEAPEST_FIRST else "in the order")
        return (f"casualties {order} ({', '.join(self.casualty_order)}), both sides; castle re-roll: "
                + ("at the first rank of each cycle where the defender's hits fall below average"
                   if self.reroll == "below-average" else "never"))


DEFAULT_POLICY = Policy()


# ---------------------------------------------------------------------------------------------
# one rank
# ---------------------------------------------------------------------------------------------

# A rank's roll as classes of the attacker's dice: (P(class), distribution of the hits over the
# defender's dice given the class). In ranks 1-3 the class is the attacker's hit count; in rank 4
# it is the attacker's dice, merged where they give the same distribution. A re-roll keeps the
# class (the attacker's dice stand) and draws the hits again from its distribution.
RankClasses = tuple[tuple[Fraction, tuple[tuple[Hits, Fraction], ...]], ...]
# A rank's outcomes under a re-roll policy: (probability, hits, was the re-roll used).
RankOutcomes = tuple[tuple[Probability, int, int, bool], ...]


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes in n trials), k = 0..n."""
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


@lru_cache(maxsize=None)
def rank_classes(rank: int, att_dice: int, def_dice: int) -> RankClasses:
    """The exact distribution of one roll of `rank` with these dice counts (see RankClasses)."""
    if rank != GENERAL_ATTACK:
        p = Fraction(7 - RANK_HITS_ON[rank], 6)
        defender = list(enumerate(_binomial(def_dice, p)))
        return tuple((pa, tuple(((ah, dh), q) for dh, q in defender))
                     for ah, pa in enumerate(_binomial(att_dice, p)))
    faces = range(1, 7)
    by_class: dict[tuple[tuple[Hits, Fraction], ...], Fraction] = defaultdict(Fraction)
    for att in set(tuple(sorted(a)) for a in itertools.product(faces, repeat=att_dice)):
        ways = _arrangements(att)
        hits: dict[Hits, int] = defaultdict(int)
        for dfn in itertools.product(faces, repeat=def_dice):
            hits[rank_hits(GENERAL_ATTACK, att, dfn)] += 1
        dist = tuple(sorted((h, Fraction(n, 6 ** def_dice)) for h, n in hits.items()))
        by_class[dist] += Fraction(ways, 6 ** att_dice)
    return tuple((pc, dist) for dist, pc in sorted(by_class.items()))


def _arrangements(sorted_dice: tuple[int, ...]) -> int:
    """How many ordered rolls show these dice."""
    n = factorial(len(sorted_dice))
    for _, group in itertools.groupby(sorted_dice):
        n //= factorial(len(list(group)))
    return n


def mean_defender_hits(rank: int, att_dice: int, def_dice: int) -> Fraction:
    """The defender's mean hits in one roll of `rank` with these dice counts."""
    return sum((pc * q * dh for pc, dist in rank_classes(rank, att_dice, def_dice)
                for (_, dh), q in dist), Fraction(0))


@lru_cache(maxsize=None)
def rank_outcomes(rank: int, att_dice: int, def_dice: int, reroll: str | None,
                  attacker_units: int, exact: bool) -> RankOutcomes:
    """Outcomes of one rank when the defender may re-roll under policy `reroll` (None: may not).

    `attacker_units` matters only to the below-average rule, which counts hits up to the
    attacker's army; pass 0 when there is no re-roll."""
    num: Callable[[Fraction], Probability] = Fraction if exact else float
    out: dict[tuple[int, int, bool], Fraction] = defaultdict(Fraction)
    classes = rank_classes(rank, att_dice, def_dice)
    bar = min(mean_defender_hits(rank, att_dice, def_dice), attacker_units)
    for pc, dist in classes:
        for (ah, dh), q in dist:
            if reroll == "below-average" and min(dh, attacker_units) < bar:
                for (ah2, dh2), q2 in dist:
                    out[ah2, dh2, True] += pc * q * q2
            else:
                out[ah, dh, False] += pc * q
    return tuple((num(p), ah, dh, used) for (ah, dh, used), p in sorted(out.items()) if p)


def next_rank(att: Units, dfn: Units, start: int) -> int:
    """The first rank from `start` on that either side has units for; rank 4 is always rolled
    (the engine's `_first_rank`)."""
    for rank in range(start, GENERAL_ATTACK):
        unit = RANK_UNIT[rank]
        if getattr(att, unit) or getattr(dfn, unit):
            return rank
    return GENERAL_ATTACK


def army_after_losses(army: Units, losses: int, order: Iterable[UnitType] = CHEAPEST_FIRST) -> Units:
    """What is left of `army` after `losses` units are removed in `order`."""
    left = army._asdict()
    for unit in order:
        taken = min(losses, left[unit])
        left[unit] -= taken
        losses -= taken
    return Units(**left)


def armies_left(army: Units, order: Iterable[UnitType] = CHEAPEST_FIRST) -> list[Units]:
    """`army_after_losses` for every number of losses at once, by units left: [n] is what is left
    of `army` with n units."""
    counts = list(army)
    out = [army]
    for unit in order:
        i = UNIT_TYPES.index(unit)
        while counts[i]:
            counts[i] -= 1
            out.append(Units(*counts))
    return out[::-1]


# ---------------------------------------------------------------------------------------------
# a whole battle
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BattleOdds:
    """Every way a battle can end: `outcomes` holds (attacker's units left, defender's units left,
    probability), the probabilities summing to 1."""

    attacker: Units
    defender: Units
    castle: bool
    policy: Policy
    outcomes: tuple[tuple[Units, Units, Probability], ...] = field(repr=False)

    def _sum(self, f: Callable[[Units, Units], float]) -> Probability:
        return sum((p * f(a, d) for a, d, p in self.outcomes), 0 * self.outcomes[0][2])

    @property
    def attacker_wins(self) -> Probability:
        """P(the attacker takes the territory)."""
        return self._sum(lambda a, d: a.total > 0)

    @property
    def defender_holds(self) -> Probability:
        return self._sum(lambda a, d: d.total > 0)

    @property
    def both_eliminated(self) -> Probability:
        """P(simultaneous elimination: the territory becomes unclaimed)."""
        return self._sum(lambda a, d: a.total == 0 and d.total == 0)

    @property
    def expected_attacker_losses(self) -> Probability:
        return self.attacker.total - self._sum(lambda a, d: a.total)

    @property
    def expected_defender_losses(self) -> Probability:
        return self.defender.total - self._sum(lambda a, d: d.total)

    @property
    def expected_attacker_left(self) -> dict[UnitType, Probability]:
        """Expected survivors by unit type (types the attacker brought)."""
        return {u: self._sum(lambda a, d: getattr(a, u)) for u in self.attacker.as_dict()}

    @property
    def expected_defender_left(self) -> dict[UnitType, Probability]:
        return {u: self._sum(lambda a, d: getattr(d, u)) for u in self.defender.as_dict()}

    def as_dict(self) -> dict:
        """The summary as plain data (probabilities as floats, or as "p/q" strings when exact)."""
        out = (lambda x: str(x)) if isinstance(self.outcomes[0][2], Fraction) else float
        return {
            "attacker": self.attacker.as_dict(),
            "defender": self.defender.as_dict(),
            "castle": self.castle,
            "attacker_wins": out(self.attacker_wins),
            "defender_holds": out(self.defender_holds),
            "both_eliminated": out(self.both_eliminated),
            "expected_losses": {"attacker": out(self.expected_attacker_losses),
                                "defender": out(self.expected_defender_losses)},
            "expected_survivors": {"attacker": {u: out(v) for u, v in self.expected_attacker_left.items()},
                                   "defender": {u: out(v) for u, v in self.expected_defender_left.items()}},
            "policy": {"casualty_order": list(self.policy.casualty_order), "reroll": self.policy.reroll,
                       "description": self.policy.describe()},
        }

    def lines(self) -> list[str]:
        """The battle's odds for a reader."""
        def p(x) -> str:
            return f"{float(x):.4f}" + (f"  ({x})" if isinstance(x, Fraction) else "")

        def left(expected: dict) -> str:
            return ", ".join(f"{float(v):.2f} {u}" for u, v in expected.items())

        return [
            f"{self.attacker.describe()} attack {self.defender.describe()}"
            + (" behind a castle" if self.castle else ""),
            f"  attacker takes the territory  {p(self.attacker_wins)}",
            f"  defender holds                {p(self.defender_holds)}",
            f"  both eliminated               {p(self.both_eliminated)}",
            f"  expected losses               attacker {float(self.expected_attacker_losses):.2f} of "
            f"{self.attacker.total}, defender {float(self.expected_defender_losses):.2f} of {self.defender.total}",
            f"  expected survivors            attacker {left(self.expected_attacker_left)}; "
            f"defender {left(self.expected_defender_left)}",
            f"policy: {self.policy.describe()}",
        ]


def battle_odds(attacker: Units, defender: Units, castle: bool = False,
                policy: Policy = DEFAULT_POLICY, *, exact: bool = False) -> BattleOdds:
    """The exact outcome distribution of a battle (floats, or Fractions when `exact`).

    Raises ValueError if an army is empty or has a negative count."""
    attacker, defender = Units(*attacker), Units(*defender)
    for side, army in (("attacker", attacker), ("defender", defender)):
        if min(army) < 0 or army.total == 0:
            raise ValueError(f"a battle needs units on both sides; the {side} has {army.describe()} {tuple(army)!r}")
    return _battle_odds(attacker, defender, bool(castle), policy, exact)


@lru_cache(maxsize=4096)
def _battle_odds(attacker: Units, defender: Units, castle: bool, policy: Policy, exact: bool) -> BattleOdds:
    order = policy.casualty_order
    att_left, def_left = armies_left(attacker, order), armies_left(defender, order)
    reroll = policy.reroll if castle and policy.reroll != "never" else None
    states = attacker.total * defender.total * GENERAL_ATTACK * (2 if reroll else 1)
    ends = chain_ends(att_left, def_left, castle, reroll, exact=exact) if exact or states < SWEEP_FROM \
        else sweep_ends(att_left, def_left, reroll)
    outcomes = tuple((att_left[a], def_left[d], p) for (a, d), p in sorted(ends.items(), reverse=True))
    return BattleOdds(attacker, defender, castle, policy, outcomes)


# Battles of fewer states than this are computed state by state (chain_ends), larger ones by the
# row sweep (sweep_ends): the same ends (tests/test_odds.py); the sweep's numpy calls cost more
# than the chain's dict below about 500 states (measured: bench/README.md).
SWEEP_FROM = 512


# ---------------------------------------------------------------------------------------------
# the chain, state by state (exact fractions, and small battles)
# ---------------------------------------------------------------------------------------------

def chain_ends(att_left: list[Units], def_left: list[Units], castle: bool, reroll: str | None, *,
               exact: bool) -> dict[tuple[int, int], Probability]:
    """The battle's ends {(attacker's units left, defender's units left): probability}, the chain
    visited one state (a, d, rank, re-roll available) at a time with a dict of probability mass,
    every rank's joint outcomes per state: what `battle_odds` computes with Fractions
    (`exact=True`) and for battles of fewer than SWEEP_FROM states, and what the row sweep is
    checked against (tests/test_odds.py). `att_left[n]` / `def_left[n]`: each army with n units left; `reroll`:
    the castle re-roll policy, None without one."""
    zero: Probability = Fraction(0) if exact else 0.0
    att_ranks = [_ranks_present(army) for army in att_left]
    def_ranks = [_ranks_present(army) for army in def_left]
    A, D = len(att_left) - 1, len(def_left) - 1
    # mass[(a, d, rank, re-roll available)]: every move goes to fewer units, or to the same units
    # and a later rank, so the loops visit each state after everything that leads to it
    mass: dict[tuple[int, int, int, bool], Probability] = defaultdict(lambda: zero)
    mass[A, D, _NEXT_RANK[att_ranks[A] | def_ranks[D]][1], castle] = zero + 1
    ends: dict[tuple[int, int], Probability] = defaultdict(lambda: zero)
    for a in range(A, 0, -1):
        for d in range(D, 0, -1):
            for rank in range(1, GENERAL_ATTACK + 1):
                for can_reroll in (True, False):
                    p = mass.pop((a, d, rank, can_reroll), None)
                    if not p:
                        continue
                    na, nd = expected_dice(rank, att_left[a], def_left[d])
                    rerolling = reroll if can_reroll and nd else None
                    start = rank + 1 if rank < GENERAL_ATTACK else 1
                    # the below-average rule counts hits up to the attacker's army (at most nd)
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
    """Bit r set for each rank 1-3 that `army` has units for."""
    return sum(1 << rank for rank, unit in RANK_UNIT.items() if getattr(army, unit))


# _NEXT_RANK[ranks present][start]: `next_rank` as a table over the bits of `_ranks_present`.
_NEXT_RANK = [[next((r for r in range(start, GENERAL_ATTACK) if bits >> r & 1), GENERAL_ATTACK)
               for start in range(GENERAL_ATTACK + 1)] for bits in range(1 << GENERAL_ATTACK)]


# ---------------------------------------------------------------------------------------------
# the row sweep (floats)
# ---------------------------------------------------------------------------------------------

def sweep_ends(att_left: list[Units], def_left: list[Units], reroll: str | None) -> dict[tuple[int, int], float]:
    """The battle's ends {(attacker's units left, defender's units left): probability} in floats,
    by the row sweep (below); the arguments as for `chain_ends` (a castle is `reroll` not None)."""
    return _RowSweep(att_left, def_left, reroll).run()

#
# The chain's states are (a, d, stage, re-roll available): a attacker units and d defender units
# left, about to roll stage 1-4 of the Ranked Attack Order. A rank neither side has dice for
# changes nothing (no hits, and no re-roll: the defender rolled no dice), so every cycle goes
# through the four stages and skipping needs no table here. A stage moves a state to
# (a - the defender's hits, d - the attacker's hits) at the next stage; stage 4 goes to stage 1 of
# the next cycle, where the re-roll is available again when there is a castle.
#
# The sweep takes the attacker's counts a = A..1 in turn, one ROW at a time, and handles a row's
# states for every d at once, as vectors over d (numpy float64 arrays).
# What a stage of row a sends to row a - h (the defender hit h units) is added to that row's
# inflow, so a row is complete once the rows above it have been swept. In ranks 1-3 the
# attacker's hits do not depend on d (its army is fixed by a) and the defender's hits do not
# depend on the attacker's roll (a re-roll redraws only the defender's dice): one stage of a row
# is the defender's hit distribution for each d (a table over d, split by whether the re-roll
# was used) times the attacker's hits as a matrix over d -> d'. The General Attack (its ties
# couple the two sides) is one matrix per row from (re-roll available, d) to (defender's
# hits, d').
#
# A row's one loop: a cycle in which the defender scores no hit comes back to stage 1 of the same
# row, at a smaller d. The row's stage-1 vector is therefore b + b M + b M^2 + ... = b (I - M)^-1,
# with b what reaches stage 1 of the row from outside the loop and M one trip round the cycle
# without a hit for the defender. M lowers d by at least one unit (it is strictly triangular),
# and a loop that several rows share is inverted once. Otherwise the d split in two:
#
# * the QUIET d (0..t), where the defender rolls no dice in ranks 1-3 (a prefix: dice never grow
#   with losses; with siege weapons lost first, the defender's last 35 units are footmen). There
#   a trip is the attacker's hits in ranks 1-3 and a General Attack the defender does not win,
#   the same distribution g of units lost from every d: M is the triangular Toeplitz matrix of g
#   (bar the column d' = 0), and (I - M)^-1 that of the power series 1 / (1 - g), by doubling
#   (`_quiet_loop`). It depends on the attacker's dice alone and is kept by them. Nothing leaves
#   the quiet d for higher ones, so they are solved last, with what the d above send down.
# * the d above t: when there are few (at most _HOT_MOST; t >= 1 only when footmen are lost last,
#   and then at most the 28 other units of the supply), the loop of every row kind over them is
#   built and inverted at once (`_hot_loops`: the kinds' tables stacked, (I - M)^-1 =
#   (I + M)(I + M^2)(I + M^4)...); otherwise the series b + b M + ... is summed trip by trip while
#   it dies out fast (what goes on round the loop below 2^-70 of the battle's probability, far
#   under a float's own rounding), and a loop still going after three trips is solved as the
#   triangular system it is, over the d where it still carries probability (its rows one trip of
#   each such d, in one step).
#
# Where the defender is gone (d = 0) the battle is over: that mass rides through stages 1-3
# unchanged and is counted at stage 4, where the General Attack's matrix drops it.

_TAIL = 2.0 ** -70
_HOT_MOST = 32
_TRIPS_MOST = 8


def _zeros(shape: tuple[int, ...]):
    import numpy as np
    return np.zeros(shape)


def _frozen(array):
    array.flags.writeable = False
    return array


# Tables over d are built once for the largest battle so far (at least _ROOM - 1 units) and sliced:
# what happens at d never depends on how large the battle is.
_ROOM = 64
_grown: dict[tuple, Any] = {}


def _grown_table(key: tuple, size: int, build: Callable[[int], Any]):
    """build(room) for a room of at least `size`, kept per key and rebuilt only for a larger one."""
    table = _grown.get(key)
    if table is None or table.shape[1] < size:
        table = _grown[key] = _frozen(build(max(size, _ROOM)))
    return table


@lru_cache(maxsize=None)
def _attacker_hits(rank: int, dice: int, size: int):
    """Rank 1-3: the matrix over d -> d' of the attacker's hits with `dice` dice (hits beyond d
    stop at 0; d = 0 stays where it is)."""
    def build(room: int):
        m = _zeros((room, room))
        m[0, 0] = 1
        for q, ah, _, _ in rank_outcomes(rank, dice, 0, None, 0, False):
            for d in range(1, room):
                m[d, max(d - ah, 0)] += q
        return m
    return _frozen(_grown_table(("attacker", rank, dice), size, build)[:size, :size].copy())


@lru_cache(maxsize=None)
def _defender_hits(rank: int, most_dice: int, cap: int, reroll: str | None):
    """Rank 1-3: the defender's hits by its dice count k = 0..most_dice, as an array [kind, hits,
    k]: kind 0 the re-roll used (re-roll available before: the flag goes to "used"), 1 no re-roll
    available, 2 the re-roll available and not used. The below-average rule counts hits up to
    the attacker's units: `cap` is min(a, most_dice), which is min(a, k) for every k."""
    t = _zeros((3, most_dice + 1, most_dice + 1))
    for k in range(most_dice + 1):
        for q, _, dh, _ in rank_outcomes(rank, 0, k, None, 0, False):
            t[1, dh, k] += q
        rerolling = reroll if k else None
        for q, _, dh, used in rank_outcomes(rank, 0, k, rerolling, min(cap, k) if rerolling else 0, False):
            t[0 if used else 2, dh, k] += q
    return _frozen(t)


@lru_cache(maxsize=None)
def _defender_layout(rank: int, most_dice: int, cap: int, reroll: str | None) -> tuple:
    """`_defender_hits` as _Rank.by_flag lays it out, by dice count k: [flag in][(hits, flag out),
    k], flag 0 no re-roll available, 1 available (only with `reroll`)."""
    import numpy as np
    t = _defender_hits(rank, most_dice, cap, reroll)
    if not reroll:
        return (t[1],)
    k = most_dice + 1
    unavailable = np.stack([t[1], _zeros((k, k))], axis=1)     # none after
    available = np.stack([t[0], t[2]], axis=1)                  # used, not used
    return tuple(_frozen(part.reshape(2 * k, k)) for part in (unavailable, available))


@lru_cache(maxsize=None)
def _general_attack(att_dice: int, cap: int, size: int, reroll: str | None):
    """Rank 4 for a row whose attacker rolls `att_dice` dice: the matrix from (flag, d) to
    (defender's hits, d'), flag 0 no re-roll available and, when `reroll`, 1 re-roll available;
    the defender rolls min(2, d) dice, d = 0 (the battle is over) goes nowhere. `cap` is min(a, 2)
    (the below-average rule's cap)."""
    flags = 2 if reroll else 1

    def build(room: int):
        m = _zeros((flags, room, 3, room))
        for flag in range(flags):
            rerolling = reroll if flag else None
            for d in range(1, room):
                nd = min(2, d)
                for q, ah, dh, _ in rank_outcomes(GENERAL_ATTACK, att_dice, nd, rerolling,
                                                  min(cap, nd) if rerolling else 0, False):
                    m[flag, d, dh, max(d - ah, 0)] += q
        return m
    room = _grown_table(("general", att_dice, cap, reroll), size, build)
    return _frozen(room[:, :size, :, :size].reshape(flags * size, 3 * size))


@lru_cache(maxsize=1024)
def _quiet_loop(ranked_dice: tuple[int, ...], att_dice: int, cap: int, size: int, reroll: str | None):
    """(I - M)^-1 over d < size, M one trip round a row's cycle against a defender that rolls no
    dice in ranks 1-3 (the row's "quiet" defender counts, module comment): the attacker rolls
    ranked_dice[r - 1] dice in rank r and att_dice in the General Attack (`cap` as for
    `_general_attack`). It depends on the attacker's dice only, so it is kept by them.

    M[d, d'] = g[d - d'] for d' >= 1 (the attacker's hits in ranks 1-3 and a General Attack with
    no hit for the defender, who rolls its full 2 dice there as d' + hits >= 2), so that part of
    (I - M)^-1 is the triangular Toeplitz matrix of the power series h = 1 / (1 - g), found by
    doubling, h = (1 + g)(1 + g^2)(1 + g^4)... (g has no constant term, so g^size vanishes);
    the column d' = 0 (the General Attack took the defender's last units) is h times M[., 0]."""
    import numpy as np

    def build(room: int):
        # rho: the attacker's hits in ranks 1-3, as a series in the hits
        rho = np.ones(1)
        for rank, dice in enumerate(ranked_dice, 1):
            if dice:
                hits = _zeros((dice + 1,))
                for q, ah, _, _ in rank_outcomes(rank, dice, 0, None, 0, False):
                    hits[ah] += q
                rho = np.convolve(rho, hits)
        rho = np.concatenate([rho, _zeros((room,))])[:room]
        general = _general_attack(att_dice, cap, room, reroll)
        fresh = (2 if reroll else 1) - 1
        no_hit = general[fresh * room:(fresh + 1) * room, :room]        # [d, d'], the defender's hits 0
        gamma = no_hit[room - 1, ::-1]                                  # [hits]: from a full defender
        g = np.convolve(rho, gamma)[:room]
        kills = np.convolve(rho, no_hit[:, 0])[:room]                   # M[d, 0]
        h, power = _zeros((room,)), g
        h[0] = 1
        for _ in range((room - 1).bit_length()):
            h = h + np.convolve(h, power)[:room]
            power = np.convolve(power, power)[:room]
        d = np.arange(room)
        gap = d[:, None] - d[None, :]
        q = np.concatenate([h, _zeros((1,))])[np.where(gap >= 0, gap, room)]
        q[:, 0] = np.convolve(h, kills)[:room]
        q[0, 0] = 1
        return q
    return _frozen(_grown_table(("quiet", ranked_dice, att_dice, cap, reroll), size, build)[:size, :size].copy())


class _Rank(NamedTuple):
    """Rank 1-3 of a row (_RowSweep._rank), for `_stage`: by_flag[f] [(hits, flag out), d] the
    defender's hits and what becomes of the re-roll from flag f, single [d, d'] the attacker's
    hits (`moves` the same, None when the attacker rolls no dice here); no_hit_by_flag[in, out, d]
    the rows of no hit for the defender. For those few rows a stacked form takes fewer steps:
    `(v * no_hit) @ conv` from v [(flag in, d)], no_hit [flag out, (flag in, d)], conv [(flag in,
    d), d'] `single` once per flag."""

    key: tuple
    by_flag: tuple
    single: Any
    moves: Any
    no_hit_by_flag: Any
    no_hit: Any
    conv: Any


def _stage(by_flag: tuple, moves, x):
    """x [..., flag in, d] through a rank (_Rank): [..., (hits, flag out), d']."""
    z = x[..., 0, None, :] * by_flag[0]
    for f in range(1, len(by_flag)):
        z = z + x[..., f, None, :] * by_flag[f]
    return z if moves is None else z @ moves


@lru_cache(maxsize=None)
def _army_dice(army: Units) -> tuple[tuple[int, int], ...]:
    """The dice `army` rolls in ranks 1-4, as attacker and as defender (the engine's expected_dice)."""
    return tuple(expected_dice(r, army, army) for r in range(1, GENERAL_ATTACK + 1))


@lru_cache(maxsize=4096)
def _rank_tables(rank: int, dice: int, cap: int, def_dice: tuple[int, ...], reroll: str | None) -> _Rank:
    """Rank 1-3 of a row whose attacker rolls `dice` dice, against a defender rolling def_dice[d]
    dice with d units left (`cap`: min(a, the defender's most dice), for the re-roll rule)."""
    n, flags = len(def_dice), 2 if reroll else 1
    by_flag, no_hit_by_flag, no_hit = _defender_table(rank, cap, def_dice, reroll)
    single, conv = _attacker_conv(rank, dice, n, flags)
    return _Rank((rank, dice, cap), by_flag, single, single if dice else None, no_hit_by_flag, no_hit, conv)


@lru_cache(maxsize=1024)
def _defender_table(rank: int, cap: int, def_dice: tuple[int, ...], reroll: str | None) -> tuple:
    """A rank's defender side over d (for _Rank): (by_flag, no_hit_by_flag, no_hit)."""
    import numpy as np
    flags, dice = 2 if reroll else 1, np.array(def_dice, dtype=np.intp)
    by_flag = tuple(_frozen(t[:, dice]) for t in _defender_layout(rank, def_dice[-1], cap, reroll))
    # no_hit_by_flag[in, out]: P(no hit for the defender, flag in -> out) over d
    no_hit_by_flag = np.stack([t[:flags] for t in by_flag])
    return by_flag, _frozen(no_hit_by_flag), _frozen(np.concatenate(no_hit_by_flag, axis=1))


@lru_cache(maxsize=None)
def _attacker_conv(rank: int, dice: int, size: int, flags: int) -> tuple:
    """A rank's attacker side (for _Rank): (its hits over d -> d', the same stacked once per flag)."""
    import numpy as np
    single = _attacker_hits(rank, dice, size)
    return single, _frozen(np.concatenate([single] * flags))


def _loop_inverse(m):
    """(I - M)^-1 for loops M [..., d, d'] that lower d (strictly lower triangular): each half of
    the d by (I + M)(I + M^2)(I + M^4)... to M^w = 0, both halves at once, and the block between
    them from those (the block inverse of a triangular matrix)."""
    import numpy as np
    w = m.shape[-1]
    h = (w + 1) // 2
    halves = np.stack([m[..., :h, :h], np.pad(m[..., h:, h:], [(0, 0)] * (m.ndim - 2) + [(0, 2 * h - w)] * 2)])
    inverse, power = np.eye(h) + halves, halves
    for _ in range((h - 1).bit_length() - 1):
        power = power @ power
        inverse = inverse + inverse @ power
    out = _zeros(m.shape)
    out[..., :h, :h] = inverse[0]
    out[..., h:, h:] = inverse[1][..., :w - h, :w - h]
    out[..., h:, :h] = out[..., h:, h:] @ m[..., h:, :h] @ inverse[0]
    return out


def _sum(terms: Iterable):
    """The sum of arrays, without a copy of the first."""
    return functools.reduce(operator.add, terms)


def _round_trip(trip: list, v):
    """v at stage 1 (the fresh flag, [..., d]) once round a row's cycle without a hit for the
    defender (_Plan.trip), to stage 1 of the next cycle."""
    for no_hit, m in trip:
        v = v @ m if no_hit is None else ((v[..., None, :] * no_hit) @ m).reshape(v.shape[:-1] + (-1,))
    return v


def _trip(steps: list, fresh: int, n: int) -> list:
    """A trip's steps (_Plan.trip), the first from the fresh flag alone."""
    no_hit, m = steps[0]
    first = (None, m[fresh * n:(fresh + 1) * n]) if no_hit is None else \
        (no_hit[:, fresh * n:(fresh + 1) * n], m[fresh * n:(fresh + 1) * n])
    return [first] + steps[1:]


class _Plan:
    """What a row rolls (_RowSweep._plan): ranks [None, rank 1, 2, 3] (None where neither side has
    dice), the General Attack's matrix; `first`, once a third row rolls the same (floats), the
    matrix from the row's inflow to its stage-1 vector."""

    def __init__(self, ranks: list, general: Any, trip: list, quiet: Any):
        self.ranks, self.general, self.trip, self.quiet = ranks, general, trip, quiet
        self.rows = 0
        self.first = None
        self.hot = None


class _RowSweep:
    """One battle's chain, swept a row (the attacker's units left) at a time: `run()` -> {(a, d):
    probability} of the ends. Arrays over (flag, d) are laid out flag-major, flag 0 no re-roll
    available, 1 available (only with a castle); a stage's output is [defender's hits, flag, d']."""

    def __init__(self, att_left: list[Units], def_left: list[Units], reroll: str | None):
        import numpy as np
        self.np = np
        self.A, self.D = len(att_left) - 1, len(def_left) - 1
        self.size = n = self.D + 1
        self.reroll = reroll
        self.flags = 2 if reroll else 1
        self.fresh = self.flags - 1          # the flag at stage 1: with a castle, the re-roll is back
        # dice by units left: att_dice[rank][a], def_dice[rank][d] (the engine's expected_dice)
        att = [_army_dice(army) for army in att_left]
        dfn = [_army_dice(army) for army in def_left]
        self.att_dice = {r: [dice[r - 1][0] for dice in att] for r in range(1, GENERAL_ATTACK + 1)}
        self.def_dice = {r: tuple(dice[r - 1][1] for dice in dfn) for r in range(1, GENERAL_ATTACK)}
        self.most = {r: dice[-1] for r, dice in self.def_dice.items()}   # dice never grow with losses
        # the quiet d: 0..quiet, where the defender rolls no dice in ranks 1-3 (a prefix, as above)
        self.quiet = max(d for d in range(n) if not any(dice[d] for dice in self.def_dice.values()))
        self._ranks: dict = {}
        self._plans: dict = {}
        # inflow[a, stage, flag, d]: what has reached row a at a stage from the rows above
        self.inflow = _zeros((self.A + 1, GENERAL_ATTACK + 1, self.flags, n))
        self.inflow[self.A, 1, self.fresh, self.D] = 1
        self.stage1 = _zeros((self.flags, n))
        self.ends_att = _zeros((self.A + 1,))    # [a]: (a, 0), the attacker takes the territory
        self.ends_def = _zeros((n,))             # [d]: (0, d), the defender holds (d = 0: both gone)

    def _rank(self, rank: int, a: int) -> _Rank | None:
        """Rank 1-3 of row a, or None when neither side rolls dice in it (the stage changes
        nothing); kept per (rank, attacker's dice, cap)."""
        dice, most = self.att_dice[rank][a], self.most[rank]
        if not dice and not most:
            return None
        key = (rank, dice, min(a, most) if self.reroll else 0)
        found = self._ranks.get(key)
        if found is None:
            found = self._ranks[key] = _rank_tables(*key, self.def_dice[rank], self.reroll)
        return found

    def _plan(self, a: int) -> "_Plan":
        """What row a rolls: its ranks 1-3 (None where neither side has dice), its General Attack;
        kept for the rows that roll the same."""
        key = (tuple(dice[a] for dice in self.att_dice.values()),
               min(a, max(self.most.values())) if self.reroll else 0)
        plan = self._plans.get(key)
        if plan is None:
            n, fresh = self.size, self.fresh
            ranks = [None] + [self._rank(r, a) for r in range(1, GENERAL_ATTACK)]
            att_dice, cap = self.att_dice[GENERAL_ATTACK][a], min(a, 2) if self.reroll else 0
            general = _general_attack(att_dice, cap, n, self.reroll)
            # one trip round the cycle without a hit for the defender, from stage 1 (fresh flag):
            # (the defender's no-hit rows, the attacker's hits) per rank, then (None, the General
            # Attack's no-hit part)
            trip = _trip([(r.no_hit, r.conv) for r in ranks[1:] if r is not None] + [(None, general[:, :n])],
                         fresh, n)
            quiet = _quiet_loop(key[0][:GENERAL_ATTACK - 1], att_dice, cap, n, self.reroll) \
                if self.quiet else None
            plan = self._plans[key] = _Plan(ranks, general, trip, quiet)
        return plan

    def _hot_loops(self, plans: list["_Plan"]) -> None:
        """Every plan's (I - M)^-1 over the d above the quiet ones (module comment), all plans at
        once: M's rows there are one trip of each such d, the plans' tables stacked."""
        np, n, flags, lo = self.np, self.size, self.flags, self.quiet + 1
        w, count = n - lo, len(plans)
        # v[flag][plan, from d, d]: from stage 1 at the fresh flag (None: not moved yet); a
        # re-roll once used stays used within a cycle, so flag f only goes to flags <= f
        v = None
        for r in range(1, GENERAL_ATTACK):
            ranks = [plan.ranks[r] for plan in plans]
            if all(rank is None for rank in ranks):
                continue
            same = np.eye(flags)[:, :, None] * np.ones(w)        # a stage where neither side rolls
            no_hit = np.stack([same if rank is None else rank.no_hit_by_flag[:, :, lo:] for rank in ranks])
            single = np.stack([np.eye(w) if rank is None else rank.single[lo:, lo:] for rank in ranks])
            if v is None:       # from d alone: each d's no hit by flag, then the attacker's hits
                v = [no_hit[:, self.fresh, out, :, None] * single for out in range(flags)]
                continue
            v = [_sum(v[into] * no_hit[:, into, out, None, :] for into in range(out, flags)) @ single
                 for out in range(flags)]
        if v is None:
            v = [_zeros((count, w, w)) for _ in range(flags)]
            v[self.fresh][:] = np.eye(w)
        m = _sum(v[f] @ np.stack([plan.general[f * n + lo:(f + 1) * n, lo:n] for plan in plans])
                 for f in range(flags))
        for plan, loop in zip(plans, _loop_inverse(m)):
            plan.hot = loop

    def _first_matrix(self, plan: "_Plan"):
        """For a row kind that several rows share (floats): the matrix from the row's inflow at
        stages 1-4, [(stage, flag, d)], to its stage-1 vector b (I - M)^-1 (module comment)."""
        np, n, flags, fresh = self.np, self.size, self.flags, self.fresh
        first, *ranks = plan.ranks[1:]
        # after[s]: from (flag, d) at stage s + 2 to stage 1 of the next cycle, as [flag][d, d']
        after = [[plan.general[f * n:(f + 1) * n, :n] for f in range(flags)]]
        for r in reversed(ranks):
            after.insert(0, after[0] if r is None else self._through(r, after[0]))
        # M: one trip round the row's cycle without a hit for the defender, from the fresh flag
        m = after[0] if first is None else self._through(first, after[0])
        loop = np.linalg.inv(np.eye(n) - m[fresh])
        stage1 = [loop if f == fresh else _zeros((n, n)) for f in range(flags)]
        return _frozen(np.concatenate(stage1 + [np.concatenate([y for ys in after for y in ys]) @ loop]))

    def _through(self, r: _Rank, m: list) -> list:
        """The no-hit part of rank r followed by m ([flag][d, d'])."""
        after = [r.single @ y for y in m]
        return [_sum(r.no_hit_by_flag[into, out, :, None] * after[out] for out in range(self.flags))
                for into in range(self.flags)]

    def _first(self, plan: "_Plan", b):
        """The row's stage-1 vector b (I - M)^-1 (module comment above). Over the quiet d (d <= t,
        where the defender rolls no dice in ranks 1-3) M is the attacker's alone, and
        `_quiet_loop`, kept by the attacker's dice, solves it; over the d above, the plan's loop
        from `_hot_loops` when there is one, else the series b + b M + ... trip by trip (what a
        trip sends down to the quiet d is kept for that solve) while it dies out fast: past three
        trips only while, at the rate it falls, it ends within _TRIPS_MOST; what is left then is
        solved over the d where it still carries probability."""
        np, n, t = self.np, self.size, self.quiet
        if t == n - 1:
            return b @ plan.quiet
        if plan.hot is not None:
            first = b.copy()
            first[t + 1:] = b[t + 1:] @ plan.hot
            spill = first.copy()
            spill[:t + 1] = 0
            first[:t + 1] = (b[:t + 1] + _round_trip(plan.trip, spill)[:t + 1]) @ plan.quiet[:t + 1, :t + 1]
            return first
        trip = plan.trip
        first, left = b.copy(), b.copy()
        left[:t + 1] = 0
        quiet = b[:t + 1].copy()            # what reaches stage 1 at a quiet d from above it
        mass = left.sum()
        for trips in itertools.count():
            if mass < _TAIL:
                break
            # from the third trip on: solve the rest unless, at the rate it falls, the series
            # ends within _TRIPS_MOST trips (a trip costs less than a wide solve)
            if trips >= 3 and (trips >= _TRIPS_MOST or mass >= was
                               or mass * (mass / was) ** (_TRIPS_MOST - trips) >= _TAIL):
                # d from k up carries less than half the tail: the rest of the loop is solved over
                # t < d < k, M's rows there one trip of each d (what they send down included)
                k = n - int(np.searchsorted(np.cumsum(left[::-1]), _TAIL / 2))
                m = _round_trip(trip, np.eye(n)[t + 1:k])
                rest = np.linalg.solve(np.eye(k - t - 1) - m[:, t + 1:k].T, left[t + 1:k])
                first[t + 1:k] += rest - left[t + 1:k]
                quiet += rest @ m[:, :t + 1]
                break
            left = _round_trip(trip, left)
            quiet += left[:t + 1]
            left[:t + 1] = 0
            first += left
            was, mass = mass, left.sum()
        first[:t + 1] = quiet @ plan.quiet[:t + 1, :t + 1] if t else quiet
        return first

    def run(self) -> dict[tuple[int, int], Probability]:
        n, fresh, flags = self.size, self.fresh, self.flags
        plans = [None] + [self._plan(a) for a in range(1, self.A + 1)]      # [a]: row a's
        if 0 < n - 1 - self.quiet <= _HOT_MOST and self.quiet:
            self._hot_loops(list({id(plan): plan for plan in plans[1:]}.values()))
        for a in range(self.A, 0, -1):
            inflow = self.inflow[a]
            plan = plans[a]
            plan.rows += 1
            if plan.rows == 3:
                plan.first = self._first_matrix(plan)
            ranks, general = plan.ranks, plan.general
            x = self.stage1
            if plan.first is not None:          # a row like an earlier one: all of it at once
                x[fresh] = inflow[1:].reshape(-1) @ plan.first
            else:
                # b: what reaches stage 1 of this row from outside the row's loop
                v = inflow[2].reshape(-1)
                for r in (2, 3):
                    if ranks[r] is not None:
                        v = ((v * ranks[r].no_hit) @ ranks[r].conv).reshape(-1)
                    v = v + inflow[r + 1].reshape(-1)
                x[fresh] = self._first(plan, inflow[1, fresh] + v @ general[:, :n])
            # the row, stage by stage, sending what the defender hit to the rows below
            for r in (1, 2, 3):
                rank = ranks[r]
                if rank is None:
                    x = inflow[r + 1] + x
                    continue
                if r == 1:      # stage 1 holds the fresh flag alone
                    y = _stage(rank.by_flag[fresh:fresh + 1], rank.moves, x[fresh:fresh + 1])
                else:
                    y = _stage(rank.by_flag, rank.moves, x)
                y = y.reshape(-1, flags, n)
                # what the defender hit goes to the rows below; from the attacker's last unit
                # up, the battle is over
                k = min(len(y), a) - 1
                self.inflow[a - k:a, r + 1] += y[k:0:-1]
                if len(y) > a:
                    self.ends_def += y[a:].sum(axis=(0, 1))
                x = inflow[r + 1] + y[0]
            self.ends_att[a] += x[:, 0].sum()
            y = (x.reshape(-1) @ general).reshape(3, n)
            k = min(3, a) - 1
            self.inflow[a - k:a, 1, fresh] += y[k:0:-1]
            if a < 3:
                self.ends_def += y[a:].sum(axis=0)
        ends = {(a, 0): p for a, p in enumerate(self.ends_att) if a and p}
        ends.update({(0, d): p for d, p in enumerate(self.ends_def) if p})
        return ends


# ---------------------------------------------------------------------------------------------
# luck
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OddsSummary:
    """The five numbers of a battle's odds that its luck needs (as BattleOdds names them), e.g.
    for a memo that keeps them by the battle's shape (engine.risk_europe.fold)."""

    attacker: Units
    defender: Units
    attacker_wins: float
    defender_holds: float
    both_eliminated: float
    expected_attacker_losses: float
    expected_defender_losses: float

    @property
    def numbers(self) -> list[float]:
        return [self.attacker_wins, self.defender_holds, self.both_eliminated,
                self.expected_attacker_losses, self.expected_defender_losses]


def summary_of(odds: BattleOdds) -> OddsSummary:
    return OddsSummary(odds.attacker, odds.defender, float(odds.attacker_wins), float(odds.defender_holds),
                       float(odds.both_eliminated), float(odds.expected_attacker_losses),
                       float(odds.expected_defender_losses))


@dataclass(frozen=True)
class Luck:
    """A fought battle against its odds: each field is what happened minus what was expected."""

    outcome: str                     # "attacker takes", "defender holds", "both eliminated"
    attacker_won: Probability        # 1 or 0, minus P(attacker takes the territory)
    defender_held: Probability       # 1 or 0, minus P(defender holds)
    attacker_losses: Probability     # units lost minus expected units lost
    defender_losses: Probability


def luck(odds: BattleOdds | OddsSummary, attacker_lost: int, defender_lost: int) -> Luck:
    """Outcome minus expectation for a battle that ended with these losses (there is no retreat,
    so the losses say who won). Raises ValueError if they are not the end of this battle."""
    a_left, d_left = odds.attacker.total - attacker_lost, odds.defender.total - defender_lost
    if not (0 <= a_left <= odds.attacker.total and 0 <= d_left <= odds.defender.total) \
            or (a_left and d_left):
        raise ValueError(f"losses {attacker_lost} (attacker, of {odds.attacker.total}) and {defender_lost} "
                         f"(defender, of {odds.defender.total}) do not end the battle: one army must be gone")
    outcome = "attacker takes" if a_left else "defender holds" if d_left else "both eliminated"
    return Luck(outcome=outcome,
                attacker_won=(a_left > 0) - odds.attacker_wins,
                defender_held=(d_left > 0) - odds.defender_holds,
                attacker_losses=attacker_lost - odds.expected_attacker_losses,
                defender_losses=defender_lost - odds.expected_defender_losses)


# ---------------------------------------------------------------------------------------------
# reading a battle from text
# ---------------------------------------------------------------------------------------------

class BattleParseError(LedgerError, ValueError):
    """A battle description that cannot be read; the message quotes it and says where."""


UNIT_WORDS: dict[str, UnitType] = {
    **dict.fromkeys(("f", "footman", "footmen", "foot", "footmans"), "footman"),
    **dict.fromkeys(("a", "archer", "archers"), "archer"),
    **dict.fromkeys(("c", "cavalry", "cavalries", "cav", "cavalryman", "cavalrymen", "knight", "knights"),
                    "cavalry"),
    **dict.fromkeys(("s", "siege", "sieges"), "siege"),
}
VERSUS = ("vs", "vs.", "versus", "v", "v.", "against")
CASTLE_FILLER = ("in", "with", "behind", "inside", "a", "the", "its", "their")
MAX_ARMY = 100   # a player owns 63 units (35 footmen, 12 archers, 12 cavalry, 4 siege weapons)


def parse_battle(text: str) -> tuple[Units, Units, bool]:
    """Read "3 footmen + 1 siege vs 2 archers in a castle" (or "3F 1S vs 2A castle") as
    (attacker, defender, castle)."""
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\d+|[A-Za-z]+\.?|[^\sA-Za-z\d]", text)]
    split = [i for i, (t, _) in enumerate(tokens) if t.lower() in VERSUS]
    if len(split) != 1:
        raise BattleParseError(f"expected one 'vs' between the attacker and the defender in {text!r}"
                               + (f"; found {len(split)}" if split else ""))
    attacker, _ = _parse_army(text, tokens[:split[0]], "attacker", castle_allowed=False)
    defender, castle = _parse_army(text, tokens[split[0] + 1:], "defender", castle_allowed=True)
    return attacker, defender, castle


def _parse_army(text: str, tokens: list[tuple[str, int]], side: str, castle_allowed: bool) -> tuple[Units, bool]:
    counts = dict.fromkeys(UNIT_TYPES, 0)
    castle = False
    i = 0

    def bad(why: str, at: int) -> BattleParseError:
        shown = repr(text) if len(text) <= 80 else repr(text[:77]) + "..."
        return BattleParseError(f"{why} at column {at + 1} of {shown}")

    while i < len(tokens):
        tok, at = tokens[i]
        word = tok.lower().rstrip(".")
        if word in ("+", ",", "&", "and", "(", ")"):
            i += 1
        elif word == "castle" or (word in CASTLE_FILLER and any(t.lower() == "castle" for t, _ in tokens[i:])):
            if not castle_allowed:
                raise bad("only the defender can hold a castle; 'castle' comes after 'vs'", at)
            castle = castle or word == "castle"
            i += 1
        elif tok.isdigit():
            if len(tok) > 4:     # int() of a 5,000-digit token would raise Python's own error
                raise bad(f"{tok[:6]}... ({len(tok)} digits) is more units than a battle can "
                          f"hold (at most {MAX_ARMY} a side)", at)
            if i + 1 >= len(tokens):
                raise bad(f"a unit type (footman, archer, cavalry, siege or F/A/C/S) must follow {tok!r}", at)
            unit_tok, unit_at = tokens[i + 1]
            unit = UNIT_WORDS.get(unit_tok.lower().rstrip("."))
            if unit is None:
                raise bad(f"unknown unit {unit_tok!r} (footman, archer, cavalry, siege or F/A/C/S)", unit_at)
            counts[unit] += int(tok)
            i += 2
            if unit == "siege" and i < len(tokens) and tokens[i][0].lower() in ("weapon", "weapons"):
                i += 1
        elif word in UNIT_WORDS:
            raise bad(f"a number must come before {tok!r}", at)
        else:
            raise bad(f"cannot read {tok!r}", at)
    army = Units(**counts)
    if army.total == 0:
        raise BattleParseError(f"the {side} has no units in {text!r}")
    if army.total > MAX_ARMY:
        raise BattleParseError(f"the {side} has {army.total} units in {text!r}; a player owns at most 63")
    return army, castle


def parse_casualty_order(text: str) -> tuple[UnitType, ...]:
    """Read "cheapest-first", "SCAF" or "siege,cavalry,archer,footman" as a casualty order."""
    if text.strip().lower() == "cheapest-first":
        return CHEAPEST_FIRST
    names = text.replace(",", " ").split() if ("," in text or " " in text.strip()) else list(text.strip())
    order = tuple(UNIT_WORDS.get(n.lower()) for n in names)
    if None in order or sorted(order) != sorted(UNIT_TYPES):
        raise BattleParseError(f"a casualty order is 'cheapest-first' or each of F, A, C, S once "
                               f"(e.g. SCAF or siege,cavalry,archer,footman); got {text!r}")
    return order


def format_battle(attacker: Units, defender: Units, castle: bool) -> str:
    """The short form `parse_battle` reads: "8F 2A 2S vs 4F 6A castle"."""
    def short(army: Units) -> str:
        return " ".join(f"{n}{u[0].upper()}" for u, n in army.as_dict().items())
    return f"{short(attacker)} vs {short(defender)}" + (" castle" if castle else "")


ODDS_HELP = ('The battle: "ATTACKER vs DEFENDER [in a castle]", e.g. "3 footmen + 1 siege vs 2 archers '
             'in a castle" or "3F 1S vs 2A castle"; then, optionally, --casualties ORDER (both sides: '
             'cheapest-first, i.e. footman, archer, cavalry, siege, or the four types, e.g. SCAF), '
             f'--reroll POLICY (the castle re-roll: {" or ".join(REROLL_POLICIES)}) and --exact '
             '(exact fractions, slow for big armies).')


def odds_of(text: str) -> BattleOdds:
    """RULESET.odds: the odds of the battle `text` describes (ODDS_HELP); ValueError naming what
    could not be read."""
    words = text.split()
    exact = "--exact" in words
    words = [w for w in words if w != "--exact"]
    settings = {"--casualties": "cheapest-first", "--reroll": "below-average"}
    battle: list[str] = []
    i = 0
    while i < len(words):
        if words[i] in settings:
            if i + 1 >= len(words):
                raise BattleParseError(f"{words[i]} needs a value")
            settings[words[i]] = words[i + 1]
            i += 2
        elif words[i].startswith("--") and words[i] != "--":
            raise BattleParseError(f"unknown option {words[i]!r}: --casualties, --reroll or --exact")
        else:
            battle.append(words[i])
            i += 1
    attacker, defender, castle = parse_battle(" ".join(battle))
    policy = Policy(casualty_order=parse_casualty_order(settings["--casualties"]), reroll=settings["--reroll"])
    return battle_odds(attacker, defender, castle, policy, exact=exact)

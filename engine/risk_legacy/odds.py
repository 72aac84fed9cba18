"""Exact odds of a Risk Legacy attack: `attack_odds(battle, policy)` gives the probability of every
way an attack on one territory can end, computed from the rules by enumerating the dice (no
sampling), and `take_chance` / `roll_luck` give the chance of taking the territory from any point
of the attack and the luck of one roll (the analytics fold's luck index).

The rules (rulebook seed 003, the engine's reading in engine/risk_legacy/combat.py and common.py):

* "How to Attack": the attacking territory keeps one troop behind, so A troops there roll
  min(3, A-1) dice; D defenders roll min(2, D). Dice are compared highest against highest, then
  the next; the higher die wins, the defender wins ties; the loser of each comparison removes a
  troop (RL-ATTACK-DICE, RL-ATTACK-COMPARE, RL-CASUALTIES). An attack is a run of such rolls on
  one territory from one territory.
* "Modifying Die Rolls": a modifier names the die of the natural roll it changes ("higher",
  "lower", "each"); of equal dice only one is changed; a die is clamped to 1..6; the dice are
  sorted again (RL-MODIFIERS, RL-RULING-MODIFIER-ORDER). The modifiers of the box: the scars on
  the defended territory, Bunker (+1 to the defender's higher die) and Ammo Shortage (-1 to it)
  ("Scars", RL-SCAR-BUNKER, RL-SCAR-AMMO-SHORTAGE; board.SCAR_EFFECTS); a Fortified city (+1 to
  both defender's dice, "Fortifications", RL-FORTIFICATION); the Enclave of the Bear's first strike
  (-1 to the defender's lower die in the first territory it attacks in a turn,
  RL-POWER-BEAR-FIRST-STRIKE). Any other `Modifier` (a sealed pack's scar or power) is taken the
  same way, for either side. The dice are the engine's own: `combat.final_dice` and
  `combat.casualties` turn every natural roll into losses.
* "Fortifications": each roll with 3 attacking dice marks one of the Fortification's 10 boxes;
  the roll that marks the last box still has the +1 (RL-RULING-FORT-WEAR), so a Fortification with
  n boxes left gives its +1 to the next n rolls of 3 dice (and to every roll of fewer dice until
  then). Die Mechaniker's fortified HQ never wears (RL-POWER-MECH-FORTIFIED-HQ): NEVER_WEARS.
* Powers that end an attack (RL-POWER-BEAR-THREE-OF-A-KIND, RL-POWER-MECH-DOUBLE-SIXES): an
  Enclave rolling a natural three of a kind that defeats at least one defender takes the territory
  outright; Die Mechaniker defending with two natural 6s, and troops left, is immune for the rest
  of the turn: the attack ends there.
* "Missiles": after the roll and before troops are removed, anyone may discard a Missile to make
  one die an unmodifiable 6, and may answer another's Missile; the attacker has priority, then the
  defender (RL-MISSILE, RL-MISSILE-TIMING).

The players' choices are a POLICY (`Policy`), stated here and in docs/odds.md:

* dice: both sides always roll as many dice as they may (3 and 2 when they can);
* stopping: the attacker attacks until the territory is taken or its territory is down to
  `stop_at` troops (default 1: to the last troop it may attack with);
* Missiles: the attacker holds `attacker_missiles`, the defender `defender_missiles` for the whole
  attack (count a third player's Missiles on the side they would help). After each roll, while a
  side has a Missile left and firing one on its lowest die (after modifiers; a die a Missile has
  already made a 6 is not chosen again) would turn one of its lost comparisons into a won one, it
  fires it; the attacker first, then the defender, again and again until neither would. A Missile
  replacing the lowest die gives the highest dice any one Missile can, so this is the best single
  shot; the policy is greedy (it spends a Missile as soon as it saves a troop, and does not look
  ahead to the other side's answer or to later rolls).

The chain's state is (attacker's troops, defender's troops, Missiles left on each side, the
Fortification's boxes left). Every roll removes at least one troop, so the chain has no loops:
the states are visited once each in decreasing troops, carrying probability forward; what arrives
where the attack ends is the outcome distribution. One roll's outcomes are enumerated over all 6^n
natural rolls of each side (grouped by their final dice) and memoized.

`attack_odds` -> AttackOdds (as_dict, lines); `take_chance` is P(attacker takes the territory) from
a state, by backward induction; `roll_luck` is one roll's luck in those terms; `odds_of(text)` is
RULESET.odds (ODDS_HELP). The single roll of unmodified dice is engine.core.dice_odds.roll_odds.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Iterable, Sequence, Union

from engine.core.errors import LedgerError
from engine.risk_legacy.board import SCAR_EFFECTS
from engine.risk_legacy.combat import (
    DIE_POSITIONS, FIRST_STRIKE, FORTIFICATION, Modifier, casualties, final_dice, is_double_six,
    is_three_of_a_kind,
)
from engine.risk_legacy.world import FORTIFICATION_BOXES

Probability = Union[float, Fraction]
Change = tuple[str, int]        # a modifier as the dice see it: (which die, by how much)

MAX_ATTACK_DICE, MAX_DEFENCE_DICE = 3, 2
NEVER_WEARS = -1                # a fortification that gives its +1 to every roll (Die Mechaniker's HQ)
TAKEN, STOPPED, IMMUNE = "taken", "stopped", "immune"
ENDINGS = (TAKEN, STOPPED, IMMUNE)

# what a roll did besides the losses: the territory falls outright (the Enclave's natural three of
# a kind), or becomes immune if troops are left (Die Mechaniker's natural double six)
FALLS, SHIELDED = "falls", "immune"


@dataclass(frozen=True)
class Battle:
    """An attack on one territory as the odds see it: the troops on both sides now and what
    changes the dice. `attacker` counts every troop in the attacking territory (one stays behind)."""

    attacker: int
    defender: int
    defender_modifiers: tuple[Modifier, ...] = ()   # scars, the Enclave's first strike, any other
    attacker_modifiers: tuple[Modifier, ...] = ()
    fortification: int = 0          # boxes left on a Fortified city (1-10), NEVER_WEARS, 0: none
    three_of_a_kind: bool = False   # the attacker has the Enclave of the Bear's three of a kind
    double_sixes: bool = False      # the defender has Die Mechaniker's double sixes

    def __post_init__(self) -> None:
        if self.attacker < 2:
            raise ValueError(f"an attack needs at least 2 troops in the attacking territory (one stays "
                             f"behind); got {self.attacker}")
        if self.defender < 1:
            raise ValueError(f"the defended territory needs at least 1 troop; got {self.defender}")
        if not (self.fortification == NEVER_WEARS or 0 <= self.fortification <= FORTIFICATION_BOXES):
            raise ValueError(f"a Fortification has 1-{FORTIFICATION_BOXES} boxes left (or never wears); "
                             f"got {self.fortification!r}")
        for m in (*self.defender_modifiers, *self.attacker_modifiers):
            if m.die not in DIE_POSITIONS:
                raise ValueError(f"a modifier changes the {', '.join(DIE_POSITIONS)} die; got {m!r}")

    def describe(self) -> str:
        """"10 troops attack 6 (bunker +1 higher; fortification +1 each, 10 boxes left)"."""
        marks = [f"{m.source} {m.delta:+d} {m.die}" for m in self.defender_modifiers]
        if self.fortification:
            marks.append(f"{FORTIFICATION.source} +1 each, "
                         + ("never wears" if self.fortification == NEVER_WEARS
                            else f"{self.fortification} box{'es' if self.fortification > 1 else ''} left"))
        if self.double_sixes:
            marks.append("double sixes")
        att = [f"{m.source} {m.delta:+d} {m.die}" for m in self.attacker_modifiers]
        if self.three_of_a_kind:
            att.append("three of a kind")
        return (f"{self.attacker} troops" + (f" ({'; '.join(att)})" if att else "")
                + f" attack {self.defender}" + (f" ({'; '.join(marks)})" if marks else ""))


@dataclass(frozen=True)
class Policy:
    """When the attacker stops and how many Missiles each side will fire (module docstring)."""

    stop_at: int = 1
    attacker_missiles: int = 0
    defender_missiles: int = 0

    def __post_init__(self) -> None:
        if self.stop_at < 1:
            raise ValueError(f"the attacker stops with at least 1 troop in its territory; got stop_at={self.stop_at}")
        if self.attacker_missiles < 0 or self.defender_missiles < 0:
            raise ValueError("a side holds 0 or more Missiles")

    def describe(self) -> str:
        stop = ("until the territory is taken or 1 troop is left" if self.stop_at == 1
                else f"until the territory is taken or {self.stop_at} troops are left")
        missiles = ("no Missiles" if not (self.attacker_missiles or self.defender_missiles) else
                    f"Missiles: attacker {self.attacker_missiles}, defender {self.defender_missiles}, each "
                    "fired on the side's lowest die when it turns a lost comparison into a won one "
                    "(attacker first)")
        return f"both sides roll all the dice they may; the attacker attacks {stop}; {missiles}"


DEFAULT_POLICY = Policy()


# ---------------------------------------------------------------------------------------------
# one roll
# ---------------------------------------------------------------------------------------------

def _changes(modifiers: Iterable[Modifier]) -> tuple[Change, ...]:
    """The modifiers as the dice see them, in a canonical order (the source does not matter)."""
    return tuple(sorted((m.die, m.delta) for m in modifiers))


@lru_cache(maxsize=None)
def _side_rolls(dice: int, changes: tuple[Change, ...]) -> tuple[tuple[tuple[int, ...], bool, bool, int], ...]:
    """Every natural roll of `dice` dice grouped by (final dice highest first, is it a natural
    three of a kind, a natural double six): how many of the 6^dice rolls give each."""
    mods = [Modifier(die, delta, "") for die, delta in changes]
    counts: dict[tuple[tuple[int, ...], bool, bool], int] = defaultdict(int)
    for natural in itertools.product(range(1, 7), repeat=dice):
        counts[tuple(final_dice(natural, mods)), is_three_of_a_kind(natural), is_double_six(natural)] += 1
    return tuple((*key, n) for key, n in sorted(counts.items()))


def fire_missiles(attack: Sequence[int], defence: Sequence[int], attacker_missiles: int,
                  defender_missiles: int) -> tuple[int, int, int, int]:
    """The Missile policy on one roll's final dice: (attacker's losses, defender's losses,
    Missiles the attacker fires, Missiles the defender fires)."""
    free = [sorted(attack), sorted(defence)]     # lowest first; dice no Missile has made a 6
    sixes = [0, 0]
    fired = [0, 0]
    held = (attacker_missiles, defender_missiles)

    def losses() -> tuple[int, int]:
        fa = sorted(free[0] + [6] * sixes[0], reverse=True)
        fd = sorted(free[1] + [6] * sixes[1], reverse=True)
        return casualties(fa, fd)

    lost = losses()
    while True:
        for side in (0, 1):                      # the attacker has priority
            if fired[side] < held[side] and free[side]:
                die = free[side].pop(0)
                sixes[side] += 1
                now = losses()
                if now[side] < lost[side]:
                    fired[side] += 1
                    lost = now
                    break
                free[side].insert(0, die)
                sixes[side] -= 1
        else:
            return lost[0], lost[1], fired[0], fired[1]


RollOutcome = tuple[Fraction, int, int, int, int, "str | None"]


@lru_cache(maxsize=None)
def roll_outcomes(attack_dice: int, defence_dice: int, attacker_changes: tuple[Change, ...] = (),
                  defender_changes: tuple[Change, ...] = (), attacker_missiles: int = 0,
                  defender_missiles: int = 0, three_of_a_kind: bool = False,
                  double_sixes: bool = False) -> tuple[RollOutcome, ...]:
    """Every outcome of one roll, exact: (probability, attacker's losses, defender's losses,
    Missiles fired by the attacker, by the defender, FALLS / SHIELDED / None). The changes are
    `_changes` of the modifiers; Missiles beyond a side's dice are never fired."""
    if not (1 <= attack_dice <= MAX_ATTACK_DICE and 1 <= defence_dice <= MAX_DEFENCE_DICE):
        raise ValueError(f"a roll is 1-{MAX_ATTACK_DICE} attacker dice against 1-{MAX_DEFENCE_DICE} "
                         f"defender dice; got {attack_dice} against {defence_dice}")
    total = 6 ** (attack_dice + defence_dice)
    out: dict[tuple[int, int, int, int, str | None], int] = defaultdict(int)
    for fa, triple, _, na in _side_rolls(attack_dice, attacker_changes):
        for fd, _, double, nd in _side_rolls(defence_dice, defender_changes):
            a_lost, d_lost, used_a, used_d = fire_missiles(fa, fd, attacker_missiles, defender_missiles)
            effect = (FALLS if three_of_a_kind and triple and d_lost >= 1
                      else SHIELDED if double_sixes and double else None)
            out[a_lost, d_lost, used_a, used_d, effect] += na * nd
    return tuple((Fraction(n, total), *key) for key, n in sorted(out.items(), key=_outcome_order))


def _outcome_order(item) -> tuple:
    (a_lost, d_lost, used_a, used_d, effect), _ = item
    return a_lost, d_lost, used_a, used_d, effect or ""


@lru_cache(maxsize=None)
def _float_outcomes(*key) -> tuple:
    return tuple((float(p), *rest) for p, *rest in roll_outcomes(*key))


# ---------------------------------------------------------------------------------------------
# the attack as a chain
# ---------------------------------------------------------------------------------------------

State = tuple[int, int, int, int, int]    # attacker, defender, Missiles left (att, def), boxes left


def _dice(a: int, d: int) -> tuple[int, int]:
    return min(MAX_ATTACK_DICE, a - 1), min(MAX_DEFENCE_DICE, d)


def _moves(battle: Battle, policy: Policy, state: State, exact: bool):
    """The next states of a state where the attacker rolls: (probability, next state, ending or
    None)."""
    a, d, ma, md, boxes = state
    na, nd = _dice(a, d)
    defender = _changes(battle.defender_modifiers + ((FORTIFICATION,) if boxes else ()))
    table = (roll_outcomes if exact else _float_outcomes)(
        na, nd, _changes(battle.attacker_modifiers), defender, min(ma, na), min(md, nd),
        battle.three_of_a_kind, battle.double_sixes)
    boxes_after = boxes - 1 if boxes > 0 and na == MAX_ATTACK_DICE else boxes
    for q, a_lost, d_lost, used_a, used_d, effect in table:
        a2, d2 = a - a_lost, 0 if effect == FALLS else max(d - d_lost, 0)
        nxt = (a2, d2, ma - used_a, md - used_d, boxes_after)
        yield q, nxt, (IMMUNE if effect == SHIELDED and d2 > 0 else _ending(policy, a2, d2))


def _ending(policy: Policy, a: int, d: int) -> str | None:
    """How the attack ends in this state (None: the attacker rolls again)."""
    if d == 0:
        return TAKEN
    if a <= max(policy.stop_at, 1):
        return STOPPED
    return None


@dataclass(frozen=True)
class AttackOdds:
    """Every way an attack can end: `outcomes` holds (attacker's troops left in the attacking
    territory, defender's troops left, how it ended: taken / stopped / immune, probability), the
    probabilities summing to 1; `missiles_fired` the expected Missiles (attacker, defender)."""

    battle: Battle
    policy: Policy
    outcomes: tuple[tuple[int, int, str, Probability], ...] = field(repr=False)
    missiles_fired: tuple[Probability, Probability] = (0, 0)

    def _sum(self, f: Callable[[int, int, str], float]) -> Probability:
        return sum((p * f(a, d, how) for a, d, how, p in self.outcomes), 0 * self.outcomes[0][3])

    @property
    def attacker_wins(self) -> Probability:
        """P(the attacker takes the territory)."""
        return self._sum(lambda a, d, how: how == TAKEN)

    @property
    def defender_holds(self) -> Probability:
        return self._sum(lambda a, d, how: how != TAKEN)

    def ended(self, how: str) -> Probability:
        """P(the attack ends this way: TAKEN, STOPPED or IMMUNE)."""
        return self._sum(lambda a, d, h: h == how)

    @property
    def expected_attacker_losses(self) -> Probability:
        return self.battle.attacker - self._sum(lambda a, d, how: a)

    @property
    def expected_defender_losses(self) -> Probability:
        return self.battle.defender - self._sum(lambda a, d, how: d)

    @property
    def attacker_left(self) -> dict[int, Probability]:
        """P(the attacking territory ends with n troops), by n (the survivors of a conquest are
        still counted there: they move in afterwards)."""
        return self._distribution(0)

    @property
    def defender_left(self) -> dict[int, Probability]:
        return self._distribution(1)

    def _distribution(self, side: int) -> dict[int, Probability]:
        dist: dict[int, Probability] = defaultdict(lambda: 0 * self.outcomes[0][3])
        for outcome in self.outcomes:
            dist[outcome[side]] += outcome[3]
        return dict(sorted(dist.items()))

    def as_dict(self) -> dict:
        """The summary as plain data (probabilities as floats, or as "p/q" strings when exact)."""
        out = (lambda x: str(x)) if isinstance(self.outcomes[0][3], Fraction) else float
        b = self.battle
        return {
            "attacker": b.attacker,
            "defender": b.defender,
            "defender_modifiers": [m._asdict() for m in b.defender_modifiers],
            "attacker_modifiers": [m._asdict() for m in b.attacker_modifiers],
            "fortification": ("never wears" if b.fortification == NEVER_WEARS else b.fortification),
            "powers": {"three_of_a_kind": b.three_of_a_kind, "double_sixes": b.double_sixes},
            "attacker_wins": out(self.attacker_wins),
            "defender_holds": out(self.defender_holds),
            "ended": {how: out(self.ended(how)) for how in ENDINGS},
            "expected_losses": {"attacker": out(self.expected_attacker_losses),
                                "defender": out(self.expected_defender_losses)},
            "attacker_left": {str(n): out(p) for n, p in self.attacker_left.items()},
            "defender_left": {str(n): out(p) for n, p in self.defender_left.items()},
            "expected_missiles_fired": {"attacker": out(self.missiles_fired[0]),
                                        "defender": out(self.missiles_fired[1])},
            "policy": {"stop_at": self.policy.stop_at,
                       "attacker_missiles": self.policy.attacker_missiles,
                       "defender_missiles": self.policy.defender_missiles,
                       "description": self.policy.describe()},
        }

    def lines(self) -> list[str]:
        """The attack's odds for a reader."""
        def p(x) -> str:
            return f"{float(x):.4f}" + (f"  ({x})" if isinstance(x, Fraction) else "")

        def spread(dist: dict[int, Probability]) -> str:
            shown = [(n, q) for n, q in dist.items() if float(q) >= 0.0005]
            return ", ".join(f"{n}: {float(q):.3f}" for n, q in shown)

        lines = [self.battle.describe(),
                 f"  attacker takes the territory  {p(self.attacker_wins)}",
                 f"  defender holds                {p(self.defender_holds)}"]
        if self.policy.stop_at > 1:
            lines.append(f"    of which the attacker stops {p(self.ended(STOPPED))}")
        if self.battle.double_sixes:
            lines.append(f"    of which double sixes       {p(self.ended(IMMUNE))}")
        lines += [
            f"  expected losses               attacker {float(self.expected_attacker_losses):.2f} of "
            f"{self.battle.attacker - 1} that may attack, defender {float(self.expected_defender_losses):.2f} "
            f"of {self.battle.defender}",
            f"  attacker's troops left        {spread(self.attacker_left)}",
            f"  defender's troops left        {spread(self.defender_left)}",
        ]
        if self.policy.attacker_missiles or self.policy.defender_missiles:
            lines.append(f"  Missiles fired (expected)     attacker {float(self.missiles_fired[0]):.2f}, "
                         f"defender {float(self.missiles_fired[1]):.2f}")
        lines.append(f"policy: {self.policy.describe()}")
        return lines


def attack_odds(battle: Battle, policy: Policy = DEFAULT_POLICY, *, exact: bool = False) -> AttackOdds:
    """The exact outcome distribution of an attack (floats, or Fractions when `exact`)."""
    return _attack_odds(battle, policy, exact)


@lru_cache(maxsize=1024)
def _attack_odds(battle: Battle, policy: Policy, exact: bool) -> AttackOdds:
    zero: Probability = Fraction(0) if exact else 0.0
    start: State = (battle.attacker, battle.defender, policy.attacker_missiles,
                    policy.defender_missiles, battle.fortification)
    ends: dict[tuple[int, int, str], Probability] = defaultdict(lambda: zero)
    fired = [zero, zero]
    # mass by troops left on both sides: every roll removes at least one troop, so taking the
    # buckets from the most troops down visits each state after everything that leads to it
    buckets: dict[int, dict[State, Probability]] = defaultdict(lambda: defaultdict(lambda: zero))
    first = _ending(policy, battle.attacker, battle.defender)
    if first is not None:
        ends[battle.attacker, battle.defender, first] = zero + 1
    else:
        buckets[battle.attacker + battle.defender][start] = zero + 1
    for troops in range(battle.attacker + battle.defender, 1, -1):
        for state, p in sorted(buckets.pop(troops, {}).items(), reverse=True):
            for q, nxt, how in _moves(battle, policy, state, exact):
                pq = p * q
                fired[0] += pq * (state[2] - nxt[2])
                fired[1] += pq * (state[3] - nxt[3])
                if how is None:
                    buckets[nxt[0] + nxt[1]][nxt] += pq
                else:
                    ends[nxt[0], nxt[1], how] += pq
    outcomes = tuple((a, d, how, p) for (a, d, how), p in
                     sorted(ends.items(), key=lambda kv: (-kv[0][0], kv[0][1], kv[0][2])) if p)
    return AttackOdds(battle, policy, outcomes, (fired[0], fired[1]))


# ---------------------------------------------------------------------------------------------
# the chance of taking the territory from any point, and the luck of a roll
# ---------------------------------------------------------------------------------------------

class _Chances:
    """P(the attacker takes the territory) from each state of one kind of attack (the battle's
    modifiers and powers, a policy, exact or not), by backward induction, memoized as asked."""

    def __init__(self, battle: Battle, policy: Policy, exact: bool):
        self.battle, self.policy, self.exact = battle, policy, exact
        self.memo: dict[State, Probability] = {}

    def at(self, state: State) -> Probability:
        one: Probability = Fraction(1) if self.exact else 1.0
        how = _ending(self.policy, state[0], state[1])
        if how is not None:
            return one if how == TAKEN else one - one
        stack = [state]
        while stack:                       # depth-first without recursion (attacks can be long)
            s = stack[-1]
            if s in self.memo:
                stack.pop()
                continue
            moves = list(_moves(self.battle, self.policy, s, self.exact))
            missing = [n for _, n, how in moves if how is None and n not in self.memo]
            if missing:
                stack.extend(missing)
                continue
            self.memo[s] = sum((q * (self.memo[n] if how is None else one if how == TAKEN else 0)
                                for q, n, how in moves), one - one)
            stack.pop()
        return self.memo[state]


@lru_cache(maxsize=256)
def _chances(kind: Battle, policy: Policy, exact: bool) -> _Chances:
    return _Chances(kind, policy, exact)


def _kind(battle: Battle) -> Battle:
    """The battle with its troops and boxes set aside: what the chances of its states share."""
    return Battle(2, 1, battle.defender_modifiers, battle.attacker_modifiers, 0,
                  battle.three_of_a_kind, battle.double_sixes)


def take_chance(battle: Battle, policy: Policy = DEFAULT_POLICY, *, exact: bool = False) -> Probability:
    """P(the attacker takes the territory) from the battle as it stands (the same number as
    `attack_odds(...).attacker_wins`, computed backwards and memoized per kind of battle, so the
    chances along one attack cost little)."""
    state = (battle.attacker, battle.defender, policy.attacker_missiles, policy.defender_missiles,
             battle.fortification)
    return _chances(_kind(battle), policy, exact).at(state)


@dataclass(frozen=True)
class RollLuck:
    """One roll against the odds, in chances of taking the territory (no Missiles counted)."""

    before: float      # P(take) before the roll, both sides rolling all their dice from here on
    expected: float    # the mean P(take) after a roll of the dice counts rolled
    after: float       # P(take) after this roll's dice (before any Missile)
    luck: float        # after - expected: what the dice gave the attacker's chance


def roll_luck(battle: Battle, attack_natural: Sequence[int], defence_natural: Sequence[int]) -> RollLuck | None:
    """The luck of one roll of an attack standing as `battle` (troops, modifiers and boxes left
    before the roll), from its natural dice: the chance of taking the territory after the dice
    (modified, powers included, no Missile: a Missile is a choice) minus its mean over every roll
    of the dice counts rolled. Summed over an attack fought as DEFAULT_POLICY fights (all dice,
    to the last troop, no Missile) it is (1 if taken else 0) - P(take) at the start. None when the
    dice counts are not ones the rules allow here."""
    na, nd = len(attack_natural), len(defence_natural)
    most_a, most_d = _dice(battle.attacker, battle.defender)
    if not (1 <= na <= most_a and 1 <= nd <= most_d):
        return None
    chances = _chances(_kind(battle), DEFAULT_POLICY, False)
    boxes = battle.fortification
    defender = battle.defender_modifiers + ((FORTIFICATION,) if boxes else ())
    boxes_after = boxes - 1 if boxes > 0 and na == MAX_ATTACK_DICE else boxes

    def chance_after(a_lost: int, d_lost: int, effect: str | None) -> float:
        a2, d2 = battle.attacker - a_lost, 0 if effect == FALLS else max(battle.defender - d_lost, 0)
        if effect == SHIELDED and d2 > 0:
            return 0.0
        return float(chances.at((a2, d2, 0, 0, boxes_after)))

    expected = sum(p * chance_after(a_lost, d_lost, effect) for p, a_lost, d_lost, _, _, effect in
                   _float_outcomes(na, nd, _changes(battle.attacker_modifiers), _changes(defender), 0, 0,
                                   battle.three_of_a_kind, battle.double_sixes))
    fa = final_dice(attack_natural, battle.attacker_modifiers)
    fd = final_dice(defence_natural, defender)
    a_lost, d_lost = casualties(fa, fd)
    effect = (FALLS if battle.three_of_a_kind and is_three_of_a_kind(attack_natural) and d_lost >= 1
              else SHIELDED if battle.double_sixes and is_double_six(defence_natural) else None)
    after = chance_after(a_lost, d_lost, effect)
    before = float(chances.at((battle.attacker, battle.defender, 0, 0, boxes)))
    return RollLuck(before, expected, after, after - expected)


# ---------------------------------------------------------------------------------------------
# reading an attack from text
# ---------------------------------------------------------------------------------------------

class AttackParseError(LedgerError, ValueError):
    """An attack description that cannot be read; the message quotes it and says where."""


VERSUS = ("vs", "vs.", "versus", "v", "v.", "against", "attack", "attacks")
FILLER = ("with", "in", "a", "an", "the", "and", "behind", "left", "its", "their", "troop", "troops",
          "army", "armies", "+", "-", ",", "&", "(", ")", ";", "city", "die", "dice", "on", "by", "of")
POWERS = {"first strike": "attacker", "three of a kind": "attacker", "double sixes": "defender",
          "hq": "defender"}
MAX_TROOPS = 300   # far more than a territory holds in a game; keeps a typo from running for minutes
MAX_STATES = 2_000_000   # a few seconds of the chain

ODDS_HELP = ('The attack: "A vs D [marks]", A the troops in the attacking territory (one stays '
             'behind), D the defenders, e.g. "10 vs 6", "10 vs 6 bunker", "8 with 2 missiles vs 5 '
             'fortified (3 boxes left) ammo shortage". Defender marks: bunker, ammo shortage (the '
             'scars), fortified [N boxes left] (a Fortified city, 10 boxes when not said), hq (Die '
             'Mechaniker\'s fortified HQ: never wears), double sixes (its power), N missiles. '
             'Attacker: first strike, three of a kind (the Enclave\'s powers), N missiles. Any other '
             'modifier on either side: +1 higher, -1 lower, +1 each. Options: --stop N (the attacker '
             'stops when its territory is down to N troops; default 1) and --exact (fractions).')

ODDS_EXAMPLES = ('"10 vs 6"', '"10 vs 6 bunker"', '"8 with 2 missiles vs 5 fortified (3 boxes left)" --stop 3',
                 '"4 vs 2" --exact --json')


def parse_attack(text: str) -> tuple[Battle, int, int]:
    """Read "8 with 2 missiles vs 5 fortified (3 boxes left) bunker" as (battle, attacker's
    Missiles, defender's Missiles)."""
    # "ammo-shortage", "double_sixes": the words of a name may be joined
    spaced = re.sub(r"(?<=[A-Za-z])[-_](?=[A-Za-z])", " ", text)
    tokens = [(m.group(), m.start()) for m in re.finditer(r"[+-]\d+|\d+|[A-Za-z]+\.?|[^\sA-Za-z\d]", spaced)]
    split = [i for i, (t, _) in enumerate(tokens) if t.lower() in VERSUS]
    if len(split) != 1:
        raise AttackParseError(f"expected one 'vs' between the attacker and the defender in {text!r}"
                               + (f"; found {len(split)}" if split else ""))
    att = _parse_side(text, tokens[:split[0]], "attacker")
    dfn = _parse_side(text, tokens[split[0] + 1:], "defender")
    battle = Battle(att["troops"], dfn["troops"],
                    defender_modifiers=tuple(dfn["modifiers"]) + tuple(att["on_defender"]),
                    attacker_modifiers=tuple(att["modifiers"]),
                    fortification=dfn["fortification"],
                    three_of_a_kind=att["three of a kind"], double_sixes=dfn["double sixes"])
    return battle, att["missiles"], dfn["missiles"]


def _parse_side(text: str, tokens: list[tuple[str, int]], side: str) -> dict:
    got: dict = {"troops": None, "missiles": 0, "modifiers": [], "on_defender": [], "fortification": 0,
                 "three of a kind": False, "double sixes": False, "scar": None}
    words = [t.lower().rstrip(".") for t, _ in tokens]

    def bad(why: str, at: int) -> AttackParseError:
        return AttackParseError(f"{why} at column {at + 1} of {text!r}")

    def phrase(i: int, names: Iterable[str]) -> str | None:
        """The longest of `names` (words joined by spaces, hyphens or underscores) starting at i."""
        for name in sorted(names, key=lambda n: -len(n.split())):
            parts = name.split()
            if words[i:i + len(parts)] == parts:
                return name
        return None

    i = 0
    while i < len(tokens):
        tok, at = tokens[i]
        word = words[i]
        scar = phrase(i, [s.replace("_", " ") for s in SCAR_EFFECTS])
        power = phrase(i, POWERS)
        if re.fullmatch(r"[+-]\d+", tok):
            if i + 1 >= len(words) or words[i + 1] not in DIE_POSITIONS:
                raise bad(f"a modifier {tok!r} names the die it changes: higher, lower or each", at)
            got["modifiers"].append(Modifier(words[i + 1], int(tok), "modifier"))
            i += 2
        elif tok.isdigit():
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if nxt in ("missile", "missiles"):
                got["missiles"] += int(tok)
                i += 2
            elif nxt in ("box", "boxes"):
                if not got["fortification"] or got["fortification"] == NEVER_WEARS:
                    raise bad("boxes left are those of a Fortification: 'fortified (3 boxes left)'", at)
                if not 1 <= int(tok) <= FORTIFICATION_BOXES:
                    raise bad(f"a Fortification has 1-{FORTIFICATION_BOXES} boxes left; got {tok}", at)
                got["fortification"] = int(tok)
                i += 2
            elif got["troops"] is not None:
                raise bad(f"the {side}'s troops are given twice ({got['troops']} and {tok})", at)
            else:
                got["troops"] = int(tok)
                i += 1
        elif scar is not None:
            if side != "defender":
                raise bad(f"a scar ({scar}) is on the defended territory: it comes after 'vs'", at)
            if got["scar"] is not None:
                raise bad(f"a territory has one scar at most ({got['scar']} and {scar})", at)
            die, delta = SCAR_EFFECTS[scar.replace(" ", "_")]
            got["scar"] = scar
            got["modifiers"].append(Modifier(die, delta, scar))
            i += len(scar.split())
        elif word in ("fortified", "fortification", "fort", "fortifications"):
            if side != "defender":
                raise bad("a Fortification defends: it comes after 'vs'", at)
            if got["fortification"] != NEVER_WEARS:
                got["fortification"] = FORTIFICATION_BOXES
            i += 1
        elif power is not None:
            if POWERS[power] != side:
                raise bad(f"{power!r} is the {POWERS[power]}'s power", at)
            if power == "first strike":
                got["on_defender"].append(FIRST_STRIKE)
            elif power == "hq":
                got["fortification"] = NEVER_WEARS
            else:
                got[power] = True
            i += len(power.split())
        elif word in FILLER:
            i += 1
        else:
            raise bad(f"cannot read {tok!r}", at)
    if got["troops"] is None:
        raise AttackParseError(f"the {side}'s troops are missing in {text!r}")
    if got["troops"] > MAX_TROOPS:
        raise AttackParseError(f"the {side} has {got['troops']} troops in {text!r}; at most {MAX_TROOPS} here")
    return got


def odds_of(text: str) -> AttackOdds:
    """RULESET.odds: the odds of the attack `text` describes (ODDS_HELP); ValueError naming what
    could not be read."""
    words = text.split()
    exact = "--exact" in words
    words = [w for w in words if w != "--exact"]
    stop = "1"
    attack: list[str] = []
    i = 0
    while i < len(words):
        if words[i] == "--stop":
            if i + 1 >= len(words) or not words[i + 1].isdigit():
                raise AttackParseError("--stop needs a number of troops (the attacker stops when its "
                                       "territory is down to it)")
            stop = words[i + 1]
            i += 2
        elif words[i].startswith("--"):
            raise AttackParseError(f"unknown option {words[i]!r}: --stop N or --exact")
        else:
            attack.append(words[i])
            i += 1
    battle, att_missiles, def_missiles = parse_attack(" ".join(attack))
    policy = Policy(stop_at=int(stop), attacker_missiles=att_missiles, defender_missiles=def_missiles)
    # Missiles beyond the dice of every roll the attack can have are never fired
    rolls = battle.attacker + battle.defender
    states = (battle.attacker * battle.defender * (min(att_missiles, 3 * rolls) + 1)
              * (min(def_missiles, 2 * rolls) + 1) * (max(battle.fortification, 0) + 1))
    if states > MAX_STATES:
        raise AttackParseError(f"{' '.join(attack)!r} has about {states:,} states (troops x troops x "
                               f"Missiles x boxes), more than the {MAX_STATES:,} computed here; give "
                               "fewer troops or Missiles")
    return attack_odds(battle, policy, exact=exact)

"""Combat dice: modifiers, missiles and casualties. Pure functions of the dice and the marks.

    final_dice(natural, modifiers, missiles) -> dice      one side's dice after every modifier
    casualties(attack, defence) -> (attacker, defender)   troops each side loses

How modifiers apply (docs/risk-legacy.md, RL-RULING-MODIFIER-ORDER): each side's natural dice are
sorted from highest to lowest (equal dice keep the order they were recorded in); a modifier names
the die it changes by that position ("higher" is the first, "lower" the last, "each" every die),
so when two dice show the same number only one of them is changed per scar or power; the changes
to a die are added up and the result clamped to 1..6; a Missile makes its die an unmodifiable 6
(changes to that die are ignored). Then both sides are sorted again and compared highest against
highest: the higher die wins, ties go to the defender.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

from engine.core.dice import highest_against_highest


class Modifier(NamedTuple):
    """A change to one side's dice: which die ("higher", "lower", "each"), by how much, and why."""

    die: str
    delta: int
    source: str


DIE_POSITIONS = ("higher", "lower", "each")

# The modifiers of the box (RL-FORTIFICATION, RL-POWER-BEAR-FIRST-STRIKE, RL-POWER-MECH-FORTIFIED-HQ);
# the scars' are data (board.SCAR_EFFECTS).
FORTIFICATION = Modifier("each", +1, "fortification")
FIRST_STRIKE = Modifier("lower", -1, "Enclave first strike")


def natural_order(dice: Sequence[int]) -> list[int]:
    """Indices of `dice` from the highest die to the lowest (a stable sort: equal dice keep the
    order they were recorded in)."""
    return sorted(range(len(dice)), key=lambda i: -dice[i])


def final_dice(natural: Sequence[int], modifiers: Iterable[Modifier] = (),
               missiles: Iterable[int] = ()) -> list[int]:
    """One side's dice after modifiers and missiles, highest first.

    `missiles` are indices into `natural` (as recorded) turned into unmodifiable 6s.
    """
    if not natural:
        return []
    order = natural_order(natural)
    delta = [0] * len(natural)
    for m in modifiers:
        if m.die == "higher":
            delta[order[0]] += m.delta
        elif m.die == "lower":
            delta[order[-1]] += m.delta
        elif m.die == "each":
            for i in range(len(natural)):
                delta[i] += m.delta
        else:
            raise ValueError(f"unknown die position {m.die!r}")
    hit = set(missiles)
    out = [6 if i in hit else min(6, max(1, natural[i] + delta[i])) for i in range(len(natural))]
    return sorted(out, reverse=True)


def casualties(attack: Sequence[int], defence: Sequence[int]) -> tuple[int, int]:
    """Troops lost (attacker, defender) when final dice `attack` meet `defence` (both sorted
    highest first): highest against highest, then the next; ties go to the defender; unmatched
    dice are ignored."""
    won, lost = highest_against_highest(attack, defence)
    return lost, won


def is_three_of_a_kind(natural: Sequence[int]) -> bool:
    return len(natural) == 3 and len(set(natural)) == 1


def is_double_six(natural: Sequence[int]) -> bool:
    return len(natural) == 2 and natural[0] == 6 and natural[1] == 6

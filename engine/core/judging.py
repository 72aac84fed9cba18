"""What judging chance asks alike of every ruleset's state: dice recorded in the game's dice log
(checked against the seed when the judge knows it), a roll's dice in seat order, and the seed
revealed at the end of a seeded game (ledger dice commitments, docs/log-format.md).

A state here is any ruleset's state with the fields `dice_mode`, `seed_hash`, `seats`,
`dice_log`, `dice_count` and `dice_tape`; `replace` is that state's own `evolve`, and `rule` the
ruleset's rule that every die of a seeded game is its seed's (the one with topic "seed")."""

from __future__ import annotations

from typing import Any, Callable

from engine.core.canonical import sha256_hex
from engine.core.dice import DiceTape, first_wrong_die, logged_dice, record_dice
from engine.core.rules import Verdicts

State = Any


def record_roll(s: State, values: list[int], c: Verdicts, rule: str, replace: Callable) -> State:
    """The state with `values` added to its dice log; with the seed already known, each die is
    checked against its stream here, at its own line (a wrong one is `rule`)."""
    log, count, wrong = record_dice(s.dice_log, s.dice_count, s.dice_tape, values)
    if wrong is not None:
        i, got, want, seed_faces = wrong
        c.bad(rule, f"die #{i + 1} of the game shows {got}; the revealed seed gives {want} "
              f"(dice here {list(values)}, seed {seed_faces})")
    return replace(s, dice_log=log, dice_count=count)


def seat_ordered(s: State, rolls: dict[str, list[int]]) -> list[int]:
    """The dice of a roll by several players, in seat order (the order they enter the dice log)."""
    out: list[int] = []
    for p in s.seats:
        out.extend(rolls.get(p, ()))
    return out


def bad_faces(rolls: dict[str, list[int]]) -> list[int]:
    """The dice of a roll that show no face of a die (1-6)."""
    return [d for dice in rolls.values() for d in dice if not (1 <= d <= 6)]


def is_the_seed(s: State, seed: str) -> bool:
    """Is `seed` the one whose hash a seeded game published at its start?"""
    return s.dice_mode == "seeded" and sha256_hex(seed) == (s.seed_hash or "").lower()


def with_seed(s: State, seed: str, replace: Callable) -> State:
    """A judge that has read the whole log knows the seed revealed at its end: with it, every die
    is checked at its own line. A seed that does not match the published hash changes nothing
    (SeedRevealed reports it)."""
    if not is_the_seed(s, seed):
        return s
    return replace(s, dice_tape=DiceTape(seed))


def check_logged_dice(s: State, seed: str, c: Verdicts, rule: str) -> State:
    """Every die of the log against the stream of the seed revealed at the end."""
    dice = logged_dice(s.dice_log)
    wrong = first_wrong_die(dice, seed)
    if wrong is not None:
        i, got, want = wrong
        c.bad(rule, f"die #{i + 1} of the game shows {got}; the seed gives {want}")
    c.note(f"Seed revealed: {'the one die' if len(dice) == 1 else f'all {len(dice)} dice'} checked against it")
    return s


def seed_revealed(s: State, seed: str, c: Verdicts, rule: str,
                  check_unchecked: Callable[[State, str, Verdicts], State] | None = None) -> State | None:
    """SeedRevealed: None (skipped) in a game whose dice were rolled at the table; a seed that does
    not match the published hash is `rule`; with the seed known from the start every die was
    already checked; else the dice are checked now (`check_unchecked`, by default every logged die
    against the seed's stream)."""
    if s.dice_mode != "seeded":
        return c.skip(rule, "this game's dice were rolled at the table; there is no seed to reveal")
    if sha256_hex(seed) != (s.seed_hash or "").lower():
        c.bad(rule, "the revealed seed does not match the seed hash published at the start")
        return s
    if s.dice_tape is not None:
        c.note(f"Seed revealed: its hash matches; all {s.dice_count} dice were checked at their own lines")
        return s
    if check_unchecked is None:
        return check_logged_dice(s, seed, c, rule)
    return check_unchecked(s, seed, c)

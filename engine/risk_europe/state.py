"""Risk Europe game state: the board and holdings (`terr`, `players`) apart from the turn flow
(`flow`, `battle`). Everything is immutable; `apply` builds new values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from engine.core.ruleset import GameResult
from engine.risk_europe.board import GameData, Territory

PlayerId = str


class Units(NamedTuple):
    footman: int = 0
    archer: int = 0
    cavalry: int = 0
    siege: int = 0

    @property
    def total(self) -> int:
        return self.footman + self.archer + self.cavalry + self.siege

    def __add__(self, other: "Units") -> "Units":  # type: ignore[override]
        return Units(self.footman + other.footman, self.archer + other.archer,
                     self.cavalry + other.cavalry, self.siege + other.siege)

    def minus(self, other: "Units") -> "Units":
        return Units(self.footman - other.footman, self.archer - other.archer,
                     self.cavalry - other.cavalry, self.siege - other.siege)

    def covers(self, other: "Units") -> bool:
        """Are there at least `other` units of every type here?"""
        return (self.footman >= other.footman and self.archer >= other.archer
                and self.cavalry >= other.cavalry and self.siege >= other.siege)

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in zip(self._fields, self) if v}

    def describe(self) -> str:
        parts = [f"{v} {k if v == 1 else _PLURAL[k]}" for k, v in zip(self._fields, self) if v]
        return ", ".join(parts) if parts else "no units"


_PLURAL = {"footman": "footmen", "archer": "archers", "cavalry": "cavalry", "siege": "siege weapons"}
NO_UNITS = Units()


class Terr(NamedTuple):
    """One territory: its controller (the defender while disputed) and their units, the attacker
    and theirs while disputed, a castle, and the step at which the controller took it."""

    owner: PlayerId | None = None
    units: Units = NO_UNITS
    attacker: PlayerId | None = None
    attacker_units: Units = NO_UNITS
    castle: bool = False
    since: int = 0

    @property
    def is_disputed(self) -> bool:
        return self.attacker is not None


class Player(NamedTuple):
    coins: int = 5
    crown_cards: int = 0
    hand: frozenset[str] = frozenset()
    stack: tuple[str, ...] = ()          # committed cards, top first (table mode)
    commitments: tuple[str, ...] = ()    # committed hashes, top first (commitment mode)
    committed: bool = False
    revealed: tuple[str, ...] = ()       # cards revealed this round
    crown_card_round: int = 0            # last round a Crown Card was bought
    bid: int | None = None
    bid_commitment: str | None = None
    eliminated: bool = False
    saved_until: int = 0                 # Saved by the Crown: the round the grace ends


class Flow(NamedTuple):
    """Where the game is: phase, round, turn order and the current turn's progress."""

    phase: str = "bidding"   # bidding, rolloff, placement, commit, turn, battles, over
    round: int = 0
    order: tuple[PlayerId, ...] = ()
    index: int = 0
    turn: int = 1
    tied: tuple[PlayerId, ...] = ()
    card: str | None = None           # card revealed this turn
    order_done: str | None = None     # order played this turn
    bonus_used: bool = False
    berlin_used: bool = False
    pending: tuple | None = None      # ("siege_dice", from, target, dice) | ("casualties", territory, victim, hits)

    @property
    def current(self) -> PlayerId | None:
        if self.phase in ("placement", "turn") and self.index < len(self.order):
            return self.order[self.index]
        return None


class Battle(NamedTuple):
    territory: Territory
    attacker: PlayerId
    defender: PlayerId
    castle: bool
    cycle: int = 1
    rank: int = 1
    stage: str = "roll"                       # roll | rolled
    reroll_used: bool = False
    rolls: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())   # attacker, defender (last rank)
    owed: tuple[tuple[PlayerId, int], ...] = ()                  # casualties still to remove


@dataclass(frozen=True, slots=True)
class State:
    data: GameData
    variant: str
    seats: tuple[PlayerId, ...]
    names: Mapping[PlayerId, str]
    dice_mode: str
    seed_hash: str | None
    players: Mapping[PlayerId, Player]
    terr: Mapping[Territory, Terr]
    marker: PlayerId | None
    castles_left: int
    crown_cards_left: int
    flow: Flow
    battle: Battle | None
    fought: tuple[Territory, ...]                 # battles finished this round
    last_battle: tuple[Territory, PlayerId | None] | None
    result: GameResult | None
    step: int
    dice_log: Any                                 # (die, previous cell) chain of every die, newest first
    notes: tuple[str, ...] = ()                   # what the last event caused, for readers
    at: tuple[str, int, int] = ("bidding", 0, 1)  # phase, round, turn in which the last event happened
    dice_count: int = 0                           # dice rolled so far
    dice_tape: Any = None                         # the revealed seed's dice (DiceTape), when known

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.seats if not self.players[p].eliminated)


def _make_evolve():
    """A fast `dataclasses.replace` for State (the hot path of apply): generated once, it copies
    every field by name without the per-call introspection dataclasses.replace does."""
    from dataclasses import fields
    names = [f.name for f in fields(State)]
    params = ", ".join(f"{n}=_KEEP" for n in names)
    body = "".join(f"    _set(new, {n!r}, s.{n} if {n} is _KEEP else {n})\n" for n in names)
    src = f"def evolve(s, *, {params}):\n    new = _new(_State)\n{body}    return new\n"
    scope = {"_KEEP": object(), "_new": object.__new__, "_set": object.__setattr__, "_State": State}
    exec(src, scope)  # noqa: S102 - generated from the dataclass's own field names
    return scope["evolve"]


evolve = _make_evolve()

"""Risk Europe game state: the board and holdings (`terr`, `players`) apart from the turn flow
(`flow`, `battle`). Everything is immutable; `apply` builds new values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, NamedTuple

from engine.core.dice import DiceState
from engine.core.evolve import fast_replace, make_evolve
from engine.core.ruleset import GameResult
from engine.risk_europe.board import GameData, Territory
from engine.risk_europe.variants import Variant, parse_variant

PlayerId = str


# `new_units(Units, (footman, archer, cavalry, siege))` is `Units(footman, archer, cavalry, siege)`
# without the generated __new__ (keyword defaults) in between: about twice as fast, for hot paths.
new_units = tuple.__new__


class Units(NamedTuple):
    footman: int = 0
    archer: int = 0
    cavalry: int = 0
    siege: int = 0

    @property
    def total(self) -> int:
        return self.footman + self.archer + self.cavalry + self.siege

    def __add__(self, other: "Units") -> "Units":  # type: ignore[override]
        return new_units(Units, (self.footman + other.footman, self.archer + other.archer,
                                 self.cavalry + other.cavalry, self.siege + other.siege))

    def minus(self, other: "Units") -> "Units":
        return new_units(Units, (self.footman - other.footman, self.archer - other.archer,
                                 self.cavalry - other.cavalry, self.siege - other.siege))

    def covers(self, other: "Units") -> bool:
        """Are there at least `other` units of every type here?"""
        return (self.footman >= other.footman and self.archer >= other.archer
                and self.cavalry >= other.cavalry and self.siege >= other.siege)

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in zip(self._fields, self) if v}

    def describe(self) -> str:
        """"2 footmen, 1 siege weapon" (notes and messages); remembered per value (`_DESCRIBED`)."""
        text = _DESCRIBED.get(self)
        if text is None:
            parts = [f"{v} {name[v != 1]}" for v, name in zip(self, _NAMES) if v]
            text = ", ".join(parts) if parts else "no units"
            if len(_DESCRIBED) < 4096:
                _DESCRIBED[self] = text
        return text


_PLURAL = {"footman": "footmen", "archer": "archers", "cavalry": "cavalry", "siege": "siege weapons"}
_NAMES = tuple((k, _PLURAL[k]) for k in Units._fields)   # (one, many) in field order, for describe
NO_UNITS = Units()
_DESCRIBED: dict[tuple[int, ...], str] = {}   # Units.describe's texts by value (a few hundred occur)


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
    controller: PlayerId | None = None   # a Mercenary Army: the player who won its bid this round
    kept_missions: tuple[str, ...] = ()  # Kingdom Missions kept face down: ids (table) ...
    kept_commitments: tuple[str, ...] = ()  # ... or commitments to them (digital play)
    missions_done: tuple[str, ...] = ()  # completed missions, revealed (each adds a crown: crown_cards)


class Flow(NamedTuple):
    """Where the game is: phase, round, turn order and the current turn's progress."""

    phase: str = "bidding"   # tiles, bidding, rolloff, placement, commit, merc_order, control, turn, battles, over
    round: int = 0
    order: tuple[PlayerId, ...] = ()
    index: int = 0   # type: ignore[assignment]  # a field named like tuple.index, which it shadows
    turn: int = 1
    tied: tuple[PlayerId, ...] = ()
    card: str | None = None           # card revealed this turn
    order_done: str | None = None     # order played this turn
    bonus_used: bool = False
    berlin_used: bool = False
    pending: tuple | None = None      # ("siege_dice", from, target, dice) | ("casualties", territory, victim, hits)
    merc: PlayerId | None = None      # the Mercenary Army being bid for (control, rolloff)
    queue: tuple[PlayerId, ...] = ()  # Mercenary Armies still to be bid for this round

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


# Not slotted on purpose: a State is copied once or more per event (`evolve` below), and copying
# an instance dict in one C call is about 4x faster than setting ~25 slots one by one.
@dataclass(frozen=True)
class State:
    data: GameData
    variant: str
    seats: tuple[PlayerId, ...]
    names: Mapping[PlayerId, str]
    dice: DiceState                               # the dice so far: mode, seed hash, log, count, tape
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
    notes: tuple[str, ...] = ()                   # what the last event caused, for readers
    at: tuple[str, int, int] = ("bidding", 0, 1)  # phase, round, turn in which the last event happened
    last_battle_at: tuple[str, int, int] | None = None  # where `last_battle` ended (for readers, not digested)
    mercenaries: tuple[PlayerId, ...] = ()        # armies played as Mercenary Armies (also in `seats`)

    @property
    def variant_rules(self) -> Variant:
        """The variant's row of the variant table (engine/risk_europe/variants.py)."""
        return parse_variant(self.variant)

    @property
    def missions(self) -> bool:
        """Are Kingdom Missions in play?"""
        return self.variant_rules.missions

    def is_mercenary(self, p: PlayerId | None) -> bool:
        return p in self.mercenaries

    @property
    def active_armies(self) -> tuple[PlayerId, ...]:
        """Every army still in the game, players and Mercenary Armies, in seat order."""
        return tuple(p for p in self.seats if not self.players[p].eliminated)

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        """The players still in the game (Mercenary Armies are not players: they never win)."""
        return tuple(p for p in self.seats if not self.players[p].eliminated and p not in self.mercenaries)

    @property
    def active_mercenaries(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.seats if p in self.mercenaries and not self.players[p].eliminated)

    def team_of(self, p: PlayerId) -> tuple[PlayerId, ...]:
        """Team play: `p` and the player in the opposite seat; without teams, `p` alone."""
        if not self.variant_rules.teams:
            return (p,)
        i = self.seats.index(p)
        half = len(self.seats) // 2
        return tuple(sorted((p, self.seats[(i + half) % len(self.seats)]), key=self.seats.index))

    def is_teammate(self, p: PlayerId | None, q: PlayerId | None) -> bool:
        """Are `p` and `q` different players of the same team (team play)?"""
        return p is not None and q is not None and p != q and q in self.team_of(p)


for _cls in (Terr, Player, Flow, Battle):
    fast_replace(_cls)
del _cls
# Units.total, the same sum with `sum` itself as the getter: read several times an event, it then
# runs no Python frame (a NamedTuple's body takes no such assignment, hence here)
Units.total = property(sum)  # type: ignore[assignment, method-assign]

evolve = make_evolve(State)

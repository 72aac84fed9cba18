"""Risk Legacy game state: the board and holdings (`terr`, `players`, `side`, `world`) apart from
the turn flow (`flow`, `combat`). Everything is immutable; `apply` builds new values."""

from __future__ import annotations

from engine.core.dice import DiceState
from engine.core.evolve import make_evolve

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping, NamedTuple

from engine.core.ruleset import GameResult
from engine.risk_legacy.board import CardId, Faction, GameData, Territory
from engine.risk_legacy.world import World

PlayerId = str

FACE_DOWN = "face_down"
"""`Player.scar` of a Scar card dealt face down (a commitment): held, but which one is secret."""

# the steps of a turn (RL-TURN-STEPS)
START, MAIN, MANEUVERED, END = 0, 1, 2, 3
STEP_NAMES = {START: "start of turn", MAIN: "expand and attack", MANEUVERED: "after the maneuver",
              END: "end of turn"}


class Terr(NamedTuple):
    """One territory: who controls it and with how many troops, and whose HQ stands there."""

    owner: PlayerId | None = None
    troops: int = 0
    hq: Faction | None = None

    @property
    def is_occupied(self) -> bool:
        return self.troops > 0 or self.hq is not None


class Player(NamedTuple):
    faction: Faction | None = None
    tokens: int = 0                      # Red Star tokens
    missiles: int = 0
    hand: tuple[CardId, ...] = ()        # resource cards, sorted ("coin" for a Coin card)
    scar: str | None = None              # the Scar card dealt for this game, until played (FACE_DOWN: secret)
    start: Territory | None = None       # the starting territory chosen
    eliminated: bool = False


class Sideboard(NamedTuple):
    slots: tuple[CardId | None, ...] = (None, None, None, None)   # slot 1 first
    draw: frozenset[CardId] = frozenset()        # the face-down Territory deck (order unknown)
    discard: frozenset[CardId] = frozenset()
    coins: int = 10                              # face-up Coin cards
    coin_star_given: bool = False                # the coin-depletion Red Star (once per game)
    events_left: int = 0                         # Event cards in the deck
    missions_left: int = 0                       # Mission cards not yet revealed
    mission: tuple[str, int] | None = None       # the face-up mission: (card, reward)


class ScarDeal(NamedTuple):
    """Scar cards dealt face down: the commitments, where the deal's secret dice lie in the
    seeded stream, and what is known of the cards (RL-SCAR-REVEAL, RL-CHANCE-DRAW)."""

    pool: tuple[str, ...]                      # the Scar deck dealt from (engine.scar_pool)
    commitments: Mapping[PlayerId, str]        # player -> sha256("<scar>:<salt>")
    start: int = 0                             # the deal's first die in the game's stream (0-based)
    count: int = 0                             # dice of the stream the deal used (faces not logged)
    drawn: Mapping[PlayerId, str] | None = None   # the cards the seed's dice dealt, once the seed is known
    revealed: Mapping[PlayerId, tuple[str, int]] = MappingProxyType({})   # player -> (scar, seq of the reveal)


class Combat(NamedTuple):
    """One attack roll: declared, rolled (the missile window), or won (the move-in is owed)."""

    frm: Territory
    to: Territory
    attacker: PlayerId
    defender: PlayerId
    dice: int                                     # attacking troops
    stage: str = "declared"                       # declared | rolled | conquered
    rolls: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    missiles: tuple[tuple[str, int, PlayerId], ...] = ()   # (side, die index, who fired)
    survivors: int = 0                            # attacking troops that must move in
    defend: int = 0                               # defending troops declared (0: not declared)
    held: tuple[PlayerId, ...] = ()               # Missile holders who passed since the last Missile


class Flow(NamedTuple):
    """Where the game is: phase, round, turn order and the current turn's progress."""

    phase: str = "setup"      # setup, rolloff, choose, turn, rewards, naming, over
    round: int = 0
    order: tuple[PlayerId, ...] = ()
    index: int = 0
    tied: tuple[PlayerId, ...] = ()
    step: int = START
    recruited: bool = False           # joined the war or recruited this turn
    warned: bool = False              # a missing recruit was already reported this turn
    maneuvered: bool = False
    conquered: int = 0                # territories taken from opponents this turn
    expanded: int = 0                 # unoccupied territories expanded into this turn
    drew: bool = False                # drew a Resource card this turn
    mission_done: bool = False
    first_attack: Territory | None = None
    immune: frozenset[Territory] = frozenset()
    pending: str | None = None        # a chance event owed now: reveal | event | mission
    choosers: tuple[PlayerId, ...] = ()   # rewards still to choose, in order
    turns: int = 0                    # turns begun in the game

    @property
    def current(self) -> PlayerId | None:
        if self.phase in ("choose", "turn") and self.index < len(self.order):
            return self.order[self.index]
        if self.phase == "rewards" and self.choosers:
            return self.choosers[0]
        return None


@dataclass(frozen=True, slots=True)
class State:
    data: GameData
    world: World                                  # the world as it stands now (scars, wear...)
    world_start: str                              # digest of the world the game started from
    game_no: int                                  # the game's number on this world
    campaign: str | None
    seats: tuple[PlayerId, ...]
    names: Mapping[PlayerId, str]
    dice: DiceState                               # the dice so far: mode, seed hash, log, count, tape
    players: Mapping[PlayerId, Player]
    terr: Mapping[Territory, Terr]
    side: Sideboard
    flow: Flow
    combat: Combat | None
    end_holdings: Mapping[PlayerId, frozenset[Territory]] | None   # who held what when the game ended
    outcomes: Mapping[PlayerId, str] | None
    result: GameResult | None
    notes: tuple[str, ...] = ()
    at: tuple[str, int, int] = ("setup", 0, 1)
    scars_dealt: bool = False
    laid_out: bool = False
    scar_deal: ScarDeal | None = None             # Scar cards dealt face down

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.seats if not self.players[p].eliminated)


evolve = make_evolve(State)

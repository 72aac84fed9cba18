"""Warrior Knights game state: the board and holdings (`barons`, `nobles`, `cities`, `track`,
`expeditions`, the decks) apart from the turn flow (`flow`, `battle`, `assembly`). Everything is
immutable; the engine builds new values."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from engine.core.evolve import make_evolve
from engine.core.ruleset import GameResult
from engine.warrior_knights.gamedata import GameData

PlayerId = str
NobleId = str          # "<seat>-<shape>", e.g. "red-star"
TroopId = str          # a regular "<seat>-r1".."-r4", a Mercenary by its card id
STRONGHOLD = "stronghold"
CASUALTY_TOKEN = "(casualty token)"   # For Glory, Assemble Troops: a Mercenary Track spot it fills
EMPTY: Mapping = MappingProxyType({})


class Troop(NamedTuple):
    """One troop card: a regular troop of a Baron or a Mercenary (its card's printed fields)."""

    id: TroopId
    strength: int
    wage: int
    mercenary: bool
    nationality: str | None = None
    kind: str = ""                 # Crown & Glory: "levy" (a Town Levy), "king" (a King's Army card),
                                   # "leader" or "herald" (For Glory's New Mercenary Cards)


class Army(NamedTuple):
    """The troops under one Noble or a stronghold, and the casualty tokens on them."""

    troops: tuple[TroopId, ...] = ()
    casualties: int = 0


class Noble(NamedTuple):
    id: NobleId
    owner: PlayerId
    shape: str
    area: str | None = None        # None: off the board
    at_sea: bool = False           # on a port icon: arrives in the Upkeep (Movement)
    exhausted: bool = False
    army: Army = Army()
    office: str | None = None      # an Agenda id
    dead: bool = False             # killed; the heir may enter in the Upkeep with the troops left


class Baron(NamedTuple):
    color: str
    crowns: int = 15               # Setup 1: "15 crowns"
    influence: int = 0
    faith: int = 0
    votes: int = 0
    stronghold: str | None = None  # its area, None while off the board
    stronghold_army: Army = Army()
    stronghold_strength: int = 0
    stronghold_lost: int = 0       # the round in which it was eliminated (no Influence that Upkeep)
    stronghold_breaches: int = 0
    hand: tuple[str, ...] | None = ()   # Action card types in hand, sorted (None: not known, observed mode)
    troops: Mapping[TroopId, Troop] = EMPTY
    charges: tuple[str, ...] = ()  # Agenda ids, oldest first
    concessions: tuple[str, ...] = ()
    banned: bool = False


class MissionHeld(NamedTuple):
    """Crown & Glory, Missions: a Baron's secret Mission card (in clear, or a commitment), and
    what its reveal at the end said."""

    mission: str | None = None             # the card id, when known (in clear, or revealed)
    commitment: str | None = None
    revealed: bool = False
    fulfilled: bool | None = None


class Glory(NamedTuple):
    """Crown & Glory: the variants in play and what they add to the board (None in a base game)."""

    variants: tuple[str, ...] = ()
    king: PlayerId | None = None                  # who holds the King token
    king_army_owed: PlayerId | None = None        # a new King who has not yet assigned his King's Army
    missions: Mapping[PlayerId, MissionHeld] = EMPTY
    riots: Mapping[str, PlayerId] = EMPTY         # a rioting city -> the owner it rioted against
    riot_owed: str | None = None                  # the city whose Riot result its owner settles now
    garrisons: Mapping[str, PlayerId] = EMPTY     # a garrisoned city -> the Baron whose Garrison it is
    knowledge: Mapping[PlayerId, int] = EMPTY
    scholar: PlayerId | None = None               # who holds the Scholar token
    scholar_drawn: bool = False                   # the setup's random Scholar is chosen (or skipped)
    owned: Mapping[PlayerId, tuple[str, ...]] = EMPTY   # Advancements in front of each Baron
    exhausted: tuple[str, ...] = ()               # Advancements exhausted (face down) this round
    offer: tuple[str, ...] = ()                   # the Advancements face up, to buy
    offer_laid: bool = False                      # the setup laid out the 3 face-up Advancements
    adv_deck: Any = None                          # the Advancement deck (a Deck; None: observed mode)
    refill_owed: int = 0                          # cards owed to the face-up Advancements
    battle_uses: tuple[PlayerId, ...] = ()        # who used an Advancement in the battle under way
    adv_printed: Mapping[str, int] = EMPTY        # observed mode: each Advancement's printed Knowledge cost
    event_seen: bool = False                      # an Event has been drawn (the first is never red)

    def has(self, variant: str) -> bool:
        return variant in self.variants


class CityState(NamedTuple):
    owner: PlayerId | None = None  # None: neutral
    razed: bool = False
    fortified: bool = False
    breaches: int = 0
    siege: tuple[PlayerId, int] | None = None     # (besieging Baron, round of the siege)


class Deck(NamedTuple):
    """A deck as far as the log shows it: the cards in it whose order is unknown (`pile`), those
    put at the bottom in a known order (drawn once the pile is gone), the discards. Observed
    mode: the deck is None (its cards are not known)."""

    pile: frozenset = frozenset()
    bottom: tuple = ()
    discard: frozenset = frozenset()


class Expedition(NamedTuple):
    spot: int = 0                          # 0: not under way
    stakes: Mapping[PlayerId, int] = EMPTY
    blessed: bool = False


class Planned(NamedTuple):
    """One seat's Planning: the cards it put in each stack (counts public), the commitment to
    their types, and the types when they are known (in clear, or once revealed)."""

    counts: tuple[int, int, int]
    commitment: str | None = None
    stacks: tuple[tuple[str, ...], ...] | None = None
    hand: tuple[str, ...] = ()             # the hand it planned from
    revealed: tuple[tuple[str, ...], ...] = ((), (), ())   # its cards revealed so far, per stack
    opened: bool = False                   # the commitment was opened (PlanOpened)


class Pending(NamedTuple):
    """The Action card being resolved: who owns it (None: Neutral), its type and stage."""

    owner: PlayerId | None
    card: str
    stage: str = "open"            # open | battle | done
    area: str | None = None        # the Special Phase area chosen or fixed, once known
    printed_area: Any = None       # observed mode: the area printed on the card
    acted: tuple[PlayerId, ...] = ()   # Neutral cards resolved seat by seat: who has acted
    detail: Mapping[str, Any] = EMPTY


class Flow(NamedTuple):
    """Where the game is: phase and step, round, the stack being revealed, the card being
    resolved, the Special Phases waiting, and who must act next in a sequence."""

    phase: str = "setup"          # setup | planning | actions | special | upkeep | over
    step: str = "troops"
    round: int = 0
    stack: int = 1
    left: tuple[Mapping[Any, int], ...] = ()     # per stack: owner (None: Neutral) -> cards left
    pending: Pending | None = None
    specials: tuple[str, ...] = ()               # Special Phases triggered, in the order they run
    order: tuple[PlayerId, ...] = ()             # who acts in turn in the current sequence
    index: int = 0
    ends_after_upkeep: bool = False              # the Influence pool ran out (Upkeep 2)
    revolts: tuple[str, ...] = ()                # cities owed a Revolt draw this Upkeep
    revolt_owed: str | None = None               # a Revolt result the owner must settle

    @property
    def current(self) -> PlayerId | None:
        return self.order[self.index] if self.index < len(self.order) else None


class Side(NamedTuple):
    """One side of a battle."""

    baron: PlayerId | None                 # None: a neutral city
    armies: tuple[NobleId, ...] = ()       # fighting Nobles (the stronghold's troops: STRONGHOLD)
    commander: NobleId | None = None
    drawn: tuple = ()                      # Fate cards drawn (FateCard records), in order
    kept: tuple = ()                       # kept (revealed) cards
    discarded: bool = False
    owed_draws: int = 0                    # Draw 1 Fate results not yet drawn
    assigned: bool = False
    tokens: Mapping[NobleId, int] = EMPTY
    breaches: int = 0


class Battle(NamedTuple):
    """A battle under way: where, what kind, the two sides, and the stage."""

    area: str
    kind: str                              # field | assault | siege
    attacker: Side
    defender: Side
    city: str | None = None                # assault: the city (or STRONGHOLD)
    stage: str = "commanders"              # commanders | draw | discard | draw1 | casualties | aftermath
    after: tuple = ()                      # the consequences owed: ("retreat"|"die", noble), ...
    deserters: Mapping[NobleId, Any] = EMPTY  # a deserter card drawn for a Noble, awaiting its owner


class Vote(NamedTuple):
    commitment: str | None = None
    votes: int | None = None               # revealed
    choice: str | None = None              # declared: yes | no | a seat


class Assembly(NamedTuple):
    """The Assembly under way (Special Phase 3)."""

    step: str = "acting"                   # acting | private | order | vote | declare | tie | effect | reveal
    attending: tuple[PlayerId, ...] = ()
    chairman: PlayerId | None = None       # the (acting) Chairman
    agendas: tuple[str, ...] = ()          # in voting order, once declared
    at: int = 0                            # the agenda being voted
    votes: Mapping[PlayerId, Vote] = EMPTY
    postponed: bool = False


@dataclass(frozen=True, slots=True)
class State:
    data: GameData
    seats: tuple[PlayerId, ...]
    names: Mapping[PlayerId, str]
    barons: Mapping[PlayerId, Baron]
    nobles: Mapping[NobleId, Noble]
    cities: Mapping[str, CityState]
    flow: Flow
    chairman: PlayerId | None = None
    head_of_church: PlayerId | None = None
    influence_pool: int = 0
    track: tuple[PlayerId | None, ...] = ()      # the Mercenary Track: a marker's owner (or CASUALTY_TOKEN) per spot
    market: tuple = ()                           # Mercenaries face up by the track (Troop records)
    agendas: tuple[str, ...] = ()                # the current Agendas (ids)
    laws: tuple[str, ...] = ()
    agenda_discards: tuple[str, ...] = ()        # Agendas voted and discarded (a private motion may re-vote one)
    agenda_cards: Mapping[str, Any] = field(default_factory=dict)         # every Agenda seen, by id (observed mode: as logged)
    plans: Mapping[PlayerId, Planned] = field(default_factory=dict)
    areas: Mapping[str, int] = field(default_factory=dict)                # Special Phase area -> cards in it
    allocated: Mapping[str, tuple[tuple[PlayerId, str], ...]] = field(default_factory=dict)   # area -> (owner, card) there
    expeditions: Mapping[str, Expedition] = field(default_factory=dict)
    fate: Deck | None = None
    events: Deck | None = None
    mercs: Deck | None = None
    agenda_deck: Deck | None = None
    neutral_used: Mapping[str, int] = field(default_factory=dict)         # Neutral cards revealed this round, by type
    battle: Battle | None = None
    assembly: Assembly | None = None
    result: GameResult | None = None
    treasury_note: str = ""
    notes: tuple[str, ...] = ()
    at: tuple[str, int, int] = ("setup", 0, 0)
    setup: Mapping[str, Any] = field(default_factory=dict)                # what setup still needs (strongholds placed...)
    abilities: Mapping[NobleId, str] = field(default_factory=dict)      # each Noble's ability (the cards file, or the start's)
    face_down: tuple[tuple[str, PlayerId], ...] = ()                    # Fate cards discarded face down: (card, by whom)
    glory: Glory | None = None                                          # Crown & Glory (None: the base game)


evolve = make_evolve(State)

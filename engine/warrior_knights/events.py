"""Payloads of the Warrior Knights events (log format version 1), one pydantic model per event
type. Field shapes are checked here; everything the rules decide is checked by the engine.

Areas may be named by id or printed name, or by the name of their city, in any letter case.
Nobles are "<seat>-<shape>" ("red-star"); a Baron may name his own by shape alone ("star").
Troops are "<seat>-r1".."-r4" (regulars; "r1" for one's own) or a Mercenary's card id.

A drawn card (`Card`) is its id when the cards file has the deck, or else (observed mode) an
object with the card's printed fields: the engine checks what follows from them and reports that
deck membership was not checked (docs/warrior-knights.md, "Observed mode").
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from engine.core.payloads import Payload, SeedRevealed, one_of, payload_table

Name = str
Card = str | dict[str, Any]


# --- the start ----------------------------------------------------------------------------------

class PlayerSpec(Payload):
    id: str = Field(min_length=1, description="the id used as `actor` and in payloads")
    name: str | None = Field(None, description="the person's name, for reports")
    color: str | None = Field(None, description="the Baron's colour (the cards file's \"barons\"); "
                              "default: the id")


class DataSpec(Payload):
    board: str | None = Field(None, description="sha256 of the board file the game was recorded with")
    cards: str | None = Field(None, description="sha256 of the cards file (null: none, observed mode)")


class BaronPrint(Payload):
    """Observed mode (no \"barons\" in the cards file): a Baron's printed Stronghold and regulars."""

    stronghold_strength: NonNegativeInt
    regulars: list[tuple[PositiveInt, NonNegativeInt]] = Field(
        description="(strength, wage) of each regular troop", min_length=4, max_length=4)


class DiceSpec(Payload):
    """Digital play: the cards are drawn with a seed's dice (engine.warrior_knights.live), its
    hash published here and the seed revealed at the end (SeedRevealed)."""

    mode: Literal["seeded", "table"] = "table"
    seed_hash: str | None = None


class GameStarted(Payload):
    """The first event: ruleset, Barons in clockwise seat order, the data recorded with."""

    ruleset: Literal["warrior-knights"]
    players: list[PlayerSpec] = Field(min_length=2, max_length=6)
    data: DataSpec | None = None
    barons: dict[str, BaronPrint] | None = Field(None, description="observed mode: printed Baron cards by colour")
    nobles: dict[str, dict[str, Literal["deal_100", "prevent_100", "victory_1", "text"]]] | None = Field(
        None, description="observed mode (no \"nobles\" in the cards file): each Baron's Noble abilities, "
        "colour -> shape -> ability")
    variants: list[Literal["for_glory", "missions", "king"]] = Field(default_factory=list)
    dice: DiceSpec | None = None


# --- setup ---------------------------------------------------------------------------------------

class TroopsDealt(Payload):
    """Setup 1, chance: each Baron's random 50 and 100 Mercenaries, by seat."""

    mercenaries: dict[str, list[Card]]


class TroopsAssigned(Payload):
    """Setup 1: a Baron assigns all his troops to his Nobles (by shape or id) and/or his
    stronghold ("stronghold")."""

    armies: dict[str, list[str]]


class CitiesRazed(Payload):
    """Setup 3, chance: the Fate cards drawn to choose the razed Kingdom cities, in order."""

    cards: list[Card] = Field(min_length=1)


class MarketRevealed(Payload):
    """Setup 5, chance: the Mercenaries placed face up by the track (players + 1) and the 3
    current Agendas."""

    mercenaries: list[Card]
    agendas: list[Card]


class OfficesChosen(Payload):
    """Setup 6, chance: the Fate cards drawn to choose the Chairman and the Head of the Church at
    random (cards naming a colour nobody plays are drawn past)."""

    chairman: list[Card] = Field(min_length=1)
    head_of_church: list[Card] = Field(min_length=1)


class StrongholdPlaced(Payload):
    area: Name


class NoblePlaced(Payload):
    noble: str
    area: Name


# --- a round -------------------------------------------------------------------------------------

class StacksPlanned(Payload):
    """Planning: the Action cards a Baron puts face down in each of the 3 stacks: the types in
    clear (a table's record), or the counts and a commitment sha256("<plan>:<salt>") of the plan
    (canonical JSON of the three lists of card types, each sorted), opened by PlanOpened."""

    stacks: list[list[str]] | None = Field(None, min_length=3, max_length=3)
    counts: list[NonNegativeInt] | None = Field(None, min_length=3, max_length=3)
    commitment: str | None = None

    _one_of = one_of("stacks", "commitment", "give either `stacks` (in clear) or `counts` and `commitment`")

    @model_validator(mode="after")
    def _counts_seen(self) -> "StacksPlanned":
        if self.commitment is not None and self.counts is None:
            raise ValueError("a committed plan gives its `counts` (face-down cards are seen)")
        return self


class PlanOpened(Payload):
    """A committed plan opened (at the end of the Actions, or any time after): the plan and salt."""

    stacks: list[list[str]] = Field(min_length=3, max_length=3)
    salt: str


class CardRevealed(Payload):
    """Actions: the Chairman turns over the top card of the current stack: a Baron's card
    (`owner`) or a Neutral card (owner null). `area`: observed mode, the Special Phase area the
    card prints."""

    stack: int = Field(ge=1, le=3)
    owner: str | None
    card: str
    area: Any = None


class ActionDeclined(Payload):
    """A Baron declines his card's action; it is still allocated (`area` when he chooses it)."""

    area: str | None = None


class TaxesLevied(Payload):
    crowns: NonNegativeInt | None = Field(None, description="claim: crowns received")


class SoldiersDrafted(Payload):
    spot: PositiveInt


class SupportRallied(Payload):
    pass


class ChurchServed(Payload):
    pass


class Pickup(Payload):
    """Troops a moving Noble receives on his way (Movement: "At any point during movement"), in an
    area of his route, from his stronghold there or an unexhausted Noble of his there."""

    at: Name
    from_: str = Field(alias="from", description="a Noble, or \"stronghold\"")
    troops: list[str] = Field(min_length=1)


class Move(Payload):
    noble: str
    path: list[Name] = Field(min_length=1, description="the areas entered, in order (by sea: the port area)")
    sea: bool = False
    pickups: list[Pickup] = Field(default_factory=list, description="troops received on the way (land moves)")


class Attack(Payload):
    defender: str = Field(description="the defending Baron, or \"neutral\" for a neutral city")
    kind: Literal["field", "assault", "siege"]
    armies: list[str] = Field(min_length=1, description="the attacking Nobles")
    commander: str | None = None


class ForcesMobilized(Payload):
    """Mobilize Forces (or a Versatile card used for it): Nobles moved into one area, a battle
    there, or both; `area` is the area chosen; `card_area` the Special Phase area the Baron picks
    when both happen."""

    area: Name
    moves: list[Move] = Field(default_factory=list)
    attack: Attack | None = None
    card_area: str | None = None


class PermissionGiven(Payload):
    """A Baron allows another to pass through an area with his Nobles or city, or to assault or
    besiege a city where his armies are (Movement, Battles)."""

    to: str
    area: Name


class TroopsTransferred(Payload):
    """Troops moved between two armies in one area (Movement; Upkeep 6)."""

    from_: str = Field(alias="from", description="a Noble, or \"stronghold\"")
    to: str
    troops: list[str] = Field(min_length=1)


class CommanderDeclared(Payload):
    noble: str


class FateDrawn(Payload):
    """Chance: Fate cards drawn for one side of a battle."""

    side: Literal["attacker", "defender"]
    cards: list[Card] = Field(min_length=1)


class FateDiscarded(Payload):
    """The cards a side discards face down (by their place among the cards it drew, from 0)."""

    discard: list[NonNegativeInt]


class CasualtiesAssigned(Payload):
    """Casualty tokens on the side's fighting armies, and breaches on its city (defender)."""

    tokens: dict[str, NonNegativeInt] = Field(default_factory=dict)
    breaches: NonNegativeInt = 0


class DesertersDrawn(Payload):
    """Chance: the Fate card drawn for deserters of a retreating or dying Noble's army."""

    noble: str
    card: Card


class Retreated(Payload):
    noble: str
    to: Name | None = Field(None, description="an adjacent area; null: to his stronghold")
    deserter: str | None = None


class NobleLost(Payload):
    """A Noble killed: the Mercenary that deserts (drawn nationality) and those discarded for the
    casualty tokens."""

    noble: str
    deserter: str | None = None
    discarded: list[str] = Field(default_factory=list)


class CityTaken(Payload):
    """The winner of an assault or a second siege: raze the city (3x its income) or keep it."""

    raze: bool = False


class StrongholdCityGiven(Payload):
    """The Baron whose stronghold was eliminated gives one of his cities to the winner."""

    city: Name | None


# --- Neutral cards -------------------------------------------------------------------------------

class EventDrawerChosen(Payload):
    drawer: str
    colour: Literal["red", "green", "blue"] = Field(description="the colour of the top Event card's back")


class EventCardDrawn(Payload):
    card: Card


class EventTargetDrawn(Payload):
    """Chance: the Fate card(s) drawn to choose the random target of an Event that needs one (the
    last card names it; cards naming nothing the Event can target are drawn past)."""

    cards: list[Card] = Field(min_length=1)


class EventCancelled(Payload):
    faith: dict[str, PositiveInt]


class ExpeditionFunded(Payload):
    """Fund Expedition: the Chairman starts one (null: none), the stakes, the blessing."""

    expedition: str | None
    stakes: dict[str, NonNegativeInt] = Field(default_factory=dict)
    blessed: bool = False


class ExpeditionFateDrawn(Payload):
    expedition: str
    cards: list[Card] = Field(min_length=1, max_length=2)
    funds: dict[str, bool] = Field(default_factory=dict, description="Funds Needed: who pays 2 crowns")


class DefensesUpgraded(Payload):
    city: Name | None = None
    repair: NonNegativeInt = 0
    fortify: bool = False
    garrison: Name | None = Field(None, description="For Glory: the ungarrisoned city of his where he "
                                  "hires a Garrison (1 crown)")


class LevyRecruited(Payload):
    """For Glory, Muster Forces: a Town Levy card (its id, or observed mode its printed fields
    {"id", "city", "strength"}) and the Noble at that city it goes to."""

    levy: Card
    noble: str


class TroopsMustered(Payload):
    army: str | None = Field(None, description="a Noble or \"stronghold\"; null: nothing")
    tokens: NonNegativeInt = 0
    levies: list[LevyRecruited] = Field(default_factory=list, description="For Glory: Town Levies "
                                        "recruited, 2 crowns each")


# --- Special Phases ------------------------------------------------------------------------------

class WagesPaid(Payload):
    unpaid: list[str] = Field(default_factory=list, description="Mercenaries not paid (they desert)")
    maintained: list[str] = Field(default_factory=list, description="troops his office maintains (no "
                                  "wages): at most the strength the office prints")
    unpaid_garrisons: list[Name] = Field(default_factory=list, description="For Glory: the cities "
                                         "whose Garrison is not paid (it is discarded)")
    crowns: NonNegativeInt | None = Field(None, description="claim: crowns paid")


class ActingChairmanAppointed(Payload):
    baron: str


class PrivateMotionDrawn(Payload):
    cards: list[Card] = Field(min_length=1)


class PrivateMotionCalled(Payload):
    motion: Literal["rescind_ban", "discard", "postpone", "revote"] | None = None
    target: str | None = None


class AgendaOrderDeclared(Payload):
    order: list[str] = Field(min_length=1)


class VotesHidden(Payload):
    agenda: str
    commitment: str


class VotesRevealed(Payload):
    agenda: str
    votes: NonNegativeInt
    salt: str | None = None


class VoteDeclared(Payload):
    agenda: str
    choice: str = Field(description="yes, no, or a Baron")


class TieBroken(Payload):
    agenda: str
    choice: str


class OfficeAssigned(Payload):
    agenda: str
    noble: str


class ChargeDiscarded(Payload):
    agenda: str


class AgendasRevealed(Payload):
    """Chance: the 3 Agendas of the next Assembly (fewer when the deck and its discards run out)."""

    cards: list[Card]


class MercenaryHired(Payload):
    """Mercenary Draft: the Mercenaries a marker's owner hires (several of one nationality with
    several markers), and where each goes (a Noble or \"stronghold\"); none: he passes."""

    hires: dict[str, str] = Field(default_factory=dict)


class MercenariesRevealed(Payload):
    """Chance: the new Mercenaries placed face up after a Draft (players + 1, or what the deck holds)."""

    cards: list[Card]


# --- Upkeep --------------------------------------------------------------------------------------

class RevoltDrawn(Payload):
    city: Name
    card: Card


class RevoltSettled(Payload):
    city: Name
    pay: Literal["faith", "crowns"] | None = None


class NobleReturned(Payload):
    noble: str
    area: Name


# --- Crown & Glory: the King, Missions ------------------------------------------------------------

class KingsArmyAssigned(Payload):
    """The King Variant: the new King (or the usurper) assigns the King's Army cards, as many as
    there are players, to his stronghold ("stronghold") and/or his Nobles at his stronghold or his
    cities: holder -> how many. `printed`: observed mode (no "kings_army" in the cards file), each
    card's (strength, wage)."""

    armies: dict[str, NonNegativeInt]
    printed: list[tuple[PositiveInt, NonNegativeInt]] | None = None


class MissionDealt(Payload):
    """Missions Variant: the Mission card dealt to the actor before the strongholds are placed:
    in clear (`mission`, a table's record: hidden from the other seats until revealed) or as a
    commitment sha256("<mission id>:<salt>")."""

    mission: str | None = None
    commitment: str | None = None

    _one_of = one_of("mission", "commitment", "give either `mission` (in clear) or `commitment`")


class MissionRevealed(Payload):
    """Missions Variant, at the end: the actor reveals his Mission (with the salt of its
    commitment) and says whether he fulfils it (+2 Influence): his signed ruling of the card's
    text, never guessed by the engine."""

    mission: str
    salt: str | None = None
    fulfilled: bool = False
    text: str | None = None


# --- Crown & Glory, For Glory: Knowledge, Advancements, the Scholar -----------------------------

class RetreatChosen(Payload):
    """For Glory, Retreat/Draw 1 Fate: the defender with more such results retreats (true) or
    fights on (false: each counts as Draw 1 Fate)."""

    retreat: bool


class AdvancementsRevealed(Payload):
    """Chance: Advancements laid face up: the top 3 at the setup, or the one that replaces each
    Advancement bought (its id, or observed mode its printed {"id", "knowledge"})."""

    cards: list[Card]


class ScholarChosen(Payload):
    """Chance, For Glory setup: the Fate cards drawn to give the Scholar token to a random Baron who
    is neither the Chairman nor the Head of the Church (cards naming them are drawn past)."""

    cards: list[Card] = Field(min_length=1)


class MindEnriched(Payload):
    """Enrich Mind: 1 Knowledge (and the Scholar token to the Baron with the most); the card goes to
    the Taxation or the Assembly stack (`area`); purchases follow as AdvancementBought."""

    area: str


class AdvancementBought(Payload):
    """An Advancement face up bought with Enrich Mind for its Knowledge; `returned`: the ones put
    at the bottom of the deck when he would own more than 3."""

    advancement: str
    returned: list[str] = Field(default_factory=list)


class AdvancementResearched(Payload):
    """Research: the Scholar pays 2 crowns and draws the top Advancement (`card`), then buys it
    for 1 Knowledge less (`buy`) or discards it."""

    card: Card
    buy: bool = False
    returned: list[str] = Field(default_factory=list)


class MarchForced(Payload):
    """Forced March: the exhausted Nobles refreshed (the first free, the others 2 crowns each)."""

    nobles: list[str] = Field(default_factory=list)


class AdvancementSwapped(Payload):
    """Uncertain Times (For Glory): the Scholar discards one Advancement face up (`discard`) and lays
    out the top card of the deck (`card`) in its place."""

    discard: str
    card: Card


class AdvancementUsed(Payload):
    """An Advancement activated by its owner; its effect (card text) follows as Adjusted events."""

    advancement: str
    text: str | None = None


# --- any time ------------------------------------------------------------------------------------

class CrownsGiven(Payload):
    to: str
    crowns: PositiveInt


class Adjusted(Payload):
    """The effect of a free-text card (an Event, an Agenda, a Noble's text ability) as the seat
    that applied it records it: changes to a Baron's crowns, Faith, Votes or Influence, a city's
    breaches, owner or razing, and the card it comes from. The engine applies it and shows it as
    an adjustment; it never guesses a text's meaning."""

    source: str = Field(min_length=1, description="the card whose text this applies")
    baron: str | None = None
    crowns: int = 0
    faith: int = 0
    votes: int = 0
    influence: int = 0
    city: Name | None = None
    breaches: int = 0
    owner: str | None = None
    raze: bool = False
    text: str | None = None


class GameEnded(Payload):
    winner: str | None = None
    reason: str | None = None


PAYLOADS = payload_table(
    GameStarted, TroopsDealt, TroopsAssigned, CitiesRazed, MarketRevealed, OfficesChosen,
    StrongholdPlaced, NoblePlaced, StacksPlanned, PlanOpened, CardRevealed, ActionDeclined,
    TaxesLevied, SoldiersDrafted, SupportRallied, ChurchServed, ForcesMobilized, PermissionGiven,
    TroopsTransferred, CommanderDeclared, FateDrawn, FateDiscarded, CasualtiesAssigned,
    DesertersDrawn, Retreated, NobleLost, CityTaken, StrongholdCityGiven, EventDrawerChosen,
    EventCardDrawn, EventTargetDrawn, EventCancelled, ExpeditionFunded, ExpeditionFateDrawn, DefensesUpgraded,
    TroopsMustered, WagesPaid, ActingChairmanAppointed, PrivateMotionDrawn, PrivateMotionCalled,
    AgendaOrderDeclared, VotesHidden, VotesRevealed, VoteDeclared, TieBroken, OfficeAssigned,
    ChargeDiscarded, AgendasRevealed, MercenaryHired, MercenariesRevealed, RevoltDrawn,
    RevoltSettled, NobleReturned, CrownsGiven, Adjusted, GameEnded, SeedRevealed, KingsArmyAssigned,
    MissionDealt, MissionRevealed, AdvancementsRevealed, ScholarChosen, MindEnriched, AdvancementBought,
    AdvancementResearched, MarchForced, AdvancementUsed, RetreatChosen, AdvancementSwapped,
)

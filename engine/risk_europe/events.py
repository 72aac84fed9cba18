"""Payloads of the Risk Europe events (log format version 1), one pydantic model per event type.

Field shapes are checked here (schema); everything the rules decide is checked by the engine.
Territories may be named by territory or by city ("Saxony" or "Berlin"), in any letter case.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from engine.core.payloads import Payload, SeedRevealed, one_of, payload_table

Name = str


class Units(Payload):
    """A group of units by type; missing types count 0."""

    footman: NonNegativeInt = 0
    archer: NonNegativeInt = 0
    cavalry: NonNegativeInt = 0
    siege: NonNegativeInt = 0


# --- the start ----------------------------------------------------------------------------------

class PlayerSpec(Payload):
    id: str = Field(min_length=1, description="the id used as `actor` and in payloads, e.g. a colour")
    name: str | None = Field(None, description="the person's name, for reports")


class DiceSpec(Payload):
    mode: Literal["table", "seeded"] = Field(
        "table", description="table: dice rolled at a physical table; seeded: derived from a seed "
        "whose hash is published here and which is revealed at the end (SeedRevealed)")
    seed_hash: str | None = None


class DataSpec(Payload):
    board: str | None = Field(None, description="sha256 of the board file the game used")
    cards: str | None = Field(None, description="sha256 of the King's Orders card file")
    missions: str | None = Field(None, description="sha256 of the Kingdom Missions file (+missions)")


class GameStarted(Payload):
    """The first event: ruleset, variant, players in clockwise seat order, how dice are made.

    `variant` names the game (engine/risk_europe/variants.py, docs/variants.md): a base game
    (basic, mercenaries-3p, mercenaries-2p, teams) with optional modifiers joined by "+"
    (+missions, +long), e.g. "mercenaries-3p+missions". `mercenaries` names the armies played as
    Mercenary Armies (their seats are fixed when the First Player Marker is won)."""

    ruleset: Literal["risk-europe"]
    variant: str = "basic"
    players: list[PlayerSpec] = Field(min_length=1)
    mercenaries: list[PlayerSpec] = Field(default_factory=list)
    dice: DiceSpec = DiceSpec()
    data: DataSpec | None = None


# --- setup ---------------------------------------------------------------------------------------

class BidPlaced(Payload):
    """A secret bid for first player, or (Mercenaries) for control of a Mercenary Army this
    round: the amount (recorded after the reveal at a table), or a commitment
    sha256("<amount>:<salt>") to be revealed by BidRevealed. `army` labels a bid for a Mercenary
    Army (checked when given)."""

    amount: NonNegativeInt | None = None
    commitment: str | None = None
    army: str | None = None

    _one_of = one_of("amount", "commitment", "give exactly one of 'amount' or 'commitment'")


class BidRevealed(Payload):
    amount: NonNegativeInt
    salt: str
    army: str | None = None


class TilesDrawn(Payload):
    """Chance (Mercenaries): the City Bonus Tiles a Mercenary Army draws at random, first its
    starting city, then its outpost. In digital play `dice` are the dice of the seeded stream the
    draw used (docs/log-format.md, "Random draws")."""

    army: str
    tiles: list[Name] = Field(min_length=1)
    dice: list[int] | None = None


class MercenaryBidsOrdered(Payload):
    """2-player Mercenaries: the First Player Marker holder chooses which Mercenary Army is bid
    for first this round."""

    armies: list[str] = Field(min_length=1)


class DiceRolled(Payload):
    """Chance: dice rolled, by player id. What the roll is for is known from the game state
    (roll-off, siege assault, battle rank); `territory` and `rank` may be given as labels and are
    then checked."""

    rolls: dict[str, list[int]]
    territory: Name | None = None
    rank: int | None = Field(None, ge=1, le=4)


class DiceRerolled(Payload):
    """Castle defense: the defender re-rolls all their dice of the rank just rolled."""

    rolls: dict[str, list[int]]
    territory: Name | None = None
    rank: int | None = Field(None, ge=1, le=4)


class RerollDeclined(Payload):
    """Castle defense: the defender keeps the dice of the rank just rolled (no re-roll now; the
    re-roll of this cycle stays theirs for a later rank). Optional in a log: the next roll or
    casualty says as much; live play writes it so that the game knows the decision is made."""

    territory: Name | None = None
    rank: int | None = Field(None, ge=1, le=4)


class KingdomPlaced(Payload):
    city: Name = Field(description="a Gold Crown City (or its territory)")
    footmen: dict[Name, NonNegativeInt] = Field(
        description="10 Footmen by territory: the city territory and at most one adjacent non-city territory")
    coins: NonNegativeInt | None = Field(None, description="claim: coins collected (the Tax Value)")


# --- a round -------------------------------------------------------------------------------------

class CardsCommitted(Payload):
    """Two cards face down, top (Turn 1) first: the card ids, or two commitments
    sha256("<card id>:<salt>") revealed one per turn by CardRevealed."""

    cards: list[str] | None = Field(None, min_length=2, max_length=2)
    commitments: list[str] | None = Field(None, min_length=2, max_length=2)

    _one_of = one_of("cards", "commitments", "give exactly one of 'cards' or 'commitments'")


class CardRevealed(Payload):
    """A player's committed card turned over (with its salt when committed as a hash), or the
    top card of a Mercenary deck flipped: chance, with the `dice` that drew it in digital play."""

    card: str
    salt: str | None = None
    dice: list[int] | None = None


class TurnEnded(Payload):
    """The current player ends their turn (card revealed, nothing pending) and play passes to the
    left. Optional in a log: the next player's reveal (or the round's next event) ends it as
    well; live play writes it, so that the turn is the player's until they end it."""


class Expanded(Payload):
    from_: Name = Field(alias="from")
    to: Name
    units: Units


class ExpandMove(Payload):
    to: Name
    units: Units


class SplitExpanded(Payload):
    from_: Name = Field(alias="from")
    moves: list[ExpandMove] = Field(min_length=1, max_length=2)


class Maneuvered(Payload):
    """A maneuver order, or the free maneuver of the Berlin tile after an expand."""

    from_: Name = Field(alias="from")
    to: Name
    units: Units
    path: list[Name] | None = Field(None, description="the territory passed through, if any")


class Taxed(Payload):
    city: Name
    coins: NonNegativeInt | None = Field(None, description="claim: coins collected")


class Purchase(Payload):
    item: Literal["footman", "archer", "cavalry", "siege", "castle", "crown_card"]
    territory: Name | None = Field(None, description="where units or a castle are placed")
    count: PositiveInt = 1


class Spent(Payload):
    purchases: list[Purchase]
    coins: NonNegativeInt | None = Field(None, description="claim: total coins paid")


class Fortified(Payload):
    territory: Name
    footmen: NonNegativeInt | None = Field(None, description="claim: Footmen added")


class SiegeAssaulted(Payload):
    from_: Name = Field(alias="from")
    target: Name


class CasualtiesRemoved(Payload):
    territory: Name
    units: Units


class BattleStarted(Payload):
    territory: Name


class BattleEnded(Payload):
    """Claim: who won the battle (null: both armies were eliminated)."""

    territory: Name
    winner: str | None


class GameEnded(Payload):
    """Claim: the result the recorder declares: `winner` (a player, or null for no winner), or
    `winners` for a shared win (a tie on crowns, territories and coins)."""

    winner: str | None = None
    winners: list[str] | None = Field(None, min_length=2)
    reason: str | None = None

    @model_validator(mode="after")
    def _one_of(self) -> "GameEnded":
        given = self.model_fields_set & {"winner", "winners"}
        if len(given) != 1:
            raise ValueError("give exactly one of 'winner' (a player, or null for no winner) or "
                             "'winners' (a shared win)")
        return self

    @property
    def declared(self) -> tuple[str, ...]:
        return tuple(self.winners) if self.winners is not None else ((self.winner,) if self.winner else ())


class MissionKept(Payload):
    """Kingdom Missions: after revealing King Me the player draws the top two Crown Cards, keeps
    one face down and returns the other to the bottom. The kept mission's id (recorded after the
    fact at a table), or a commitment sha256("<mission id>:<salt>") revealed by MissionCompleted."""

    mission: str | None = None
    commitment: str | None = None

    _one_of = one_of("mission", "commitment", "give exactly one of 'mission' or 'commitment'")


class MissionCompleted(Payload):
    """Kingdom Missions: the player turns a kept mission over as completed (with its salt when
    it was kept as a commitment). Checked against the mission file when one is loaded; otherwise
    an unverified claim."""

    mission: str
    salt: str | None = None


PAYLOADS = payload_table(
    GameStarted, BidPlaced, BidRevealed, DiceRolled, DiceRerolled, KingdomPlaced, TilesDrawn,
    MercenaryBidsOrdered, CardsCommitted, CardRevealed, Expanded, SplitExpanded, Maneuvered, Taxed,
    Spent, Fortified, SiegeAssaulted, CasualtiesRemoved, BattleStarted, BattleEnded, GameEnded,
    SeedRevealed, MissionKept, MissionCompleted, TurnEnded, RerollDeclined,
)

ORDER_EVENTS = {"Expanded": "expand", "SplitExpanded": "split_expand", "Maneuvered": "maneuver",
                "Taxed": "tax", "Spent": "spend"}

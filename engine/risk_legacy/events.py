"""Payloads of the Risk Legacy events (log format version 1), one pydantic model per event type.

Field shapes are checked here (schema); everything the rules decide is checked by the engine.
Territories may be named by id ("east_africa"), printed name ("East Africa"), classic name
("Congo") or card id ("A37"), in any letter case; resource cards by card id, territory, or "coin".

Random draws (the Scar deal, the Territory cards laid out and revealed, an Event or Mission card)
carry, in digital play, the `dice` of the seeded stream they were drawn with (the draw rule:
engine.core.chance; the pools: engine.risk_legacy.setup, `scar_pool`, `layout_pool`,
`reveal_pool`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from engine.core.payloads import Payload, SeedRevealed, one_of, payload_table
from engine.risk_legacy.world import World

Name = str


# --- the start ----------------------------------------------------------------------------------

class PlayerSpec(Payload):
    id: str = Field(min_length=1, description="the person's id, the same in every game of a campaign")
    name: str | None = Field(None, description="the person's name, for reports")


class DiceSpec(Payload):
    mode: Literal["table", "seeded"] = "table"
    seed_hash: str | None = None


class DataSpec(Payload):
    board: str | None = Field(None, description="sha256 of the board file the game used")
    rules: str | None = Field(None, description="sha256 of the rules data file")


class CampaignSpec(Payload):
    name: str = Field(min_length=1)
    game: PositiveInt = Field(description="this game's number in the campaign (1, 2, ...)")
    world: str = Field(description="sha256 digest of the world the game starts from")


class GameStarted(Payload):
    """The first event: ruleset, players in clockwise seat order, dice, the world and campaign."""

    ruleset: Literal["risk-legacy"]
    players: list[PlayerSpec] = Field(min_length=1)
    dice: DiceSpec = DiceSpec()
    data: DataSpec | None = None
    campaign: CampaignSpec | None = None
    world: World | None = Field(None, description="the world the game starts from (null: the box, "
                                "uncustomized)")
    events: NonNegativeInt = Field(0, description="Event cards in the event deck (0: events not in play)")
    missions: NonNegativeInt = Field(0, description="Mission cards in the game (0: missions not in play)")


# --- setup ---------------------------------------------------------------------------------------

Dice = list[int]


class ScarCardsDealt(Payload):
    """Chance: one Scar card dealt to each player, face up (`cards`: player -> scar) or face down
    (`commitments`: player -> sha256("<scar>:<salt>"), each revealed with its salt when the scar is
    placed or the card returned).

    In digital play a face-up deal carries the `dice` it was drawn with; a face-down deal only
    says how many dice of the stream it used (`hidden_dice`): their faces would tell the cards,
    so they stay secret until the seed is revealed."""

    cards: dict[str, str] | None = None
    commitments: dict[str, str] | None = None
    dice: Dice | None = Field(None, description="the seeded stream's dice the face-up deal was drawn with")
    hidden_dice: NonNegativeInt | None = Field(None, description="face down: dice of the seeded stream the "
                                               "deal used, their faces secret until the seed is revealed")

    _face_up_or_down = one_of("cards", "commitments",
                              "a Scar deal gives either `cards` (face up) or `commitments` (face down)")

    @model_validator(mode="after")
    def _dice_of_the_deal(self) -> "ScarCardsDealt":
        if self.dice is not None and self.cards is None:
            raise ValueError("`dice` go with a face-up deal; a face-down one gives `hidden_dice`")
        if self.hidden_dice is not None and self.commitments is None:
            raise ValueError("`hidden_dice` go with a face-down deal; a face-up one gives `dice`")
        return self


class CardsLaidOut(Payload):
    """Chance: the Territory cards turned face up in slots 1-4 (slot 1 first)."""

    cards: list[Name] = Field(min_length=1, max_length=4)
    dice: Dice | None = Field(None, description="the seeded stream's dice the cards were drawn with")


class MissionRevealed(Payload):
    """Chance: a Mission card placed face up (its content is not in the rulebook: a claim)."""

    card: str
    text: str | None = None
    reward: Literal[1, 2] = 1
    dice: Dice | None = Field(None, description="the seeded stream's dice the card was drawn with")


class DiceRolled(Payload):
    """Chance: dice by player id: the roll-off for first choice, or an attack roll (attacker and
    defender together), or the roll-off for naming the world."""

    rolls: dict[str, list[int]]


class FactionChosen(Payload):
    faction: str
    territory: Name


# --- a turn -------------------------------------------------------------------------------------

class RedStarBought(Payload):
    cards: list[Name] = Field(min_length=1)


class JoinedWar(Payload):
    territory: Name


class Recruited(Payload):
    """Recruit: the cards turned in (may be none) and where every recruited troop goes."""

    cards: list[Name] = Field(default_factory=list)
    placements: dict[Name, PositiveInt]
    troops: NonNegativeInt | None = Field(None, description="claim: troops recruited")


class Expanded(Payload):
    from_: Name = Field(alias="from")
    to: Name
    troops: PositiveInt = Field(description="troops moved (before the city's losses)")
    lost: NonNegativeInt | None = Field(None, description="claim: troops lost to the city")


class AttackDeclared(Payload):
    from_: Name = Field(alias="from")
    to: Name
    troops: int = Field(ge=1, le=3, description="attacking troops (dice)")


class DefenceDeclared(Payload):
    """The defender chooses how many troops defend the attacked territory (1 or 2, no more than it
    holds). Optional in a log: the roll's defending dice say as much; live play writes it, and the
    attack roll follows."""

    troops: int = Field(ge=1, le=2, description="defending troops (dice)")


class ScarPlaced(Payload):
    scar: str
    territory: Name
    salt: str | None = Field(None, description="a card dealt face down: the salt of its commitment")


class MissileFired(Payload):
    side: Literal["attacker", "defender"]
    die: NonNegativeInt = Field(description="which die, counted from 0 in the order the roll recorded them")


class MissilesHeld(Payload):
    """A player holding Missiles fires none (more) at this roll. Once every holder has, since the
    last Missile fired, the troops are removed. Optional in a log: CasualtiesRemoved closes the
    Missile window as well."""


class CasualtiesRemoved(Payload):
    """The troops removed after a roll: closes the missile window (and is checked as a claim)."""

    attacker: NonNegativeInt
    defender: NonNegativeInt


class MovedIn(Payload):
    troops: PositiveInt


class Maneuvered(Payload):
    from_: Name = Field(alias="from")
    to: Name
    troops: PositiveInt


class CardDrawn(Payload):
    card: Name = Field(description="a face-up Territory card (id or territory) or 'coin'")
    troop: bool = Field(False, description="Khan Industries: place one troop in the card's territory")


class CardRevealed(Payload):
    """Chance: the top of the Territory deck turned face up into slot 1."""

    card: Name
    dice: Dice | None = Field(None, description="the seeded stream's dice the card was drawn with")


class EffectSpec(Payload):
    """One claimed effect of an Event card, applied as recorded (the cards are not in the rulebook)."""

    kind: Literal["troops", "red_stars", "missiles"]
    delta: int
    territory: Name | None = None
    player: str | None = None


class EventCardDrawn(Payload):
    card: str
    text: str | None = None
    effects: list[EffectSpec] = Field(default_factory=list)
    placed: Literal["box", "deck", "in_play"] = "box"
    dice: Dice | None = Field(None, description="the seeded stream's dice the card was drawn with")


class MissionCompleted(Payload):
    card: str | None = None
    reward: Literal[1, 2] | None = Field(None, description="claim: Red Star tokens taken")


class TurnEnded(Payload):
    pass


# --- the end ------------------------------------------------------------------------------------

class ScarCardReturned(Payload):
    """A Scar card dealt face down and not played, turned over when the game ends: the card and
    the salt of its commitment."""

    scar: str
    salt: str


Reward = Literal["name_continent", "found_major_city", "cancel_scar", "change_continent_bonus",
                 "fortify_city", "destroy_card", "found_minor_city", "upgrade_card", "pass"]


class RewardChosen(Payload):
    reward: Reward
    territory: Name | None = None
    continent: str | None = None
    card: Name | None = None
    name: str | None = None
    modifier: Literal[-1, 1] | None = None
    slogan: str | None = Field(None, description="the winner's line in the victors' section")


class WorldNamed(Payload):
    name: str = Field(min_length=1)
    by: str = Field(description="the person who names the world")
    rolls: dict[str, list[int]] | None = Field(None, description="the roll-off when tied: person -> dice, one per round")


class PackOpened(Payload):
    """Claim: a sealed pack was opened here (its condition must have been met)."""

    pack: str


class GameEnded(Payload):
    winner: str | None
    reason: str | None = None


PAYLOADS = payload_table(
    GameStarted, ScarCardsDealt, CardsLaidOut, MissionRevealed, DiceRolled, FactionChosen,
    RedStarBought, JoinedWar, Recruited, Expanded, AttackDeclared, DefenceDeclared, ScarPlaced,
    MissileFired, MissilesHeld,
    CasualtiesRemoved, MovedIn, Maneuvered, CardDrawn, CardRevealed, EventCardDrawn,
    MissionCompleted, TurnEnded, ScarCardReturned, RewardChosen, WorldNamed, PackOpened, GameEnded,
    SeedRevealed,
)

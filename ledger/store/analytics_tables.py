"""The Risk Europe and Risk Legacy analytics tables (docs/analytics.md), as the store keeps them.

Kept as they are in one module: each ruleset will declare its own tables instead.
"""

from __future__ import annotations

from typing import Optional

from sqlalchemy import Double
from sqlmodel import Field, SQLModel

# --- analytics: what happened in each game, read off the engine's fold at ingest ----------------
#
# Filled by `analytics.extract.extract_rows` whenever a game is judged (ingest, extension,
# recheck) and replaced as a whole with its findings, so they always describe the last judgement.
# Columns are explained in docs/analytics.md; tests/test_analytics_store.py checks that these
# models and analytics.extract.COLUMNS name the same columns.


class OrderPlayedRow(SQLModel, table=True):
    """A King's Orders card revealed on a turn, the order chosen on it and its bonus action."""

    __tablename__ = "orders_played"
    game_id: str = Field(primary_key=True)
    seq: int = Field(primary_key=True)          # the CardRevealed event
    round: int
    turn: int                                   # 1 or 2
    turn_index: int                             # place in the round's turn order (0 = first)
    player: str
    seat: Optional[int] = None
    card: str
    order_chosen: Optional[str] = None          # expand, split_expand, maneuver, tax, spend
    card_bonus: Optional[str] = None            # fortify, siege_assault, king_me (or none)
    bonus_used: bool = False
    berlin_maneuver: bool = False               # the Berlin tile's free maneuver after an expand


class BattleRow(SQLModel, table=True):
    """A battle: the armies at the start, how it went, and its exact odds and luck."""

    __tablename__ = "battles"
    game_id: str = Field(primary_key=True)
    seq: int = Field(primary_key=True)          # the BattleStarted event
    round: int
    territory: str
    attacker: str
    defender: str
    castle: bool
    att_footman: int
    att_archer: int
    att_cavalry: int
    att_siege: int
    def_footman: int
    def_archer: int
    def_cavalry: int
    def_siege: int
    attacker_units: int
    defender_units: int
    cycles: int
    rerolls: int                                # castle re-rolls used
    outcome: str                # attacker takes | defender holds | both eliminated | unfinished
    winner: Optional[str] = None
    attacker_lost: int
    defender_lost: int
    p_attacker_takes: Optional[float] = Field(default=None, sa_type=Double)
    p_defender_holds: Optional[float] = Field(default=None, sa_type=Double)
    p_both_eliminated: Optional[float] = Field(default=None, sa_type=Double)
    expected_attacker_losses: Optional[float] = Field(default=None, sa_type=Double)
    expected_defender_losses: Optional[float] = Field(default=None, sa_type=Double)
    attacker_luck: Optional[float] = Field(default=None, sa_type=Double)
    defender_luck: Optional[float] = Field(default=None, sa_type=Double)
    attacker_units_luck: Optional[float] = Field(default=None, sa_type=Double)
    defender_units_luck: Optional[float] = Field(default=None, sa_type=Double)


class DiceRow(SQLModel, table=True):
    """The dice one player rolled in one event, and why."""

    __tablename__ = "dice"
    game_id: str = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    player: str = Field(primary_key=True)
    round: int
    seat: Optional[int] = None
    why: str            # roll-off | siege assault | battle | castle re-roll | attack | world naming
    rank: Optional[int] = None                  # the battle rank (1-4)
    territory: Optional[str] = None
    battle_seq: Optional[int] = None            # the battle's BattleStarted event
    dice: int
    faces: str                                  # JSON list, as rolled
    n1: int
    n2: int
    n3: int
    n4: int
    n5: int
    n6: int


class PlayerRoundRow(SQLModel, table=True):
    """A player's holdings at the end of a round (round 0: kingdoms placed)."""

    __tablename__ = "player_rounds"
    game_id: str = Field(primary_key=True)
    round: int = Field(primary_key=True)
    player: str = Field(primary_key=True)
    seat: Optional[int] = None
    coins: int
    crowns: int
    crown_cards: int
    territories: int
    cities: int
    castles: int
    footmen: int
    archers: int
    cavalry: int
    siege: int
    units: int
    eliminated: bool
    first_player: bool                          # holds the First Player Marker
    complete: bool                              # False: the log ends inside this round


class OutcomeRow(SQLModel, table=True):
    """How a game ended for one player, with where they started."""

    __tablename__ = "outcomes"
    game_id: str = Field(primary_key=True)
    player: str = Field(primary_key=True)
    seat: Optional[int] = None
    starting_city: Optional[str] = None
    starting_territory: Optional[str] = None
    opening_bid: Optional[int] = None
    first_player: bool                          # won the opening bid (the First Player Marker)
    won: bool
    win_share: float = Field(sa_type=Double)    # 1 for a win, 1/n for a win shared by n
    finished: bool                              # the game has a result
    rounds: int
    reason: Optional[str] = None
    crowns: int
    territories: int
    eliminated: bool


class LegacyOutcomeRow(SQLModel, table=True):
    """How a Risk Legacy game went for one player: faction, power, HQ, Red Stars, the reward."""

    __tablename__ = "legacy_outcomes"
    game_id: str = Field(primary_key=True)
    player: str = Field(primary_key=True)
    seat: Optional[int] = None                  # the log's (clockwise) seat order
    turn_order: Optional[int] = None            # place in the turn order (0: won the roll-off)
    faction: Optional[str] = None
    power: Optional[str] = None                 # the faction's starting power on this world
    hq_territory: Optional[str] = None
    signatures_before: int                      # times the person signed before this game
    finished: bool
    won: bool
    win_share: float = Field(sa_type=Double)
    outcome: Optional[str] = None               # won | held_on | eliminated (finished games)
    reason: Optional[str] = None
    rounds: int
    red_stars: int                              # at the end: tokens + HQs controlled
    red_star_tokens: int
    hqs: int
    red_stars_bought: int
    missions_completed: int
    knocked_out: bool                           # lost every troop at some point
    knocked_out_by: Optional[str] = None        # the first time
    knocked_out_round: Optional[int] = None
    eliminated: bool
    joined_war: int
    troops_recruited: int
    territories: int
    troops: int
    missiles_at_start: int
    missiles_used: int
    scars_placed: int
    reward: Optional[str] = None                # the reward chosen at the end (or pass)
    reward_detail: Optional[str] = None


class LegacyBattleRow(SQLModel, table=True):
    """One Risk Legacy attack roll: the dice, the modifiers, the losses, and the luck."""

    __tablename__ = "legacy_battles"
    game_id: str = Field(primary_key=True)
    seq: int = Field(primary_key=True)          # the AttackDeclared event
    roll_seq: int                               # its DiceRolled
    round: int
    attacker: str
    defender: str
    attacker_faction: Optional[str] = None
    defender_faction: Optional[str] = None
    from_territory: str
    territory: str
    hq: bool                                    # an HQ stands in the defended territory
    attacker_dice: int
    defender_dice: int
    attacker_faces: str                         # JSON list, as rolled
    defender_faces: str
    attacker_final: str                         # JSON list, after modifiers and Missiles
    defender_final: str
    modifiers: Optional[str] = None             # "bunker +1 higher; fortification +1 each"
    missiles: int
    modified: bool                              # a modifier or a Missile changed the dice
    power_effect: Optional[str] = None          # three of a kind, double sixes
    attacker_lost: int
    defender_lost: int
    conquered: bool
    expected_attacker_lost: Optional[float] = Field(default=None, sa_type=Double)
    expected_defender_lost: Optional[float] = Field(default=None, sa_type=Double)
    attacker_luck: Optional[float] = Field(default=None, sa_type=Double)
    defender_luck: Optional[float] = Field(default=None, sa_type=Double)
    attacker_troops: int                        # troops in the attacking territory before the roll
    defender_troops: int                        # and in the defended one
    battle_seq: int                             # the attack's first AttackDeclared (its rolls share it)
    p_take: Optional[float] = Field(default=None, sa_type=Double)       # P(attacker takes it) before the roll
    take_luck: Optional[float] = Field(default=None, sa_type=Double)    # the roll's luck in those chances
    battle_luck: Optional[float] = Field(default=None, sa_type=Double)  # the attack's, on its last roll


class LegacyGameRow(SQLModel, table=True):
    """A Risk Legacy game in its campaign: the winner, the reward, the world it leaves."""

    __tablename__ = "legacy_games"
    game_id: str = Field(primary_key=True)
    campaign: Optional[str] = None
    game_no: int                                # the game's number on its world
    players: int
    finished: bool
    winner: Optional[str] = None
    winner_faction: Optional[str] = None
    winner_power: Optional[str] = None
    reason: Optional[str] = None
    rounds: int
    reward: Optional[str] = None                # the winner's reward
    reward_detail: Optional[str] = None
    minor_cities: int                           # the world after the game, from here on
    major_cities: int
    cities: int
    cities_founded: int                         # in this game
    scars: int
    scars_placed: int
    scars_cancelled: int
    fortifications: int                         # fortified cities with boxes left
    fortification_boxes: int                    # boxes marked, every fortification
    named_continents: int
    continent_marks: int
    destroyed_cards: int
    card_resources: int
    signatures: int
    packs_opened: int
    world_name: Optional[str] = None
    world_before: str                           # digests of the world the game starts from
    world_after: str                            # and of the one it leaves


ANALYTICS_MODELS = (OrderPlayedRow, BattleRow, DiceRow, PlayerRoundRow, OutcomeRow,
                    LegacyOutcomeRow, LegacyBattleRow, LegacyGameRow)
ANALYTICS_TABLES = tuple(m.__tablename__ for m in ANALYTICS_MODELS)

"""The event store: games, their events and what the engine found in them, in DuckDB.

    store = open_store("ledger.duckdb")              # or $LEDGER_DB; created on first use
    outcome = store.ingest_read(read_log(path))      # new | present | extended | rejected
    head = store.append("g7", 12, [envelope, ...])   # optimistic: ConcurrencyConflict if not at 12
    store.events("g7")                               # the stored lines, byte for byte
    read = load_log_from_store(store, "g7")          # a LogRead, for replay/audit/verify

The contract (`EventStore`; every backend passes tests/test_store_contract.py):

- **Append-only, one chain per game.** A game's events are contiguous from seq 0 and chained by
  their hashes; nothing stored is rewritten. Only sealed logs are stored: the chain head hash is
  what makes re-ingest idempotent and lets an extension be recognised by one comparison.
- **A game is written in one transaction**, whole or not at all. Several games may share a
  transaction (group commit, `batch_events`): a crash loses at most the batch in flight, and every
  game in it is absent as a whole.
- **Re-ingesting a log is a no-op**; a log whose first events are the stored ones *extends* the game
  (only the new events are written, the game is judged again); a log that **contradicts** the
  stored game is refused, naming the first seq that differs, and the stored game is untouched.
- **An append names the seq it expects** (the number of events stored): a writer that is behind
  gets `ConcurrencyConflict`; re-sending events already stored at those seqs is a no-op.
- **The engine judges on write** (`replay.judge.judge`): each game is stored with its findings, the
  rules' result, the final state (a snapshot) and the ruleset version and data digest it was judged
  with. `recheck` judges every game again with the current engine.
- **Analytics rows are part of a judgement**: the orders played, battles, dice, per-round holdings
  and outcomes of each game (`analytics.extract`, docs/analytics.md) are written with it and
  replaced when the game is judged again, like its findings.
- **Rejected input is kept**, never dropped: each refused log and each line that was not stored is
  a row of `rejects` (file, line, seq, rule, message, the line's text when known).
- **Risk Legacy campaigns are linked on write**: a game whose GameStarted names a campaign is
  recorded as game N of it (`campaign_games`: the worlds it starts from and leaves) and the
  campaign is linked again in the game's transaction (`ledger.campaign.link_campaign`): a game
  from the wrong world, a second game N, a game waiting for game N-1 get `campaign_findings`,
  replaced whenever the campaign is linked again (docs/risk-legacy.md, campaigns in the store).

Refusals (`rejects.rule` besides the reader's LOG-* rules):

    STORE-UNREADABLE   the file cannot be read (missing, a directory, binary, not UTF-8)
    STORE-NO-EVENTS    no line of it is a log event (empty, another format)
    STORE-UNSEALED     the log has no hash chain (seal it first: `ledger seal FILE`)
    STORE-CHAIN        the hash chain is broken (an edited, inserted, deleted or reordered line)
    STORE-CONTRADICTS  the store holds a different history for this game id

Concurrency. DuckDB lets one process at a time open a database file for writing; any other open
of it, even read-only, fails with "Could not set lock on file" (read-only opens share the file
only while no process writes). So:

- Writer processes take turns. `open_store(wait=s)` retries while the file is held, then raises
  `StoreBusy`: retryable, naming the holder's PID. The CLI waits $LEDGER_DB_WAIT seconds (10) and
  exits 2 with that message. Open, write, close: a process that keeps the store open (a server)
  keeps every other writer out.
- A writer that read a head in one turn and appends in a later one, after another process
  appended, gets `ConcurrencyConflict` from its append (the expected seq is checked inside the
  write transaction) and nothing is written; it reads the head again and retries. No event is
  lost or duplicated (tests/test_store_processes.py, with real processes).
- Inside a process, threads share one connection and the store serialises writes with a lock.
  Every write still re-checks inside its transaction: a compare-and-set on `games.head_seq`, and
  the (game_id, seq) primary key, so the same rules hold on a backend with concurrent writers
  (PostgreSQL, for many writers at once).
- A process killed mid-write (kill -9) loses only its open transaction: DuckDB replays its
  write-ahead log on the next open, and every game is whole or absent.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

import duckdb
import polars as pl
from pydantic import NaiveDatetime
from sqlalchemy import JSON, Column, Computed, Double, Integer, Sequence as SqlSequence, String, func, text
from sqlalchemy.ext.compiler import compiles
from sqlmodel import Field, Session, SQLModel, create_engine, select

from replay.logfile import (
    FORMAT_VERSION, LogProblem, LogRead, RawEvent, event_hash, format_line, read_log_text,
)

DEFAULT_DB = "ledger.duckdb"
DB_ENV = "LEDGER_DB"
DEFAULT_BATCH_EVENTS = 50_000

STORE_RULES: dict[str, str] = {
    "STORE-UNREADABLE": "the file cannot be read (missing, a directory, binary, not UTF-8)",
    "STORE-NO-EVENTS": "no line of the file is a log event (empty, another format)",
    "STORE-UNSEALED": "the log has no hash chain; seal it first (ledger seal FILE)",
    "STORE-CHAIN": "the hash chain is broken: an edited, inserted, deleted or reordered line",
    "STORE-CONTRADICTS": "the store holds a different history for this game id",
}

# Reader problems that mean the events do not form one intact chain from seq 0. An exact
# duplicate line (LOG-SEQ-DUPLICATE) is not among them: the reader drops the repeat, and a
# re-sent identical event is a no-op; the dropped line is kept in `rejects`.
_CHAIN_RULES = frozenset(
    {"LOG-HASH", "LOG-CHAIN", "LOG-SEQ-GAP", "LOG-SEQ-ORDER", "LOG-FIRST-SEQ", "LOG-GAME-ID"}
)


# --- errors ------------------------------------------------------------------------------------


class StoreError(Exception):
    """Something the store cannot do; the message says what and where."""


class StoreBusy(StoreError):
    """Another process holds the database file; retry when it is done (retryable)."""

    def __init__(self, path: str, holder: str | None, waited: float):
        self.path, self.holder, self.waited = path, holder, waited
        who = f"another process ({holder})" if holder else "another process"
        after = f" after waiting {waited:.0f} s" if waited >= 1 else ""
        super().__init__(
            f"the store {path} is in use by {who}{after}; DuckDB lets one process write a "
            f"database file at a time — try again when it is done"
        )


class ConcurrencyConflict(StoreError):
    """An append expected another head: someone else appended first. Re-read, then retry."""

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int):
        self.game_id, self.expected_seq, self.actual_seq = game_id, expected_seq, actual_seq
        super().__init__(
            f"game {game_id!r}: expected to append at seq {expected_seq}, but the store holds "
            f"{actual_seq} event{'s' if actual_seq != 1 else ''} (next seq {actual_seq}); "
            f"read the game again and retry"
        )


class _WriteRefused(StoreError):
    """The database refused a write: a key that exists, or a write-write conflict."""

    def __init__(self, cause: Exception):
        super().__init__(f"the database refused the write (another writer got there first?): "
                         f"{cause}")


class InvalidAppend(StoreError, ValueError):
    """Appended envelopes that are not valid log events or do not continue the chain."""


class GameNotFound(StoreError, KeyError):
    """No game with this id is stored."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        super().__init__(f"no game {game_id!r} in the store")

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


# --- the models --------------------------------------------------------------------------------


class GameRow(SQLModel, table=True):
    """One stored game: its chain head, and what the engine last said about it."""

    __tablename__ = "games"
    game_id: str = Field(primary_key=True)
    ruleset: Optional[str] = None
    ruleset_version: Optional[str] = None      # the engine version it was last judged with
    data_digest: Optional[str] = None          # the board/card data it was last judged with
    players: list = Field(default_factory=list, sa_column=Column(JSON))
    played_on: Optional[date] = None           # the date of the first event's "at", as written
    event_count: int
    head_seq: int
    head_hash: str
    winners: Optional[list] = Field(default=None, sa_column=Column(JSON))  # the rules' result
    result: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    declared_winner: Optional[str] = None
    rounds: Optional[int] = None
    finding_count: int = 0
    fatal: Optional[str] = None                # why the game could not be judged, if so
    source: str = ""                           # the log it was last written from
    tournament_id: Optional[str] = Field(default=None, foreign_key="tournaments.tournament_id")
    ingested_at: NaiveDatetime                 # UTC, first stored
    updated_at: NaiveDatetime                  # UTC, last extended
    judged_at: NaiveDatetime                   # UTC, last judged (ingest, extension, recheck)


class PlayerRow(SQLModel, table=True):
    """A player of a game, in seat order."""

    __tablename__ = "players"
    game_id: str = Field(primary_key=True, foreign_key="games.game_id")
    seat: int = Field(primary_key=True)
    player_id: str
    name: Optional[str] = None


class EventRow(SQLModel, table=True):
    """One event, as logged: the envelope's fields for queries, and the line byte for byte.

    No foreign key to games: DuckDB would look it up for every event written (a third of the
    write time); the games row is written first in the same transaction, and check-db finds
    any event without a game.
    """

    __tablename__ = "events"
    game_id: str = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    type: str
    actor: Optional[str] = None
    at: Optional[str] = Field(default=None, sa_column=Column("at", String, quote=True))  # reserved
    # payload, prev and hash are read off raw when queried, not stored a second time (DuckDB
    # virtual generated columns): the line is kept byte for byte anyway
    payload: Optional[dict] = Field(default=None, sa_column=Column(
        JSON, Computed(text("json_extract(raw, '$.payload')"))))
    prev: Optional[str] = Field(default=None, sa_column=Column(
        String, Computed(text("json_extract_string(raw, '$.prev')"))))
    hash: Optional[str] = Field(default=None, sa_column=Column(
        String, Computed(text("json_extract_string(raw, '$.hash')"))))
    raw: str


@compiles(Computed, "duckdb")
def _virtual_column(element: Computed, compiler: Any, **kw: Any) -> str:
    """DuckDB's generated columns are virtual (computed when read); the PostgreSQL dialect that
    duckdb-engine builds on would ask for a stored one, which DuckDB does not have."""
    expr = compiler.sql_compiler.process(element.sqltext, include_table=False, literal_binds=True)
    return f"GENERATED ALWAYS AS ({expr}) VIRTUAL"


class FindingRow(SQLModel, table=True):
    """One finding of the engine's last judgement of a game (replaced when it is judged again)."""

    __tablename__ = "findings"
    game_id: str = Field(primary_key=True, foreign_key="games.game_id")
    idx: int = Field(primary_key=True)
    line: Optional[int] = None                 # the line in the stored log (= seq + 1)
    seq: Optional[int] = None
    event: Optional[str] = None
    rule: str
    kind: str                                  # log | illegal | claim
    applied: Optional[bool] = None
    message: str
    section: str


class SnapshotRow(SQLModel, table=True):
    """The state after an event (at least after each game's last one), with its digest."""

    __tablename__ = "snapshots"
    game_id: str = Field(primary_key=True, foreign_key="games.game_id")
    seq: int = Field(primary_key=True)
    ruleset_version: Optional[str] = None
    digest: str
    state: dict = Field(sa_column=Column(JSON))


class RejectRow(SQLModel, table=True):
    """Input that was not stored, and why: a refused log, or a line of a log that was."""

    __tablename__ = "rejects"
    id: Optional[int] = Field(default=None, sa_column=Column(
        Integer, SqlSequence("rejects_id_seq"), primary_key=True,
        server_default=text("nextval('rejects_id_seq')")))
    file: str
    line: Optional[int] = None
    seq: Optional[int] = None
    game_id: Optional[str] = None
    rule: str
    message: str
    raw: Optional[str] = None                  # the rejected line's text, when known
    rejected_at: NaiveDatetime


class TournamentRow(SQLModel, table=True):
    """A tournament; its games point to it (games.tournament_id)."""

    __tablename__ = "tournaments"
    tournament_id: str = Field(primary_key=True)
    name: str
    held_on: Optional[date] = None


# --- campaigns: Risk Legacy games linked into the campaigns they name -----------------------------
#
# A Risk Legacy game whose GameStarted names a campaign ({name, game, world}) gets a campaign_games
# row when it is judged, and the campaign is linked again in the same transaction
# (ledger.campaign.link_campaign): which stored game is game N, whether it starts from the world
# game N-1 left, what it waits for. Rows of campaign_games and campaign_findings are replaced
# whenever the campaign is linked again; campaigns rows are kept.


class CampaignRow(SQLModel, table=True):
    """A campaign the store knows: named by a stored game, or created with `ledger campaign new
    NAME --db` (then with the world before its first game, which game 1 must start from)."""

    __tablename__ = "campaigns"
    name: str = Field(primary_key=True)
    ruleset: str = "risk-legacy"
    world0: Optional[dict] = Field(default=None, sa_column=Column(JSON))   # None: game 1 shows it
    world0_digest: Optional[str] = None
    setup: Optional[dict] = Field(default=None, sa_column=Column(JSON))    # powers, stickers
    created_at: NaiveDatetime                  # UTC


class CampaignGameRow(SQLModel, table=True):
    """A stored game as game `game_no` of its campaign: the worlds it starts from and leaves, its
    history record, and how it links to the game before it."""

    __tablename__ = "campaign_games"
    game_id: str = Field(primary_key=True)     # a game names one campaign
    campaign: str
    game_no: int
    world_before: Optional[str] = None         # digest of the world it starts from (None: none carried)
    world_after: Optional[str] = None          # digest of the world it leaves (None: not over)
    start_world: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    end_world: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    record: dict = Field(sa_column=Column(JSON))  # players, winner, what it changed (campaign show)
    status: str                                # fits | wrong-world | waiting | duplicate
    waiting_for: Optional[int] = None          # the game number it waits for
    finding_count: int = 0                     # its rows in campaign_findings
    checked_at: NaiveDatetime                  # UTC, last linked


class CampaignFindingRow(SQLModel, table=True):
    """A campaign finding of a stored game (RL-CAMPAIGN-WORLD, RL-CAMPAIGN-ORDER, RL-CUSTOMIZE),
    about its GameStarted; reported with the game's own findings by audit and verify."""

    __tablename__ = "campaign_findings"
    game_id: str = Field(primary_key=True)
    idx: int = Field(primary_key=True)
    campaign: str
    line: Optional[int] = None
    seq: Optional[int] = None
    event: Optional[str] = None
    rule: str
    kind: str
    message: str
    section: str


CAMPAIGN_MODELS = (CampaignRow, CampaignGameRow, CampaignFindingRow)


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

MODELS = (TournamentRow, GameRow, PlayerRow, EventRow, FindingRow, SnapshotRow, RejectRow,
          *ANALYTICS_MODELS)


# --- results -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Head:
    """The last stored event of a game: its seq and hash. The next append expects `next_seq`."""

    game_id: str
    seq: int
    hash: str

    @property
    def next_seq(self) -> int:
        return self.seq + 1


@dataclass(frozen=True, slots=True)
class Reject:
    """Input that was not stored: where, under which rule, and why."""

    file: str
    line: int | None
    seq: int | None
    game_id: str | None
    rule: str
    message: str
    raw: str | None = None

    def format(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        where += f" (seq {self.seq})" if self.seq is not None else ""
        return f"{where}: {self.rule}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "seq": self.seq, "game": self.game_id,
                "rule": self.rule, "message": self.message}


@dataclass
class IngestOutcome:
    """What ingesting one log did. status: new | present | extended | rejected."""

    file: str
    game_id: str | None
    status: str
    events_added: int = 0
    event_count: int = 0                        # events stored for the game afterwards
    findings: int = 0
    winners: list[str] | None = None
    reason: str | None = None                   # why it was rejected
    rejects: list[Reject] = field(default_factory=list)
    # A Risk Legacy game naming a campaign: {"name", "game", "status", "waiting_for", "findings"}
    # as linked when its transaction committed (`findings` above counts these too).
    campaign: dict[str, Any] | None = None
    # Other stored games of its campaign whose link this game changed (re-checked), same shape
    # plus "game_id".
    relinked: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_stored(self) -> bool:
        return self.status in ("new", "present", "extended")

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game_id, "status": self.status,
                "events_added": self.events_added, "events": self.event_count,
                "findings": self.findings, "winners": self.winners, "reason": self.reason,
                "rejects": [r.as_dict() for r in self.rejects], "campaign": self.campaign,
                "relinked": self.relinked}


@dataclass(frozen=True)
class RecheckChange:
    """A game whose findings or result differ when judged again with the current engine."""

    game_id: str
    version_before: str | None
    version_after: str | None
    findings_before: int
    findings_after: int
    winners_before: list[str] | None
    winners_after: list[str] | None
    findings_changed: bool
    result_changed: bool

    def format(self) -> str:
        parts = []
        if self.findings_changed:
            parts.append(f"findings {self.findings_before} → {self.findings_after}")
        if self.result_changed:
            parts.append(f"winner {_winners_text(self.winners_before)} → "
                         f"{_winners_text(self.winners_after)}")
        return (f"{self.game_id}: {', '.join(parts)} (judged with {self.version_before or '?'}, "
                f"now {self.version_after or '?'})")

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game_id, "version_before": self.version_before,
                "version_after": self.version_after, "findings_before": self.findings_before,
                "findings_after": self.findings_after, "winners_before": self.winners_before,
                "winners_after": self.winners_after, "findings_changed": self.findings_changed,
                "result_changed": self.result_changed}


@dataclass
class IntegrityReport:
    """What `check` found: every broken invariant, one message each."""

    games: int
    events: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def _winners_text(winners: list[str] | None) -> str:
    if winners is None:
        return "none (not over)"
    return " and ".join(winners) or "no winner"


# --- the mapper: logs and judgements to rows -----------------------------------------------------

_EVENT_SCHEMA = {"game_id": pl.String, "seq": pl.Int32, "type": pl.String, "actor": pl.String,
                 "at": pl.String, "prev": pl.String, "hash": pl.String, "raw": pl.String}


def event_frame(events: Sequence[RawEvent]) -> pl.DataFrame:
    """The rows of `events` for the events table (payload is parsed from `raw` by the database).

    The one mapping from log events to stored rows; `raw` is the line exactly as read, so the
    stored game exports back to the same bytes.
    """
    return pl.DataFrame({
        "game_id": [e.game for e in events], "seq": [e.seq for e in events],
        "type": [e.type for e in events], "actor": [e.actor for e in events],
        "at": [e.at for e in events], "prev": [e.prev for e in events],
        "hash": [e.hash for e in events], "raw": [e.raw for e in events],
    }, schema=_EVENT_SCHEMA)


def log_text(lines: Iterable[str]) -> str:
    """A log file's text from its stored lines: each line and a newline."""
    return "".join(line + "\n" for line in lines)


def _now() -> datetime:
    """The current UTC time, naive (DuckDB TIMESTAMP)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _played_on(read: LogRead) -> date | None:
    at = read.events[0].at if read.events else None
    try:
        return date.fromisoformat(at[:10]) if at else None
    except ValueError:
        return None


def _player_names(first: RawEvent) -> list[tuple[str, str | None]]:
    players = first.payload.get("players") if isinstance(first.payload, dict) else None
    out = []
    for p in players if isinstance(players, list) else []:
        if isinstance(p, dict) and isinstance(p.get("id"), str):
            name = p.get("name")
            out.append((p["id"], name if isinstance(name, str) else None))
    return out


@dataclass
class _Judged:
    """A judgement of a stored game, as rows."""

    game: dict[str, Any]
    players: list[tuple]
    findings: list[tuple]
    snapshot: tuple | None
    analytics: dict[str, list[tuple]] = field(default_factory=dict)  # table -> rows
    campaign: dict[str, Any] | None = None     # its campaign_games row (a Risk Legacy campaign game)


def _judge_rows(read: LogRead, judge_fn: Callable[[LogRead], Any],
                extract_fn: Callable[[LogRead], Any] | None = None) -> _Judged:
    """Judge a log in its stored form and map the judgement to rows (without the timestamps);
    with `extract_fn`, also the game's analytics rows (analytics.extract)."""
    if judge_fn is _default_judge and extract_fn is _default_extract:
        from analytics.extract import judge_with_rows
        j, rows = judge_with_rows(read)           # one fold of the log for both
        judged = _judgement_rows(read, j)
        judged.analytics = rows.tables
        return judged
    judged = _judgement_rows(read, judge_fn(read))
    if extract_fn is not None:
        judged.analytics = extract_fn(read).tables
    return judged


def judge_for_store(read: LogRead) -> tuple[tuple[int, str | None], _Judged] | None:
    """What the store's default judge makes of a log, computed where the caller likes (a worker
    process, ahead of the write): (the read's fingerprint, its judged rows); None for a log the
    store refuses whole. Pass it to `ingest_reads(prejudged=...)`; the store uses it only for a
    read with the same fingerprint (event count and last hash), else it judges the read itself."""
    if _refusal(read) is not None:
        return None
    return read_fingerprint(read), _judge_rows(_stored_form(read), _default_judge, _default_extract)


def read_fingerprint(read: LogRead) -> tuple[int, str | None]:
    """(events, last event's hash) of a read: equal fingerprints of sealed logs of one game mean
    equal histories (the hash chain)."""
    return len(read.events), read.events[-1].hash if read.events else None


def _judgement_rows(read: LogRead, j: Any) -> _Judged:
    from engine.core.ruleset import get_ruleset

    game_id = read.events[0].game
    snapshot = None
    rounds = j.result.round if j.result else None
    if j.ruleset is not None and j.final_state is not None:
        rs = get_ruleset(j.ruleset)
        state = rs.snapshot(j.final_state)
        snapshot = (game_id, read.events[-1].seq, j.ruleset_version, rs.digest(j.final_state),
                    json.dumps(state, ensure_ascii=False, default=str))
        if rounds is None and isinstance(state, dict) and isinstance(state.get("round"), int):
            rounds = state["round"]
    findings = [(game_id, i, f.line, f.seq, f.event, f.rule, f.kind, f.applied, f.message,
                 f.section) for i, f in enumerate(j.findings)]
    names = dict(_player_names(read.events[0]))
    players = [(game_id, seat, pid, names.get(pid)) for seat, pid in enumerate(j.players)]
    last = read.events[-1]
    game = {
        "game_id": game_id, "ruleset": j.ruleset, "ruleset_version": j.ruleset_version,
        "data_digest": j.data_digest, "players": json.dumps(list(j.players)),
        "played_on": _played_on(read), "event_count": len(read.events), "head_seq": last.seq,
        "head_hash": last.hash, "winners": json.dumps(list(j.result.winners)) if j.result else None,
        "result": json.dumps(j.result.as_dict(), default=str) if j.result else None,
        "declared_winner": j.declared_winner if j.has_declared_winner else None,
        "rounds": rounds, "finding_count": len(j.findings), "fatal": j.fatal,
        "source": read.name,
    }
    return _Judged(game, players, findings, snapshot, campaign=_campaign_row(read, j))


def _campaign_row(read: LogRead, j: Any) -> dict[str, Any] | None:
    """The campaign_games row of a judged Risk Legacy game that names a campaign (its link columns
    are filled when the campaign is linked), or None."""
    if getattr(j, "ruleset", None) != "risk-legacy" or getattr(j, "final_state", None) is None:
        return None
    from ledger.campaign import campaign_game

    found = campaign_game(read, j)
    if found is None:
        return None
    g, record = found
    return {"game_id": g.game_id, "campaign": g.campaign, "game_no": g.game,
            "world_before": g.start_digest, "world_after": g.end_digest,
            "start_world": json.dumps(g.start_world) if g.start_world is not None else None,
            "end_world": json.dumps(g.end_world) if g.end_world is not None else None,
            "record": json.dumps(record, ensure_ascii=False, default=str)}


# --- checking a log before it is stored ------------------------------------------------------------


@dataclass(frozen=True)
class _Refusal:
    rule: str
    message: str
    line: int | None = None
    seq: int | None = None


def _refusal(read: LogRead) -> _Refusal | None:
    """Why `read` cannot be stored as one intact chain from seq 0, or None if it can."""
    name = read.name
    if not read.events:
        whole = [p for p in read.problems if p.line is None]
        if whole and whole[0].rule.startswith("STORE-"):
            return _Refusal(whole[0].rule, whole[0].message)
        why = "; ".join(p.message for p in whole) or "no line could be read as an event"
        return _Refusal("STORE-NO-EVENTS", f"no event to store: {why}")
    if not read.sealed:
        unsealed = sum(1 for e in read.events if e.hash is None or
                       (e.prev is None and e.seq != 0))
        return _Refusal("STORE-UNSEALED",
                        f"{unsealed} of {len(read.events)} events have no hash chain; "
                        f"the store keeps only sealed logs — seal it first: ledger seal {name}")
    broken = [p for p in read.problems if p.rule in _CHAIN_RULES]
    if broken:
        first = broken[0]
        more = f" (and {len(broken) - 1} more problem{'s' if len(broken) > 2 else ''})" \
            if len(broken) > 1 else ""
        return _Refusal("STORE-CHAIN", f"the hash chain is broken: {first.rule}: "
                        f"{first.message}{more}")
    # What the reader vouched for, checked once more (as whole lists: this runs per event).
    events = read.events
    hashes = [e.hash for e in events]
    if ([e.seq for e in events] != list(range(len(events)))
            or [e.prev for e in events] != [None, *hashes[:-1]]
            or any(e.game != events[0].game for e in events)):
        return _Refusal("STORE-CHAIN", "the events are not one chain from seq 0 "
                        "(seq, prev or game id out of line)")
    return None


def _stored_form(read: LogRead) -> LogRead:
    """The log as the store will hold it: its events' lines and nothing else.

    Judging this form (not the file) makes findings name the stored lines, so a recheck compares
    like with like; problems with lines that are not stored go to `rejects` instead.
    """
    if not read.problems and [e.line for e in read.events] == list(range(1, len(read.events) + 1)):
        return read
    return read_log_text(log_text(e.raw for e in read.events), read.name)


def _dropped_lines(read: LogRead) -> list[LogProblem]:
    """The reader's problems with lines that are not among the log's events (not stored)."""
    kept = {e.line for e in read.events}
    return [p for p in read.problems if p.line is not None and p.line not in kept]


def _line_text(lines: Sequence[str] | None, line: int | None) -> str | None:
    if lines is None or line is None or not 0 < line <= len(lines):
        return None
    return lines[line - 1]


# --- the interface ---------------------------------------------------------------------------------


class EventStore(ABC):
    """The store's contract; DuckDB is the embedded backend, PostgreSQL could be another."""

    backend: str = "?"
    name: str = "?"

    @abstractmethod
    def append(self, game_id: str, expected_seq: int, envelopes: Sequence[dict]) -> Head:
        """Append envelopes to a game at `expected_seq` (the number of events stored; 0 for a
        new game) and judge it again; the new head.

        Envelopes without "prev"/"hash" are sealed onto the stored head; ones with them must
        continue the chain. "v", "game" and "seq" are filled in when absent and checked when
        given. Raises ConcurrencyConflict if the game holds another number of events (unless the
        envelopes repeat, exactly, events already stored there: then nothing is written), and
        InvalidAppend if the envelopes are not valid events continuing the chain.
        """

    @abstractmethod
    def ingest_reads(self, reads: Iterable[LogRead], *,
                     lines_of: Callable[[LogRead], Sequence[str] | None] | None = None,
                     batch_events: int = DEFAULT_BATCH_EVENTS,
                     on_outcome: Callable[[IngestOutcome], None] | None = None,
                     on_read: Callable[[LogRead], None] | None = None,
                     timings: dict[str, float] | None = None,
                     tournament: str | None = None,
                     prejudged: Callable[[LogRead], Any] | None = None) -> list[IngestOutcome]:
        """Store each log (see the module doc for new/present/extended/rejected); outcomes in
        order. `tournament`: new games are filed under it (created if need be). `on_outcome` is
        called once a game's transaction has committed; `on_read` once a log is judged;
        `lines_of(read)` gives the file's lines to keep rejected lines' text. `prejudged(read)`
        may give what `judge_for_store` makes of the read, judged ahead (in a worker process):
        it is used when its fingerprint matches the read, so the result is the same either way.
        """

    def known_heads(self) -> dict[str, tuple[int, str | None]]:
        """Every stored game's fingerprint (events, head hash); a backend that cannot list them
        cheaply returns {} (work judged ahead is then never skipped, only wasted)."""
        return {}

    def ingest_read(self, read: LogRead, *, lines: Sequence[str] | None = None) -> IngestOutcome:
        """Store one log in its own transaction; what happened."""
        return self.ingest_reads([read], lines_of=lambda _: lines, batch_events=0)[0]

    @abstractmethod
    def head(self, game_id: str) -> Head | None:
        """The game's last stored event, or None if the game is not stored."""

    @abstractmethod
    def game(self, game_id: str) -> GameRow | None:
        """The stored game, or None."""

    @abstractmethod
    def games(self) -> list[GameRow]:
        """Every stored game, by date then id."""

    @abstractmethod
    def events(self, game_id: str) -> list[str]:
        """The game's stored lines in seq order, byte for byte; GameNotFound if not stored."""

    @abstractmethod
    def findings(self, game_id: str) -> list[FindingRow]:
        """The findings of the game's last judgement, in order."""

    @abstractmethod
    def snapshot(self, game_id: str) -> SnapshotRow | None:
        """The latest stored state snapshot of the game."""

    @abstractmethod
    def rejects(self) -> list[RejectRow]:
        """Every rejected input kept, oldest first."""

    @abstractmethod
    def record_rejects(self, rejects: Sequence[Reject]) -> None:
        """Keep rejected input (an exact repeat of a kept reject is not kept twice)."""

    @abstractmethod
    def recheck(self, *, on_game: Callable[[str], None] | None = None) -> list[RecheckChange]:
        """Judge every stored game again with the current engine and store the new judgement,
        and link every campaign again; the games whose findings (campaign findings included) or
        result changed."""

    @abstractmethod
    def campaigns(self) -> list[CampaignRow]:
        """Every campaign the store knows, by name."""

    @abstractmethod
    def campaign_games(self, campaign: str | None = None) -> list[CampaignGameRow]:
        """The stored games of a campaign (or of every campaign) with their links, by campaign,
        game number, then the counted game before its duplicates."""

    @abstractmethod
    def campaign_findings(self, game_id: str) -> list[CampaignFindingRow]:
        """The campaign findings of a stored game, as its campaign was last linked."""

    @abstractmethod
    def create_campaign(self, name: str, world0: dict, setup: dict) -> None:
        """Record a campaign's first world (the world its game 1 must start from) and link its
        stored games again. StoreError if the campaign already has a first world."""

    @abstractmethod
    def check(self) -> IntegrityReport:
        """Check every invariant of the stored data (contiguous seqs, chain links, hashes of the
        lines, heads, counts)."""

    @abstractmethod
    def export_jsonl(self, game_id: str, out: str | Path) -> Path:
        """Write the game's log file as stored (byte for byte) to `out`; the path written."""

    @abstractmethod
    def export_parquet(self, out_dir: str | Path, game_id: str | None = None) -> Path:
        """Write events (one game or all) as Parquet under `out_dir`, partitioned by ruleset and
        date (hive style: ruleset=.../date=.../*.parquet)."""

    @abstractmethod
    def close(self) -> None:
        """Release the database."""

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def load_log_from_store(store: EventStore, game_id: str, name: str | None = None) -> LogRead:
    """The stored game as a LogRead, read from its stored lines exactly as a file would be.

    `name` prefixes every finding (default: the game id). GameNotFound if it is not stored.
    """
    return read_log_text(log_text(store.events(game_id)), name or game_id)


# --- DuckDB ----------------------------------------------------------------------------------------


class _ArrowStream:
    """Hands a polars frame to DuckDB through the Arrow C stream interface (no pyarrow needed)."""

    def __init__(self, frame: pl.DataFrame):
        self.frame = frame

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self.frame.__arrow_c_stream__(requested_schema)


_GAME_SCHEMA = {
    "game_id": pl.String, "ruleset": pl.String, "ruleset_version": pl.String,
    "data_digest": pl.String, "players": pl.String, "played_on": pl.Date,
    "event_count": pl.Int64, "head_seq": pl.Int64, "head_hash": pl.String, "winners": pl.String,
    "result": pl.String, "declared_winner": pl.String, "rounds": pl.Int64,
    "finding_count": pl.Int64, "fatal": pl.String, "source": pl.String,
    "ingested_at": pl.Datetime("us"), "updated_at": pl.Datetime("us"),
    "judged_at": pl.Datetime("us"), "tournament_id": pl.String,
}
_GAME_UPDATE_COLUMNS = [c for c in _GAME_SCHEMA
                        if c not in ("game_id", "ingested_at", "played_on", "tournament_id")]
_PLAYER_SCHEMA = {"game_id": pl.String, "seat": pl.Int32, "player_id": pl.String, "name": pl.String}
_FINDING_SCHEMA = {"game_id": pl.String, "idx": pl.Int32, "line": pl.Int32, "seq": pl.Int32,
                   "event": pl.String, "rule": pl.String, "kind": pl.String,
                   "applied": pl.Boolean, "message": pl.String, "section": pl.String}
_SNAPSHOT_SCHEMA = {"game_id": pl.String, "seq": pl.Int32, "ruleset_version": pl.String,
                    "digest": pl.String, "state": pl.String}
_REJECT_SCHEMA = {"file": pl.String, "line": pl.Int32, "seq": pl.Int32, "game_id": pl.String,
                  "rule": pl.String, "message": pl.String, "raw": pl.String,
                  "rejected_at": pl.Datetime("us")}
_CAMPAIGN_GAME_SCHEMA = {
    "game_id": pl.String, "campaign": pl.String, "game_no": pl.Int64, "world_before": pl.String,
    "world_after": pl.String, "start_world": pl.String, "end_world": pl.String,
    "record": pl.String, "status": pl.String, "waiting_for": pl.Int64, "finding_count": pl.Int64,
    "checked_at": pl.Datetime("us"),
}
_CAMPAIGN_FINDING_SCHEMA = {"game_id": pl.String, "idx": pl.Int32, "campaign": pl.String,
                            "line": pl.Int32, "seq": pl.Int32, "event": pl.String,
                            "rule": pl.String, "kind": pl.String, "message": pl.String,
                            "section": pl.String}


@dataclass
class _Batch:
    """Games planned inside the open transaction, written together at commit."""

    games_new: list[dict] = field(default_factory=list)
    games_updated: list[dict] = field(default_factory=list)   # with expected_head_seq
    players: list[tuple] = field(default_factory=list)
    events: list[RawEvent] = field(default_factory=list)
    findings: list[tuple] = field(default_factory=list)
    judged: list[str] = field(default_factory=list)           # games whose findings are replaced
    snapshots: list[tuple] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    outcomes: list[IngestOutcome] = field(default_factory=list)
    game_ids: set[str] = field(default_factory=set)
    analytics: dict[str, list[tuple]] = field(default_factory=dict)   # table -> rows
    rejudged: list[str] = field(default_factory=list)  # stored games whose analytics are replaced
    tournament: str | None = None                      # new games are filed under this tournament
    campaign_rows: list[dict] = field(default_factory=list)   # campaign_games rows, unlinked
    links: dict[str, dict] = field(default_factory=dict)      # game -> its link, once linked
    relinked: list[dict] = field(default_factory=list)        # other games whose link changed

    def add_judged(self, judged: _Judged, stamp: datetime, expected: int | None,
                   new_events: Sequence[RawEvent]) -> None:
        row = dict(judged.game, updated_at=stamp, judged_at=stamp)
        if expected is None:
            row["ingested_at"] = stamp
            row["tournament_id"] = self.tournament
            self.games_new.append(row)
            self.players.extend(judged.players)
        else:
            row["expected_head_seq"] = expected - 1
            self.games_updated.append(row)
        self.events.extend(new_events)
        self.findings.extend(judged.findings)
        self.judged.append(row["game_id"])
        if judged.snapshot is not None:
            self.snapshots.append(judged.snapshot)
        self.add_analytics(judged, rejudged=expected is not None)
        self.add_campaign(judged)
        self.game_ids.add(row["game_id"])

    def add_campaign(self, judged: _Judged) -> None:
        if judged.campaign is not None:
            self.campaign_rows.append(judged.campaign)

    def add_analytics(self, judged: _Judged, rejudged: bool) -> None:
        if rejudged:
            self.rejudged.append(judged.game["game_id"])
        for table, rows in judged.analytics.items():
            self.analytics.setdefault(table, []).extend(rows)


def _report_links(batch: _Batch) -> None:
    """Tell each stored outcome of the batch its campaign link (its findings count with the
    game's), and give the other games whose link changed to the batch's last game of their
    campaign."""
    last: dict[str, IngestOutcome] = {}
    for outcome in batch.outcomes:
        link = batch.links.get(outcome.game_id) if outcome.status in ("new", "extended") else None
        if link is not None:
            outcome.campaign = link
            outcome.findings += len(link["findings"])
            last[link["name"]] = outcome
    for change in batch.relinked:
        if change["name"] in last:
            last[change["name"]].relinked.append(change)


_LOOKUP_CHUNK = 64  # logs whose stored heads are looked up together


@dataclass(frozen=True, slots=True)
class _StoredGame:
    """What planning needs to know of a stored game."""

    event_count: int
    head_hash: str
    finding_count: int
    winners: str | None  # JSON
    campaign_findings: int = 0

    def winner_list(self) -> list[str] | None:
        return json.loads(self.winners) if self.winners else None


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (.*?)(?:\. |\.$|$)")


def _connect(path: str, read_only: bool, wait: float) -> duckdb.DuckDBPyConnection:
    """duckdb.connect, retried while another process holds the file, up to `wait` seconds."""
    started = time.monotonic()
    delay = 0.02
    while True:
        try:
            return duckdb.connect(path, read_only=read_only)
        except duckdb.IOException as exc:
            message = str(exc)
            if "lock" not in message.lower():
                raise StoreError(f"cannot open the store {path}: {message}") from exc
            waited = time.monotonic() - started
            if waited >= wait:
                found = _LOCK_HOLDER.search(message)
                raise StoreBusy(path, found.group(1) if found else None, waited) from exc
            time.sleep(min(delay, max(0.0, wait - waited)))
            delay = min(delay * 2, 0.5)


def open_store(db_path: str | Path | None = None, *, read_only: bool = False,
               wait: float = 0.0) -> "DuckDBStore":
    """Open (and create, unless read_only) the DuckDB store at `db_path` (default: $LEDGER_DB,
    else ledger.duckdb).

    Waits up to `wait` seconds while another process holds the file, then raises StoreBusy.
    A read-only open of a missing file raises StoreError.
    """
    path = str(db_path or os.environ.get(DB_ENV) or DEFAULT_DB)
    if read_only and path != ":memory:" and not Path(path).exists():
        raise StoreError(f"no store at {path} (ledger ingest creates one)")
    con = _connect(path, read_only, wait)
    try:
        return DuckDBStore(con, path, read_only=read_only)
    except BaseException:
        con.close()
        raise


class DuckDBStore(EventStore):
    """The store in one DuckDB file (or ":memory:"). Thread-safe: one writer at a time."""

    backend = "duckdb"

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str, *, read_only: bool = False,
                 judge_fn: Callable[[LogRead], Any] | None = None,
                 extract_fn: Callable[[LogRead], Any] | None = None):
        import duckdb_engine
        from sqlalchemy.pool import StaticPool

        self._con = con
        self.path = self.name = path
        self.read_only = read_only
        self._lock = threading.RLock()
        self._judge = judge_fn or _default_judge
        self._extract = extract_fn or _default_extract
        self._engine = create_engine("duckdb://", poolclass=StaticPool,
                                     creator=lambda: duckdb_engine.ConnectionWrapper(con))
        if not read_only:
            with self._lock:
                tables = [m.__table__ for m in (*MODELS, *CAMPAIGN_MODELS)]
                present = self._one("SELECT count(*) FROM duckdb_tables() WHERE schema_name = "
                                    "current_schema() AND table_name IN ("
                                    + ", ".join("?" * len(tables)) + ")",
                                    [t.name for t in tables])[0]
                if present != len(tables):
                    SQLModel.metadata.create_all(self._engine, tables=tables)
        # Stores made before payload, prev and hash became virtual columns store them: fill them.
        stored = {r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = 'events' AND is_generated = 'NEVER'").fetchall()}
        excluded = [c for c in ("prev", "hash") if c not in stored]
        self._event_columns = ((f"* EXCLUDE ({', '.join(excluded)})" if excluded else "*")
                               + (", json_extract(raw, '$.payload') AS payload"
                                  if "payload" in stored else ""))

    # -- plumbing

    def close(self) -> None:
        with self._lock:
            self._engine.dispose()
            self._con.close()

    @contextmanager
    def _transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """One transaction on the store's connection; rolled back on any error."""
        with self._lock:
            con = self._con
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException as exc:
                try:
                    con.execute("ROLLBACK")
                except duckdb.Error:
                    pass  # a failed COMMIT has rolled back already
                if isinstance(exc, (duckdb.ConstraintException, duckdb.TransactionException)):
                    raise _WriteRefused(exc) from exc
                raise

    def _insert(self, table: str, frame: pl.DataFrame, select_list: str = "*") -> None:
        if frame.height == 0:
            return
        view = f"_ledger_{table}"
        self._con.register(view, _ArrowStream(frame))
        try:
            self._con.execute(
                f'INSERT INTO {table} BY NAME SELECT {select_list} FROM "{view}"').fetchall()
        finally:
            self._con.unregister(view)

    def _one(self, sql: str, params: Sequence[Any] | None = None) -> tuple | None:
        """The first row of a query (DuckDB wants every result read to its end)."""
        rows = self._con.execute(sql, params).fetchall()
        return rows[0] if rows else None

    def _stored_head(self, game_id: str) -> tuple[int, str] | None:
        row = self._one("SELECT event_count, head_hash FROM games WHERE game_id = ?", [game_id])
        return (row[0], row[1]) if row else None

    def _hashes(self, game_id: str) -> list[str]:
        return [r[0] for r in self._con.execute(
            "SELECT hash FROM events WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()]

    # -- writing

    def ingest_reads(self, reads, *, lines_of=None, batch_events=DEFAULT_BATCH_EVENTS,
                     on_outcome=None, on_read=None, timings=None, tournament=None, prejudged=None):
        self._writable()
        if self._judge is not _default_judge or self._extract is not _default_extract:
            prejudged = None                   # judged ahead with the default judge: not ours
        outcomes: list[IngestOutcome] = []
        clock: dict[str, float] = timings if timings is not None else {}
        with self._lock:
            batch: _Batch | None = None
            try:
                for chunk in _chunks(reads, _LOOKUP_CHUNK):
                    if batch is None:
                        self._con.execute("BEGIN TRANSACTION")
                        batch = _Batch(tournament=tournament)
                    heads = self._heads(r.events[0].game for r in chunk if r.events)
                    for read in chunk:
                        game_id = read.events[0].game if read.events else None
                        if batch is None or game_id in batch.game_ids:
                            if batch is not None:  # write the first log, then plan on top of it
                                self._commit(batch, outcomes, on_outcome, clock)
                            self._con.execute("BEGIN TRANSACTION")
                            batch = _Batch(tournament=tournament)
                        lines = lines_of(read) if lines_of is not None and \
                            (read.problems or not read.events) else None
                        self._plan(read, lines, batch, heads, clock, prejudged)
                        if on_read is not None:
                            on_read(read)
                        if len(batch.events) >= batch_events:
                            self._commit(batch, outcomes, on_outcome, clock)
                            batch = None
                if batch is not None:
                    self._commit(batch, outcomes, on_outcome, clock)
                    batch = None
            except BaseException:
                if batch is not None:
                    try:
                        self._con.execute("ROLLBACK")
                    except duckdb.Error:
                        pass
                raise
        return outcomes

    def checkpoint(self) -> None:
        """Write the write-ahead log into the database file now (DuckDB does it by itself when
        the log grows past its threshold, and on close)."""
        with self._lock:
            self._writable()
            self._con.execute("CHECKPOINT").fetchall()

    def known_heads(self) -> dict[str, tuple[int, str | None]]:
        """Every stored game's fingerprint (events, head hash), in one query."""
        with self._lock:
            return {g: (n, h) for g, n, h in self._con.execute(
                "SELECT game_id, event_count, head_hash FROM games").fetchall()}

    def _heads(self, game_ids: Iterable[str]) -> dict[str, _StoredGame]:
        """The stored heads of these games, in one query (DuckDB's per-query cost is ~0.5 ms)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        return {row[0]: _StoredGame(*row[1:]) for row in self._con.execute(
            "SELECT g.game_id, g.event_count, g.head_hash, g.finding_count, g.winners, "
            "coalesce(c.finding_count, 0) FROM games g LEFT JOIN campaign_games c USING (game_id) "
            "WHERE g.game_id IN (SELECT unnest(?::VARCHAR[]))", [ids]).fetchall()}

    def _plan(self, read: LogRead, lines: Sequence[str] | None, batch: _Batch,
              heads: dict[str, _StoredGame], clock: dict[str, float],
              prejudged: Callable[[LogRead], Any] | None = None) -> None:
        """Decide what `read` does to the store (inside the open transaction); add its rows.

        `heads` holds the stored heads of the games planned on and is kept up to date; the
        writes check them again (compare-and-set), so a stale head is a conflict, not a loss.
        """
        started = time.perf_counter()
        name = read.name
        game_id = read.events[0].game if read.events else None
        refusal = _refusal(read)
        stored = heads.get(game_id) if refusal is None else None
        start = 0
        if stored is not None:
            n, count = len(read.events), stored.event_count
            ours = read.events[min(n, count) - 1].hash
            theirs = stored.head_hash if n >= count else self._hashes(game_id)[n - 1]
            if ours != theirs:  # an intact chain: equal hashes at a seq mean equal histories
                refusal = self._contradiction(read, game_id)
            else:
                start = count
        rejects = [Reject(name, p.line, p.seq, game_id, p.rule, p.message,
                          _line_text(lines, p.line)) for p in _dropped_lines(read)]
        if refusal is not None:
            rejects = [Reject(name, refusal.line, refusal.seq, game_id, refusal.rule,
                              refusal.message, _line_text(lines, refusal.line))] + [
                Reject(name, p.line, p.seq, game_id, p.rule, p.message, _line_text(lines, p.line))
                for p in read.problems if p.line is not None]
            outcome = IngestOutcome(name, game_id, "rejected", reason=refusal.message,
                                    rejects=rejects)
        elif stored is not None and start >= len(read.events):
            outcome = IngestOutcome(name, game_id, "present", 0, stored.event_count,
                                    stored.finding_count + stored.campaign_findings,
                                    stored.winner_list(), rejects=rejects)
        else:
            clock["write"] = clock.get("write", 0.0) + time.perf_counter() - started
            started = time.perf_counter()
            ahead = prejudged(read) if prejudged is not None else None
            if ahead is not None and ahead[0] == read_fingerprint(read):
                judged = ahead[1]
            else:
                judged = _judge_rows(_stored_form(read), self._judge, self._extract)
            clock["judge"] = clock.get("judge", 0.0) + time.perf_counter() - started
            started = time.perf_counter()
            batch.add_judged(judged, _now(), start if stored is not None else None,
                             read.events[start:])
            game = judged.game
            heads[game_id] = _StoredGame(game["event_count"], game["head_hash"],
                                         game["finding_count"], game["winners"])
            outcome = IngestOutcome(name, game_id, "new" if stored is None else "extended",
                                    len(read.events) - start, len(read.events),
                                    game["finding_count"], heads[game_id].winner_list(),
                                    rejects=rejects)
        batch.rejects.extend(rejects)
        batch.outcomes.append(outcome)
        clock["write"] = clock.get("write", 0.0) + time.perf_counter() - started

    def _contradiction(self, read: LogRead, game_id: str) -> _Refusal:
        stored = self._hashes(game_id)
        for e, theirs in zip(read.events, stored):
            if e.hash != theirs:
                return _Refusal(
                    "STORE-CONTRADICTS",
                    f"game {game_id!r} contradicts the stored game from seq {e.seq} "
                    f"(line {e.line}) on: the store holds a different event there (hash "
                    f"{theirs[:12]}…, this log {e.hash[:12]}…); the stored game is unchanged",
                    e.line, e.seq)
        raise AssertionError("a contradiction without a differing seq")  # pragma: no cover

    def _commit(self, batch: _Batch, outcomes: list[IngestOutcome],
                on_outcome: Callable[[IngestOutcome], None] | None,
                clock: dict[str, float]) -> None:
        """Write the batch's rows and commit its transaction (opened by the caller)."""
        started = time.perf_counter()
        try:
            self._write_rows(batch)
            self._con.execute("COMMIT")
        except (duckdb.ConstraintException, duckdb.TransactionException) as exc:
            raise _WriteRefused(exc) from exc
        clock["write"] = clock.get("write", 0.0) + time.perf_counter() - started
        _report_links(batch)
        outcomes.extend(batch.outcomes)
        if on_outcome is not None:
            for outcome in batch.outcomes:
                on_outcome(outcome)

    def _write_rows(self, batch: _Batch) -> None:
        """Insert and update every row the batch planned, in the open transaction.

        The games row goes first (the events refer to it); an existing game is updated only if
        its head is still the one planned on (compare-and-set), else ConcurrencyConflict.
        """
        con = self._con
        if batch.tournament is not None and batch.games_new:
            con.execute("INSERT INTO tournaments (tournament_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        [batch.tournament, batch.tournament]).fetchall()
        self._insert("games", pl.DataFrame(batch.games_new, schema=_GAME_SCHEMA),
                     "* REPLACE (players::JSON AS players, winners::JSON AS winners, "
                     "result::JSON AS result)")
        if batch.games_updated:
            frame = pl.DataFrame(batch.games_updated,
                                 schema=_GAME_SCHEMA | {"expected_head_seq": pl.Int64})
            con.register("_ledger_updates", _ArrowStream(frame))
            try:
                sets = ", ".join(f"{c} = u.{c}" + ("::JSON" if c in ("players", "winners", "result")
                                                   else "") for c in _GAME_UPDATE_COLUMNS)
                changed = self._one(
                    f"UPDATE games SET {sets} FROM _ledger_updates AS u "
                    f"WHERE games.game_id = u.game_id AND games.head_seq = u.expected_head_seq"
                )[0]
            finally:
                con.unregister("_ledger_updates")
            if changed != frame.height:  # compare-and-set failed: say for which game
                for row in batch.games_updated:
                    actual = self._one("SELECT event_count FROM games WHERE game_id = ?",
                                       [row["game_id"]])
                    if actual is None or actual[0] != row["expected_head_seq"] + 1:
                        raise ConcurrencyConflict(row["game_id"], row["expected_head_seq"] + 1,
                                                  actual[0] if actual else 0)
                raise StoreError("a game's head moved while it was being written")
        self._insert("players", pl.DataFrame(batch.players, schema=_PLAYER_SCHEMA, orient="row"))
        if batch.judged:
            ids = pl.DataFrame({"game_id": batch.judged}, schema={"game_id": pl.String})
            con.register("_ledger_judged", _ArrowStream(ids))
            try:
                con.execute("DELETE FROM findings WHERE game_id IN "
                            "(SELECT game_id FROM _ledger_judged)").fetchall()
            finally:
                con.unregister("_ledger_judged")
        self._insert("findings", pl.DataFrame(batch.findings, schema=_FINDING_SCHEMA,
                                              orient="row"))
        self._write_snapshots(batch.snapshots)
        self._insert("events", event_frame(batch.events), self._event_columns)
        self._write_rejects(batch.rejects)
        self._write_analytics(batch)
        self._write_campaigns(batch)

    def _write_analytics(self, batch: _Batch) -> None:
        """Replace the analytics rows of every game judged in the batch (a new game has none)."""
        from analytics.extract import rows_frame

        if batch.rejudged:
            ids = pl.DataFrame({"game_id": batch.rejudged}, schema={"game_id": pl.String})
            self._con.register("_ledger_rejudged", _ArrowStream(ids))
            try:
                for table in ANALYTICS_TABLES:
                    self._con.execute(f"DELETE FROM {table} WHERE game_id IN "
                                      f"(SELECT game_id FROM _ledger_rejudged)").fetchall()
            finally:
                self._con.unregister("_ledger_rejudged")
        for table, rows in batch.analytics.items():
            self._insert(table, rows_frame(table, rows))

    def _write_campaigns(self, batch: _Batch) -> None:
        """Replace the campaign_games rows of every game judged in the batch and link each
        campaign they are (or were) in again, in the open transaction (ledger.campaign)."""
        con = self._con
        fresh: dict[str, list[dict]] = {}
        for row in batch.campaign_rows:
            fresh.setdefault(row["campaign"], []).append(row)
        touched = set(fresh)
        if batch.rejudged:
            ids = pl.DataFrame({"game_id": batch.rejudged}, schema={"game_id": pl.String})
            con.register("_ledger_relinked", _ArrowStream(ids))
            try:
                touched.update(c for (c,) in con.execute(
                    "SELECT DISTINCT campaign FROM campaign_games WHERE game_id IN "
                    "(SELECT game_id FROM _ledger_relinked)").fetchall())
                for table in ("campaign_games", "campaign_findings"):
                    con.execute(f"DELETE FROM {table} WHERE game_id IN "
                                f"(SELECT game_id FROM _ledger_relinked)").fetchall()
            finally:
                con.unregister("_ledger_relinked")
        if not touched:
            return
        stamp = _now()
        for name in sorted(fresh):
            con.execute("INSERT INTO campaigns (name, ruleset, created_at) VALUES (?, ?, ?) "
                        "ON CONFLICT DO NOTHING", [name, "risk-legacy", stamp]).fetchall()
        for name in sorted(touched):
            self._link(name, fresh.get(name, []), batch, stamp)

    def _link(self, name: str, fresh: list[dict], batch: _Batch, stamp: datetime) -> None:
        """Link campaign `name` again: the stored games' rows and the `fresh` ones (written
        here, whole); a stored game's row and findings are rewritten only when its link changed,
        and then listed in `batch.relinked`."""
        from ledger.campaign import CampaignGame, link_campaign

        con = self._con
        first = self._one("SELECT world0::VARCHAR FROM campaigns WHERE name = ?", [name])
        world0 = json.loads(first[0]) if first and first[0] is not None else None
        stored = con.execute(
            "SELECT game_id, game_no, world_before, world_after, start_world::VARCHAR, "
            "end_world::VARCHAR, status, waiting_for FROM campaign_games WHERE campaign = ?",
            [name]).fetchall()
        rows = [dict(zip(("game_id", "game_no", "world_before", "world_after", "start_world",
                          "end_world", "status", "waiting_for"), r)) for r in stored] + fresh
        if not rows:
            return
        judged = {r[0]: (r[1], r[2]) for r in con.execute(
            "SELECT game_id, finding_count, ingested_at FROM games WHERE game_id IN "
            "(SELECT unnest(?::VARCHAR[]))", [[r["game_id"] for r in rows]]).fetchall()}
        before: dict[str, list[tuple[str, str]]] = {}
        for gid, rule, message in con.execute(
                "SELECT game_id, rule, message FROM campaign_findings WHERE campaign = ? "
                "ORDER BY game_id, idx", [name]).fetchall():
            before.setdefault(gid, []).append((rule, message))
        games = []
        for r in rows:
            own, at = judged.get(r["game_id"], (0, None))
            games.append(CampaignGame(
                r["game_id"], name, r["game_no"], r["world_before"], r["world_after"],
                json.loads(r["start_world"]) if r["start_world"] is not None else None,
                json.loads(r["end_world"]) if r["end_world"] is not None else None,
                own or 0, (0, at.isoformat() if at is not None else "", r["game_id"])))
        links = link_campaign(name, games, world0)
        new_rows, findings, changed = [], [], []
        is_fresh = {r["game_id"] for r in fresh}
        for r, link in zip(rows, links):
            gid = r["game_id"]
            said = [(f.rule, f.message) for f in link.findings]
            batch.links[gid] = {"name": name, "game": r["game_no"], "status": link.status,
                                "waiting_for": link.waiting_for,
                                "findings": [{"rule": f.rule, "message": f.message}
                                             for f in link.findings]}
            if gid not in is_fresh:
                if (r["status"], r["waiting_for"], before.get(gid, [])) == \
                        (link.status, link.waiting_for, said):
                    continue
                changed.append(gid)
                batch.relinked.append({"game_id": gid, **batch.links[gid],
                                       "status_before": r["status"],
                                       "findings_before": len(before.get(gid, []))})
            else:
                new_rows.append({**r, "status": link.status, "waiting_for": link.waiting_for,
                                 "finding_count": len(link.findings), "checked_at": stamp})
            findings += [(gid, i, name, f.line, f.seq, f.event, f.rule, f.kind, f.message,
                          f.section) for i, f in enumerate(link.findings)]
        if changed:
            con.execute("DELETE FROM campaign_findings WHERE game_id IN "
                        "(SELECT unnest(?::VARCHAR[]))", [changed]).fetchall()
            for gid in changed:
                link = batch.links[gid]
                con.execute("UPDATE campaign_games SET status = ?, waiting_for = ?, "
                            "finding_count = ?, checked_at = ? WHERE game_id = ?",
                            [link["status"], link["waiting_for"], len(link["findings"]), stamp,
                             gid]).fetchall()
        self._insert("campaign_games", pl.DataFrame(new_rows, schema=_CAMPAIGN_GAME_SCHEMA),
                     "* REPLACE (start_world::JSON AS start_world, end_world::JSON AS end_world, "
                     "record::JSON AS record)")
        self._insert("campaign_findings", pl.DataFrame(findings, schema=_CAMPAIGN_FINDING_SCHEMA,
                                                       orient="row"))

    def _write_snapshots(self, snapshots: list[tuple]) -> None:
        if not snapshots:
            return
        frame = pl.DataFrame(snapshots, schema=_SNAPSHOT_SCHEMA, orient="row")
        self._con.register("_ledger_snapshots", _ArrowStream(frame))
        try:
            self._con.execute("DELETE FROM snapshots WHERE (game_id, seq) IN "
                              "(SELECT (game_id, seq) FROM _ledger_snapshots)").fetchall()
            self._con.execute("INSERT INTO snapshots BY NAME SELECT * REPLACE "
                              "(state::JSON AS state) FROM _ledger_snapshots").fetchall()
        finally:
            self._con.unregister("_ledger_snapshots")

    def _write_rejects(self, rejects: Sequence[Reject]) -> None:
        """Insert rejects, except exact repeats of kept ones (re-ingest adds nothing)."""
        if not rejects:
            return
        stamp = _now()
        frame = pl.DataFrame([(r.file, r.line, r.seq, r.game_id, r.rule, r.message, r.raw, stamp)
                              for r in rejects], schema=_REJECT_SCHEMA, orient="row")
        self._con.register("_ledger_rejects", _ArrowStream(frame))
        try:
            self._con.execute(
                "INSERT INTO rejects BY NAME SELECT DISTINCT n.* FROM _ledger_rejects AS n "
                "WHERE NOT EXISTS (SELECT 1 FROM rejects AS r WHERE r.file = n.file AND "
                "r.line IS NOT DISTINCT FROM n.line AND r.rule = n.rule AND "
                "r.message = n.message)").fetchall()
        finally:
            self._con.unregister("_ledger_rejects")

    def record_rejects(self, rejects: Sequence[Reject]) -> None:
        self._writable()
        with self._transaction():
            self._write_rejects(rejects)

    def append(self, game_id: str, expected_seq: int, envelopes: Sequence[dict]) -> Head:
        self._writable()
        if not envelopes:
            raise InvalidAppend(f"game {game_id!r}: nothing to append")
        try:
            return self._append(game_id, expected_seq, envelopes)
        except _WriteRefused as exc:  # another writer stored these seqs first
            head = self.head(game_id)
            raise ConcurrencyConflict(game_id, expected_seq,
                                      head.next_seq if head else 0) from exc

    def _append(self, game_id: str, expected_seq: int, envelopes: Sequence[dict]) -> Head:
        with self._transaction() as con:
            stored = self._stored_head(game_id)
            count, head_hash = stored if stored is not None else (0, None)
            if expected_seq != count:
                if 0 <= expected_seq < count and self._is_resent(game_id, expected_seq, envelopes):
                    return Head(game_id, count - 1, head_hash)
                raise ConcurrencyConflict(game_id, expected_seq, count)
            lines = self.events(game_id) if count else []
            new = _sealed_onto(game_id, expected_seq, head_hash, envelopes)
            name = f"{game_id} (append at seq {expected_seq})"
            read = read_log_text(log_text(lines + [format_line(e) for e in new]), name)
            refusal = _refusal(read)
            dropped = _dropped_lines(read)
            if refusal is not None or dropped or len(read.events) != count + len(new):
                why = [refusal.message] if refusal else []
                why += [p.message for p in dropped]
                raise InvalidAppend(f"game {game_id!r}: the envelopes cannot be appended: "
                                    + ("; ".join(why) or "they are not all log events"))
            batch = _Batch()
            judged = _judge_rows(_stored_form(read), self._judge, self._extract)
            judged.game["source"] = f"append at seq {expected_seq}"
            batch.add_judged(judged, _now(), count if stored is not None else None,
                             read.events[count:])
            self._write_rows(batch)
            last = read.events[-1]
            return Head(game_id, last.seq, last.hash)

    def _is_resent(self, game_id: str, at: int, envelopes: Sequence[dict]) -> bool:
        """Do `envelopes`, sealed at seq `at`, repeat exactly the events stored there?"""
        hashes = self._hashes(game_id)
        if at + len(envelopes) > len(hashes):
            return False
        try:
            sealed = _sealed_onto(game_id, at, hashes[at - 1] if at else None, envelopes)
        except InvalidAppend:
            return False
        return [e["hash"] for e in sealed] == hashes[at:at + len(envelopes)]

    def _writable(self) -> None:
        if self.read_only:
            raise StoreError(f"the store {self.path} is open read-only")

    # -- reading

    def head(self, game_id: str) -> Head | None:
        with self._lock:
            row = self._one("SELECT head_seq, head_hash FROM games WHERE game_id = ?", [game_id])
        return Head(game_id, row[0], row[1]) if row else None

    def game(self, game_id: str) -> GameRow | None:
        with self._lock, Session(self._engine) as session:
            return session.get(GameRow, game_id)

    def games(self) -> list[GameRow]:
        with self._lock, Session(self._engine) as session:
            return list(session.exec(select(GameRow).order_by(GameRow.played_on,
                                                              GameRow.game_id)).all())

    def events(self, game_id: str) -> list[str]:
        with self._lock:
            lines = [r[0] for r in self._con.execute(
                "SELECT raw FROM events WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()]
            if not lines and self._stored_head(game_id) is None:
                raise GameNotFound(game_id)
        return lines

    def findings(self, game_id: str) -> list[FindingRow]:
        with self._lock, Session(self._engine) as session:
            return list(session.exec(select(FindingRow).where(FindingRow.game_id == game_id)
                                     .order_by(FindingRow.idx)).all())

    def snapshot(self, game_id: str) -> SnapshotRow | None:
        with self._lock, Session(self._engine) as session:
            return session.exec(select(SnapshotRow).where(SnapshotRow.game_id == game_id)
                                .order_by(SnapshotRow.seq.desc()).limit(1)).first()

    def query(self, sql: str,
              params: Sequence[Any] | dict[str, Any] | None = None) -> pl.DataFrame:
        """A read query's result as a polars DataFrame (analytics reads the store with it)."""
        with self._lock:
            return pl.DataFrame(self._con.sql(sql, params=params))

    def _has_campaign_tables(self) -> bool:
        """False only for a store made before campaigns were kept, opened read-only."""
        return self._one("SELECT count(*) FROM duckdb_tables() WHERE schema_name = "
                         "current_schema() AND table_name = 'campaign_findings'")[0] == 1

    def campaigns(self) -> list[CampaignRow]:
        with self._lock, Session(self._engine) as session:
            if not self._has_campaign_tables():
                return []
            return list(session.exec(select(CampaignRow).order_by(CampaignRow.name)).all())

    def campaign_games(self, campaign: str | None = None) -> list[CampaignGameRow]:
        with self._lock, Session(self._engine) as session:
            if not self._has_campaign_tables():
                return []
            query = select(CampaignGameRow)
            if campaign is not None:
                query = query.where(CampaignGameRow.campaign == campaign)
            return list(session.exec(query.order_by(
                CampaignGameRow.campaign, CampaignGameRow.game_no,
                CampaignGameRow.status == "duplicate", CampaignGameRow.game_id)).all())

    def campaign_findings(self, game_id: str) -> list[CampaignFindingRow]:
        with self._lock, Session(self._engine) as session:
            if not self._has_campaign_tables():
                return []
            return list(session.exec(select(CampaignFindingRow).where(
                CampaignFindingRow.game_id == game_id).order_by(CampaignFindingRow.idx)).all())

    def create_campaign(self, name: str, world0: dict, setup: dict) -> None:
        from engine.risk_legacy import world as W

        self._writable()
        digest = W.world_digest(W.world_from_dict(world0))
        with self._transaction() as con:
            row = self._one("SELECT world0_digest FROM campaigns WHERE name = ?", [name])
            if row is not None and row[0] is not None:
                raise StoreError(f"campaign {name!r} already exists in {self.path} (its first "
                                 f"world is {row[0][:12]}...); a campaign is created once")
            if row is None:
                con.execute("INSERT INTO campaigns (name, ruleset, world0, world0_digest, setup, "
                            "created_at) VALUES (?, ?, ?::JSON, ?, ?::JSON, ?)",
                            [name, "risk-legacy", json.dumps(world0), digest, json.dumps(setup),
                             _now()]).fetchall()
            else:
                con.execute("UPDATE campaigns SET world0 = ?::JSON, world0_digest = ?, "
                            "setup = ?::JSON WHERE name = ?",
                            [json.dumps(world0), digest, json.dumps(setup), name]).fetchall()
            self._link(name, [], _Batch(), _now())

    def rejects(self) -> list[RejectRow]:
        with self._lock, Session(self._engine) as session:
            # bulk inserts may draw sequence ids out of row order: order by what the rows say
            return list(session.exec(select(RejectRow).order_by(
                RejectRow.rejected_at, RejectRow.file, func.coalesce(RejectRow.line, -1),
                RejectRow.id)).all())

    # -- judging again, checking, exporting

    def recheck(self, *, on_game=None, batch_events: int = DEFAULT_BATCH_EVENTS):
        self._writable()
        seen: list[tuple] = []
        with self._lock:
            said_before = self._campaign_said()
            games = self._con.execute(
                "SELECT game_id, event_count FROM games ORDER BY game_id").fetchall()
            pending: list[tuple[str, int]] = []
            size = 0
            for game_id, count in games:
                pending.append((game_id, count))
                size += count
                if size >= batch_events:
                    seen += self._recheck_batch(pending, on_game)
                    pending, size = [], 0
            if pending:
                seen += self._recheck_batch(pending, on_game)
            said_after = self._campaign_said()
        changes: list[RecheckChange] = []
        for gid, v0, v1, n0, n1, w0, w1, findings_changed, result_changed in seen:
            c0, c1 = said_before.get(gid, []), said_after.get(gid, [])
            findings_changed = findings_changed or c0 != c1
            if findings_changed or result_changed:
                changes.append(RecheckChange(gid, v0, v1, n0 + len(c0), n1 + len(c1), w0, w1,
                                             findings_changed, result_changed))
        return changes

    def _campaign_said(self) -> dict[str, list[tuple[str, str]]]:
        """Every stored game's campaign findings, as (rule, message)."""
        said: dict[str, list[tuple[str, str]]] = {}
        for gid, rule, message in self._con.execute(
                "SELECT game_id, rule, message FROM campaign_findings "
                "ORDER BY game_id, idx").fetchall():
            said.setdefault(gid, []).append((rule, message))
        return said

    def _recheck_batch(self, games: list[tuple[str, int]], on_game) -> list[tuple]:
        """Judge `games` again in one transaction (their campaigns linked again with them);
        per game: id, versions, finding counts and winners before and after, what changed."""
        seen = []
        with self._transaction() as con:
            batch = _Batch()
            for game_id, count in games:
                before = self._one(
                    "SELECT ruleset_version, winners, result, source FROM games "
                    "WHERE game_id = ?", [game_id])
                old_findings = con.execute(
                    "SELECT line, seq, event, rule, kind, applied, message, section FROM findings "
                    "WHERE game_id = ? ORDER BY idx", [game_id]).fetchall()
                read = read_log_text(log_text(self.events(game_id)), before[3] or game_id)
                judged = _judge_rows(read, self._judge, self._extract)
                judged.game["source"] = before[3]
                new_findings = [tuple(f[2:]) for f in judged.findings]
                old_result = json.loads(before[2]) if before[2] else None
                new_result = json.loads(judged.game["result"]) if judged.game["result"] else None
                findings_changed = [tuple(f) for f in old_findings] != new_findings
                result_changed = old_result != new_result
                stamp = _now()
                row = dict(judged.game, judged_at=stamp, expected_head_seq=count - 1)
                row["updated_at"] = self._one(
                    "SELECT updated_at FROM games WHERE game_id = ?", [game_id])[0]
                batch.games_updated.append(row)
                batch.findings.extend(judged.findings)
                batch.judged.append(game_id)
                if judged.snapshot is not None:
                    batch.snapshots.append(judged.snapshot)
                batch.add_analytics(judged, rejudged=True)
                batch.add_campaign(judged)
                seen.append((
                    game_id, before[0], judged.game["ruleset_version"], len(old_findings),
                    len(new_findings), json.loads(before[1]) if before[1] else None,
                    json.loads(judged.game["winners"]) if judged.game["winners"] else None,
                    findings_changed, result_changed))
                if on_game is not None:
                    on_game(game_id)
            self._write_rows(batch)
        return seen

    def check(self) -> IntegrityReport:
        problems: list[str] = []
        with self._lock:
            con = self._con
            games, events = self._one(
                "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events)")
            for gid, stored, head_seq, head_hash, n, lo, hi, last_hash in con.execute("""
                    SELECT g.game_id, g.event_count, g.head_seq, g.head_hash, e.n, e.lo, e.hi,
                           (SELECT hash FROM events x WHERE x.game_id = g.game_id
                            AND x.seq = g.head_seq)
                    FROM games g LEFT JOIN (SELECT game_id, count(*) AS n, min(seq) AS lo,
                                            max(seq) AS hi FROM events GROUP BY game_id) e
                    USING (game_id) ORDER BY g.game_id""").fetchall():
                n = n or 0
                if n != stored:
                    problems.append(f"game {gid!r}: the games table counts {stored} events, "
                                    f"the events table holds {n}")
                if n and (lo != 0 or hi != n - 1):
                    problems.append(f"game {gid!r}: events are not contiguous from seq 0 "
                                    f"({n} events, seqs {lo}..{hi})")
                if head_seq != (hi if n else -1) or last_hash != head_hash:
                    problems.append(f"game {gid!r}: the recorded head (seq {head_seq}, "
                                    f"{(head_hash or '')[:12]}…) is not the last stored event "
                                    f"(seq {hi})")
            for gid, n in con.execute(
                    "SELECT game_id, count(*) FROM events WHERE game_id NOT IN "
                    "(SELECT game_id FROM games) GROUP BY game_id ORDER BY game_id").fetchall():
                problems.append(f"game {gid!r}: {n} events with no row in the games table")
            for gid, seq in con.execute("""
                    SELECT game_id, seq FROM (
                        SELECT game_id, seq, prev,
                               lag(hash) OVER (PARTITION BY game_id ORDER BY seq) AS before
                        FROM events)
                    WHERE prev IS DISTINCT FROM before ORDER BY game_id, seq""").fetchall():
                problems.append(f"game {gid!r} seq {seq}: prev is not the hash of the event "
                                f"before it (a broken chain link)")
            for gid, stored, counted in con.execute("""
                    SELECT g.game_id, g.finding_count, count(f.idx) FROM games g
                    LEFT JOIN findings f USING (game_id) GROUP BY g.game_id, g.finding_count
                    HAVING g.finding_count != count(f.idx) ORDER BY g.game_id""").fetchall():
                problems.append(f"game {gid!r}: the games table counts {stored} findings, "
                                f"the findings table holds {counted}")
            for gid, listed, seated in con.execute("""
                    SELECT g.game_id, json_array_length(g.players), count(p.seat) FROM games g
                    LEFT JOIN players p USING (game_id)
                    GROUP BY g.game_id, g.players
                    HAVING json_array_length(g.players) != count(p.seat)""").fetchall():
                problems.append(f"game {gid!r}: {listed} players listed, {seated} seated")
            for table in ANALYTICS_TABLES:
                for gid, n in con.execute(
                        f"SELECT game_id, count(*) FROM {table} WHERE game_id NOT IN "
                        f"(SELECT game_id FROM games) GROUP BY game_id ORDER BY game_id").fetchall():
                    problems.append(f"game {gid!r}: {n} rows in {table} with no row in the "
                                    f"games table")
            problems += self._check_campaigns()
            problems += self._check_lines()
        return IntegrityReport(games, events, problems)

    def _check_campaigns(self) -> list[str]:
        """Campaign rows: each for a stored game, in a known campaign, counting its findings."""
        if not self._has_campaign_tables():
            return []
        problems = []
        for gid, campaign in self._con.execute(
                "SELECT game_id, campaign FROM campaign_games WHERE game_id NOT IN "
                "(SELECT game_id FROM games) OR campaign NOT IN (SELECT name FROM campaigns) "
                "ORDER BY game_id").fetchall():
            problems.append(f"game {gid!r}: a campaign_games row (campaign {campaign!r}) with no "
                            f"stored game or no campaigns row")
        for gid, stored, counted in self._con.execute("""
                SELECT c.game_id, c.finding_count, count(f.idx) FROM campaign_games c
                LEFT JOIN campaign_findings f USING (game_id)
                GROUP BY c.game_id, c.finding_count HAVING c.finding_count != count(f.idx)
                ORDER BY c.game_id""").fetchall():
            problems.append(f"game {gid!r}: campaign_games counts {stored} campaign findings, "
                            f"campaign_findings holds {counted}")
        return problems

    def _check_lines(self) -> list[str]:
        """Every stored line re-read: its content matches its hash and the row's columns."""
        problems = []
        cursor = self._con.execute(
            "SELECT game_id, list(raw ORDER BY seq), list(hash ORDER BY seq) FROM events "
            "GROUP BY game_id ORDER BY game_id")
        while rows := cursor.fetchmany(256):
            problems += self._check_games_lines(rows)
        return problems

    @staticmethod
    def _check_games_lines(rows: list[tuple]) -> list[str]:
        problems = []
        for gid, lines, hashes in rows:
            read = read_log_text(log_text(lines), gid)
            for p in read.problems:
                problems.append(f"game {gid!r}: stored line {p.line}: {p.rule}: {p.message}")
            if [e.hash for e in read.events] != hashes or any(e.game != gid for e in read.events):
                problems.append(f"game {gid!r}: the stored lines do not match the rows' "
                                f"game id and hashes")
        return problems

    def export_jsonl(self, game_id: str, out: str | Path) -> Path:
        out = Path(out)
        data = log_text(self.events(game_id)).encode("utf-8")
        out.parent.mkdir(parents=True, exist_ok=True)
        temp = out.with_name(f".{out.name}.tmp")
        temp.write_bytes(data)
        os.replace(temp, out)
        return out

    def export_parquet(self, out_dir: str | Path, game_id: str | None = None) -> Path:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        where, params = ("WHERE e.game_id = ?", [game_id]) if game_id is not None else ("", [])
        if game_id is not None and self.head(game_id) is None:
            raise GameNotFound(game_id)
        target = str(out).replace("'", "''")
        with self._lock:
            self._con.execute(f"""
                COPY (SELECT e.game_id, e.seq, e.type, e.actor, e."at", e.payload::VARCHAR AS payload,
                             e.prev, e.hash, e.raw, g.ruleset_version,
                             coalesce(g.ruleset, 'unknown') AS ruleset,
                             coalesce(strftime(g.played_on, '%Y-%m-%d'), 'undated') AS date
                      FROM events e JOIN games g USING (game_id) {where}
                      ORDER BY e.game_id, e.seq)
                TO '{target}' (FORMAT parquet, PARTITION_BY (ruleset, date),
                               OVERWRITE_OR_IGNORE true, FILENAME_PATTERN 'events_{{uuid}}')""",
                              params).fetchall()
        return out


def _default_judge(read: LogRead) -> Any:
    from replay.judge import judge
    return judge(read)


def _default_extract(read: LogRead) -> Any:
    from analytics.extract import extract_rows
    return extract_rows(read)


def _sealed_onto(game_id: str, at: int, prev: str | None,
                 envelopes: Sequence[dict]) -> list[dict]:
    """Envelopes completed and chained from seq `at` after the event whose hash is `prev`.

    Missing "v", "game", "seq" are filled in; given ones must match. Envelopes without "hash"
    are sealed; sealed ones must link to `prev` and match their own content.
    """
    out: list[dict] = []
    for i, given in enumerate(envelopes):
        seq = at + i
        if not isinstance(given, dict):
            raise InvalidAppend(f"game {game_id!r} seq {seq}: an envelope must be a JSON "
                                f"object, found {given!r}")
        env = {"v": FORMAT_VERSION, "game": game_id, "seq": seq, **given}
        for key, want in (("game", game_id), ("seq", seq)):
            if env[key] != want:
                raise InvalidAppend(f"game {game_id!r}: envelope {i} has {key} {env[key]!r}, "
                                    f"expected {want!r}")
        if "at" in env and env["at"] is None:
            del env["at"]
        if env.get("hash") is None:
            env.pop("hash", None)
            env["prev"] = prev
            env["hash"] = event_hash(env)
        elif env.get("prev") != prev or env["hash"] != event_hash(env):
            raise InvalidAppend(f"game {game_id!r} seq {seq}: the sealed envelope does not "
                                f"continue the chain (prev must be {prev!r}, and hash the hash "
                                f"of its content)")
        prev = env["hash"]
        out.append(env)
    return out

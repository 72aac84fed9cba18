"""The store's generic tables: games, players, events, findings, snapshots, rejects, tournaments,
and the judge's carry that lets an append judge only the new events."""

from __future__ import annotations

from datetime import date
from typing import Any, Optional

from pydantic import NaiveDatetime
from sqlalchemy import JSON, Column, Computed, Integer, LargeBinary, Sequence as SqlSequence, String, text
from sqlalchemy.ext.compiler import compiles
from sqlmodel import Field, SQLModel

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



class GameStateRow(SQLModel, table=True):
    """What the judge needs to continue a game after its event `seq` (pickled), valid for the
    ruleset version and data digest it was judged with; one row per game, replaced on append."""

    __tablename__ = "game_states"
    game_id: str = Field(primary_key=True)
    seq: int
    ruleset_version: Optional[str] = None
    data_digest: Optional[str] = None
    carry: bytes = Field(sa_column=Column(LargeBinary))
    saved_at: NaiveDatetime


GENERIC_MODELS = (TournamentRow, GameRow, PlayerRow, EventRow, FindingRow, SnapshotRow, RejectRow,
                  GameStateRow)

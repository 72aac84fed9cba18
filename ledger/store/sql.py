"""What every SQL backend of the store shares (`SqlStore`): planning an ingest, judging appends
with the live judge, the compare-and-set writes, recheck, check and export, written once over a
few primitives each backend gives (ledger/store/duckdb.py, ledger/store/postgres.py).

The SQL here is written once, with `?` placeholders and `$name` ones in `query`; a backend's
connection (`self._con`) runs it: DuckDB's as it is, PostgreSQL's through an adapter that
rewrites the placeholders and reports a write's row count as DuckDB does. What differs between
the databases (bulk inserts, upserts, aggregating a list, the Parquet copy) is a method each
backend implements.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import polars as pl
from sqlalchemy import func
from sqlmodel import Session, select

from engine.core.memo import Memo
from engine.core.text import plural
from ledger.store import analytics_tables as at
from ledger.store.campaigns import CampaignLinks, _report_links
from ledger.store.errors import (ConcurrencyConflict, GameNotFound, InvalidAppend, StoreError,
                                 _WriteRefused)
from ledger.store.interface import (DEFAULT_BATCH_EVENTS, EventStore, Head, IngestOutcome,
                                    IntegrityReport, RecheckChange, Reject, log_text)
from ledger.store.judging import (Advanced, LiveGame, LiveGames, _default_extract, _default_judge,
                                  _judge_rows, judge_whole, resume_live)
from ledger.store.mapper import _Batch, _now, carry_row, read_fingerprint
from ledger.store.models import FindingRow, GameRow, RejectRow, SnapshotRow
from ledger.store.refusals import (_dropped_lines, _line_text, _refusal, _Refusal, _sealed_onto,
                                   _stored_form)
from replay.logfile import LogRead, RawEvent, format_line, read_log_text, write_atomically

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
_JSON_COLUMNS = ("players", "winners", "result")


def _append_game_sql(columns: Sequence[str]) -> str:
    """An append's games row: its judgement (these columns), if the head is still the one it was
    judged on and no other judgement was written since (judged_at)."""
    return ("UPDATE games SET " + ", ".join(f"{c} = ?" + ("::JSON" if c in _JSON_COLUMNS else "")
                                            for c in columns)
            + " WHERE game_id = ? AND head_seq = ? AND head_hash = ? AND judged_at = ?")


_FINDING_COLUMNS = ("game_id", "idx", "line", "seq", "event", "rule", "kind", "applied", "message",
                    "section")
_PLAYER_SCHEMA = {"game_id": pl.String, "seat": pl.Int32, "player_id": pl.String, "name": pl.String}
_FINDING_SCHEMA = {"game_id": pl.String, "idx": pl.Int32, "line": pl.Int32, "seq": pl.Int32,
                   "event": pl.String, "rule": pl.String, "kind": pl.String,
                   "applied": pl.Boolean, "message": pl.String, "section": pl.String}
_SNAPSHOT_SCHEMA = {"game_id": pl.String, "seq": pl.Int32, "ruleset_version": pl.String,
                    "digest": pl.String, "state": pl.String}
_CARRY_SCHEMA = {"game_id": pl.String, "seq": pl.Int32, "ruleset_version": pl.String,
                 "data_digest": pl.String, "carry": pl.Binary, "saved_at": pl.Datetime("us")}
_REJECT_SCHEMA = {"file": pl.String, "line": pl.Int32, "seq": pl.Int32, "game_id": pl.String,
                  "rule": pl.String, "message": pl.String, "raw": pl.String,
                  "rejected_at": pl.Datetime("us")}


def _int32(n: int | None) -> int | None:
    """A line or seq for an INTEGER column; None when it does not fit (a refused log may give
    any seq, a 500-digit one too: its message still says it)."""
    return n if n is None or -2**31 <= n < 2**31 else None


# The memo (engine.core.memo): values the rulesets' folds computed from a key alone, such as a
# battle's exact odds by its shape, so that each is computed once per store. A cache: dropping
# the table changes no row, the next ingest computes them again.
MEMO_TABLE = "memo"
MEMO_SQL = (f"CREATE TABLE IF NOT EXISTS {MEMO_TABLE} (kind VARCHAR NOT NULL, key VARCHAR NOT NULL, "
            "value VARCHAR NOT NULL, PRIMARY KEY (kind, key))")

_LOOKUP_CHUNK = 64  # logs whose stored heads are looked up together
_WRITE_TRIES = 8    # an ingest batch planned again after another writer stored one of its games


class _StaleHead(_WriteRefused):
    """An append's games row was not written: the game's head (or judgement) is not the one
    its events were judged on, another writer moved it."""

    def __init__(self, game_id: str):
        StoreError.__init__(self, f"game {game_id!r}: the stored head moved while appending")


def _append_name(game_id: str, seq: int) -> str:
    """What an append's findings are said to come from."""
    return f"{game_id} (append at seq {seq})"


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



class Statements:
    """Statements in one open transaction of a store (`EventStore.transaction`)."""

    def __init__(self, con: Any):
        self._con = con

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        """Run one statement (`?` placeholders); its rows (a write's: its row count)."""
        return self._con.execute(sql, params).fetchall()


class SqlStore(CampaignLinks, EventStore):
    """The store over one SQL database; a backend subclasses it with its connection and the
    primitives marked "the backend's" below. Thread-safe: one writer at a time per store."""

    backend = "?"
    # the backend's: what its driver raises when another writer got there first (a key that
    # exists, a write-write conflict), and any error of its database
    _refused_errors: tuple[type[BaseException], ...] = ()
    _db_errors: tuple[type[BaseException], ...] = ()
    # the SQL type of each kind of analytics column (analytics_tables.SQL_TYPES)
    _sql_types: dict[str, str] = at.SQL_TYPES
    # SQL types to cast the values of a multi-row UPDATE to (analytics_tables.update_sql)
    _cast_values: dict[str, str] | None = None
    # appended to a SELECT of a games row that the transaction goes on to read the game's rows
    # by and write: keeps other writers off it until commit (where there are other writers)
    _for_update = ""
    # a list of `expr` ordered by `order`, aggregated per group (check's re-read of the lines)
    _list_agg = "list({expr} ORDER BY {order})"
    # the events insert of an append: its column list, one event's values, and _event_row's
    # layout (prev and hash stored, payload stored) -- set by the backend
    _event_insert = ""
    _event_values = ""
    _event_stores = (True, False)

    def _setup(self, path: str, *, read_only: bool, judge_fn: Callable[[LogRead], Any] | None,
               extract_fn: Callable[[LogRead], Any] | None) -> None:
        """What every backend's __init__ sets first."""
        self.path = self.name = path
        self.read_only = read_only
        self._lock = threading.RLock()
        self._judge = judge_fn or _default_judge
        self._extract = extract_fn or _default_extract
        self._live = LiveGames()          # games appended to, judged up to their head
        self._memo: Memo | None = None    # the memo table, read when first judging (_recalled)
        self._projections = at.analytics_projections()

    def _create_tables(self) -> None:
        """Create the tables this store lacks: the generic ones, and one per analytics
        projection of the registered rulesets, with the columns a stored one lacks added."""
        raise NotImplementedError

    def _add_analytics_tables(self, present: dict[str, set[str]]) -> None:
        """Create each registered ruleset's analytics tables (`present`: the tables there, with
        their columns), and add the columns a stored one lacks."""
        for p in self._projections.values():
            for sql in ([at.create_sql(p, self._sql_types)] if p.table not in present
                        else at.add_columns_sql(p, present[p.table], self._sql_types)):
                self._con.execute(sql).fetchall()
        if MEMO_TABLE not in present:
            self._con.execute(MEMO_SQL).fetchall()

    def _recalled(self) -> Memo:
        """The store's memo (engine.core.memo): what the rulesets' folds computed from a key alone
        for the games stored so far (a battle's odds by its shape), read once; what judging adds
        to it is written with the next batch of rows (_write_rows)."""
        if self._memo is None:
            found = self._one("SELECT count(*) FROM information_schema.tables WHERE "
                              "table_schema = current_schema() AND table_name = ?", [MEMO_TABLE])[0]
            self._memo = Memo(self._con.execute(f"SELECT kind, key, value FROM {MEMO_TABLE}").fetchall()
                              if found else ())
        return self._memo

    def _projection(self, table: str) -> Any:
        """The projection of an analytics table (a ruleset registered since the store opened
        gets its tables now)."""
        found = self._projections.get(table)
        if found is None:
            self._projections = at.analytics_projections()
            self._create_tables()
            found = self._projections[table]
        return found

    def _event_row(self, e: RawEvent) -> list:
        """An event's values for self._event_insert."""
        row = [e.game, e.seq, e.type, e.actor, e.at, e.raw]
        stores_prev_hash, stores_payload = self._event_stores
        if stores_prev_hash:
            row += [e.prev, e.hash]
        if stores_payload:
            row.append(e.raw)
        return row

    def close(self) -> None:
        """Save the carry of every live game whose stored one is behind, and release the
        database."""
        with self._lock:
            try:
                if not self.read_only:
                    self._save_live_carries()
            finally:
                self._engine.dispose()
                self._con.close()

    def _save_live_carries(self) -> None:
        unsaved = self._live.unsaved()
        if not unsaved:
            return
        with self._transaction() as con:
            for live in unsaved:      # unless another judgement of the game was stored since
                con.execute(self._save_carry_sql("WHERE EXISTS (SELECT 1 FROM games WHERE "
                            "game_id = ? AND head_seq = ? AND head_hash = ? AND judged_at = ?)"),
                            [*live.carry_row(), _now(), live.game_id, live.head.seq,
                             live.head.hash, live.judged_at]).fetchall()
        for live in unsaved:
            live.saved_seq = live.head.seq

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction on the store's connection; rolled back on any error."""
        with self._lock:
            con = self._con
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException as exc:
                self._rollback_quietly()       # a failed COMMIT has rolled back already
                if isinstance(exc, self._refused_errors):
                    raise _WriteRefused(exc) from exc
                if isinstance(exc, self._db_errors):
                    raise StoreError(f"cannot write the store {self.path}: "
                                     f"{_io_reason(exc)}") from exc
                raise

    def _rollback_quietly(self) -> None:
        try:
            self._con.execute("ROLLBACK")
        except self._db_errors:
            pass                               # no transaction open any more

    # -- the backend's: bulk writes in the open transaction, and what differs between databases

    def _insert(self, table: str, frame: pl.DataFrame, json_columns: Sequence[str] = ()) -> None:
        """Insert a frame's rows into `table`, columns by name (`json_columns`: JSON text for
        the table's JSON columns)."""
        raise NotImplementedError

    def _insert_events(self, events: Sequence[RawEvent]) -> None:
        """Insert events (the rows of mapper.event_frame)."""
        raise NotImplementedError

    def _update_games(self, rows: list[dict]) -> int:
        """Update each games row whose head_seq is still the row's `expected_head_seq` to its
        values (_GAME_UPDATE_COLUMNS); how many rows were updated."""
        raise NotImplementedError

    def _write_snapshots(self, snapshots: list[tuple]) -> None:
        """Write snapshots, replacing those at the same seqs."""
        raise NotImplementedError

    def _write_rejects(self, rejects: Sequence[Reject]) -> None:
        """Insert rejects, except exact repeats of kept ones (re-ingest adds nothing)."""
        raise NotImplementedError

    def _write_carries(self, rows: list[tuple]) -> None:
        """Insert or replace game_states rows (carry_row's, each with its time)."""
        raise NotImplementedError

    def _write_memo(self, rows: list[tuple[str, str, str]]) -> None:
        """Insert memo rows (kind, key, JSON value) in one statement, leaving out the keys
        stored already (another writer computed them too)."""
        raise NotImplementedError

    def _save_carry_sql(self, where: str = "") -> str:
        """Insert or replace one game_states row given as parameters (game_id, seq,
        ruleset_version, data_digest, carry, saved_at), if `where` (a WHERE clause) holds."""
        raise NotImplementedError

    def _copy_parquet(self, temp: Path, stems: dict[str, str]) -> None:
        """Write the games' events under `temp`, one folder per game:
        ruleset=R/date=D/file=STEM/data_0.parquet."""
        raise NotImplementedError

    def _notify(self, heads: Sequence[tuple[str, int]]) -> None:
        """Tell other processes, when the open transaction commits, that these games now end at
        these seqs (a backend shared by many processes: PostgreSQL's NOTIFY); nothing here."""

    def _lock_campaign(self, name: str) -> None:
        """Keep other writers from linking campaign `name` until the open transaction ends
        (where there are other writers), so that each links it on what the other stored."""

    def _has_campaign_tables(self) -> bool:
        """False only for a store made before campaigns were kept, opened read-only."""
        return True

    @contextmanager
    def _bounded_memory(self) -> Iterator[None]:
        """While a whole corpus is written (ingest, recheck), keep the database's own memory to
        a fixed budget, so that it does not grow with the store (the backend's; nothing here)."""
        yield

    def query(self, sql: str,
              params: Sequence[Any] | dict[str, Any] | None = None) -> pl.DataFrame:
        """A read query's result as a polars DataFrame (analytics reads the store with it);
        `?` or `$name` placeholders."""
        raise NotImplementedError

    # -- tables kept beside the store's own (ledger serve's)

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        with self._transaction() as con:
            return con.execute(sql, params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[Statements]:
        with self._transaction() as con:
            yield Statements(con)

    def create_tables(self, statements: Sequence[str]) -> None:
        with self._transaction() as con:
            for sql in statements:
                con.execute(sql).fetchall()

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
        with self._lock, self._bounded_memory():
            batch: _Batch | None = None
            planned: list[tuple[LogRead, Sequence[str] | None]] = []   # the open batch's logs

            def commit() -> None:
                self._commit_planned(batch, planned, outcomes, on_outcome, clock, prejudged)
                planned.clear()

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
                                commit()
                                heads = self._heads(r.events[0].game for r in chunk if r.events)
                            self._con.execute("BEGIN TRANSACTION")
                            batch = _Batch(tournament=tournament)
                        lines = lines_of(read) if lines_of is not None and \
                            (read.problems or not read.events) else None
                        self._plan(read, lines, batch, heads, clock, prejudged)
                        planned.append((read, lines))
                        if on_read is not None:
                            on_read(read)
                        if len(batch.events) >= batch_events:
                            commit()
                            batch = None
                if batch is not None:
                    commit()
                    batch = None
            except BaseException as exc:
                if batch is not None:
                    self._rollback_quietly()
                if isinstance(exc, self._db_errors):    # the disk is full, the server went away...
                    raise StoreError(f"cannot write the store {self.path}: "
                                     f"{_io_reason(exc)}") from exc
                raise
        return outcomes

    def _commit_planned(self, batch: _Batch, planned: list[tuple[LogRead, Sequence[str] | None]],
                        outcomes: list[IngestOutcome],
                        on_outcome: Callable[[IngestOutcome], None] | None,
                        clock: dict[str, float], prejudged: Callable[[LogRead], Any] | None) -> None:
        """Write and commit the open batch. If another writer stored one of its games first (a
        key that exists, a head that moved: only where several processes write at once), roll
        back, plan its logs again on the heads stored now, and try again: each log's outcome is
        then what it would have been had this writer come second."""
        for attempt in range(1, _WRITE_TRIES + 1):
            try:
                self._commit(batch, outcomes, on_outcome, clock)
                return
            except (_WriteRefused, ConcurrencyConflict):
                self._rollback_quietly()
                if attempt == _WRITE_TRIES:
                    raise
            self._con.execute("BEGIN TRANSACTION")
            tournament = batch.tournament
            batch = _Batch(tournament=tournament)
            heads = self._heads(r.events[0].game for r, _ in planned if r.events)
            for read, lines in planned:
                self._plan(read, lines, batch, heads, clock, prejudged)

    def checkpoint(self) -> None:
        """Make what is committed durable in the database's own files now (nothing to do here)."""

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
                judged = _judge_rows(_stored_form(read), self._judge, self._extract,
                                     carried=True, memo=self._recalled())
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
        except self._refused_errors as exc:
            raise _WriteRefused(exc) from exc
        self._live.drop(batch.game_ids)          # judged again: an append resumes the carry
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
        self._insert("games", pl.DataFrame(batch.games_new, schema=_GAME_SCHEMA), _JSON_COLUMNS)
        if batch.games_updated and self._update_games(batch.games_updated) != \
                len(batch.games_updated):  # compare-and-set failed: say for which game
            for row in batch.games_updated:
                actual = self._one("SELECT event_count FROM games WHERE game_id = ?",
                                   [row["game_id"]])
                if actual is None or actual[0] != row["expected_head_seq"] + 1:
                    raise ConcurrencyConflict(row["game_id"], row["expected_head_seq"] + 1,
                                              actual[0] if actual else 0)
            raise StoreError("a game's head moved while it was being written")
        self._insert("players", pl.DataFrame(batch.players, schema=_PLAYER_SCHEMA, orient="row"))
        if batch.judged:
            con.execute("DELETE FROM findings WHERE game_id IN (SELECT unnest(?::VARCHAR[]))",
                        [batch.judged]).fetchall()
        self._insert("findings", pl.DataFrame(batch.findings, schema=_FINDING_SCHEMA,
                                              orient="row"))
        self._write_snapshots(batch.snapshots)
        self._insert_events(batch.events)
        self._write_rejects(batch.rejects)
        self._write_analytics(batch)
        new = self._memo.take_new() if self._memo is not None else []
        if new:
            self._write_memo(new)
        self._write_campaigns(batch)
        if batch.carries:
            stamp = _now()
            self._write_carries([(*row, stamp) for row in batch.carries])
        self._notify([(g["game_id"], g["head_seq"]) for g in batch.games_new + batch.games_updated])

    def _write_analytics(self, batch: _Batch) -> None:
        """Replace the analytics rows of every game judged in the batch (a new game has none),
        each table's rows in its projection's columns."""
        if batch.rejudged:
            for table in self._projections:
                self._con.execute(f"DELETE FROM {at.quoted(table)} WHERE game_id IN "
                                  f"(SELECT unnest(?::VARCHAR[]))", [batch.rejudged]).fetchall()
        for table, rows in batch.analytics.items():
            self._insert(table, at.rows_frame(self._projection(table), rows))

    def record_rejects(self, rejects: Sequence[Reject]) -> None:
        self._writable()
        with self._transaction():
            self._write_rejects(rejects)

    def append(self, game_id: str, expected_seq: int, envelopes: Sequence[dict]) -> Head:
        self._writable()
        if not envelopes:
            raise InvalidAppend(f"game {game_id!r}: nothing to append")
        try:
            with self._lock:
                return self._append(game_id, expected_seq, envelopes)
        except _WriteRefused as exc:  # another writer stored these seqs first
            head = self.head(game_id)
            raise ConcurrencyConflict(game_id, expected_seq,
                                      head.next_seq if head else 0) from exc

    def _append(self, game_id: str, expected_seq: int, envelopes: Sequence[dict]) -> Head:
        """An append judges only its events with the game's live judge when this store has one
        at the expected seq (no read: the write checks the head); else it reads the head, and
        resumes the game from its carry or judges it whole (`_append_from_store`)."""
        live = self._live.take(game_id) if self._judges_by_default() else None
        if live is not None and live.count == expected_seq:
            try:
                new = _sealed_onto(game_id, expected_seq, live.head.hash, envelopes)
            except InvalidAppend:
                new = None            # said after the head is checked, by the path below
            events = self._read_after(live.head, new) if new is not None else None
            if events is not None and live.can_continue(events):
                advanced = live.advance(events, _append_name(game_id, expected_seq))
                try:
                    with self._transaction():
                        self._write_advanced(live, advanced, expected_seq)
                except _StaleHead:    # another writer moved the game on: judge from the store
                    live = None
                else:
                    self._live.put(live)
                    return Head(game_id, live.head.seq, live.head.hash)
        if live is not None:
            self._live.put(live)
        return self._append_from_store(game_id, expected_seq, envelopes)

    def _append_from_store(self, game_id: str, expected_seq: int,
                           envelopes: Sequence[dict]) -> Head:
        kept: LiveGame | None = None
        with self._transaction():
            stored = self._one("SELECT event_count, head_hash, judged_at FROM games "
                               "WHERE game_id = ?" + self._for_update, [game_id])
            count, head_hash, judged_at = stored if stored is not None else (0, None, None)
            if expected_seq != count:
                if 0 <= expected_seq < count and self._is_resent(game_id, expected_seq, envelopes):
                    return Head(game_id, count - 1, head_hash)
                raise ConcurrencyConflict(game_id, expected_seq, count)
            new = _sealed_onto(game_id, expected_seq, head_hash, envelopes)
            name = _append_name(game_id, expected_seq)
            if count and self._judges_by_default():
                live = self._live.take(game_id)
                if live is None or (live.count, live.head.hash, live.judged_at) != \
                        (count, head_hash, judged_at):
                    live = self._live_from_store(game_id, count, head_hash)
                events = self._read_after(live.head, new) if live is not None else None
                if events is not None and live.can_continue(events):
                    live.judged_at = judged_at
                    self._write_advanced(live, live.advance(events, name), expected_seq)
                    kept = live
            if kept is None:
                kept = self._append_whole(game_id, count, stored is not None, new, name)
        if kept is not None:
            self._live.put(kept)
        return Head(game_id, new[-1]["seq"], new[-1]["hash"])

    def _append_whole(self, game_id: str, count: int, is_stored: bool, new: list[dict],
                      name: str) -> LiveGame | None:
        """Append `new` judging the whole game, in the open transaction; the game live at its
        new head (its carry saved), None with a judge of the caller's or a start that cannot be
        judged."""
        lines = self.events(game_id) if count else []
        read = read_log_text(log_text(lines + [format_line(e) for e in new]), name)
        refusal = _refusal(read)
        dropped = _dropped_lines(read)
        if refusal is not None or dropped or len(read.events) != count + len(new):
            why = [refusal.message] if refusal else []
            why += [p.message for p in dropped]
            raise InvalidAppend(f"game {game_id!r}: the envelopes cannot be appended: "
                                + ("; ".join(why) or "they are not all log events"))
        live = None
        if self._judges_by_default():
            judged, live = judge_whole(_stored_form(read), self._recalled())
            if live is not None:
                judged.carry = live.judge.carry()
        else:
            judged = _judge_rows(_stored_form(read), self._judge, self._extract)
        judged.game["source"] = f"append at seq {count}"
        stamp = _now()
        batch = _Batch()
        batch.add_judged(judged, stamp, count if is_stored else None, read.events[count:])
        self._write_rows(batch)
        if live is not None:
            live.saved_seq, live.judged_at = live.head.seq, stamp
            live.game_row = dict(judged.game, updated_at=stamp, judged_at=stamp)
        return live

    def _judges_by_default(self) -> bool:
        return self._judge is _default_judge and self._extract is _default_extract

    def _read_after(self, head: RawEvent, new: list[dict]) -> list[RawEvent] | None:
        """The new envelopes read as lines after the head, as the reader reads them in the whole
        log (lines numbered seq + 1); None when they need the whole log read."""
        read = read_log_text(log_text([head.raw, *(format_line(e) for e in new)]), head.game)
        if len(read.events) != 1 + len(new) or any(p.line != 1 for p in read.problems):
            return None
        return [replace(e, line=e.seq + 1) for e in read.events[1:]]

    def _live_from_store(self, game_id: str, count: int, head_hash: str) -> LiveGame | None:
        """The game live at its stored head, resumed from its carry and the stored events after
        it, in the open transaction; None without a usable carry."""
        kept = self._one(
            "SELECT s.seq, s.carry FROM game_states s JOIN games g USING (game_id) WHERE "
            "game_id = ? AND s.ruleset_version IS NOT DISTINCT FROM g.ruleset_version AND "
            "s.data_digest IS NOT DISTINCT FROM g.data_digest", [game_id])
        if kept is None or not 0 <= kept[0] < count:
            return None
        saved_seq, blob = kept
        lines = [r[0] for r in self._con.execute(
            "SELECT raw FROM events WHERE game_id = ? AND (seq = 0 OR seq >= ?) ORDER BY seq",
            [game_id, saved_seq]).fetchall()]
        # the carry's event and those after it, read as the reader reads them in the whole log
        after = lines[1:] if saved_seq else lines
        read = read_log_text(log_text(after), game_id)
        if len(read.events) != len(after) or any(p.line != 1 for p in read.problems) \
                or read.events[-1].hash != head_hash:
            return None
        first = read_log_text(log_text(lines[:1]), game_id).events[0]
        at, *since = (replace(e, line=e.seq + 1) for e in read.events)
        return resume_live(blob, first, at, since)

    def _write_advanced(self, live: LiveGame, advanced: Advanced, expected_seq: int) -> None:
        """Write what an append's events made, in the open transaction, in as few statements as
        the rows allow: the games row first, if its head is still the one judged on (else
        _StaleHead), then the events, new findings, the snapshot, the analytics rows that
        changed, the campaign, and the carry when it is CARRY_EVERY events behind."""
        con = self._con
        judged = advanced.judged
        game = judged.game
        game["source"] = f"append at seq {expected_seq}"
        stamp = _now()
        events = advanced.events
        row = dict(game, updated_at=stamp, judged_at=stamp)
        before = live.game_row or {}                  # the columns an append changes, only
        columns = [c for c in _GAME_UPDATE_COLUMNS if c not in before or row[c] != before[c]]
        changed = con.execute(_append_game_sql(columns), [
            *(row[c] for c in columns),
            game["game_id"], expected_seq - 1, events[0].prev, live.judged_at]).fetchall()[0][0]
        if changed != 1:
            raise _StaleHead(game["game_id"])
        live.game_row = row
        con.execute(self._event_insert + ", ".join([self._event_values] * len(events)),
                    [v for e in events for v in self._event_row(e)]).fetchall()
        if judged.findings:
            con.execute(f"INSERT INTO findings ({', '.join(_FINDING_COLUMNS)}) VALUES "
                        + ", ".join(["(" + ", ".join("?" * len(_FINDING_COLUMNS)) + ")"]
                                    * len(judged.findings)),
                        [v for f in judged.findings for v in f]).fetchall()
        if judged.snapshot is not None:
            con.execute("INSERT INTO snapshots (game_id, seq, ruleset_version, digest, state) "
                        "VALUES (?, ?, ?, ?, ?::JSON)", list(judged.snapshot)).fetchall()
        self._write_changed_analytics(advanced.retract, judged.analytics)
        if judged.campaign is not None:
            batch = _Batch(relink=[game["game_id"]])
            batch.add_campaign(judged)
            self._write_campaigns(batch)
        if live.needs_saving:
            con.execute(self._save_carry_sql(), [*live.carry_row(), stamp]).fetchall()
            live.saved_seq = live.head.seq
        self._notify([(game["game_id"], live.head.seq)])
        live.judged_at = stamp

    def _write_changed_analytics(self, retract: dict[str, list[tuple]],
                                 rows: dict[str, list[tuple]]) -> None:
        """Delete `retract` and insert `rows`, in the open transaction: a row whose key a
        retracted row had updates it (an unfinished battle that ends, a player's outcome so far);
        one statement per table and kind (DuckDB's INSERT OR REPLACE costs several of them)."""
        con = self._con
        for table in sorted(retract.keys() | rows.keys()):
            p = self._projection(table)
            old = {at.key_of(p, r): r for r in retract.get(table, ())}
            fresh = rows.get(table, [])
            updated = [r for r in fresh if p.key and at.key_of(p, r) in old]
            inserted = [r for r in fresh if not (p.key and at.key_of(p, r) in old)]
            kept = {at.key_of(p, r) for r in updated}
            gone = [k for k in old if k not in kept]
            if gone:
                con.execute(at.delete_sql(p, len(gone)), [v for k in gone for v in k]).fetchall()
            update = at.update_sql(p, updated, self._cast_values) if updated else None
            if update is not None:
                con.execute(*update).fetchall()
            if inserted:
                con.execute(at.insert_sql(p, len(inserted)),
                            [v for r in inserted for v in r]).fetchall()

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

    def game_count(self) -> int:
        with self._lock:
            return self._one("SELECT count(*) FROM games")[0]

    def events(self, game_id: str, since: int = 0) -> list[str]:
        with self._lock:
            lines = [r[0] for r in self._con.execute(      # by the (game_id, seq) key
                "SELECT raw FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq",
                [game_id, max(since, 0)]).fetchall()]
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

    def rejects(self) -> list[RejectRow]:
        with self._lock, Session(self._engine) as session:
            # bulk inserts may draw sequence ids out of row order: order by what the rows say
            return list(session.exec(select(RejectRow).order_by(
                RejectRow.rejected_at, RejectRow.file, func.coalesce(RejectRow.line, -1),
                RejectRow.id)).all())

    # -- judging again, checking, exporting

    def recheck(self, *, on_game=None, batch_events: int = DEFAULT_BATCH_EVENTS):
        """Games are read, judged and written a batch (`batch_events` events) at a time, and
        only the games that may have changed are kept until the end (those whose findings or
        result changed, and campaign games, whose campaign findings are compared once every
        campaign is linked again): memory does not grow with the store."""
        self._writable()
        seen: list[tuple] = []
        with self._lock, self._bounded_memory():
            self._live.drop()                    # every game is judged again
            said_before = self._campaign_said()
            pending: list[tuple[str, int]] = []
            size = 0
            for game_id, count in self._game_sizes():
                pending.append((game_id, count))
                size += count
                if size >= batch_events:
                    seen += self._recheck_batch(pending, on_game, said_before)
                    pending, size = [], 0
            if pending:
                seen += self._recheck_batch(pending, on_game, said_before)
            said_after = self._campaign_said()
        changes: list[RecheckChange] = []
        for gid, v0, v1, n0, n1, w0, w1, findings_changed, result_changed in seen:
            c0, c1 = said_before.get(gid, []), said_after.get(gid, [])
            findings_changed = findings_changed or c0 != c1
            if findings_changed or result_changed:
                changes.append(RecheckChange(gid, v0, v1, n0 + len(c0), n1 + len(c1), w0, w1,
                                             findings_changed, result_changed))
        return changes

    def _game_sizes(self, page: int = 4096) -> Iterator[tuple[str, int]]:
        """(game id, events) of every stored game in id order, read a page of ids at a time."""
        after = None
        while True:
            rows = self._con.execute(
                "SELECT game_id, event_count FROM games"
                + (" WHERE game_id > ?" if after is not None else "")
                + f" ORDER BY game_id LIMIT {int(page)}",
                [after] if after is not None else None).fetchall()
            yield from rows
            if len(rows) < page:
                return
            after = rows[-1][0]

    def _recheck_batch(self, games: list[tuple[str, int]], on_game,
                       said_before: dict[str, list] | None = None) -> list[tuple]:
        """Judge `games` again in one transaction (their campaigns linked again with them);
        per game that may have changed (its findings or result did, or it is or was in a
        campaign): id, versions, finding counts and winners before and after, what changed."""
        seen = []
        with self._transaction() as con:
            batch = _Batch()
            for game_id, _ in games:
                before = self._one(
                    "SELECT ruleset_version, winners, result, source, event_count FROM games "
                    "WHERE game_id = ?" + self._for_update, [game_id])
                count = before[4]            # as locked: no append moves it while it is judged
                old_findings = con.execute(
                    "SELECT line, seq, event, rule, kind, applied, message, section FROM findings "
                    "WHERE game_id = ? ORDER BY idx", [game_id]).fetchall()
                read = read_log_text(log_text(self.events(game_id)), before[3] or game_id)
                judged = _judge_rows(read, self._judge, self._extract, carried=True,
                                     memo=self._recalled())
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
                if judged.carry is not None:
                    batch.carries.append(carry_row(judged))
                batch.add_analytics(judged, rejudged=True)
                batch.add_campaign(judged)
                if findings_changed or result_changed or judged.campaign is not None \
                        or said_before is None or game_id in said_before:
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
                problems.append(f"game {gid!r}: {plural(n, 'event')} with no row in the games table")
            for gid, seq in con.execute("""
                    SELECT game_id, seq FROM (
                        SELECT game_id, seq, prev,
                               lag(hash) OVER (PARTITION BY game_id ORDER BY seq) AS before
                        FROM events) AS chain
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
                    SELECT g.game_id, json_array_length(g.players), coalesce(p.n, 0) FROM games g
                    LEFT JOIN (SELECT game_id, count(*) AS n FROM players GROUP BY game_id) AS p
                    USING (game_id) WHERE json_array_length(g.players) != coalesce(p.n, 0)
                    ORDER BY g.game_id""").fetchall():
                problems.append(f"game {gid!r}: {listed} players listed, {seated} seated")
            for table in self._projections:      # every registered ruleset's, even one added late
                for gid, n in con.execute(
                        f"SELECT game_id, count(*) FROM {at.quoted(table)} WHERE game_id NOT IN "
                        f"(SELECT game_id FROM games) GROUP BY game_id ORDER BY game_id").fetchall():
                    problems.append(f"game {gid!r}: {plural(n, 'row')} in {table} with no row in the "
                                    f"games table")
            problems += self._check_campaigns()
            problems += self._check_lines()
        return IntegrityReport(games, events, problems)

    def _check_lines(self) -> list[str]:
        """Every stored line re-read: its content matches its hash and the row's columns."""
        problems = []
        cursor = self._con.execute(
            f"SELECT game_id, {self._list_agg.format(expr='raw', order='seq')}, "
            f"{self._list_agg.format(expr='hash', order='seq')} FROM events "
            f"GROUP BY game_id ORDER BY game_id")
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
        write_atomically(out, data)
        return out

    def export_parquet(self, out_dir: str | Path, game_id: str | None = None) -> Path:
        """One file per game, at a path fixed by the game (ruleset=R/date=D/<game>.parquet), each
        replaced whole: exporting the same store again gives the same lake, and a game exported
        alone lands where --all puts it. The files are written into a temporary folder under
        `out_dir` first and moved into place only when all are written, so a full disk leaves
        the lake as it was (and no temporary files). Files of the former naming
        (events_<uuid>.parquet) in the partitions written are removed: they held the same rows."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        if game_id is not None and self.head(game_id) is None:
            raise GameNotFound(game_id)
        with self._lock:
            ids = [game_id] if game_id is not None else [
                r[0] for r in self._con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
        if not ids:
            return out
        stems = export_file_stems(ids)
        temp = Path(tempfile.mkdtemp(dir=out, prefix=".export-", suffix=".tmp"))
        try:
            self._copy_parquet(temp, stems)
            written = sorted(temp.rglob("*.parquet"))
            moves = []
            for f in written:       # temp/ruleset=R/date=D/file=STEM/data_0.parquet
                stem = f.parent.name.removeprefix("file=")
                target = out / f.parent.parent.relative_to(temp) / f"{stem}.parquet"
                moves.append((f, target))
            for f, target in moves:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(f, target)
            for folder in {target.parent for _, target in moves}:
                for old in folder.glob("events_*.parquet"):
                    old.unlink()
        except (*self._db_errors, OSError, pl.exceptions.PolarsError) as exc:
            raise StoreError(f"cannot write the Parquet files under {out}: "
                             f"{_io_reason(exc)}") from exc
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        return out


def export_file_stems(ids: Sequence[str]) -> dict[str, str]:
    """A file name (without .jsonl or .parquet) per game id, safe in any file system and the
    same for a game whatever else is exported: the id with odd characters as '_', and when that changes
    it, a short hash of the id (so two ids never share a file)."""
    stems = {}
    for gid in ids:
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", gid).lstrip(".") or "game"
        if safe != gid:
            safe += "-" + hashlib.sha256(gid.encode("utf-8")).hexdigest()[:8]
        stems[gid] = safe
    return stems


def _io_reason(exc: BaseException) -> str:
    """An I/O error's message, saying plainly when the disk is full."""
    text = str(exc)
    if "No space left" in text or getattr(exc, "errno", None) == errno.ENOSPC:
        return f"the disk is full ({text})"
    return text


"""The PostgreSQL adapter: the store in a PostgreSQL database (psycopg 3; SQLAlchemy/sqlmodel
for the row reads), shared by any number of processes and servers.

    store = open_store("postgresql://ledger@127.0.0.1:5432/club")

What makes many writers safe is the database's, not a lock of ours: one event per (game, seq)
(the events primary key), a games row updated only if its head is still the one the writer
judged on (compare-and-set), and a game written in one transaction. A writer that comes second
gets ConcurrencyConflict from an append (read the head again, retry), and an ingest batch that
lost a race is planned again on the heads now stored (`SqlStore._commit_planned`). Appends are
announced with NOTIFY on the channel `ledger_events` when they commit (`listen`), so a server
process sees what another one stored.

The schema is versioned (ledger/store/pg_migrations.py) and brought up to date when a store is
opened for writing.
"""

from __future__ import annotations

import json
import re
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import polars as pl
import psycopg
from psycopg import errors as pg_errors
from psycopg.types.string import TextLoader

from ledger.store import analytics_tables as at
from ledger.store import pg_migrations
from ledger.store.errors import StoreError
from ledger.store.interface import Reject
from ledger.store.urls import display_name
from ledger.store.mapper import _now
from ledger.store.sql import MEMO_TABLE, _GAME_UPDATE_COLUMNS, _JSON_COLUMNS, SqlStore, _int32
from replay.logfile import LogRead, RawEvent

CHANNEL = "ledger_events"
"""The NOTIFY channel of appends: each payload is {"game": id, "seq": the new head's seq}."""

# pg_advisory_xact_lock key held while rejects are written: two processes ingesting the same
# broken log keep its rejects once
_REJECTS_LOCK = 0x1ED6E4_5E7EC7

# pg_advisory_xact_lock(key, hashtext(name)) held while a campaign is linked
_CAMPAIGN_LOCK = 0x1ED6

PG_TYPES = {**at.SQL_TYPES, "float": "DOUBLE PRECISION"}

# polars types of the PostgreSQL types a query may give (by type OID); others are inferred
_POLARS_OF_OID = {
    16: pl.Boolean, 20: pl.Int64, 21: pl.Int32, 23: pl.Int32, 26: pl.Int64, 25: pl.String,
    1043: pl.String, 1042: pl.String, 19: pl.String, 114: pl.String, 3802: pl.String,
    700: pl.Float64, 701: pl.Float64, 1700: pl.Float64, 1082: pl.Date,
    1114: pl.Datetime("us"), 1184: pl.Datetime("us", "UTC"), 17: pl.Binary,
}


@lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """The store's SQL for psycopg: `?` becomes %s, `$name` becomes %(name)s, and a literal %
    is doubled; quoted strings and identifiers are left as they are."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c in ("'", '"'):
            end = i + 1
            while True:                                  # the closing quote (doubled: inside)
                end = sql.find(c, end)
                if end == -1 or end + 1 >= n or sql[end + 1] != c:
                    break
                end += 2
            end = n - 1 if end == -1 else end
            out.append(sql[i:end + 1].replace("%", "%%"))
            i = end + 1
            continue
        if c == "?":
            out.append("%s")
        elif c == "%":
            out.append("%%")
        elif c == "$" and i + 1 < n and (sql[i + 1].isalpha() or sql[i + 1] == "_"):
            m = re.match(r"\$([A-Za-z_][A-Za-z0-9_]*)", sql[i:])
            out.append(f"%({m.group(1)})s")
            i += len(m.group(0))
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


class _Result:
    """A statement's result, read as DuckDB's are: a write without RETURNING gives its row
    count as one row."""

    def __init__(self, cursor: psycopg.Cursor):
        self._cursor = cursor

    def fetchall(self) -> list[tuple]:
        if self._cursor.description is None:
            return [(self._cursor.rowcount,)]
        return self._cursor.fetchall()

    def fetchone(self) -> tuple | None:
        return self._cursor.fetchone()

    def fetchmany(self, size: int) -> list[tuple]:
        return self._cursor.fetchmany(size)

    @property
    def description(self) -> Any:
        return self._cursor.description


class PgConnection:
    """A psycopg connection (autocommit: BEGIN and COMMIT are the store's) that runs the store's
    SQL as written for every backend (`pg_sql`); JSON comes back as its text, as from DuckDB."""

    def __init__(self, raw: psycopg.Connection):
        self.raw = raw
        for name in ("json", "jsonb"):
            raw.adapters.register_loader(name, TextLoader)

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> _Result:
        cursor = self.raw.cursor()
        cursor.execute(pg_sql(sql), params if params is not None else ())
        return _Result(cursor)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.raw.cursor() as cursor:
            cursor.executemany(pg_sql(sql), rows)

    def close(self) -> None:
        self.raw.close()


def _connect(url: str, name: str, wait: float, **kw: Any) -> psycopg.Connection:
    """psycopg.connect in autocommit, retried while the server is starting or out of
    connections, up to `wait` seconds; StoreError saying why not."""
    started = time.monotonic()
    delay = 0.05
    while True:
        try:
            return psycopg.connect(libpq_url(url), autocommit=True, connect_timeout=10, **kw)
        except psycopg.OperationalError as exc:
            reason = " ".join(str(exc).split())
            retryable = any(s in reason for s in ("starting up", "too many clients",
                                                  "shutting down", "recovery"))
            if not retryable or time.monotonic() - started >= wait:
                raise StoreError(f"cannot open the store {name}: the PostgreSQL server "
                                 f"refused or could not be reached ({reason})") from exc
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


def libpq_url(url: str) -> str:
    """The URL as libpq takes it (SQLAlchemy's postgresql+psycopg:// and postgres:// too)."""
    return re.sub(r"^(postgresql\+psycopg|postgres)://", "postgresql://", url)


def open_postgres(url: str, *, read_only: bool = False, wait: float = 0.0) -> "PostgresStore":
    """Open the store in the PostgreSQL database at `url`; unless read_only, its schema is
    migrated to this ledger's version first (pg_migrations). StoreError if the server cannot
    be reached, NotAStore if a read-only open finds no (or an older) ledger schema."""
    name = display_name(url)
    raw = _connect(url, name, wait)
    try:
        return PostgresStore(PgConnection(raw), url, read_only=read_only)
    except BaseException:
        raw.close()
        raise


class PostgresStore(SqlStore):
    """The store in a PostgreSQL database. Thread-safe (one connection, one writer at a time per
    store); any number of stores, in any processes, may write the same database."""

    backend = "postgresql"
    _refused_errors = (pg_errors.UniqueViolation, pg_errors.SerializationFailure,
                       pg_errors.DeadlockDetected)
    _db_errors = (psycopg.Error,)
    _sql_types = PG_TYPES
    _cast_values = PG_TYPES
    _for_update = " FOR UPDATE"
    _event_insert = 'INSERT INTO events (game_id, seq, type, actor, "at", raw, prev, hash) VALUES '
    _event_values = "(?, ?, ?, ?, ?, ?, ?, ?)"
    _event_stores = (True, False)

    def __init__(self, con: PgConnection, url: str, *, read_only: bool = False,
                 judge_fn: Callable[[LogRead], Any] | None = None,
                 extract_fn: Callable[[LogRead], Any] | None = None):
        self._con = con
        self.url = url
        self._setup(display_name(url), read_only=read_only, judge_fn=judge_fn,
                    extract_fn=extract_fn)
        self._sa_engine = None
        self._listeners: list[Callable[[], None]] = []
        with self._lock:
            if read_only:
                pg_migrations.check_current(con, self.name)
                con.execute("SET default_transaction_read_only = on").fetchall()
            else:
                with self._transaction():
                    pg_migrations.migrate(con, self.name)
                    self._create_tables()

    @property
    def _engine(self) -> Any:
        """The SQLAlchemy engine of the row reads (games, findings...), made when first used."""
        if self._sa_engine is None:
            from sqlalchemy import create_engine
            from sqlalchemy.engine import make_url

            self._sa_engine = create_engine(
                make_url(libpq_url(self.url)).set(drivername="postgresql+psycopg"),
                pool_size=1, max_overflow=1, pool_pre_ping=True)
        return self._sa_engine

    def _create_tables(self) -> None:
        """The analytics tables of the registered rulesets (created, or given the columns a
        ruleset added), in the open transaction, under the schema lock; the generic ones are
        the migrations'."""
        self._con.execute("SELECT pg_advisory_xact_lock(?)", [pg_migrations.SCHEMA_LOCK]).fetchall()
        present: dict[str, set[str]] = {}
        for table, column in self._con.execute(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema()").fetchall():
            present.setdefault(table, set()).add(column)
        self._add_analytics_tables(present)

    def close(self) -> None:
        with self._lock:
            try:
                if not self.read_only:
                    self._save_live_carries()
            finally:
                for stop in list(self._listeners):
                    stop()
                if self._sa_engine is not None:
                    self._sa_engine.dispose()
                self._con.close()

    def create_tables(self, statements: Sequence[str]) -> None:
        with self._transaction() as con:
            con.execute("SELECT pg_advisory_xact_lock(?)", [pg_migrations.SCHEMA_LOCK]).fetchall()
            for sql in statements:
                con.execute(sql).fetchall()

    def _lock_campaign(self, name: str) -> None:
        self._con.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))",
                          [_CAMPAIGN_LOCK, name]).fetchall()

    # -- bulk writes

    def _copy(self, table: str, columns: Sequence[str], rows: Iterator[tuple] | list) -> None:
        names = ", ".join(at.quoted(c) for c in columns)
        with self._con.raw.cursor() as cur:
            with cur.copy(f"COPY {at.quoted(table)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)

    def _insert(self, table: str, frame: pl.DataFrame, json_columns: Sequence[str] = ()) -> None:
        if frame.height:
            self._copy(table, frame.columns, frame.iter_rows())

    def _insert_events(self, events: Sequence[RawEvent]) -> None:
        if events:
            self._copy("events", ("game_id", "seq", "type", "actor", "at", "prev", "hash", "raw"),
                       ((e.game, e.seq, e.type, e.actor, e.at, e.prev, e.hash, e.raw)
                        for e in events))

    def _update_games(self, rows: list[dict]) -> int:
        sets = ", ".join(f"{c} = ?" + ("::JSON" if c in _JSON_COLUMNS else "")
                         for c in _GAME_UPDATE_COLUMNS)
        sql = f"UPDATE games SET {sets} WHERE game_id = ? AND head_seq = ?"
        changed = 0
        for row in rows:
            changed += self._con.execute(sql, [*(row[c] for c in _GAME_UPDATE_COLUMNS),
                                               row["game_id"], row["expected_head_seq"]]
                                         ).fetchall()[0][0]
        return changed

    def _write_snapshots(self, snapshots: list[tuple]) -> None:
        if not snapshots:
            return
        self._con.execute("DELETE FROM snapshots WHERE (game_id, seq) IN "
                          "(SELECT * FROM unnest(?::VARCHAR[], ?::INTEGER[]))",
                          [[s[0] for s in snapshots], [s[1] for s in snapshots]]).fetchall()
        self._copy("snapshots", ("game_id", "seq", "ruleset_version", "digest", "state"),
                   snapshots)

    def _write_rejects(self, rejects: Sequence[Reject]) -> None:
        if not rejects:
            return
        self._con.execute("SELECT pg_advisory_xact_lock(?)", [_REJECTS_LOCK]).fetchall()
        stamp = _now()
        for r in rejects:
            line = _int32(r.line)
            self._con.execute(
                "INSERT INTO rejects (file, line, seq, game_id, rule, message, raw, rejected_at) "
                "SELECT ?::VARCHAR, ?::INTEGER, ?::INTEGER, ?::VARCHAR, ?::VARCHAR, ?::VARCHAR, "
                "?::VARCHAR, ?::TIMESTAMP WHERE NOT EXISTS (SELECT 1 FROM rejects AS r "
                "WHERE r.file = ? AND r.line IS NOT DISTINCT FROM ?::INTEGER AND r.rule = ? "
                "AND r.message = ?)",
                [r.file, line, _int32(r.seq), r.game_id, r.rule, r.message, r.raw, stamp,
                 r.file, line, r.rule, r.message]).fetchall()

    _UPSERT_CARRY = (" ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, ruleset_version = "
                     "excluded.ruleset_version, data_digest = excluded.data_digest, carry = "
                     "excluded.carry, saved_at = excluded.saved_at")

    def _save_carry_sql(self, where: str = "") -> str:
        return ("INSERT INTO game_states (game_id, seq, ruleset_version, data_digest, carry, "
                "saved_at) SELECT ?::VARCHAR, ?::INTEGER, ?::VARCHAR, ?::VARCHAR, ?::BYTEA, "
                "?::TIMESTAMP " + where + self._UPSERT_CARRY)

    def _write_carries(self, rows: list[tuple]) -> None:
        sql = self._save_carry_sql()
        for row in rows:
            self._con.execute(sql, list(row)).fetchall()

    def _write_memo(self, rows: list[tuple[str, str, str]]) -> None:
        kinds, keys, values = (list(c) for c in zip(*rows))
        self._con.execute(f"INSERT INTO {MEMO_TABLE} (kind, key, value) SELECT * FROM "
                          "unnest(?::VARCHAR[], ?::VARCHAR[], ?::VARCHAR[]) ON CONFLICT DO NOTHING",
                          [kinds, keys, values]).fetchall()

    def _notify(self, heads: Sequence[tuple[str, int]]) -> None:
        if heads:
            self._con.execute(
                "SELECT pg_notify(?, n) FROM unnest(?::VARCHAR[]) AS n",
                [CHANNEL, [json.dumps({"game": g, "seq": s}) for g, s in heads]]).fetchall()

    def listen(self, on_append: Callable[[str, int], None]) -> Callable[[], None]:
        """Call `on_append(game_id, seq)` (from a thread of its own) whenever any process commits
        events of a game to this database, until the function returned is called."""
        raw = _connect(self.url, self.name, 5.0)
        raw.execute(f"LISTEN {CHANNEL}")
        stopping = threading.Event()

        def run() -> None:
            while not stopping.is_set():
                try:
                    for note in raw.notifies(timeout=0.5):
                        try:
                            said = json.loads(note.payload)
                            on_append(str(said["game"]), int(said["seq"]))
                        except (ValueError, KeyError, TypeError):
                            continue          # not one of ours
                except psycopg.Error:
                    if not stopping.is_set():
                        time.sleep(0.5)       # the server went away: keep trying quietly

        thread = threading.Thread(target=run, name="ledger-listen", daemon=True)
        thread.start()

        def stop() -> None:
            stopping.set()
            thread.join(timeout=5)
            raw.close()
            if stop in self._listeners:
                self._listeners.remove(stop)

        self._listeners.append(stop)
        return stop

    # -- reading

    def query(self, sql: str,
              params: Sequence[Any] | dict[str, Any] | None = None) -> pl.DataFrame:
        with self._lock:
            result = self._con.execute(sql, params)
            rows = result.fetchall()
            description = result.description
        names: list[str] = []
        for column in description:
            name = column.name
            while name in names:
                name += "_"
            names.append(name)
        columns = {}
        for i, (name, column) in enumerate(zip(names, description)):
            dtype = _POLARS_OF_OID.get(column.type_code)
            values = [r[i] for r in rows]
            if column.type_code == 1700:         # numeric (a sum of integers): a number
                values = [None if v is None else float(v) for v in values]
            columns[name] = pl.Series(name, values, dtype=dtype)
        return pl.DataFrame(columns)

    def _check_lines(self) -> list[str]:
        """Every stored line re-read, a few hundred games at a time through a server-side
        cursor (a store of millions of events is never read into memory at once)."""
        problems: list[str] = []
        with self._con.raw.cursor(name="ledger_check_lines", withhold=True) as cursor:
            cursor.execute("SELECT game_id, array_agg(raw ORDER BY seq), array_agg(hash ORDER BY "
                           "seq) FROM events GROUP BY game_id ORDER BY game_id")
            while rows := cursor.fetchmany(256):
                problems += self._check_games_lines(rows)
        return problems

    def _copy_parquet(self, temp: Path, stems: dict[str, str]) -> None:
        """Each game's events as one Parquet file: temp/ruleset=R/date=D/file=STEM/data_0.parquet
        (the columns DuckDB's COPY writes)."""
        ids = list(stems)
        schema = {"game_id": pl.String, "seq": pl.Int32, "type": pl.String, "actor": pl.String,
                  "at": pl.String, "payload": pl.String, "prev": pl.String, "hash": pl.String,
                  "raw": pl.String, "ruleset_version": pl.String}
        for start in range(0, len(ids), 256):
            chunk = ids[start:start + 256]
            with self._lock:
                rows = self._con.execute(
                    'SELECT e.game_id, e.seq, e.type, e.actor, e."at", e.payload::VARCHAR, '
                    "e.prev, e.hash, e.raw, g.ruleset_version, coalesce(g.ruleset, 'unknown'), "
                    "coalesce(to_char(g.played_on, 'YYYY-MM-DD'), 'undated') FROM events e "
                    "JOIN games g USING (game_id) WHERE e.game_id IN (SELECT unnest(?::VARCHAR[])) "
                    "ORDER BY e.game_id, e.seq", [chunk]).fetchall()
            by_game: dict[str, list[tuple]] = {}
            for row in rows:
                by_game.setdefault(row[0], []).append(row)
            for gid, events in by_game.items():
                ruleset, date = events[0][10], events[0][11]
                folder = temp / f"ruleset={ruleset}" / f"date={date}" / f"file={stems[gid]}"
                folder.mkdir(parents=True, exist_ok=True)
                pl.DataFrame([r[:10] for r in events], schema=schema, orient="row") \
                    .write_parquet(folder / "data_0.parquet")

"""The DuckDB adapter: one database file (or ":memory:"), opened with lock retries, written in
transactions by one writer at a time (see the package doc for the concurrency rules). What every
SQL backend shares is ledger/store/sql.py; here is what DuckDB does its own way: frames handed
over as Arrow streams and inserted by name, its virtual columns, COPY to Parquet."""

from __future__ import annotations

import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import duckdb
import polars as pl
from sqlmodel import SQLModel, create_engine

from ledger.store import analytics_tables as at
from ledger.store.campaigns import CAMPAIGN_MODELS
from ledger.store.errors import NotAStore, StoreBusy, StoreError
from ledger.store.interface import Reject
from ledger.store.mapper import _ArrowStream, _now, event_frame
from ledger.store.models import GENERIC_MODELS
from ledger.store.sql import (MEMO_TABLE, _CARRY_SCHEMA, _GAME_SCHEMA, _GAME_UPDATE_COLUMNS, _JSON_COLUMNS,
                              _REJECT_SCHEMA, _SNAPSHOT_SCHEMA, SqlStore, _int32,
                              export_file_stems)
from replay.logfile import LogRead, RawEvent, path_problem

__all__ = ["DB_ENV", "DEFAULT_DB", "MODELS", "DuckDBStore", "export_file_stems", "open_duckdb"]

DEFAULT_DB = "ledger.duckdb"
DB_ENV = "LEDGER_DB"
MEMORY_ENV = "LEDGER_DUCKDB_MEMORY"  # DuckDB's memory budget while ingesting or rechecking
DEFAULT_MEMORY = "128MB"

MODELS = GENERIC_MODELS   # the generic tables; the analytics ones come from the rulesets

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
                if "not a valid DuckDB database file" in message:
                    raise NotAStore(f"{path} is not a ledger store (not a DuckDB database "
                                    f"file)") from exc
                raise StoreError(f"cannot open the store {path}: {message}") from exc
            waited = time.monotonic() - started
            if waited >= wait:
                found = _LOCK_HOLDER.search(message)
                raise StoreBusy(path, found.group(1) if found else None, waited) from exc
            time.sleep(min(delay, max(0.0, wait - waited)))
            delay = min(delay * 2, 0.5)


def _is_duckdb_file(path: str) -> bool:
    """Does the file begin as a DuckDB database does (the magic bytes "DUCK" at offset 8)?"""
    try:
        with open(path, "rb") as f:
            return f.read(12)[8:12] == b"DUCK"
    except OSError:
        return True             # let DuckDB say what is wrong with it


def open_duckdb(db_path: str | Path | None = None, *, read_only: bool = False,
                wait: float = 0.0) -> "DuckDBStore":
    """Open (and create, unless read_only) the DuckDB store at `db_path` (default: $LEDGER_DB,
    else ledger.duckdb); ledger.store.open_store calls it for anything but a database URL.

    Waits up to `wait` seconds while another process holds the file, then raises StoreBusy.
    A read-only open of a missing file raises StoreError.
    """
    path = str(db_path or os.environ.get(DB_ENV) or DEFAULT_DB)
    if path != ":memory:":
        problem = path_problem(path, "a store (a DuckDB file)")
        if problem is not None and (read_only or Path(path).exists() or Path(path).is_symlink()):
            if not Path(path).exists() and not Path(path).is_symlink():
                raise StoreError(f"{path}: no such file (no store at this path; ledger ingest "
                                 f"creates one)")
            raise StoreError(problem)
        if Path(path).exists() and not _is_duckdb_file(path):
            # DuckDB would open a JSON or CSV file as an in-memory database over it
            raise NotAStore(f"{path} is not a ledger store (not a DuckDB database file)")
        parent = Path(path).parent
        if not read_only and not parent.is_dir():
            raise StoreError(f"{path}: cannot create a store there: {parent}: "
                             f"{'no such directory' if not parent.exists() else 'not a directory'}")
    con = _connect(path, read_only, wait)
    try:
        return DuckDBStore(con, path, read_only=read_only)
    except BaseException:
        con.close()
        raise



class DuckDBStore(SqlStore):
    """The store in one DuckDB file (or ":memory:"). Thread-safe: one writer at a time."""

    backend = "duckdb"
    _refused_errors = (duckdb.ConstraintException, duckdb.TransactionException)
    _db_errors = (duckdb.Error,)

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str, *, read_only: bool = False,
                 judge_fn: Callable[[LogRead], Any] | None = None,
                 extract_fn: Callable[[LogRead], Any] | None = None):
        import duckdb_engine
        from sqlalchemy.pool import StaticPool

        self._con = con
        # DuckDB draws a progress bar on stdout for a long statement (a checkpoint of a big
        # ingest): it would land in the middle of a command's output (--json)
        con.execute("SET enable_progress_bar = false")
        self._setup(path, read_only=read_only, judge_fn=judge_fn, extract_fn=extract_fn)
        self._engine = create_engine("duckdb://", poolclass=StaticPool,
                                     creator=lambda: duckdb_engine.ConnectionWrapper(con))
        with self._lock:
            generic = [m.__table__ for m in (*MODELS, *CAMPAIGN_MODELS)]
            present = {r[0] for r in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = current_schema() "
                "AND table_name IN (" + ", ".join("?" * len(generic)) + ")",
                [t.name for t in generic]).fetchall()}
            if not read_only:       # a new store, or one made before some tables or columns existed
                self._create_tables()
            elif not present & {"games", "events"}:
                raise NotAStore(f"{path} is not a ledger store (no ledger tables)")
            elif len(present) != len(generic):
                missing = ", ".join(t.name for t in generic if t.name not in present)
                raise NotAStore(f"{path} is a ledger store without the tables {missing} "
                                f"(made by an older ledger?): a command that writes "
                                f"(ledger recheck --db {path}) adds them")
        # Stores made before payload, prev and hash became virtual columns store them: fill them.
        stored = {r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = 'events' AND is_generated = 'NEVER'").fetchall()}
        excluded = [c for c in ("prev", "hash") if c not in stored]
        self._event_columns = ((f"* EXCLUDE ({', '.join(excluded)})" if excluded else "*")
                               + (", json_extract(raw, '$.payload') AS payload"
                                  if "payload" in stored else ""))
        # one appended event's values, in the order of _event_row
        self._event_values = "(?, ?, ?, ?, ?, ?" + ", ?" * (2 - len(excluded)) + (
            ", json_extract(?, '$.payload'))" if "payload" in stored else ")")
        self._event_insert = ('INSERT INTO events (game_id, seq, type, actor, "at", raw'
                              + "".join(f", {c}" for c in ("prev", "hash") if c in stored)
                              + (", payload" if "payload" in stored else "") + ") VALUES ")
        self._event_stores = ("prev" in stored, "payload" in stored)

    def _create_tables(self) -> None:
        """Create the tables this store lacks: the generic ones (models), and one per analytics
        projection of the registered rulesets, with the columns a stored one lacks added."""
        present: dict[str, set[str]] = {}
        for table, column in self._con.execute(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema()").fetchall():
            present.setdefault(table, set()).add(column)
        generic = [m.__table__ for m in (*MODELS, *CAMPAIGN_MODELS)]
        if any(t.name not in present for t in generic):
            SQLModel.metadata.create_all(self._engine, tables=generic)
        self._add_analytics_tables(present)


    # -- DuckDB's own ways

    @contextmanager
    def _bounded_memory(self) -> Iterator[None]:
        """DuckDB keeps the table blocks it writes and reads cached up to its memory limit (80%
        of the machine's memory by default): an ingest or a recheck of a whole store would hold
        the store. While one runs, the limit is LEDGER_DUCKDB_MEMORY (default 128MB; blocks
        past it are evicted, written ones are already in the file), then DuckDB's default."""
        budget = os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY
        try:
            self._con.execute("SET memory_limit = ?", [budget])
        except duckdb.Error as exc:
            raise StoreError(f"{MEMORY_ENV}={budget!r} is not a memory size DuckDB takes "
                             f"(e.g. 128MB, 1GB): {exc}") from exc
        try:
            yield
        finally:
            try:
                self._con.execute("RESET memory_limit")     # the store sets it nowhere else
            except duckdb.Error:
                pass

    def _has_campaign_tables(self) -> bool:
        """False only for a store made before campaigns were kept, opened read-only."""
        return self._one("SELECT count(*) FROM duckdb_tables() WHERE schema_name = "
                         "current_schema() AND table_name = 'campaign_findings'")[0] == 1

    def _insert_select(self, table: str, frame: pl.DataFrame, select_list: str = "*",
                       on_conflict: str = "") -> None:
        if frame.height == 0:
            return
        view = f"_ledger_{table}"
        self._con.register(view, _ArrowStream(frame))
        try:
            self._con.execute(
                f'INSERT INTO {at.quoted(table)} BY NAME SELECT {select_list} FROM "{view}"'
                + on_conflict).fetchall()
        finally:
            self._con.unregister(view)

    def _insert(self, table: str, frame: pl.DataFrame, json_columns: Sequence[str] = ()) -> None:
        self._insert_select(table, frame, "* REPLACE (" + ", ".join(
            f"{c}::JSON AS {c}" for c in json_columns) + ")" if json_columns else "*")

    def _insert_events(self, events: Sequence[RawEvent]) -> None:
        self._insert_select("events", event_frame(events), self._event_columns)

    def _update_games(self, rows: list[dict]) -> int:
        frame = pl.DataFrame(rows, schema=_GAME_SCHEMA | {"expected_head_seq": pl.Int64})
        self._con.register("_ledger_updates", _ArrowStream(frame))
        try:
            sets = ", ".join(f"{c} = u.{c}" + ("::JSON" if c in _JSON_COLUMNS else "")
                             for c in _GAME_UPDATE_COLUMNS)
            return self._one(
                f"UPDATE games SET {sets} FROM _ledger_updates AS u "
                f"WHERE games.game_id = u.game_id AND games.head_seq = u.expected_head_seq")[0]
        finally:
            self._con.unregister("_ledger_updates")

    def _write_carries(self, rows: list[tuple]) -> None:
        frame = pl.DataFrame(rows, schema=_CARRY_SCHEMA, orient="row")
        self._con.register("_ledger_carries", _ArrowStream(frame))
        try:
            self._con.execute("INSERT OR REPLACE INTO game_states BY NAME "
                              "SELECT * FROM _ledger_carries").fetchall()
        finally:
            self._con.unregister("_ledger_carries")

    def _write_memo(self, rows: list[tuple[str, str, str]]) -> None:
        kinds, keys, values = zip(*rows)
        self._insert_select(MEMO_TABLE, pl.DataFrame(
            {"kind": kinds, "key": keys, "value": values},
            schema={"kind": pl.String, "key": pl.String, "value": pl.String}),
            on_conflict=" ON CONFLICT DO NOTHING")

    def _save_carry_sql(self, where: str = "") -> str:
        return ("INSERT OR REPLACE INTO game_states (game_id, seq, ruleset_version, data_digest, "
                "carry, saved_at) SELECT ?, ?, ?, ?, ?, ? " + where)

    def _write_snapshots(self, snapshots: list[tuple]) -> None:
        """Write snapshots, replacing those at the same seqs."""
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
        frame = pl.DataFrame([(r.file, _int32(r.line), _int32(r.seq), r.game_id, r.rule,
                               r.message, r.raw, stamp)
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


    def checkpoint(self) -> None:
        """Write the write-ahead log into the database file now (DuckDB does it by itself when
        the log grows past its threshold, and on close)."""
        with self._lock:
            self._writable()
            self._con.execute("CHECKPOINT").fetchall()

    def query(self, sql: str,
              params: Sequence[Any] | dict[str, Any] | None = None) -> pl.DataFrame:
        """A read query's result as a polars DataFrame (analytics reads the store with it)."""
        with self._lock:
            return pl.DataFrame(self._con.sql(sql, params=params))

    def _copy_parquet(self, temp: Path, stems: dict[str, str]) -> None:
        """COPY the games' events into `temp`, one folder per game (file=<stem>) in its
        ruleset=R/date=D partition."""
        target = str(temp).replace("'", "''")
        names = pl.DataFrame({"game_id": list(stems), "file": list(stems.values())},
                             schema={"game_id": pl.String, "file": pl.String})
        with self._lock:
            self._con.register("_ledger_export", _ArrowStream(names))
            try:
                self._con.execute(f"""
                    COPY (SELECT e.game_id, e.seq, e.type, e.actor, e."at",
                                 e.payload::VARCHAR AS payload, e.prev, e.hash, e.raw,
                                 g.ruleset_version, coalesce(g.ruleset, 'unknown') AS ruleset,
                                 coalesce(strftime(g.played_on, '%Y-%m-%d'), 'undated') AS date,
                                 x.file
                          FROM events e JOIN games g USING (game_id)
                          JOIN _ledger_export x USING (game_id)
                          ORDER BY e.game_id, e.seq)
                    TO '{target}' (FORMAT parquet, PARTITION_BY (ruleset, date, file),
                                   FILENAME_PATTERN 'data_{{i}}')""").fetchall()
            finally:
                self._con.unregister("_ledger_export")



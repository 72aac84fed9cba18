"""The analytics tables in the store: filled at ingest from the engine's fold, and kept equal to
a fresh extraction through re-ingest, extension, append and recheck (idempotent)."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics.extract import COLUMNS, TABLES, extract_rows
from replay.logfile import read_log, read_log_text
from ledger.store import ANALYTICS_TABLES, open_store
from tests.test_store_support import GAME42, SAMPLES, game, text_of

KEYS = {"orders_played": ["seq"], "battles": ["seq"], "dice": ["seq", "player"],
        "player_rounds": ["round", "player"], "outcomes": ["player"],
        "legacy_outcomes": ["player"], "legacy_battles": ["seq"], "legacy_games": ["game_id"],
        "wk_outcomes": ["player"], "wk_battles": ["seq"], "wk_agendas": ["seq"],
        "wk_votes": ["seq", "player"], "wk_expeditions": ["seq", "player"], "wk_games": ["game_id"]}


def stored(store, table: str, game_id: str) -> pl.DataFrame:
    columns = ", ".join(f'"{c}"' for c in COLUMNS[table])
    return store.query(f"SELECT {columns} FROM {table} WHERE game_id = ? ORDER BY "
                       + ", ".join(KEYS[table]), [game_id])


def expected(read, table: str) -> pl.DataFrame:
    return extract_rows(read).frame(table).sort(KEYS[table])


def assert_tables_match(store, read) -> None:
    game_id = read.events[0].game
    for table in TABLES:
        assert_frame_equal(stored(store, table, game_id), expected(read, table),
                           check_dtypes=False)


def counts(store) -> dict[str, int]:
    return {t: store.query(f"SELECT count(*) AS n FROM {t}")["n"][0] for t in ANALYTICS_TABLES}


def test_the_store_tables_are_the_extracted_ones():
    assert ANALYTICS_TABLES == TABLES


SQL_TYPES = {pl.String: "VARCHAR", pl.Int32: "INTEGER", pl.Float64: "DOUBLE",
             pl.Boolean: "BOOLEAN"}


def test_the_stored_columns_have_the_extracted_types_and_keys(tmp_path):
    """Each analytics column is stored with the type its rows are made with, and each table is
    keyed by its game and what is one row in it."""
    with open_store(tmp_path / "s.duckdb") as store:
        described = store.query(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_name IN (SELECT unnest($t::VARCHAR[]))", {"t": list(TABLES)})
        keys = store.query("SELECT table_name, constraint_column_names AS k FROM "
                           "duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'")
    stored = {(r["table_name"], r["column_name"]): r["data_type"]
              for r in described.iter_rows(named=True)}
    for table, columns in COLUMNS.items():
        for column, dtype in columns.items():
            assert stored[table, column] == SQL_TYPES[dtype], (table, column)
    key_of = {r["table_name"]: set(r["k"]) for r in keys.iter_rows(named=True)}
    for table in TABLES:
        assert key_of[table] == {"game_id", *KEYS[table]}, table


@pytest.fixture
def db(tmp_path):
    return tmp_path / "store.duckdb"


def test_ingest_fills_the_tables_and_re_ingest_changes_nothing(db):
    paths = [GAME42, SAMPLES / "sim-0001.jsonl", SAMPLES / "tiebreak.jsonl"]
    with open_store(db) as store:
        for path in paths:
            assert store.ingest_read(read_log(path)).status == "new"
        before = counts(store)
        for path in paths:
            assert_tables_match(store, read_log(path))
        for path in paths:
            assert store.ingest_read(read_log(path)).status == "present"
        assert counts(store) == before
        assert store.check().ok


def test_an_extended_game_has_the_rows_of_the_whole_game(db):
    whole = read_log_text(text_of(game("ext")), "ext.jsonl")
    with open_store(db) as store:
        store.ingest_read(read_log_text(text_of(game("ext", 120)), "ext-part.jsonl"))
        part = counts(store)
        assert store.ingest_read(whole).status == "extended"
        assert_tables_match(store, whole)
        assert counts(store)["outcomes"] == 4 and part["outcomes"] == 4


def test_an_append_replaces_the_rows(db):
    envelopes = game("app")
    with open_store(db) as store:
        store.append("app", 0, envelopes[:150])
        store.append("app", 150, [{k: v for k, v in e.items() if k not in ("prev", "hash")}
                                  for e in envelopes[150:]])
        assert_tables_match(store, read_log_text(text_of(envelopes), "app.jsonl"))


def test_recheck_restores_rows_that_were_lost_or_tampered_with(db):
    read = read_log(GAME42)
    with open_store(db) as store:
        store.ingest_read(read)
        before = counts(store)
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM dice WHERE game_id = 'game42' AND seq > 100")
    con.execute("DROP TABLE battles")
    con.execute("UPDATE outcomes SET won = NOT won")
    con.close()
    with open_store(db) as store:       # an older store: the missing table is created again
        assert counts(store)["battles"] == 0
        store.recheck()
        assert counts(store) == before
        assert_tables_match(store, read)
        store.recheck()                   # judged again: the same rows, not twice as many
        assert counts(store) == before


def test_a_rejected_log_leaves_no_rows(db):
    with open_store(db) as store:
        outcome = store.ingest_read(read_log(SAMPLES / "broken-die-edited.jsonl"))
        assert outcome.status == "rejected"
        assert set(counts(store).values()) == {0}


def test_check_db_finds_analytics_rows_of_a_game_that_is_not_stored(db):
    with open_store(db) as store:
        store.ingest_read(read_log(GAME42))
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO outcomes SELECT * REPLACE ('ghost' AS game_id) FROM outcomes")
    con.close()
    with open_store(db, read_only=True) as store:
        report = store.check()
    assert report.problems == ["game 'ghost': 4 rows in outcomes with no row in the games table"]

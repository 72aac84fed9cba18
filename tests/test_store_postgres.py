"""The PostgreSQL backend on a real server (tests/pg_support.py): its versioned schema, the CLI
with --db postgresql://... and $LEDGER_DB, and the same answers as a DuckDB store holding the
same logs. The store contract itself runs on both backends in tests/test_store_contract.py."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from ledger import exitcodes
from ledger.cli import app
from ledger.store import CAMPAIGN_MODELS, MODELS, NotAStore, StoreError, open_store
from tests.pg_support import pg_server, pg_url  # noqa: F401  (fixtures)

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
runner = CliRunner()


def run(*args, env=None):
    return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200", **(env or {})})


def _raw(url):
    import psycopg

    from ledger.store.postgres import PgConnection
    return PgConnection(psycopg.connect(url, autocommit=True))


# --- the schema -----------------------------------------------------------------------------------


def test_the_schema_has_every_column_of_the_models(pg_url):
    from ledger.store.postgres import PG_TYPES
    with open_store(pg_url) as store:
        found = store.query("SELECT table_name AS t, column_name AS c, data_type AS d "
                            "FROM information_schema.columns WHERE table_schema = "
                            "current_schema()")
    columns = {(t, c): d for t, c, d in found.iter_rows()}
    for model in (*MODELS, *CAMPAIGN_MODELS):
        for column in model.__table__.columns:
            assert (model.__tablename__, column.name) in columns, (model.__tablename__, column.name)
    assert columns[("events", "payload")] == "json" and columns[("games", "players")] == "json"
    assert columns[("game_states", "carry")] == "bytea"
    assert "DOUBLE PRECISION" in PG_TYPES.values()     # analytics floats: PostgreSQL's name


def test_migrations_are_numbered_and_applied_once(pg_url):
    from ledger.store.pg_migrations import LATEST, MIGRATIONS
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))
    errors = []

    def opener():
        try:
            open_store(pg_url).close()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(4)]   # at once, on a new database
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with open_store(pg_url) as store:
        versions = store.query("SELECT version FROM schema_version ORDER BY version")
    assert versions["version"].to_list() == list(range(1, LATEST + 1))


def test_an_older_schema_is_migrated_when_a_writer_opens_it(pg_url):
    from ledger.store.pg_migrations import LATEST, migrate
    con = _raw(pg_url)
    con.execute("BEGIN")
    assert migrate(con, "old", upto=1) == [1]          # a store made by the first schema
    con.execute("COMMIT")
    con.close()
    with pytest.raises(NotAStore, match="older than this ledger"):
        open_store(pg_url, read_only=True)
    with open_store(pg_url) as store:                  # a writer migrates it
        assert store.ingest_read(_read("game42.jsonl")).status == "new"
        assert store.query("SELECT max(version) AS v FROM schema_version")["v"][0] == LATEST
    with open_store(pg_url, read_only=True) as store:
        assert store.check().ok and [g.game_id for g in store.games()] == ["game42"]


def test_a_schema_from_a_newer_ledger_is_refused(pg_url):
    open_store(pg_url).close()
    con = _raw(pg_url)
    con.execute("INSERT INTO schema_version (version, title) VALUES (99, 'future')")
    con.close()
    for read_only in (False, True):
        with pytest.raises(StoreError, match="newer ledger"):
            open_store(pg_url, read_only=read_only)


def test_a_database_without_the_ledger_schema_is_not_a_store_when_read(pg_url):
    with pytest.raises(NotAStore, match="not a ledger store"):
        open_store(pg_url, read_only=True)


def test_a_read_only_store_refuses_writes(pg_url):
    open_store(pg_url).close()
    with open_store(pg_url, read_only=True) as store:
        with pytest.raises(StoreError, match="read-only"):
            store.ingest_read(_read("game42.jsonl"))


def _read(name):
    from replay.logfile import read_log
    return read_log(SAMPLES / name)


# --- the CLI on PostgreSQL ------------------------------------------------------------------------


def test_an_unreachable_server_is_exit_2_with_a_message(tmp_path):
    url = "postgresql://ledger:secret@127.0.0.1:1/nothing"
    r = run("games", "--db", url)
    assert r.exit_code == exitcodes.UNREADABLE
    assert "PostgreSQL server" in r.output and "secret" not in r.output
    assert "Traceback" not in r.output


def test_a_url_of_another_database_is_refused():
    r = run("games", "--db", "mysql://x@127.0.0.1/db")
    assert r.exit_code == exitcodes.UNREADABLE and "no store backend for mysql://" in r.output


def _rounded(doc):
    if isinstance(doc, float):
        return float(f"{doc:.12g}")
    if isinstance(doc, list):
        return [_rounded(x) for x in doc]
    if isinstance(doc, dict):
        return {k: _rounded(v) for k, v in doc.items()}
    return doc


def test_the_cli_gives_the_same_answers_on_postgresql_and_duckdb(pg_url, tmp_path):
    duck = tmp_path / "same.duckdb"
    out = {}
    for name, db in (("duckdb", str(duck)), ("postgresql", pg_url)):
        first = run("ingest", SAMPLES, "--db", db, "--json")
        assert first.exit_code == exitcodes.FINDINGS, first.output     # the broken samples
        again = run("ingest", SAMPLES, "--db", db, "--json")
        report = json.loads(again.output)
        assert (report["new"], report["extended"]) == (0, 0), report
        assert {o["status"] for o in report["outcomes"]} == {"present", "rejected"}
        games = run("games", "--db", db, "--json")
        check = run("check-db", "--db", db, "--json")
        recheck = run("recheck", "--db", db, "--json")
        stats = run("stats", "--db", db, "--json")
        rejects = json.loads(first.output)["rejects"]
        assert check.exit_code == 0 and json.loads(check.output)["ok"], check.output
        assert recheck.exit_code == 0 and json.loads(recheck.output)["changed"] == []
        assert stats.exit_code == 0, stats.output
        stats_doc = _rounded(json.loads(stats.output))
        stats_doc.pop("db", None)
        out[name] = (json.loads(games.output), {k: v for k, v in json.loads(check.output).items()
                                                if k != "db"}, stats_doc, rejects)
    assert out["postgresql"][0] == out["duckdb"][0]          # every game, judged the same
    assert out["postgresql"][1] == out["duckdb"][1]          # the same counts, no problem
    assert out["postgresql"][2] == out["duckdb"][2]          # every named query's rows (floats:
    # to 12 digits, a mean over rows read in another order may differ in its last bit)
    assert out["postgresql"][3] == out["duckdb"][3]          # the same rejects


def test_ledger_db_names_a_postgresql_store_for_every_command(pg_url, tmp_path):
    env = {"LEDGER_DB": pg_url}
    assert run("ingest", SAMPLES / "game42.jsonl", env=env).exit_code == 0
    games = run("games", "--json", env=env)
    assert [g["game"] for g in json.loads(games.output)] == ["game42"]
    r = run("export", "game42", "--out", tmp_path / "g.jsonl", env=env)
    assert r.exit_code == 0 and (tmp_path / "g.jsonl").read_bytes() == \
        (SAMPLES / "game42.jsonl").read_bytes()
    r = run("export", "--all", "--format", "parquet", "--out", tmp_path / "lake", env=env)
    assert r.exit_code == 0 and (tmp_path / "lake" / "_manifest.json").is_file()
    events = pl.read_parquet(list((tmp_path / "lake" / "events").rglob("*.parquet")))
    assert events["game_id"].unique().to_list() == ["game42"] and events.height == 195
    r = run("verify", "game42", env=env)                 # a game id looked up in the store
    assert r.exit_code == 0 and "game42" in r.output, r.output

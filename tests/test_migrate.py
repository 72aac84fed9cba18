"""`ledger migrate --from DB --to DB`: every game copied between DuckDB and PostgreSQL, either way,
judged again by the target, verified by head hashes, idempotent on a second run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from engine.risk_legacy import world as W
from engine.risk_legacy.campaign import setup_of
from ledger import exitcodes
from ledger.cli import app
from ledger.ingest import ingest_paths
from ledger.store import open_store
from replay.logfile import read_log
from tests.pg_support import pg_server, pg_url  # noqa: F401  (fixtures)
from tests.test_store_support import SAMPLES, game, write_game

LEGACY = SAMPLES / "legacy"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def _source(path: Path) -> Path:
    """A DuckDB store with the samples (refused logs and rejected lines too), a tournament, and
    a campaign created with its first world before its games."""
    with open_store(path) as store:
        world0 = read_log(LEGACY / "game-01.jsonl").events[0].payload["world"]
        world = W.world_from_dict(world0)
        store.create_campaign("earth", "risk-legacy", world0, W.world_digest(world),
                              setup_of(world))
        ingest_paths(store, [LEGACY], jobs=1)
        ingest_paths(store, sorted(SAMPLES.glob("*.jsonl"))[:12], jobs=1)
        ingest_paths(store, [SAMPLES / "game42.jsonl"], tournament="spring-cup", jobs=1)
    return path


def _state(db: str) -> dict:
    """What a user sees of a store: its games, campaigns, rejects, and check-db."""
    games = json.loads(run("games", "--db", db, "--json").output)
    with open_store(db, read_only=True) as store:
        return {
            "games": games,
            "campaign": [(c.game_id, c.game_no, c.status, c.waiting_for, c.finding_count)
                         for c in store.campaign_games()],
            "campaigns": [(c.name, c.world0_digest) for c in store.campaigns()],
            "tournaments": [(g.game_id, g.tournament_id) for g in store.games()],
            "rejects": sorted((r.file, r.line or 0, r.rule, r.message) for r in store.rejects()),
            "check": store.check().problems,
        }


def test_duckdb_to_postgresql_and_back_keeps_every_game(pg_url, tmp_path):
    source = str(_source(tmp_path / "source.duckdb"))
    before = _state(source)
    assert before["campaigns"][0][1] is not None and before["rejects"]
    r = run("migrate", "--from", source, "--to", pg_url, "--json")
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert report["ok"] and report["mismatches"] == [] and report["new"] == report["games"]
    assert report["campaigns_created"] == ["earth"]
    assert _state(pg_url) == before
    again = run("migrate", "--from", source, "--to", pg_url, "--json")     # idempotent
    assert again.exit_code == 0 and json.loads(again.output)["present"] == report["games"]
    assert json.loads(again.output)["campaigns_created"] == []
    assert _state(pg_url) == before
    back = str(tmp_path / "back.duckdb")
    r = run("migrate", "--from", pg_url, "--to", back)
    assert r.exit_code == 0 and "every head verified" in r.output, r.output
    assert _state(back) == before
    with open_store(back, read_only=True) as a, open_store(source, read_only=True) as b:
        for g in b.games():
            assert a.events(g.game_id) == b.events(g.game_id)        # byte for byte


def test_a_longer_source_game_extends_the_target_one(tmp_path):
    full = game("g1")
    first, second = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    with open_store(first) as store:
        store.ingest_read(read_log(write_game(tmp_path / "g1.jsonl", full)))
    with open_store(second) as store:
        store.ingest_read(read_log(write_game(tmp_path / "short.jsonl", full[:50])))
    r = run("migrate", "--from", first, "--to", second, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["extended"] == 1, r.output
    with open_store(second, read_only=True) as store:
        assert store.head("g1").seq == 194 and store.check().ok


def test_a_target_holding_another_history_is_reported_with_exit_1(tmp_path):
    ours, theirs = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    with open_store(ours) as store:
        store.ingest_read(read_log(write_game(tmp_path / "g1.jsonl", game("g1"))))
    other = game("g1")
    other[20] = dict(other[20], at="2026-03-14T21:00:00Z")
    from replay.logfile import seal
    with open_store(theirs) as store:
        store.ingest_read(read_log(write_game(tmp_path / "other.jsonl", seal(other))))
    r = run("migrate", "--from", ours, "--to", theirs)
    assert r.exit_code == exitcodes.FINDINGS
    assert "g1: refused by the target: game 'g1' contradicts the stored game from seq 20" \
        in r.output
    assert "the target's head (seq 194" in r.output and "2 problems" in r.output


def test_the_same_store_or_a_missing_source_is_refused(tmp_path):
    db = str(tmp_path / "a.duckdb")
    r = run("migrate", "--from", db, "--to", db)
    assert r.exit_code == exitcodes.USAGE and "the same store" in r.output
    r = run("migrate", "--from", tmp_path / "none.duckdb", "--to", tmp_path / "b.duckdb")
    assert r.exit_code == exitcodes.UNREADABLE and "no such file" in r.output

"""The DuckDB store beyond the contract: transactions under injected failures, recheck after an
engine change, integrity checks that catch tampering, Parquet partitions, threads."""

from __future__ import annotations

import json
import threading

import duckdb
import polars as pl
import pytest

import ledger.store.duckdb as store_module
from replay.logfile import event_hash, format_line, read_log, read_log_text, seal
from ledger.store import (
    ConcurrencyConflict, DuckDBStore, StoreError, open_store,
)
from ledger.ingest import ingest_paths
from replay.judge import Finding, judge
from tests.test_store_support import SAMPLES, game, text_of


def read_of(envelopes, name="game.jsonl"):
    return read_log_text(text_of(envelopes), name)


def rows(path, sql):
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def tamper(path, *statements):
    con = duckdb.connect(str(path))
    try:
        for sql in statements:
            con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "store.duckdb"


# --- a game is written whole or not at all ----------------------------------------------------


def test_a_failure_in_the_middle_of_writing_a_game_leaves_nothing_of_it(db, monkeypatch):
    """The events insert fails (a duplicate key) after the game's other rows were written."""
    real = store_module.event_frame
    monkeypatch.setattr(store_module, "event_frame",
                        lambda events: pl.concat([real(events), real(events[-1:])]))
    with_a_finding = read_log(SAMPLES / "broken-castle-no-siege.jsonl")
    with open_store(db) as store:
        with pytest.raises(StoreError):
            store.ingest_read(with_a_finding)
        assert store.head("game42") is None and store.games() == []
        monkeypatch.setattr(store_module, "event_frame", real)
        assert store.check().ok
        assert store.ingest_read(with_a_finding).status == "new"
    for table in ("games", "players", "events", "findings", "snapshots"):
        assert rows(db, f"SELECT count(DISTINCT game_id) FROM {table}") == [(1,)], table


def _failing_for(game_id, monkeypatch):
    real = DuckDBStore._write_snapshots

    def write_snapshots(self, snapshots):
        real(self, snapshots)
        if any(s[0] == game_id for s in snapshots):
            raise RuntimeError(f"disk full while writing {game_id}")

    monkeypatch.setattr(DuckDBStore, "_write_snapshots", write_snapshots)


def test_games_sharing_a_transaction_are_all_absent_after_a_failure(db, monkeypatch):
    _failing_for("g2", monkeypatch)
    with open_store(db) as store:
        with pytest.raises(RuntimeError):
            store.ingest_reads([read_of(game(g)) for g in ("g0", "g1", "g2")])
        assert store.games() == [] and store.check().ok


def test_with_a_transaction_per_game_the_games_before_a_failure_stay(db, monkeypatch):
    _failing_for("g2", monkeypatch)
    committed = []
    with open_store(db) as store:
        with pytest.raises(RuntimeError):
            store.ingest_reads([read_of(game(g)) for g in ("g0", "g1", "g2", "g3")],
                               batch_events=0, on_outcome=committed.append)
        assert [g.game_id for g in store.games()] == ["g0", "g1"]
        assert [o.game_id for o in committed] == ["g0", "g1"]
        assert store.check().ok


def test_a_second_log_of_a_game_in_the_same_batch_extends_the_first(db):
    with open_store(db) as store:
        outcomes = store.ingest_reads([read_of(game("g1")[:60]), read_of(game("g1"))])
        assert [o.status for o in outcomes] == ["new", "extended"]
        assert store.check().ok and len(store.events("g1")) == 195


# --- recheck --------------------------------------------------------------------------------


def _old_engine(read):
    """The engine as it was: another version, and a finding the current one does not make."""
    j = judge(read)
    j.ruleset_version = "0.9.0"
    j.findings.append(Finding(read.name, 10, 9, "RE-OLD", "an old ruling", "p.1", "illegal", True,
                              "BidPlaced"))
    return j


def test_recheck_lists_the_games_the_current_engine_judges_differently(db):
    old = DuckDBStore(duckdb.connect(str(db)), str(db), judge_fn=_old_engine)
    old.ingest_read(read_of(game("g1")))
    old.ingest_read(read_of(game("g2")[:80]))
    assert old.game("g1").ruleset_version == "0.9.0" and old.game("g1").finding_count == 1
    old.close()
    with open_store(db) as store:
        changes = store.recheck()
        assert [(c.game_id, c.findings_before, c.findings_after, c.version_before,
                 c.version_after) for c in changes] == [("g1", 1, 0, "0.9.0", "1.0.0"),
                                                        ("g2", 1, 0, "0.9.0", "1.0.0")]
        assert "findings 1 → 0" in changes[0].format()
        assert store.game("g1").ruleset_version == "1.0.0" and store.findings("g1") == []
        assert store.recheck() == [] and store.check().ok


def test_recheck_reports_a_changed_result(db):
    def no_winner(read):
        j = judge(read)
        j.result = None
        return j

    old = DuckDBStore(duckdb.connect(str(db)), str(db), judge_fn=no_winner)
    old.ingest_read(read_of(game("g1")))
    old.close()
    with open_store(db) as store:
        [change] = store.recheck()
        assert change.result_changed and not change.findings_changed
        assert (change.winners_before, change.winners_after) == (None, ["blue"])
        assert store.game("g1").winners == ["blue"]


# --- check-db catches what it must -----------------------------------------------------------


def _relinked_line() -> str:
    """g1's event 7 pointing at another event before it, its own hash made to match (a line
    whose content hash is intact but whose chain link is not)."""
    e = dict(game("g1")[7], prev="0" * 64)
    e["hash"] = event_hash(e)
    return format_line(e).replace("'", "''")


@pytest.mark.parametrize("damage, expected", [
    ("DELETE FROM events WHERE game_id = 'g1' AND seq = 100", "not contiguous"),
    ("DELETE FROM events WHERE game_id = 'g1' AND seq = 194", "recorded head"),
    (f"UPDATE events SET raw = '{_relinked_line()}' WHERE game_id = 'g1' AND seq = 7",
     "broken chain link"),
    ("UPDATE events SET raw = replace(raw, '\"amount\":2', '\"amount\":3') "
     "WHERE game_id = 'g1' AND seq = 1", "LOG-HASH"),
    ("UPDATE games SET event_count = 190 WHERE game_id = 'g1'", "counts 190 events"),
    ("DELETE FROM findings WHERE game_id = 'game42-castle-no-siege'", "findings"),
])
def test_check_finds_damage(db, damage, expected):
    with open_store(db) as store:
        store.ingest_read(read_of(game("g1")))
        store.ingest_read(read_log(SAMPLES / "broken-castle-no-siege.jsonl"))
    tamper(db, damage)
    with open_store(db, read_only=True) as store:
        report = store.check()
    assert not report.ok
    assert any(expected in p for p in report.problems), report.problems


# --- export, read-only, threads ---------------------------------------------------------------


def test_parquet_export_is_partitioned_by_ruleset_and_date(db, tmp_path):
    with open_store(db) as store:
        store.ingest_read(read_of(game("g1")))
        undated = [{k: v for k, v in e.items() if k != "at"} for e in game("g2", 40)]
        store.ingest_read(read_of(seal(undated)))
        out = store.export_parquet(tmp_path / "pq")
    parts = sorted(str(p.relative_to(out).parent) for p in out.rglob("*.parquet"))
    assert parts == ["ruleset=risk-europe/date=2026-03-14", "ruleset=risk-europe/date=undated"]
    con = duckdb.connect()
    counted = con.execute(
        f"SELECT game_id, count(*), min(seq), max(seq), any_value(ruleset) FROM "
        f"read_parquet('{out}/**/*.parquet', hive_partitioning = true) "
        f"GROUP BY game_id ORDER BY game_id").fetchall()
    assert counted == [("g1", 195, 0, 194, "risk-europe"), ("g2", 40, 0, 39, "risk-europe")]


def test_a_read_only_store_refuses_writes_and_a_missing_one_is_not_created(db):
    with pytest.raises(StoreError, match="no store at"):
        open_store(db, read_only=True)
    assert not db.exists()
    open_store(db).close()
    with open_store(db, read_only=True) as store:
        with pytest.raises(StoreError, match="read-only"):
            store.ingest_read(read_of(game("g1")))


def test_threads_racing_on_one_game_one_wins_the_other_conflicts(db):
    envelopes = game("race")
    with open_store(db) as store:
        store.append("race", 0, envelopes[:10])
        start = threading.Barrier(2)
        results = []

        def writer(at: str) -> None:
            start.wait()
            try:
                store.append("race", 10, [dict(envelopes[10], at=at, hash=None, prev=None)])
                results.append("won")
            except ConcurrencyConflict:
                results.append("conflict")

        threads = [threading.Thread(target=writer, args=(f"2026-03-14T2{i}:00:00Z",))
                   for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["conflict", "won"]
        assert len(store.events("race")) == 11 and store.check().ok


def test_event_payloads_and_links_are_read_from_the_raw_line_and_stored_once(tmp_path):
    path = tmp_path / "new.duckdb"
    read = read_log(SAMPLES / "game42.jsonl")
    with open_store(path) as store:
        store.ingest_read(read)
        generated = store.query("SELECT column_name FROM information_schema.columns WHERE "
                                "table_name = 'events' AND is_generated = 'ALWAYS'")
        assert sorted(generated["column_name"]) == ["hash", "payload", "prev"]
        rows = store.query("SELECT raw, payload::VARCHAR AS payload, prev, hash FROM events "
                           "ORDER BY seq").rows()
        assert store.check().ok
    assert [(json.loads(p), prev, h) for _, p, prev, h in rows] == \
        [(e.payload, e.prev, e.hash) for e in read.events]


def test_a_store_made_when_payloads_and_links_were_stored_still_gets_them(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    con.execute('CREATE TABLE events (game_id VARCHAR, seq INTEGER, type VARCHAR NOT NULL, '
                'actor VARCHAR, "at" VARCHAR, payload JSON, prev VARCHAR, hash VARCHAR NOT NULL, '
                'raw VARCHAR NOT NULL, PRIMARY KEY (game_id, seq))')
    con.close()
    read = read_log(SAMPLES / "game42.jsonl")
    with open_store(path) as store:
        store.ingest_read(read)
        rows = store.query("SELECT raw, payload::VARCHAR AS payload, prev, hash FROM events "
                           "ORDER BY seq").rows()
        assert store.check().ok
    assert [(json.loads(p), prev, h) for _, p, prev, h in rows] == \
        [(e.payload, e.prev, e.hash) for e in read.events]


# --- the memo: a battle's odds computed once per store (#15) -----------------------------------

def _battles(path) -> list[tuple]:
    return rows(path, "SELECT * FROM battles ORDER BY game_id, seq")


def test_odds_are_computed_once_per_store_and_the_rows_are_the_same(db, monkeypatch):
    import engine.risk_europe.fold as fold_module
    from engine.risk_europe import odds

    sims = sorted(SAMPLES.glob("sim-*.jsonl"))[:3]
    with open_store(db) as s:
        ingest_paths(s, sims)
    kept = rows(db, "SELECT kind, key, value FROM memo ORDER BY key")
    assert kept and {k for k, _, _ in kept} == {fold_module.MEMO_KIND}
    assert all(" vs " in key for _, key, _ in kept)
    before = _battles(db)
    # a store opened afresh judges again (recheck) without computing one battle's odds
    computed = []
    monkeypatch.setattr(fold_module, "battle_odds",
                        lambda *a, **k: computed.append(a) or odds.battle_odds(*a, **k))
    with open_store(db) as s:
        s.recheck()
    assert computed == []
    assert _battles(db) == before
    # and without the memo the rows are the same numbers
    tamper(db, "DELETE FROM memo")
    with open_store(db) as s:
        s.recheck()
    assert computed and _battles(db) == before
    assert len(rows(db, "SELECT * FROM memo")) == len(kept)


def test_a_memo_recalls_what_it_computed_and_does_not_travel_in_a_pickle():
    import pickle
    from engine.core.memo import Memo

    memo = Memo([("k/1", "a", "[1.5, 2]")])
    assert memo.recall("k/1", "a", lambda: 1 / 0) == [1.5, 2]
    assert memo.recall("k/1", "b", lambda: {"x": 0.1}) == {"x": 0.1}
    assert memo.recall("k/1", "b", lambda: 1 / 0) == {"x": 0.1}
    assert memo.take_new() == [("k/1", "b", '{"x": 0.1}')] and memo.take_new() == []
    assert len(pickle.loads(pickle.dumps(memo))) == 0

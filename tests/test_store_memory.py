"""Ingest and recheck in bounded memory (issue #15): DuckDB's buffer cache is held to a fixed
budget while a corpus is written or judged again, and what it was after; recheck keeps only the
games that may have changed. The peak memory figures themselves are the bench's
(`python bench/run.py memory`): a process's RSS is too noisy for a test."""

from __future__ import annotations

import pytest

from ledger.ingest import ingest_paths
from ledger.store import StoreError, open_store
from ledger.store.duckdb import DEFAULT_MEMORY, MEMORY_ENV
from tests.test_store_support import SAMPLES


def _limit(store) -> str:
    return store._one("SELECT current_setting('memory_limit')")[0]


def _limits_while_writing(store, monkeypatch) -> list[str]:
    seen: list[str] = []
    write_rows = store._write_rows

    def spy(batch):
        seen.append(_limit(store))
        return write_rows(batch)

    monkeypatch.setattr(store, "_write_rows", spy)
    return seen


def test_ingest_and_recheck_write_within_the_budget_then_restore_the_limit(tmp_path, monkeypatch):
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    with open_store(tmp_path / "s.duckdb") as store:
        store._con.execute(f"SET memory_limit = '{DEFAULT_MEMORY}'").fetchall()
        budget = _limit(store)
        store._con.execute("RESET memory_limit").fetchall()
        usual = _limit(store)
        assert usual != budget
        seen = _limits_while_writing(store, monkeypatch)
        report = ingest_paths(store, [SAMPLES / "game42.jsonl", SAMPLES / "sim-0010.jsonl"],
                              batch_events=100)
        assert report.counts()["games new"] == 2
        assert seen and set(seen) == {budget}
        assert _limit(store) == usual
        seen.clear()
        assert store.recheck(batch_events=100) == []
        assert len(seen) == 2 and set(seen) == {budget}     # a batch per game here
        assert _limit(store) == usual


def test_the_budget_is_taken_from_the_environment_and_a_bad_one_is_named(tmp_path, monkeypatch):
    with open_store(tmp_path / "s.duckdb") as store:
        seen = _limits_while_writing(store, monkeypatch)
        monkeypatch.setenv(MEMORY_ENV, "1GB")
        ingest_paths(store, [SAMPLES / "game42.jsonl"])
        assert seen and all(s.startswith("953.") for s in seen)    # 1GB in MiB
        monkeypatch.setenv(MEMORY_ENV, "lots")
        with pytest.raises(StoreError, match=MEMORY_ENV):
            store.recheck()


def test_recheck_lists_only_changed_games_with_many_unchanged_ones(tmp_path, monkeypatch):
    with open_store(tmp_path / "s.duckdb") as store:
        ingest_paths(store, [SAMPLES])
        assert store.game_count() == len(store.games()) > 10
        assert store.recheck(batch_events=500) == []

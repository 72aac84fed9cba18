"""Faults a user meets with the store and the files `ledger` writes (#16): a full disk in the
middle of ingest, export, seal and dashboard (exit 2, the store consistent, nothing half-written,
no temporary file left), exports run twice (the same files), a file of many games (said once,
refused by the store, split into one log per game), and input the store's columns cannot hold.

A full disk is simulated by making the write fail with ENOSPC (os.fsync for files the CLI
writes; DuckDB's own write for the store and the Parquet lake)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from ledger import exitcodes
from ledger.cli import app
from ledger.store import Reject, open_store
from ledger.store.duckdb import DuckDBStore
from replay import logfile
from tests.test_store_support import SAMPLES, game, text_of, write_game, write_games

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def leftovers(folder: Path) -> list[str]:
    """Temporary files or folders left under `folder`."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if ".tmp" in p.name)


@pytest.fixture
def full_disk(monkeypatch):
    """Every file the CLI writes through write_atomically fails as on a full disk."""
    def no_space(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(logfile.os, "fsync", no_space)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "store.duckdb"
    write_games(tmp_path / "logs", 3)
    assert run("ingest", tmp_path / "logs", "--db", path).exit_code == 0
    return path


# --- exports are idempotent ---------------------------------------------------------------------


def _lake(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): duckdb.sql(f"SELECT count(*) FROM read_parquet('{p}')")
            .fetchall()[0][0] for p in sorted(folder.rglob("*.parquet"))}


def test_exporting_parquet_twice_gives_the_same_lake(db, tmp_path):
    lake = tmp_path / "lake"
    assert run("export", "--all", "--format", "parquet", "--out", lake, "--db", db).exit_code == 0
    first = _lake(lake)
    r = run("export", "--all", "--format", "parquet", "--out", lake, "--db", db)
    assert r.exit_code == 0 and "0 new, 0 changed, 3 unchanged" in r.output
    assert "the lake was up to date" in r.output
    assert _lake(lake) == first
    group = "ruleset=risk-europe/date=2026-03-14/part-000001-0001.parquet"
    assert first[f"events/{group}"] == 3 * 195 and first[f"games/{group}"] == 3
    rows = duckdb.sql(f"SELECT count(*), count(DISTINCT game_id) FROM "
                      f"read_parquet('{lake}/events/**/*.parquet', hive_partitioning = true)"
                      ).fetchall()[0]
    assert rows == (3 * 195, 3)
    # one game exported alone: already in the lake, nothing is written
    assert run("export", "g001", "--format", "parquet", "--out", lake, "--db", db).exit_code == 0
    assert _lake(lake) == first and not leftovers(lake)


def test_a_lake_of_the_former_naming_is_replaced(db, tmp_path):
    """Exports before the manifest wrote events alone, ruleset=R/date=D/<game>.parquet at the top
    of the folder (earlier still, events_<uuid>.parquet): a glob would count them twice."""
    lake = tmp_path / "lake"
    folder = lake / "ruleset=risk-europe" / "date=2026-03-14"
    folder.mkdir(parents=True)
    for name in ("g000", "events_0b8c1d9e"):
        duckdb.sql(f"COPY (SELECT 'g000' AS game_id, 0 AS seq) TO '{folder / name}.parquet' "
                   f"(FORMAT parquet)")
    r = run("export", "--all", "--format", "parquet", "--out", lake, "--db", db)
    assert r.exit_code == 0, r.output
    assert not (lake / "ruleset=risk-europe").exists()
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{lake}/events/**/*.parquet')"
                      ).fetchall() == [(3 * 195,)]


def test_exporting_jsonl_twice_gives_the_same_files(db, tmp_path):
    out = tmp_path / "out"
    for _ in range(2):
        assert run("export", "--all", "--out", out, "--db", db).exit_code == 0
        assert sorted(p.name for p in out.iterdir()) == ["g000.jsonl", "g001.jsonl", "g002.jsonl"]
    assert (out / "g001.jsonl").read_text("utf-8") == text_of(game("g001"))


def test_game_ids_with_odd_characters_get_distinct_stable_file_names():
    from ledger.store.duckdb import export_file_stems
    stems = export_file_stems(["a/b", "a_b", "a:b", "../x", "ok-1"])
    assert stems["a_b"] == "a_b" and stems["ok-1"] == "ok-1"
    assert len(set(stems.values())) == 5
    assert all("/" not in s and not s.startswith(".") for s in stems.values())
    assert export_file_stems(["a/b"]) == {"a/b": stems["a/b"]}     # whatever else is exported


# --- a full disk --------------------------------------------------------------------------------


def test_a_full_disk_during_ingest_stops_it_with_exit_2_and_a_consistent_store(tmp_path,
                                                                              monkeypatch):
    write_games(tmp_path / "logs", 4)
    path = tmp_path / "store.duckdb"
    real = DuckDBStore._write_rows
    commits = []

    def fills_up(self, batch):
        if commits:      # the first transaction is written; the disk is full for the next
            raise duckdb.IOException('Could not write file "store.duckdb": No space left on device')
        commits.append(batch)
        return real(self, batch)
    monkeypatch.setattr(DuckDBStore, "_write_rows", fills_up)
    real_ingest = DuckDBStore.ingest_reads          # one game per transaction
    monkeypatch.setattr(DuckDBStore, "ingest_reads",
                        lambda self, reads, **kw: real_ingest(self, reads, **{**kw, "batch_events": 1}))
    r = run("ingest", tmp_path / "logs", "--db", path)
    assert r.exit_code == exitcodes.UNREADABLE, r.output
    assert "the disk is full" in r.output and str(path) in r.output
    assert "run the same ingest again" in r.output and "Traceback" not in r.output
    monkeypatch.setattr(DuckDBStore, "_write_rows", real)
    with open_store(path, read_only=True) as store:
        assert store.check().ok
        stored = [g.game_id for g in store.games()]
    assert stored == ["g000"]             # committed before the disk filled up; the rest absent
    again = run("ingest", tmp_path / "logs", "--db", path, "--json")
    assert again.exit_code == 0 and json.loads(again.output)["games_stored"] == 4


def test_a_full_disk_during_seal_leaves_the_log_as_it_was(tmp_path, full_disk):
    log = tmp_path / "hand.jsonl"
    envs = [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in game("h", 20)]
    log.write_text(text_of(envs), encoding="utf-8")
    before = log.read_bytes()
    for target in (None, tmp_path / "sealed.jsonl"):
        r = run("seal", log, *(["-o", target] if target else []))
        assert r.exit_code == exitcodes.UNREADABLE, r.output
        assert "the disk is full" in r.output and "Traceback" not in r.output
        assert log.read_bytes() == before
    assert leftovers(tmp_path) == [] and not (tmp_path / "sealed.jsonl").exists()


def test_a_full_disk_during_a_parquet_export_leaves_the_lake_as_it_was(db, tmp_path,
                                                                         monkeypatch):
    lake = tmp_path / "lake"
    run("export", "--all", "--format", "parquet", "--out", lake, "--db", db)
    before = {p: p.read_bytes() for p in lake.rglob("*") if p.is_file()}
    write_games(tmp_path / "more", 2, prefix="h")                 # two new games to write
    assert run("ingest", tmp_path / "more", "--db", db).exit_code == 0
    real, calls = logfile.os.fsync, []

    def fills_up(fd):                       # some files are written ... then no more
        calls.append(fd)
        if len(calls) > 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)
    monkeypatch.setattr(logfile.os, "fsync", fills_up)
    r = run("export", "--all", "--format", "parquet", "--out", lake, "--db", db)
    assert r.exit_code == exitcodes.UNREADABLE, r.output
    assert "the disk is full" in r.output and "the lake is as it was" in r.output
    assert "Traceback" not in r.output
    assert {p: p.read_bytes() for p in lake.rglob("*") if p.is_file()} == before
    assert leftovers(lake) == []


def test_a_full_disk_during_a_jsonl_export_or_a_dashboard_leaves_no_temporary_file(db, tmp_path,
                                                                                   full_disk):
    out = tmp_path / "out"
    r = run("export", "--all", "--out", out, "--db", db)
    assert r.exit_code == exitcodes.UNREADABLE and "the disk is full" in r.output
    assert "0 of 3 games written" in r.output
    r = run("export", "g001", "--out", tmp_path / "one.jsonl", "--db", db)
    assert r.exit_code == exitcodes.UNREADABLE and "the disk is full" in r.output
    r = run("dashboard", "--out", tmp_path / "report.html", "--db", db)
    assert r.exit_code == exitcodes.UNREADABLE and "the disk is full" in r.output
    assert "Traceback" not in r.output
    assert leftovers(tmp_path) == [] and not (tmp_path / "report.html").exists()


def test_an_out_path_that_cannot_be_written_is_named_before_anything_is_done(db, tmp_path):
    (tmp_path / "a-file").write_text("x")
    for args in (["export", "--all", "--format", "parquet", "--out", tmp_path / "a-file"],
                 ["export", "g001", "--out", tmp_path / "nowhere" / "g.jsonl"],
                 ["dashboard", "--out", tmp_path]):
        r = run(*args, "--db", db)
        assert r.exit_code == exitcodes.UNREADABLE, r.output
        assert "cannot write" in r.output and str(args[-1]) in r.output


# --- what the store's columns cannot hold -------------------------------------------------------


def test_a_reject_with_a_500_digit_seq_is_kept(tmp_path):
    huge = int("9" * 500)
    with open_store(tmp_path / "s.duckdb") as store:
        store.record_rejects([Reject("x.jsonl", 6, huge, "g", "LOG-SEQ-ORDER", "a seq that long")])
        kept = store.rejects()
    assert [(r.file, r.line, r.seq, r.message) for r in kept] == [
        ("x.jsonl", 6, None, "a seq that long")]


def test_ingest_of_a_log_with_a_500_digit_seq_lists_it_as_rejected(tmp_path):
    lines = text_of(game("g")).splitlines()
    lines.append('{"v":1,"game":"g","seq":' + "9" * 500 + ',"type":"X"}')
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(lines) + "\n")
    r = run("ingest", log, "--db", tmp_path / "s.duckdb")
    assert r.exit_code == exitcodes.FINDINGS and "Traceback" not in r.output
    assert "lines not stored (1)" in r.output and "(500 digits)" in r.output
    assert "9" * 100 not in r.output


# --- a file of many games -----------------------------------------------------------------------


@pytest.fixture
def many(tmp_path) -> Path:
    path = tmp_path / "dump.jsonl"
    path.write_text("".join(text_of(game(f"t{i}")) for i in range(3)), encoding="utf-8")
    return path


def test_audit_of_a_file_of_many_games_says_how_many_once(many):
    r = run("audit", many)
    assert r.exit_code == exitcodes.FINDINGS
    assert r.output.count("LOG-MANY-GAMES") == 1 and len(r.output.splitlines()) == 1
    assert "this file holds 3 games ('t0' at line 1, 't1' at line 196, 't2' at line 391)" in r.output
    assert f"ledger split {many} --out DIR" in r.output


def test_the_store_refuses_a_file_of_many_games(many, tmp_path):
    r = run("ingest", many, "--db", tmp_path / "s.duckdb")
    assert r.exit_code == exitcodes.FINDINGS
    assert "STORE-MANY-GAMES: this file holds 3 games, not one" in r.output
    assert "no game stored, 1 file rejected" in r.output


def test_split_writes_one_sealed_log_per_game_byte_for_byte(many, tmp_path):
    out = tmp_path / "games"
    r = run("split", many, "--out", out)
    assert r.exit_code == 0, r.output
    assert f"{many} holds 3 games: wrote 3 logs to {out}/" in r.output
    for i in range(3):
        assert (out / f"t{i}.jsonl").read_text("utf-8") == text_of(game(f"t{i}"))
        assert run("verify", out / f"t{i}.jsonl").exit_code == exitcodes.OK
    assert run("split", many, "--out", out).exit_code == 0           # again: the same files
    assert sorted(p.name for p in out.iterdir()) == ["t0.jsonl", "t1.jsonl", "t2.jsonl"]


def test_split_has_help_with_an_example():
    r = run("split", "--help")
    assert r.exit_code == 0 and "Example: ledger split" in r.output


def test_split_of_one_game_writes_it_unchanged_and_keeps_a_cut_off_last_line(tmp_path):
    text = text_of(game("solo", 30))
    log = tmp_path / "solo.jsonl"
    log.write_text(text[:-20], encoding="utf-8")          # the last line cut off mid-write
    assert run("split", log, "--out", tmp_path / "out").exit_code == 0
    assert (tmp_path / "out" / "solo.jsonl").read_text("utf-8") == text[:-20]

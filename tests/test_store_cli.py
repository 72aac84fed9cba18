"""`ledger ingest`, `games`, `export`, `recheck`, `check-db` as a user meets them."""

from __future__ import annotations

import json
import re
import shutil

import duckdb
import pytest
from typer.testing import CliRunner

from ledger.cli import app
from tests.test_store_support import SAMPLES, game, write_game

runner = CliRunner()


def run(*args: str, env: dict | None = None):
    return runner.invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


@pytest.fixture
def logs(tmp_path):
    """A folder of logs: two good games, one with a finding, two refused, one cut off."""
    folder = tmp_path / "logs"
    (folder / "more").mkdir(parents=True)
    write_game(folder / "a.jsonl", game("a"))
    write_game(folder / "more" / "b.jsonl", game("b"))
    shutil.copy(SAMPLES / "broken-castle-no-siege.jsonl", folder / "castle.jsonl")
    shutil.copy(SAMPLES / "broken-edited-line.jsonl", folder / "more" / "edited.jsonl")
    shutil.copy(SAMPLES / "broken-not-a-log.jsonl", folder / "chess.jsonl")
    (folder / "notes.txt").write_text("not a log, not looked at")
    return folder


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "store.duckdb")


def test_ingest_stores_what_it_can_and_lists_every_reject(logs, db):
    r = run("ingest", str(logs), "--db", db)
    assert r.exit_code == 1, r.output
    assert f"read 5 files into {db}" in r.output
    assert "3 games stored (3 new, 0 extended, 0 already there), 2 files rejected" in r.output
    for label, count in (("files read", 5), ("games new", 3), ("games already there", 0),
                         ("games extended", 0), ("games with findings", 1),
                         ("files rejected", 2), ("lines not stored", 0)):
        assert re.search(rf"│ {label} +│ +{count} │", r.output), (label, r.output)
    assert "files rejected (2), kept in the rejects table:" in r.output
    assert f"{logs}/chess.jsonl: STORE-NO-EVENTS" in r.output
    assert f"{logs}/more/edited.jsonl:71 (seq 70): LOG-HASH" in r.output


def test_ingest_twice_is_a_no_op_and_a_longer_log_extends(tmp_path, db):
    short = write_game(tmp_path / "g.jsonl", game("g", 120))
    assert run("ingest", str(short), "--db", db).exit_code == 0
    again = json.loads(run("ingest", str(short), "--db", db, "--json").output)
    assert (again["new"], again["already_present"], again["events_added"]) == (0, 1, 0)
    write_game(short, game("g"))
    longer = json.loads(run("ingest", str(short), "--db", db, "--json").output)
    assert (longer["extended"], longer["events_added"]) == (1, 75)


def test_ingest_refuses_a_contradicting_log_naming_file_and_seq(tmp_path, db):
    """game42 with one die changed and the log re-sealed: a different history of the same game."""
    from replay.logfile import format_line, seal
    envs = [json.loads(line) for line in (SAMPLES / "game42.jsonl").read_text("utf-8").splitlines()]
    envs[158]["payload"]["rolls"]["blue"] = [3, 6]
    for e in envs:
        e.pop("prev"), e.pop("hash")
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(format_line(e) + "\n" for e in seal(envs)), encoding="utf-8")
    assert run("ingest", str(SAMPLES / "game42.jsonl"), "--db", db).exit_code == 0
    r = run("ingest", str(forged), "--db", db)
    assert r.exit_code == 1
    assert "forged.jsonl:159 (seq 158): STORE-CONTRADICTS" in r.output
    assert "contradicts the stored game from seq 158" in r.output


def test_ingest_reads_the_db_from_the_environment(tmp_path, db):
    r = run("ingest", str(SAMPLES / "game42.jsonl"), env={"LEDGER_DB": db})
    assert r.exit_code == 0 and db in r.output
    assert "game42" in run("games", "--db", db).output


def test_ingest_json_lists_outcomes_and_rejects(logs, db):
    report = json.loads(run("ingest", str(logs), "--db", db, "--json").output)
    assert (report["files"], report["new"], report["rejected"], report["with_findings"]) == \
        (5, 3, 2, 1)
    assert {r["rule"] for r in report["rejects"]} == {"STORE-NO-EVENTS", "STORE-CHAIN",
                                                      "LOG-HASH"}
    assert set(report["timings"]) == {"read", "judge", "write"}


def test_games_lists_date_players_winner_rounds_findings(logs, db):
    run("ingest", str(logs), "--db", db)
    listed = json.loads(run("games", "--db", db, "--json").output)
    assert [(g["game"], g["date"], g["winners"], g["rounds"], g["events"], g["findings"])
            for g in listed] == [("a", "2026-03-14", ["blue"], 7, 195, 0),
                                 ("b", "2026-03-14", ["blue"], 7, 195, 0),
                                 ("game42-castle-no-siege", "2026-03-14", ["blue"], 7, 198, 1)]
    text = run("games", "--db", db).output
    assert "blue, orange, red, green" in text and "game42" in text


def test_games_on_a_missing_store_says_so(db):
    r = run("games", "--db", db)
    assert r.exit_code == 2 and "no store at" in r.output


def test_export_jsonl_round_trips_byte_for_byte(tmp_path, db):
    run("ingest", str(SAMPLES / "game42.jsonl"), "--db", db)
    out = tmp_path / "out.jsonl"
    assert run("export", "game42", "--format", "jsonl", "--out", str(out), "--db", db).exit_code == 0
    assert out.read_bytes() == (SAMPLES / "game42.jsonl").read_bytes()
    r = run("export", "--all", "--out", str(tmp_path / "all"), "--db", db)
    assert r.exit_code == 0
    assert (tmp_path / "all" / "game42.jsonl").read_bytes() == out.read_bytes()


def test_export_parquet_writes_hive_partitions(logs, tmp_path, db):
    run("ingest", str(logs), "--db", db)
    out = tmp_path / "pq"
    assert run("export", "--all", "--format", "parquet", "--out", str(out), "--db", db).exit_code == 0
    assert (out / "events" / "ruleset=risk-europe" / "date=2026-03-14").is_dir()
    n = duckdb.connect().execute(
        f"SELECT count(*) FROM read_parquet('{out}/events/**/*.parquet')").fetchall()
    assert n == [(195 + 195 + 198,)]


def test_export_needs_one_game_or_all_and_a_stored_game(tmp_path, db):
    run("ingest", str(SAMPLES / "game42.jsonl"), "--db", db)
    assert run("export", "--out", str(tmp_path / "x"), "--db", db).exit_code == 2
    r = run("export", "nope", "--out", str(tmp_path / "x.jsonl"), "--db", db)
    assert r.exit_code == 2 and "no game 'nope'" in r.output


def test_recheck_and_check_db(logs, db):
    run("ingest", str(logs), "--db", db)
    r = run("recheck", "--db", db)
    assert r.exit_code == 0 and "rechecked 3 games: none changed" in r.output
    r = run("check-db", "--db", db)
    assert r.exit_code == 0 and "ok — 3 games, 588 events" in r.output
    con = duckdb.connect(db)
    con.execute("DELETE FROM events WHERE game_id = 'a' AND seq = 3").fetchall()
    con.close()
    r = run("check-db", "--db", db, "--json")
    report = json.loads(r.output)
    assert r.exit_code == 1 and not report["ok"]
    assert any("game 'a'" in p for p in report["problems"])

"""`ledger dashboard` and `ledger stats` as a user meets them: a store of the sample games, one
HTML page of charts, the same numbers as JSON, and a tournament's games alone."""

from __future__ import annotations

import json
import re

import duckdb
import pytest
from typer.testing import CliRunner

from analytics.queries import QUERIES
from ledger.cli import app
from tests.test_store_support import GAME42, SAMPLES

runner = CliRunner()
CHART_IDS = ["game-lengths", "win-rate-city", "win-rate-seat", "win-rate-bid", "orders",
             "round-openers", "cards-by-round", "cards-by-seat", "cards-winners",
             "orders-winners", "bonus-use", "odds-calibration", "luck-histogram",
             "luck-by-player", "dice-faces", "dice-p-values"]


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A store of game42, tiebreak and the simulated sample games; game42 in tournament "spring"."""
    path = tmp_path_factory.mktemp("analytics") / "store.duckdb"
    logs = [GAME42, SAMPLES / "tiebreak.jsonl", *sorted(SAMPLES.glob("sim-*.jsonl"))]
    r = run("ingest", *map(str, logs), "--db", str(path))
    assert r.exit_code == 0, r.output
    put_in_tournament(path, "game42", "t1", "spring")
    return str(path)


def put_in_tournament(path, game_id: str, tournament_id: str, name: str) -> None:
    """Set a stored game's tournament. The store has no command for it yet, and DuckDB refuses
    to update a games row that other tables refer to, so they are moved aside meanwhile."""
    referring = ("players", "findings", "snapshots")
    con = duckdb.connect(str(path))
    con.execute("BEGIN TRANSACTION")
    con.execute("INSERT INTO tournaments VALUES (?, ?, NULL)", [tournament_id, name])
    for table in referring:
        con.execute(f"CREATE TEMP TABLE aside_{table} AS SELECT * FROM {table} "
                    f"WHERE game_id = ?", [game_id])
        con.execute(f"DELETE FROM {table} WHERE game_id = ?", [game_id])
    con.execute("COMMIT")
    con.execute("UPDATE games SET tournament_id = ? WHERE game_id = ?", [tournament_id, game_id])
    for table in referring:
        con.execute(f"INSERT INTO {table} SELECT * FROM aside_{table}")
    con.close()


def test_dashboard_writes_one_self_contained_page(db, tmp_path):
    out = tmp_path / "report.html"
    r = run("dashboard", "--db", db, "--out", str(out))
    assert r.exit_code == 0, r.output
    assert f"wrote {out}" in r.output and "16 charts over every stored game" in r.output
    page = out.read_text(encoding="utf-8")
    assert re.findall(r'<div id="([a-z-]+)" class="plotly-graph-div', page) == CHART_IDS
    assert page.count("window.Plotly = Plotly") == 1        # plotly.js embedded, once
    assert "<script src=" not in page                       # nothing fetched from the network
    # every chart says in plain words how many games, cards, battles or dice it counts
    assert "How many rounds a game lasts (10 finished games)" in page
    assert "Which orders players choose (" in page and " cards played)" in page
    assert re.search(r"Every die rolled, by face \([\d,]+ dice\)", page)
    assert "The luckiest players in one game" in page and "Flagged dice" in page


def test_dashboard_of_one_tournament(db, tmp_path):
    out = tmp_path / "spring.html"
    r = run("dashboard", "--db", db, "--tournament", "spring", "--out", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "Risk Europe games: tournament spring" in page
    assert "How many rounds a game lasts (1 finished game)" in page


def test_stats_json_gives_every_query(db):
    r = run("stats", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert list(data["queries"]) == list(QUERIES)
    assert data["queries"]["corpus_summary"][0]["games"] == 10
    assert data["fairness_threshold"] == {"flag_p": 0.001, "alpha": 0.05, "min_dice": 30}


def test_stats_of_one_query_and_one_tournament(db):
    r = run("stats", "--db", db, "--json", "-q", "win_rate_by_seat", "-T", "t1")
    data = json.loads(r.output)
    assert data["scope"] == "tournament spring"
    assert data["queries"] == {"win_rate_by_seat": [
        {"seat": s, "games": 1, "wins": 1.0 if s == 0 else 0.0, "win_rate": 1.0 if s == 0 else 0.0}
        for s in range(4)]}


def test_stats_as_text(db):
    r = run("stats", "--db", db)
    assert r.exit_code == 0, r.output
    assert "win rate by starting city" in r.output and "flagged dice" in r.output


def test_unknown_tournament_and_query_are_usage_errors(db, tmp_path):
    r = run("stats", "--db", db, "--tournament", "autumn")
    assert r.exit_code == 2
    assert "no tournament 'autumn' in the store (tournaments: 't1')" in r.output
    r = run("stats", "--db", db, "--query", "nope")
    assert r.exit_code == 2 and "unknown query 'nope'" in r.output
    r = run("dashboard", "--db", str(tmp_path / "missing.duckdb"), "--out", str(tmp_path / "x"))
    assert r.exit_code == 2 and "no store at" in r.output


def test_dashboard_of_an_empty_store_says_what_is_missing(tmp_path):
    db = tmp_path / "empty.duckdb"
    assert run("ingest", str(SAMPLES / "broken-empty.jsonl"), "--db", str(db)).exit_code == 1
    out = tmp_path / "empty.html"
    r = run("dashboard", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "0 charts" in r.output and "left out for lack of data" in r.output
    page = out.read_text(encoding="utf-8")
    assert "No game in the store has finished yet." in page
    assert "plotly-graph-div" not in page


def test_ingest_files_games_under_a_tournament_that_the_dashboard_shows_alone(tmp_path):
    path = str(tmp_path / "t.duckdb")
    assert run("ingest", str(SAMPLES / "game42.jsonl"), "--db", path, "--tournament", "autumn").exit_code == 0
    assert run("ingest", str(SAMPLES / "tiebreak.jsonl"), "--db", path).exit_code == 0
    stats = json.loads(run("stats", "--db", path, "--tournament", "autumn", "--json").output)
    assert stats["queries"]["corpus_summary"][0]["games"] == 1
    everything = json.loads(run("stats", "--db", path, "--json").output)
    assert everything["queries"]["corpus_summary"][0]["games"] == 2
    out = tmp_path / "autumn.html"
    r = run("dashboard", "--db", path, "--tournament", "autumn", "--out", str(out))
    assert r.exit_code == 0 and "tournament autumn" in out.read_text("utf-8")

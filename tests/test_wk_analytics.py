"""Warrior Knights analytics (issue #14): the rows of a game (engine/warrior_knights/fold.py)
checked against what the sample logs say, the named queries over a store of the samples,
`ledger stats`, the dashboard's Warrior Knights sections, and the page of one game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analytics.extract import extract_rows
from analytics.game_page import page_game, render_game_page
from analytics.load import load_tables
from engine.warrior_knights import queries as q
from engine.warrior_knights.fold import WK_COLUMNS
from engine.warrior_knights.page import page
from ledger.cli import app
from ledger.store import open_store
from replay.judge import judge
from replay.logfile import read_log

WK = Path(__file__).resolve().parent.parent / "sample_logs" / "warrior_knights"
GAMES = ["game-2p", "game-2p-short", "game-4p", "game-6p"]
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "220"})


def events(name: str) -> list[dict]:
    return [json.loads(line) for line in (WK / f"{name}.jsonl").read_text("utf-8").splitlines()]


def table(rows, name: str) -> list[dict]:
    return [dict(zip(WK_COLUMNS[name], r)) for r in rows.tables[name]]


@pytest.fixture(scope="module")
def rows():
    return {name: extract_rows(read_log(WK / f"{name}.jsonl")) for name in GAMES}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = tmp_path_factory.mktemp("wk") / "wk.duckdb"
    r = run("ingest", str(WK), "--db", str(db))
    assert r.exit_code == 1, r.output                 # the edited copy is refused, the rest stored
    assert "broken-edited-line.jsonl" in r.output
    return db


# --- the rows of each game, against its log -------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_each_game_has_one_outcome_per_baron_and_the_logged_winner(rows, name):
    log = events(name)
    seats = [p["id"] for p in log[0]["payload"]["players"]]
    ended = [e for e in log if e["type"] == "GameEnded"][-1]["payload"]
    outcomes = table(rows[name], "wk_outcomes")
    assert [o["player"] for o in outcomes] == seats and [o["seat"] for o in outcomes] == list(range(1, len(seats) + 1))
    assert [o["player"] for o in outcomes if o["won"]] == [ended["winner"]]
    assert sum(o["win_share"] for o in outcomes) == 1
    [g] = table(rows[name], "wk_games")
    assert (g["winner"], g["players"], g["finished"], g["example_data"]) == (ended["winner"], len(seats), True, True)


@pytest.mark.parametrize("name", GAMES)
def test_battles_agendas_and_expeditions_are_counted_as_the_log_has_them(rows, name):
    log = events(name)
    battles = table(rows[name], "wk_battles")
    attacks = [e for e in log if e["type"] == "ForcesMobilized" and e["payload"].get("attack")]
    assert 0 < len(battles) <= len(attacks)                   # a refused attack starts no battle
    taken = sum(1 for e in log if e["type"] == "CityTaken")
    assert sum(1 for b in battles if b["city_taken"] and b["city"] != "stronghold") == taken
    agendas = table(rows[name], "wk_agendas")
    # each Agenda decided once: as many rows as there are distinct (agenda, Assembly) votes
    revealed = {(e["payload"]["agenda"], e["seq"]) for e in log if e["type"] == "VotesRevealed"}
    assert 0 < len(agendas) <= len(revealed)
    votes = table(rows[name], "wk_votes")
    assert sum(v["votes"] for v in votes) == sum(e["payload"]["votes"] for e in log if e["type"] == "VotesRevealed")
    assert {v["player"] for v in votes} <= {p["id"] for p in log[0]["payload"]["players"]}
    funded = [e for e in log if e["type"] == "ExpeditionFunded" and e["payload"].get("expedition")]
    voyages = {(r["seq"], r["expedition"]) for r in table(rows[name], "wk_expeditions")}
    assert voyages <= {(e["seq"], e["payload"]["expedition"]) for e in funded}
    staked = sum(sum(e["payload"].get("stakes", {}).values()) for e in funded)
    assert sum(r["stake"] for r in table(rows[name], "wk_expeditions")) == staked


def test_the_outcomes_add_up_to_the_other_tables(rows):
    for name in GAMES:
        outcomes = table(rows[name], "wk_outcomes")
        votes = table(rows[name], "wk_votes")
        assert sum(o["votes_cast"] for o in outcomes) == sum(v["votes"] for v in votes)
        assert sum(o["agendas_carried"] for o in outcomes) == sum(1 for v in votes if v["carried"] and v["votes"])
        trips = table(rows[name], "wk_expeditions")
        assert sum(o["expedition_stake"] for o in outcomes) == sum(t["stake"] for t in trips)
        assert sum(o["expedition_crowns"] for o in outcomes) == sum(t["crowns_back"] for t in trips)
        battles = [b for b in table(rows[name], "wk_battles") if b["ended"]]
        assert sum(o["battles_won"] for o in outcomes) == sum(1 for b in battles if b["winner"] in
                                                              {o["player"] for o in outcomes})
        for o in outcomes:
            assert o["cities_most"] >= o["cities_end"] >= 0


def test_cities_held_at_the_end_are_those_of_the_final_board(rows):
    j = judge(read_log(WK / "game-4p.jsonl"), views=True)
    final = j.steps[-1].view
    held = {p: sum(1 for c in final["cities"].values() if c["owner"] == p and not c["razed"])
            for p in final["barons"]}
    assert {o["player"]: o["cities_end"] for o in table(rows["game-4p"], "wk_outcomes")} == held


# --- queries, stats, dashboard -------------------------------------------------------------------


def test_the_queries_over_the_stored_samples(store):
    s = open_store(store)
    try:
        t = load_tables(s)
        summary = q.wk_summary(t).to_dicts()[0]
        assert summary["games"] == 5 and summary["finished_games"] == 5      # the broken copies left out
        assert summary["example_data_games"] == 5
        seat = q.wk_win_rate_by_seat(t)
        assert seat["games"].to_list() == [5, 5, 3, 3, 1, 1]   # 2 + 2 + 4 + 4 (Crown & Glory) + 6 seats
        assert seat["wins"].sum() == 5
        for name in ("wk_win_rate_by_cities", "wk_win_rate_by_assembly", "wk_win_rate_by_expeditions",
                     "wk_win_rate_by_colour"):
            d = q.QUERIES[name](t)
            assert d["games"].sum() == 18 and d["wins"].sum() == 5, name
            assert (d["win_rate_low"] <= d["win_rate"]).all() and (d["win_rate"] <= d["win_rate_high"]).all()
        profile = {r["won"]: r for r in q.wk_winner_profile(t).to_dicts()}
        assert profile[True]["games"] == 5 and profile[False]["games"] == 13
        returns = q.wk_expedition_returns(t)
        assert (returns["net_crowns"] == returns["crowns_back"] - returns["crowns_staked"]).all()
        assert returns["voyages"].sum() == returns["returned"].sum() + returns["lost"].sum() + returns["under_way"].sum()
        assert q.wk_assembly_outcomes(t)["agendas"].sum() == summary["agendas"]
        games = q.wk_games(t)
        assert games["game_id"].to_list() == ["wk-2p", "wk-2p-short", "wk-4p", "wk-6p", "wk-cg-4p"]
    finally:
        s.close()


def test_ledger_stats_shows_the_warrior_knights_queries(store):
    r = run("stats", "--db", str(store), "-q", "wk_win_rate_by_cities", "-q", "wk_expedition_returns")
    assert r.exit_code == 0, r.output
    assert "wk win rate by cities" in r.output and "spice_isles" in r.output
    r = run("stats", "--db", str(store), "--json", "-q", "wk_summary")
    assert r.exit_code == 0, r.output
    assert '"wk_summary"' in r.output and '"battles"' in r.output


def test_the_dashboard_has_the_warrior_knights_sections(store, tmp_path):
    out = tmp_path / "dash.html"
    r = run("dashboard", "--db", str(store), "--out", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text("utf-8")
    for needle in ("Warrior Knights: who wins", "Warrior Knights: battles, the Assembly, expeditions",
                   "wk-win-rate-seat", "wk-win-rate-cities", "wk-win-rate-assembly",
                   "wk-win-rate-expeditions", "wk-battles", "wk-assembly", "wk-expeditions",
                   "invented example board", "5 Warrior Knights games (5 finished)"):
        assert needle in text, needle


# --- the page of one game -------------------------------------------------------------------------


def test_the_page_of_a_game_has_a_board_per_card_and_the_races_by_round(tmp_path):
    j = judge(read_log(WK / "game-4p.jsonl"), views=True)
    spec = page(page_game(j), None)
    reveals = sum(1 for e in events("game-4p") if e["type"] == "CardRevealed")
    assert len(spec.frames) == reveals + 1 and spec.frames[0].label.startswith("The setup")
    assert spec.rounds == 10
    assert [c.id for c in spec.charts] == ["wk-influence", "wk-cities", "wk-crowns", "wk-votes"]
    influence = {t.name: t.y[-1] for t in spec.charts[0].traces}
    final = j.steps[-1].view["barons"]
    assert influence == {p: b["influence"] for p, b in final.items()}
    assert "invented example board" in spec.lead
    last = "\n".join(spec.frames[-1].lines)
    assert "yellow: 15 Influence" in last and "Neutral cities:" in last
    assert "Juniper Fen" in "\n".join(f.label + "\n" + "\n".join(f.lines) for f in spec.frames)  # printed names
    out = tmp_path / "wk-4p.html"
    render_game_page(j, out)
    html = out.read_text("utf-8")
    assert "Game wk-4p: yellow wins" in html and "Influence at the end of each round" in html


def test_a_game_that_never_left_its_setup_has_no_page():
    log = (WK / "game-2p.jsonl").read_text("utf-8").splitlines()
    cut = next(i for i, line in enumerate(log) if '"StacksPlanned"' in line)
    from replay.logfile import read_log_text
    j = judge(read_log_text("\n".join(log[:cut]) + "\n", "short.jsonl"), views=True)
    with pytest.raises(ValueError, match="never got past its setup"):
        page(page_game(j), None)

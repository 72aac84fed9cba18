"""Risk Legacy analytics: the rows of a game (analytics/extract_legacy.py), the exact odds of an
attack roll, the named queries over a store of the five games of campaign earth, the dashboard's
Risk Legacy sections, `ledger stats --json`, and the page of one game.

The rows are checked against what the logs say (game 1 read by hand below; every game against
the campaign file's record of it), the queries against what those games add up to."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from analytics.queries import QUERIES
from analytics.extract import COLUMNS, extract_rows, judge_with_rows
from analytics.game_page import page_game, render_game_page
from analytics.load import Tables, load_tables
from engine.core.dice_odds import roll_odds
from engine.risk_legacy import queries as q
from engine.risk_legacy.combat import casualties
from engine.risk_legacy.page import turn_frames
from ledger.cli import app
from replay.logfile import read_log
from ledger.store import open_store
from replay.judge import judge

LEGACY = Path(__file__).resolve().parent.parent / "sample_logs" / "legacy"
GAMES = [LEGACY / f"game-0{n}.jsonl" for n in range(1, 6)]
CAMPAIGN = json.loads((LEGACY / "earth.campaign.json").read_text("utf-8"))
LEGACY_TABLES = ("legacy_outcomes", "legacy_battles", "legacy_games")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def log_events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def rows():
    return {path.stem: extract_rows(read_log(path)) for path in GAMES}


# --- one game, read by hand -----------------------------------------------------------------


def test_game_1_bob_wins_with_khan_industries_in_62_attack_rolls(rows):
    g1 = rows["game-01"]
    events = log_events(GAMES[0])
    outcomes = {r["player"]: r for r in g1.frame("legacy_outcomes").to_dicts()}
    bob, ann = outcomes["bob"], outcomes["ann"]
    # the log: bob takes Khan Industries in the Western United States and wins in round 8 with 4
    # Red Stars (his token and three HQs: his own, cat's in Southern Europe, ann's in Mongolia)
    assert [p for p, r in outcomes.items() if r["won"]] == ["bob"]
    assert (bob["faction"], bob["hq_territory"], bob["power"]) == \
        ("khan_industries", "western_united_states", "khan-card-troop")
    assert (bob["red_stars"], bob["red_star_tokens"], bob["hqs"], bob["rounds"]) == (4, 1, 3, 8)
    assert bob["troops_recruited"] == sum(sum(e["payload"]["placements"].values()) for e in events
                                          if e["type"] == "Recruited" and e["actor"] == "bob") == 31
    assert (bob["reward"], bob["reward_detail"]) == ("found_major_city", "Egypt City in Egypt")
    # ann won the roll-off (5-5, then 4-2) and chose first; she bought a Red Star in round 8
    assert (ann["turn_order"], ann["red_stars_bought"], ann["outcome"]) == (0, 1, "held_on")
    assert (ann["reward"], ann["reward_detail"]) == ("found_minor_city", "Afghanistan Town in Afghanistan")
    assert outcomes["cat"]["reward_detail"] == "A14 (Northern Europe)"
    # nobody lost their last troop in this game
    assert not any(r["knocked_out"] or r["eliminated"] for r in outcomes.values())

    battles = g1.frame("legacy_battles")
    declared = [e["seq"] for e in events if e["type"] == "AttackDeclared"]
    assert battles["seq"].to_list() == declared and len(declared) == 62
    # every roll follows its attack, but the two where a scar was placed first (seq 72 and 184)
    assert {s: r for s, r in zip(battles["seq"], battles["roll_seq"]) if r != s + 1} == {71: 73, 183: 185}
    first = battles.row(0, named=True)
    # seq 28-31: dan attacks East Africa with 3 from Madagascar: [4, 4, 6] against cat's [3, 5]:
    # 6 beats 5 and 4 beats 3, cat loses both and dan moves in
    assert (first["attacker"], first["defender"], first["territory"]) == ("dan", "cat", "east_africa")
    assert (first["attacker_faces"], first["defender_faces"]) == ("[4, 4, 6]", "[3, 5]")
    assert (first["attacker_lost"], first["defender_lost"], first["conquered"]) == (0, 2, True)
    assert first["expected_defender_lost"] == pytest.approx(8391 / 7776)
    assert first["attacker_luck"] == pytest.approx(7161 / 7776 - 0)
    # a conquest is a move-in: 27 of them, 11 in Southern Europe, where cat's HQ changes hands
    taken, target = [], None
    for e in events:
        if e["type"] == "AttackDeclared":
            target = e["payload"]["to"]
        elif e["type"] == "MovedIn":
            taken.append(target)
    conquered = battles.filter(pl.col("conquered"))["territory"].to_list()
    assert conquered == taken and len(taken) == 27 and taken.count("southern_europe") == 11
    # dan's bunker in Southern Europe (seq 72) and bob's ammo shortage in Mongolia (seq 184) change
    # every roll there from the one they were played on; no Missile is fired (nobody has signed)
    modified = battles.filter(pl.col("modified"))
    assert set(modified.select("territory", "modifiers").rows()) == \
        {("southern_europe", "bunker +1 higher"), ("mongolia", "ammo shortage -1 higher")}
    for territory, since in (("southern_europe", 71), ("mongolia", 183)):
        there = battles.filter(pl.col("territory") == territory)
        assert there["modified"].to_list() == [s >= since for s in there["seq"]]
    assert modified.height == 34 and battles["missiles"].sum() == 0

    world = g1.frame("legacy_games").row(0, named=True)
    assert (world["campaign"], world["game_no"], world["winner"], world["reward"]) == \
        ("earth", 1, "bob", "found_major_city")
    assert (world["minor_cities"], world["cities_founded"], world["destroyed_cards"],
            world["signatures"], world["packs_opened"], world["scars_placed"]) == (2, 3, 0, 1, 0, 2)


def test_game_1_dice_are_the_roll_offs_and_both_sides_of_each_attack(rows):
    dice = rows["game-01"].frame("dice")
    rolloff = dice.filter(pl.col("why") == "roll-off")
    assert rolloff.select("seq", "player", "faces").rows() == [
        (3, "ann", "[5]"), (3, "bob", "[5]"), (3, "cat", "[1]"), (3, "dan", "[2]"),
        (4, "ann", "[4]"), (4, "bob", "[2]")]
    attack = dice.filter(pl.col("why") == "attack")
    assert attack.height == 2 * 62
    assert set(attack["battle_seq"]) == set(rows["game-01"].frame("legacy_battles")["seq"])


def test_every_game_agrees_with_the_campaign_file(rows):
    for record in CAMPAIGN["games"]:
        g = rows[Path(record["log"]).stem]
        outcomes = {r["player"]: r for r in g.frame("legacy_outcomes").to_dicts()}
        for person, seen in record["players"].items():
            r = outcomes[person]
            assert (r["faction"], r["hq_territory"], r["outcome"]) == \
                (seen["faction"], seen["start"], seen["outcome"]), (record["game"], person)
        game = g.frame("legacy_games").row(0, named=True)
        assert (game["game_no"], game["winner"], game["reason"], game["rounds"]) == \
            (record["game"], record["winner"], record["reason"], record["rounds"])
        assert (game["world_before"], game["world_after"]) == \
            (record["world_before"], record["world_after"])


def test_every_roll_of_every_game_is_in_its_rows(rows):
    for path in GAMES:
        events = log_events(path)
        g = rows[path.stem]
        battles = g.frame("legacy_battles")
        # in these games every attack declared is rolled (after a scar placed, at times)
        declared = [e["seq"] for e in events if e["type"] == "AttackDeclared"]
        rolled = [e["seq"] for e in events if e["type"] == "DiceRolled" and e["seq"] > declared[0]]
        assert battles["seq"].to_list() == declared and battles["roll_seq"].to_list() == rolled
        fired = sum(1 for e in events if e["type"] == "MissileFired")
        used = g.frame("legacy_outcomes")["missiles_used"].sum()
        assert battles["missiles"].sum() == fired == used
        # the dice table holds both sides of each roll, face for face
        by_seq = {e["seq"]: e["payload"]["rolls"] for e in events if e["type"] == "DiceRolled"}
        for r in g.frame("dice").iter_rows(named=True):
            assert json.loads(r["faces"]) == by_seq[r["seq"]][r["player"]]


def test_luck_and_losses_add_up(rows):
    for g in rows.values():
        b = g.frame("legacy_battles")
        fair = b.filter(pl.col("attacker_luck").is_not_null())
        assert fair.height == b.filter(~pl.col("modified")).height
        assert (fair["attacker_luck"] + fair["defender_luck"]).abs().max() < 1e-12
        # an unmodified roll removes as many troops as the smaller side has dice, and its luck is
        # the expectation minus what its dice did
        assert fair.select((pl.col("attacker_lost") + pl.col("defender_lost")
                            >= pl.min_horizontal("attacker_dice", "defender_dice")).all()).item()
        for r in fair.iter_rows(named=True):
            att = sorted(json.loads(r["attacker_faces"]), reverse=True)
            dfn = sorted(json.loads(r["defender_faces"]), reverse=True)
            lost, _ = casualties(att, dfn)
            assert r["attacker_luck"] == pytest.approx(r["expected_attacker_lost"] - lost)
        changed = b.filter(pl.col("modified"))
        assert changed["attacker_luck"].null_count() == changed.height


def test_scars_and_the_worn_fortifications_are_modifiers(rows):
    g1 = rows["game-01"].frame("legacy_battles")
    assert set(g1.filter(pl.col("territory") == "southern_europe")
               .filter(pl.col("modifiers").is_not_null())["modifiers"]) == {"bunker +1 higher"}
    g4 = rows["game-04"]
    afghanistan = g4.frame("legacy_battles").filter(pl.col("territory") == "afghanistan")
    assert afghanistan["modifiers"].to_list() == ["fortification +1 each"] * 2
    assert afghanistan["attacker_dice"].to_list() == [3, 3]       # each wears a box (README)
    assert g4.frame("legacy_games")["fortification_boxes"].to_list() == [2]
    # game 5: the fortification in East Africa wears out; the roll that marks its 10th box still
    # has the bonus, the rolls after it none (RL-RULING-FORT-WEAR)
    g5 = rows["game-05"]
    east_africa = g5.frame("legacy_battles").filter(pl.col("territory") == "east_africa")
    threes = east_africa.filter(pl.col("attacker_dice") == 3)["seq"].to_list()
    tenth = threes[9]
    assert east_africa["modifiers"].to_list() == [
        "fortification +1 each" if s <= tenth else None for s in east_africa["seq"]]
    assert len([s for s in east_africa["seq"] if s <= tenth]) == 10
    assert g5.frame("legacy_games")["fortification_boxes"].to_list() == [12]     # 2 + 10


def test_judging_and_extracting_fold_the_same_rows():
    read = read_log(GAMES[1])
    _, from_judge = judge_with_rows(read)
    assert from_judge.tables == extract_rows(read).tables


# --- exact odds of one roll -----------------------------------------------------------------


def test_roll_odds_are_the_engine_s_dice_enumerated():
    for a, d in itertools.product((1, 2, 3), (1, 2)):
        counts: dict[tuple[int, int], int] = {}
        for faces in itertools.product(range(1, 7), repeat=a + d):
            lost = casualties(sorted(faces[:a], reverse=True), sorted(faces[a:], reverse=True))
            counts[lost] = counts.get(lost, 0) + 1
        want = {k: Fraction(n, 6 ** (a + d)) for k, n in counts.items()}
        assert {(x, y): p for x, y, p in roll_odds(a, d).losses} == want
    three_two = {(x, y): p for x, y, p in roll_odds(3, 2).losses}
    # (attacker loses, defender loses): the classic 37.2% / 33.6% / 29.3%
    assert three_two == {(0, 2): Fraction(1445, 3888), (1, 1): Fraction(2611, 7776),
                         (2, 0): Fraction(2275, 7776)}
    with pytest.raises(ValueError, match="1-3 attacker dice against 1-2 defender dice"):
        roll_odds(4, 2)


# --- named queries on small frames ----------------------------------------------------------------


def test_win_rates_compare_with_the_even_rate_of_their_own_games():
    # g1: three players, red wins; g2: four players, blue wins; g3 unfinished
    t = Tables.from_frames(legacy_outcomes=[
        {"game_id": "g1", "player": p, "faction": f, "finished": True, "won": p == "r",
         "win_share": float(p == "r")} for p, f in (("r", "khan"), ("b", "bear"), ("y", "balk"))
    ] + [
        {"game_id": "g2", "player": p, "faction": f, "finished": True, "won": p == "b",
         "win_share": float(p == "b")}
        for p, f in (("r", "khan"), ("b", "khan"), ("y", "bear"), ("g", "mech"))
    ] + [{"game_id": "g3", "player": "r", "faction": "khan", "finished": False, "won": False,
          "win_share": 0.0}])
    d = {r["faction"]: r for r in q.legacy_win_rate_by_faction(t).to_dicts()}
    assert (d["khan"]["games"], d["khan"]["wins"]) == (3, 2.0)
    assert d["khan"]["even"] == pytest.approx((1 / 3 + 1 / 4 + 1 / 4) / 3)
    assert d["mech"]["win_rate"] == 0 and d["mech"]["win_rate_low"] == 0
    # 95% Wilson interval of 2 wins in 3: 0.2077 ... 0.9385
    assert (d["khan"]["win_rate_low"], d["khan"]["win_rate_high"]) == \
        pytest.approx((0.2077, 0.9385), abs=1e-4)


def test_the_world_evolution_shows_one_game_per_number_and_whether_worlds_chain():
    def game(gid, n, before, after, findings=0, campaign="c"):
        return {"game_id": gid, "campaign": campaign, "game_no": n, "winner": "ann",
                "world_before": before, "world_after": after, "cities": n, "finished": True}
    t = Tables.from_frames(
        legacy_games=[game("c1", 1, "w0", "w1"), game("c1-copy", 1, "w0", "w1x"),
                      game("c2", 2, "w1", "w2"), game("c3", 3, "other", "w3"),
                      game("solo", 1, "z", "z1", campaign=None)],
        games=[{"game_id": "c1", "findings": 0}, {"game_id": "c1-copy", "findings": 2},
               {"game_id": "c2", "findings": 0}, {"game_id": "c3", "findings": 0}],
        players=[{"game_id": "c2", "player": "ann", "name": "Ann"}])
    d = q.legacy_world_evolution(t)
    assert d.select("game_no", "game_id", "winner", "continues_previous", "games_stored").rows() \
        == [(1, "c1", "ann", None, 2), (2, "c2", "Ann", True, 1), (3, "c3", "ann", False, 1)]


# --- a store of the campaign --------------------------------------------------------------------


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("legacy") / "earth.duckdb"
    with open_store(path) as store:
        for log in GAMES:
            assert store.ingest_read(read_log(log)).status == "new"
    return path


@pytest.fixture(scope="module")
def tables(db):
    with open_store(db, read_only=True) as store:
        return load_tables(store).collect()


def test_the_store_holds_the_extracted_rows(db, rows):
    with open_store(db, read_only=True) as store:
        for path in GAMES:
            game_id = log_events(path)[0]["game"]
            for table in LEGACY_TABLES:
                columns = ", ".join(f'"{c}"' for c in COLUMNS[table])
                stored = store.query(f"SELECT {columns} FROM {table} WHERE game_id = ?",
                                     [game_id])
                key = "seq" if table == "legacy_battles" else "game_id" \
                    if table == "legacy_games" else "player"
                assert_frame_equal(stored.sort(key), rows[path.stem].frame(table).sort(key),
                                   check_dtypes=False)


def test_win_rates_by_faction_power_and_turn_order(tables):
    faction = {r["faction"]: (r["wins"], r["games"])
               for r in q.legacy_win_rate_by_faction(tables).to_dicts()}
    # winners: bob, ann, cat, cat with Khan Industries (in all five games), cat with the Saharan
    # Republic (in game 5 only); Die Mechaniker sat out game 5
    assert faction == {"khan_industries": (4, 5), "saharan_republic": (1, 1),
                       "die_mechaniker": (0, 4), "enclave_of_the_bear": (0, 5),
                       "imperial_balkania": (0, 5)}
    power = q.legacy_win_rate_by_power(tables)
    assert power.filter(pl.col("wins") > 0).select("power", "wins").rows() == \
        [("khan-card-troop", 4.0), ("sahara-maneuver-anywhere", 1.0)]
    assert set(q.legacy_win_rate_by_seat(tables)["even"]) == {0.25}
    assert q.legacy_win_rate_by_turn_order(tables)["games"].to_list() == [5, 5, 5, 5]
    assert q.legacy_win_rate_by_player(tables).select("player", "wins").rows() == \
        [("ann", 1.0), ("bob", 1.0), ("cat", 3.0), ("dan", 0.0)]


def test_red_stars_knock_outs_and_summary(tables):
    by_outcome = {r["outcome"]: r for r in q.legacy_red_stars_by_outcome(tables).to_dicts()}
    assert by_outcome["won"]["games"] == 5 and by_outcome["won"]["red_stars"] == 4
    assert by_outcome["held_on"]["red_stars"] < 4
    # knocked out (the attacker who took their last troops, the first time in a game): bob by dan
    # in game 2 and by ann in game 3, ann by cat in game 4 and by dan in game 5
    assert q.legacy_knock_outs(tables).rows() == [("ann", "bob", 1), ("cat", "ann", 1), ("dan", "ann", 1),
                                                  ("dan", "bob", 1)]
    s = q.legacy_summary(tables).row(0, named=True)
    assert (s["games"], s["finished_games"], s["campaigns"]) == (5, 5, 1)
    assert s["attack_rolls"] == 62 + sum(
        1 for path in GAMES[1:] for e in log_events(path) if e["type"] == "AttackDeclared")
    assert s["rolls_with_odds"] + s["modified_rolls"] == s["attack_rolls"]


def test_the_world_of_campaign_earth_game_by_game(tables):
    d = q.legacy_world_evolution(tables)
    assert d.select("game_no", "winner", "reward").rows() == [
        (1, "bob", "found_major_city"), (2, "ann", "fortify_city"),
        (3, "cat", "fortify_city"), (4, "cat", "found_major_city"),
        (5, "cat", "cancel_scar")]
    # the campaign file: cities founded every game, scars placed in games 1 and 2 and the one in
    # Russia cancelled after game 5, Afghanistan fortified after game 2 and East Africa after game
    # 3 (worn out in game 5), no continent named
    assert d["cities"].to_list() == [3, 4, 6, 9, 10]
    assert d["scars"].to_list() == [2, 5, 5, 5, 4]
    assert d["fortifications"].to_list() == [0, 1, 2, 2, 1]
    assert d["named_continents"].to_list() == [0, 0, 0, 0, 0]
    assert d["continues_previous"].to_list() == [None, True, True, True, True]


def test_luck_queries(tables):
    odds = q.legacy_roll_odds(tables)
    assert odds["rolls"].sum() == q.legacy_summary(tables)["rolls_with_odds"][0]
    three_two = odds.filter((pl.col("attacker_dice") == 3) & (pl.col("defender_dice") == 2))
    assert three_two["expected_defender_lost"][0] == pytest.approx(1.0790895, abs=1e-6)
    per_game = q.legacy_luck_by_game(tables)
    assert per_game.filter(pl.col("game_id") == "earth-01")["winner"].to_list() == ["bob"]
    players = q.legacy_luck_by_player(tables)
    # what one side's dice gain, the other's lose: over every player luck adds up to nothing
    assert players["luck"].sum() == pytest.approx(0.0, abs=1e-9)
    assert players["rolls"].sum() == 2 * odds["rolls"].sum()
    mods = {r["modifiers"]: r["rolls"] for r in q.legacy_modifiers(tables).to_dicts()}
    assert mods["none"] == odds["rolls"].sum() and "bunker +1 higher" in mods


def test_recheck_fills_the_rows_of_games_stored_before_the_tables(db, tmp_path):
    old = tmp_path / "old.duckdb"
    old.write_bytes(db.read_bytes())
    con = duckdb.connect(str(old))
    for table in LEGACY_TABLES:
        con.execute(f"DROP TABLE {table}")
    con.execute("DELETE FROM dice WHERE game_id LIKE 'earth-%'")
    con.close()
    with open_store(old) as store:       # the tables are made again, empty
        assert store.query("SELECT count(*) AS n FROM legacy_battles")["n"][0] == 0
        store.recheck()
    with open_store(old, read_only=True) as a, open_store(db, read_only=True) as b:
        for table in (*LEGACY_TABLES, "dice"):
            count = f"SELECT count(*) AS n FROM {table}"
            assert a.query(count)["n"][0] == b.query(count)["n"][0] > 0


# --- the dashboard, stats --json, the page of a game ----------------------------------------------


LEGACY_CHARTS = ["legacy-win-rate-faction", "legacy-win-rate-power", "legacy-win-rate-turn-order",
                 "legacy-red-stars", "legacy-world-0", "legacy-roll-odds", "legacy-luck-by-player",
                 "legacy-modifiers"]


def test_the_dashboard_of_a_campaign_has_the_risk_legacy_charts(db, tmp_path):
    out = tmp_path / "earth.html"
    r = run("dashboard", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text("utf-8")
    assert re.findall(r'<div id="([a-z0-9-]+)" class="plotly-graph-div', page) == \
        [*LEGACY_CHARTS, "dice-faces", "dice-p-values"]
    assert "<title>Risk Legacy games: every stored game</title>" in page
    # no Risk Europe section in a store of Risk Legacy games alone
    assert "King&#x27;s Orders" not in page and "game-lengths" not in page
    assert "Risk Legacy: win rate by faction (20 player-games)" in page
    assert "The world of campaign earth, game by game (5 games)" in page
    assert "<h3>Campaign earth</h3>" in page and "Irkutsk City in Irkutsk" in page
    assert "5 Risk Legacy games (5 finished) in 1 campaign" in page


def test_a_store_of_both_rulesets_has_both_sections(db, tmp_path):
    mixed = tmp_path / "mixed.duckdb"
    mixed.write_bytes(db.read_bytes())
    assert run("ingest", str(LEGACY.parent / "game42.jsonl"), "--db", str(mixed)).exit_code == 0
    with open_store(mixed, read_only=True) as store:
        from analytics.dashboard import write_dashboard
        report = write_dashboard(load_tables(store), tmp_path / "mixed.html")
    assert report.charts[0] == "game-lengths" and set(LEGACY_CHARTS) <= set(report.charts)
    page = (tmp_path / "mixed.html").read_text("utf-8")
    assert "Risk Europe and Risk Legacy games" in page and "Risk Europe: outcomes" in page
    assert "Dice of every ruleset" in page


def test_stats_json_has_the_legacy_queries(db):
    r = run("stats", "--db", str(db), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)["queries"]
    legacy = [name for name in QUERIES if name.startswith("legacy_")]
    assert legacy == [name for name in data if name.startswith("legacy_")]
    assert {"legacy_summary", "legacy_win_rate_by_faction", "legacy_win_rate_by_power",
            "legacy_win_rate_by_seat", "legacy_red_stars_by_faction", "legacy_luck_by_player",
            "legacy_world_evolution"} <= set(legacy)
    assert data["legacy_summary"][0]["games"] == 5
    assert set(data["legacy_win_rate_by_faction"][0]) == {
        "faction", "games", "wins", "win_rate", "win_rate_low", "win_rate_high", "even"}
    assert [g["winner"] for g in data["legacy_world_evolution"]] == ["bob", "ann", "cat", "cat",
                                                                      "cat"]
    text = run("stats", "--db", str(db))
    assert "legacy win rate by faction" in text.output and "legacy world evolution" in text.output


def test_the_page_of_a_legacy_game(tmp_path):
    j = judge(read_log(GAMES[0]), views=True)
    labels = [f.label for f in turn_frames(page_game(j))]
    assert labels[:4] == [f"Setup: {p} takes {f} in {t}" for p, f, t in (
        ("ann", "Die Mechaniker", "Mongolia"), ("bob", "Khan Industries", "Western United States"),
        ("cat", "Enclave of the Bear", "Southern Europe"),
        ("dan", "Imperial Balkania", "Madagascar"))]
    assert labels[4:8] == ["Round 1, ann: recruits · expands 5× · maneuvers",
                           "Round 1, bob: recruits",
                           "Round 1, cat: recruits · expands 5× · maneuvers",
                           "Round 1, dan: recruits · attacks 8× · takes 3× · draws a card"]
    assert labels[-2:] == ["Round 8, bob: recruits · attacks 2× · takes 2×",
                           "The end: bob chooses a reward · cat chooses a reward · "
                           "dan chooses a reward · ann chooses a reward"]
    # dan, defending, places a scar during cat's turn (ScarPlaced by dan, line 73 of the log)
    assert "Round 2, cat: recruits · attacks 2× · dan places a scar · takes · draws a card" in labels
    report = render_game_page(j, tmp_path / "g1.html")
    assert (report.frames, report.rounds) == (len(labels), 8) == (35, 8)
    page = (tmp_path / "g1.html").read_text("utf-8")
    assert "Game earth-01: bob wins (4 red stars) in round 8" in page
    assert re.findall(r'<div id="([a-z0-9-]+)" class="plotly-graph-div', page) == \
        ["board-map", "race-red-stars", "race-troops", "race-territories", "race-resources"]
    assert 'PlotlyGeoAssets.topojson["world_110m"]' in page     # the world's map, offline
    # the final board in words, by display names (#16)
    final = page[page.index("<h3>The final board</h3>"):page.index("<h2>By round</h2>")]
    assert "<li>bob (Khan Industries): 4 Red Stars, 3 cards, 3 resources, 0 Missiles, " \
           "18 territories, 31 troops. Alberta 2; Eastern Canada 1;" in final
    assert "Western United States 1 (HQ of Khan Industries)" in final
    assert "<li>ann (Die Mechaniker): 2 Red Stars, 1 card, 1 resource, 0 Missiles, 1 territory, " \
           "1 troop. Afghanistan 1 (Afghanistan Town)</li>" in final
    assert "_" not in final


def test_replay_html_of_a_legacy_game_from_the_command_line(tmp_path):
    out = tmp_path / "g2.html"
    r = run("replay", str(GAMES[1]), "--html", str(out))
    assert r.exit_code == 0, r.output
    assert "Game earth-02: ann wins" in out.read_text("utf-8")

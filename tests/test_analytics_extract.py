"""The analytics rows of a game, read off the engine's fold (analytics/extract.py).

game42 is checked against what its README and the rulebook's worked examples say happened; the
sample logs are checked against the log itself (every die, every card, every battle) and against
the labels the simulator writes on its dice."""

from __future__ import annotations

import json

import polars as pl
import pytest

from analytics.extract import COLUMNS, TABLES, extract_rows
from engine.risk_europe.odds import battle_odds
from engine.risk_europe.state import Units
from replay.logfile import read_log, read_log_text
from replay.judge import judge
from tests.test_store_support import GAME42, SAMPLES, game, text_of

SIMULATED = sorted(SAMPLES.glob("sim-*.jsonl"))


@pytest.fixture(scope="module")
def g42():
    return extract_rows(read_log(GAME42))


def test_every_table_has_its_columns(g42):
    assert set(g42.tables) == set(TABLES)
    for table in TABLES:
        frame = g42.frame(table)
        assert frame.columns == list(COLUMNS[table])
        # a Risk Europe game fills its own tables, none of Risk Legacy's or Warrior Knights'
        assert (frame.height > 0) == (not table.startswith(("legacy_", "wk_"))), table


def test_the_rulebook_battle_in_poland(g42):
    poland = g42.frame("battles").filter(pl.col("territory") == "Poland").to_dicts()
    assert len(poland) == 1
    b = poland[0]
    # README: orange (8 footmen, 2 archers, 2 siege weapons) attacks blue (4 footmen, 6 archers)
    # behind a castle; blue re-rolls the archer volley once and holds
    assert (b["seq"], b["round"], b["attacker"], b["defender"], b["castle"]) == \
        (151, 6, "orange", "blue", True)
    assert [b[f"att_{u}"] for u in ("footman", "archer", "cavalry", "siege")] == [8, 2, 0, 2]
    assert [b[f"def_{u}"] for u in ("footman", "archer", "cavalry", "siege")] == [4, 6, 0, 0]
    assert (b["cycles"], b["rerolls"], b["outcome"], b["winner"]) == \
        (3, 1, "defender holds", "blue")
    assert (b["attacker_lost"], b["defender_lost"]) == (12, 5)
    odds = battle_odds(Units(8, 2, 0, 2), Units(4, 6, 0, 0), castle=True)
    assert b["p_attacker_takes"] == pytest.approx(odds.attacker_wins)
    assert b["attacker_luck"] == pytest.approx(0 - odds.attacker_wins)
    assert b["defender_luck"] == pytest.approx(1 - odds.defender_holds)
    assert b["attacker_units_luck"] == pytest.approx(odds.expected_attacker_losses - 12)


def test_dice_know_why_they_were_rolled(g42):
    dice = g42.frame("dice")

    def at(seq, player):
        row = dice.filter((pl.col("seq") == seq) & (pl.col("player") == player)).to_dicts()[0]
        return row["why"], row["rank"], row["territory"], json.loads(row["faces"])

    assert at(46, "orange") == ("siege assault", None, "Poland", [1, 4])
    assert at(152, "orange") == ("battle", 1, "Poland", [1, 2, 3, 5])
    assert at(154, "blue") == ("battle", 2, "Poland", [1, 2, 3, 4, 4, 2])
    assert at(155, "blue") == ("castle re-roll", 2, "Poland", [3, 4, 5, 5, 5, 6])
    assert at(158, "orange") == ("battle", 4, "Poland", [3, 3, 6])
    assert set(dice.filter(pl.col("territory") == "Poland", pl.col("why") != "siege assault")
               ["battle_seq"].to_list()) == {151}
    row = dice.filter(pl.col("seq") == 155).to_dicts()[0]
    assert [row[f"n{k}"] for k in range(1, 7)] == [0, 0, 1, 1, 3, 1]


def test_outcomes_and_openings(g42):
    out = {r["player"]: r for r in g42.frame("outcomes").to_dicts()}
    assert {p: (r["starting_city"], r["opening_bid"], r["won"], r["seat"])
            for p, r in out.items()} == {
        "blue": ("Berlin", 2, True, 0), "orange": ("Kiev", 1, False, 1),
        "red": ("Paris", 0, False, 2), "green": ("Rome", 0, False, 3)}
    assert out["blue"]["first_player"] and out["blue"]["win_share"] == 1.0
    assert {r["rounds"] for r in out.values()} == {7}
    assert all(r["finished"] and r["reason"] == "crowns" for r in out.values())
    assert out["blue"]["crowns"] == 7


def test_orders_played_one_per_card_revealed(g42):
    orders = g42.frame("orders_played")
    first = orders.row(0, named=True)
    assert (first["seq"], first["player"], first["round"], first["turn"], first["card"],
            first["order_chosen"], first["card_bonus"]) == \
        (13, "blue", 1, 1, "expand-maneuver-fortify-1", "expand", "fortify")
    # round 2: blue fortifies (the bonus of expand-maneuver-fortify-2)
    assert orders.filter((pl.col("round") == 2) & (pl.col("player") == "blue")
                         & (pl.col("turn") == 1))["bonus_used"].to_list() == [True]
    # King Me takes effect when its card is revealed
    assert orders.filter(pl.col("card_bonus") == "king_me")["bonus_used"].all()
    assert orders["berlin_maneuver"].any()


def test_player_rounds_from_kingdoms_placed_to_the_win(g42):
    rounds = g42.frame("player_rounds")
    assert sorted(set(rounds["round"].to_list())) == list(range(8))
    start = rounds.filter(pl.col("round") == 0).to_dicts()
    assert {r["player"]: (r["footmen"], r["cities"], r["castles"]) for r in start} == {
        p: (10, 1, 1) for p in ("blue", "orange", "red", "green")}
    last = {r["player"]: r for r in rounds.filter(pl.col("round") == 7).to_dicts()}
    assert last["blue"]["crowns"] == 7 and all(r["complete"] for r in last.values())


@pytest.mark.parametrize("path", [GAME42, SAMPLES / "tiebreak.jsonl", *SIMULATED],
                         ids=lambda p: p.name)
def test_rows_agree_with_the_log_and_the_judge(path):
    read = read_log(path)
    rows = extract_rows(read)
    j = judge(read)
    applied = [s for s in j.steps if s.status in ("ok", "claim", "illegal-applied")]
    rolled = sum(len(faces) for s in applied if s.type in ("DiceRolled", "DiceRerolled")
                 for faces in s.payload["rolls"].values())
    dice = rows.frame("dice")
    assert dice["dice"].sum() == rolled
    assert dice.select(pl.sum_horizontal(f"n{k}" for k in range(1, 7)))["n1"].to_list() \
        == dice["dice"].to_list()
    labels = {s.seq: s.payload.get("rank") for s in applied if s.type == "DiceRolled"}
    for seq, rank in dice.filter(pl.col("why") == "battle").select("seq", "rank").iter_rows():
        assert labels[seq] in (None, rank)
    assert rows.frame("orders_played").height == sum(s.type == "CardRevealed" for s in applied)
    battles = rows.frame("battles")
    assert battles.height == sum(s.type == "BattleStarted" for s in applied)
    finished = battles.filter(pl.col("attacker_luck").is_not_null())
    for b in finished.to_dicts():  # the two sides' luck add up to (not) eliminating each other
        both = 1.0 if b["outcome"] == "both eliminated" else 0.0
        assert b["attacker_luck"] + b["defender_luck"] == pytest.approx(
            b["p_both_eliminated"] - both, abs=1e-9)
    outcomes = rows.frame("outcomes")
    assert sorted(outcomes.filter(pl.col("won"))["player"].to_list()) == \
        sorted(j.result.winners)
    assert outcomes["win_share"].sum() == pytest.approx(1.0)


def test_a_log_that_stops_mid_battle():
    # game42 up to the castle re-roll in Poland (seq 155)
    read = read_log_text(text_of(game("cut", 156)), "cut.jsonl")
    rows = extract_rows(read)
    poland = rows.frame("battles").filter(pl.col("territory") == "Poland").to_dicts()[0]
    assert poland["outcome"] == "unfinished" and poland["winner"] is None
    assert poland["rerolls"] == 1 and poland["attacker_luck"] is None
    assert poland["p_attacker_takes"] is not None
    outcomes = rows.frame("outcomes")
    assert not outcomes["finished"].any() and outcomes["rounds"].to_list() == [6] * 4
    last = rows.frame("player_rounds").filter(pl.col("round") == 6)
    assert last.height == 4 and not last["complete"].any()


def test_a_log_before_the_kingdoms_has_no_outcomes():
    rows = extract_rows(read_log_text(text_of(game("early", 5)), "early.jsonl"))
    assert rows.tables["outcomes"] == [] and rows.tables["player_rounds"] == []


@pytest.mark.parametrize("name", ["broken-empty.jsonl", "broken-not-a-log.jsonl"])
def test_a_file_that_is_not_a_game_has_no_rows(name):
    assert extract_rows(read_log(SAMPLES / name)).count == 0


def test_an_illegal_event_applied_as_recorded_counts():
    # a castle attacked without a siege weapon: illegal, applied as recorded, fought
    rows = extract_rows(read_log(SAMPLES / "broken-castle-no-siege.jsonl"))
    clean = extract_rows(read_log(GAME42))
    assert rows.frame("battles").height == clean.frame("battles").height + 1


def test_one_fold_gives_the_same_rows_as_a_separate_extraction():
    """Ingest judges and extracts in one pass (judge_with_rows); the rows are extract_rows's."""
    from pathlib import Path
    from analytics.extract import extract_rows, judge_with_rows
    from replay.logfile import read_log
    samples = Path(__file__).resolve().parent.parent / "sample_logs"
    for name in ("game42.jsonl", "tiebreak.jsonl", "sim-0564.jsonl", "broken-castle-no-siege.jsonl"):
        read = read_log(samples / name)
        j, rows = judge_with_rows(read)
        assert rows.tables == extract_rows(read).tables, name
        assert j.result is not None

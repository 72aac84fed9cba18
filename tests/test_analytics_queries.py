"""Each named query against small frames with a known answer: the shared ones (analytics/queries.py)
and Risk Europe's and Risk Legacy's (engine/<game>/queries.py), all of them through QUERIES.

Given two finished games (g1: Ann, seat 0, wins; g2: a and b share the win) and one unfinished
one (g3), a handful of card plays, four battles and some dice; when a query runs, then its rows
are the ones worked out by hand in the comments.
"""

from __future__ import annotations

import re

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics import queries as q
from analytics.load import Tables
from analytics.stats import chi2_sf
from engine.risk_europe import queries as re_q
from engine.risk_legacy import queries as rl_q


def outcome(game, player, seat, city, bid, won=False, share=0.0, finished=True, rounds=7,
            first=False):
    return {"game_id": game, "player": player, "seat": seat, "starting_city": city,
            "opening_bid": bid, "first_player": first, "won": won, "win_share": share,
            "finished": finished, "rounds": rounds}


OUTCOMES = [
    outcome("g1", "a", 0, "Berlin", 2, True, 1.0, first=True),
    outcome("g1", "b", 1, "Paris", 0),
    outcome("g1", "c", 2, "Rome", 1),
    outcome("g1", "d", 3, "Kiev", 0),
    outcome("g2", "a", 0, "Paris", 1, True, 0.5, rounds=9),
    outcome("g2", "b", 1, "Berlin", 1, True, 0.5, rounds=9),
    outcome("g2", "c", 2, "Rome", 0, rounds=9),
    outcome("g2", "d", 3, "Kiev", 3, rounds=9, first=True),
    outcome("g3", "a", 0, "Berlin", 0, finished=False, rounds=4),
]


def play(game, player, seat, round_, turn, index, card, order, bonus=None, used=False):
    return {"game_id": game, "player": player, "seat": seat, "round": round_, "turn": turn,
            "turn_index": index, "card": card, "order_chosen": order, "card_bonus": bonus,
            "bonus_used": used, "berlin_maneuver": False}


ORDERS = [
    play("g1", "a", 0, 1, 1, 0, "X", "expand", "fortify", True),
    play("g1", "b", 1, 1, 1, 1, "Y", "tax"),
    play("g1", "a", 0, 1, 2, 0, "Y", "spend"),
    play("g1", "b", 1, 2, 1, 0, "X", None, "fortify", False),
    play("g3", "c", 2, 1, 1, 0, "Z", "maneuver", "king_me", True),
]


def battle(game, seq, attacker, defender, p_take, outcome_, lucks):
    luck = dict(zip(["attacker_luck", "defender_luck", "attacker_units_luck",
                     "defender_units_luck"], lucks))
    return {"game_id": game, "seq": seq, "attacker": attacker, "defender": defender,
            "p_attacker_takes": p_take,
            "p_defender_holds": None if p_take is None else 1 - p_take,
            "outcome": outcome_, **luck}


BATTLES = [
    battle("g1", 10, "a", "b", 0.75, "attacker takes", (0.25, -0.25, 1.0, -0.5)),
    battle("g1", 20, "b", "a", 0.4, "attacker takes", (0.6, -0.6, 0.5, -1.0)),
    battle("g1", 30, "a", "b", None, "attacker takes", (None, None, None, None)),  # no odds
    battle("g2", 10, "c", "d", 0.5, "defender holds", (-0.5, 0.5, 0.0, 0.0)),
]


def roll(game, seq, player, why, counts):
    return {"game_id": game, "seq": seq, "player": player, "why": why, "dice": sum(counts),
            **{f"n{k + 1}": n for k, n in enumerate(counts)}}


DICE = [
    roll("g1", 1, "a", "battle", [3] * 6),                     # Ann: 36 dice, 6 of each face
    roll("g1", 2, "a", "battle", [3] * 6),
    roll("g1", 3, "b", "castle re-roll", [0, 0, 0, 0, 0, 30]),  # b: 30 sixes
    roll("g2", 4, "c", "roll-off", [2] * 6),                   # 12 dice: too few to test
]

PLAYERS = [{"game_id": "g1", "seat": 0, "player": "a", "name": "Ann"}]
GAMES = [{"game_id": "g1", "tournament": "T1", "finished": True},
         {"game_id": "g2", "tournament": None, "finished": True},
         {"game_id": "g3", "tournament": None, "finished": False}]


@pytest.fixture(scope="module")
def t() -> Tables:
    return Tables.from_frames(outcomes=OUTCOMES, orders_played=ORDERS, battles=BATTLES,
                              dice=DICE, players=PLAYERS, games=GAMES)


def rows(frame: pl.DataFrame, *columns: str) -> list[tuple]:
    return [tuple(r) for r in frame.select(columns).iter_rows()]


def approx_rows(frame: pl.DataFrame, *columns: str) -> list[tuple]:
    return [tuple(pytest.approx(v) if isinstance(v, float) else v for v in r)
            for r in rows(frame, *columns)]


# --- outcomes -----------------------------------------------------------------------------------

def test_game_lengths_count_finished_games_by_rounds(t):
    assert rows(re_q.game_lengths(t), "rounds", "games", "share") == [(7, 1, 0.5), (9, 1, 0.5)]


def test_win_rate_by_starting_city_counts_a_shared_win_as_a_half(t):
    # Berlin: g1 a won (1) + g2 b shared (1/2) in 2 games; Paris: g2 a's half; g3 unfinished
    assert rows(re_q.win_rate_by_starting_city(t), "starting_city", "games", "wins", "win_rate") == [
        ("Berlin", 2, 1.5, 0.75), ("Kiev", 2, 0.0, 0.0), ("Paris", 2, 0.5, 0.25),
        ("Rome", 2, 0.0, 0.0)]


def test_win_rate_by_seat(t):
    assert rows(re_q.win_rate_by_seat(t), "seat", "games", "wins") == [
        (0, 2, 1.5), (1, 2, 0.5), (2, 2, 0.0), (3, 2, 0.0)]


def test_win_rate_by_opening_bid(t):
    assert approx_rows(re_q.win_rate_by_opening_bid(t), "opening_bid", "games", "wins",
                       "win_rate") == [(0, 3, 0.0, 0.0), (1, 3, 1.0, 1 / 3), (2, 1, 1.0, 1.0),
                                       (3, 1, 0.0, 0.0)]


def test_win_rate_of_first_player(t):
    assert rows(re_q.win_rate_of_first_player(t), "first_player", "games", "wins") == [
        (False, 6, 1.0), (True, 2, 1.0)]


# --- cards ----------------------------------------------------------------------------------------

def test_order_frequency_names_a_card_without_an_order_none(t):
    assert rows(re_q.order_frequency(t), "order_chosen", "plays", "share") == [
        ("expand", 1, 0.2), ("maneuver", 1, 0.2), ("none", 1, 0.2), ("spend", 1, 0.2),
        ("tax", 1, 0.2)]


def test_card_frequency(t):
    assert rows(re_q.card_frequency(t), "card", "plays", "share") == [
        ("X", 2, 0.4), ("Y", 2, 0.4), ("Z", 1, 0.2)]


def test_cards_by_round_share_is_of_the_round(t):
    assert rows(re_q.cards_by_round(t), "round", "card", "plays", "share") == [
        (1, "X", 1, 0.25), (1, "Y", 2, 0.5), (1, "Z", 1, 0.25), (2, "X", 1, 1.0)]


def test_orders_by_round(t):
    assert rows(re_q.orders_by_round(t), "round", "order_chosen", "plays") == [
        (1, "expand", 1), (1, "maneuver", 1), (1, "spend", 1), (1, "tax", 1), (2, "none", 1)]


def test_cards_and_orders_by_seat(t):
    assert rows(re_q.cards_by_seat(t), "seat", "card", "plays", "share") == [
        (0, "X", 1, 0.5), (0, "Y", 1, 0.5), (1, "X", 1, 0.5), (1, "Y", 1, 0.5), (2, "Z", 1, 1.0)]
    assert rows(re_q.orders_by_seat(t), "seat", "order_chosen", "plays") == [
        (0, "expand", 1), (0, "spend", 1), (1, "none", 1), (1, "tax", 1), (2, "maneuver", 1)]


def test_winners_vs_rest_use_finished_games_only(t):
    # g1: a won (X expand, Y spend), b did not (Y tax, X none); g3 is not finished
    assert rows(re_q.cards_winners_vs_rest(t), "group", "card", "plays", "share") == [
        ("the rest", "X", 1, 0.5), ("the rest", "Y", 1, 0.5),
        ("winners", "X", 1, 0.5), ("winners", "Y", 1, 0.5)]
    assert rows(re_q.orders_winners_vs_rest(t), "group", "order_chosen", "plays") == [
        ("the rest", "none", 1), ("the rest", "tax", 1), ("winners", "expand", 1),
        ("winners", "spend", 1)]


def test_round_openers_are_turn_one_first_player(t):
    assert approx_rows(re_q.round_openers(t), "card", "rounds_opened", "share") == [
        ("X", 2, 2 / 3), ("Z", 1, 1 / 3)]


def test_bonus_use(t):
    assert rows(re_q.bonus_use(t), "card_bonus", "cards_played", "bonus_used", "use_rate") == [
        ("fortify", 2, 1, 0.5), ("king_me", 1, 1, 1.0)]


# --- luck -----------------------------------------------------------------------------------------

def test_luck_by_player_game_sums_both_sides_and_skips_battles_without_odds(t):
    # g1 Ann (a): attacked at .75 and won (+.25), defended at .6 and lost (-.6)
    assert approx_rows(re_q.luck_by_player_game(t), "game_id", "player", "battles", "battles_won",
                       "expected_wins", "luck", "units_luck", "won_game") == [
        ("g1", "Ann", 2, 1, 1.35, -0.35, 0.0, True),
        ("g1", "b", 2, 1, 0.65, 0.35, 0.0, False),
        ("g2", "c", 1, 0, 0.5, -0.5, 0.0, False),
        ("g2", "d", 1, 1, 0.5, 0.5, 0.0, False)]


def test_luck_by_game_names_the_luckiest_and_the_winners(t):
    assert approx_rows(re_q.luck_by_game(t), "game_id", "battles", "winners", "winner_luck",
                       "luckiest_player", "luckiest_luck", "unluckiest_player",
                       "unluckiest_luck", "spread") == [
        ("g1", 2, "Ann", -0.35, "b", 0.35, "Ann", -0.35, 0.7),
        ("g2", 1, "a and b", 0.0, "d", 0.5, "c", -0.5, 1.0)]


def test_luckiest_and_unluckiest(t):
    assert approx_rows(re_q.luckiest_games(t, 2), "game_id", "player", "luck") == [
        ("g2", "d", 0.5), ("g1", "b", 0.35)]
    assert approx_rows(re_q.unluckiest_games(t, 2), "game_id", "player", "luck") == [
        ("g2", "c", -0.5), ("g1", "Ann", -0.35)]


def test_luck_by_player(t):
    assert approx_rows(re_q.luck_by_player(t), "player", "games", "battles", "luck",
                       "luck_per_battle") == [
        ("Ann", 1, 2, -0.35, -0.175), ("b", 1, 2, 0.35, 0.175), ("c", 1, 1, -0.5, -0.5),
        ("d", 1, 1, 0.5, 0.5)]


def test_odds_calibration_bins_battles_by_their_odds(t):
    assert approx_rows(re_q.odds_calibration(t, bins=2), "bin_low", "bin_high", "battles",
                       "expected_rate", "observed_rate") == [
        (0.0, 0.5, 1, 0.4, 1.0), (0.5, 1.0, 2, 0.625, 0.5)]


# --- dice -----------------------------------------------------------------------------------------

def test_dice_faces_and_why(t):
    assert rows(q.dice_faces(t), "face", "count") == [
        (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (6, 38)]
    assert rows(q.dice_by_why(t), "why", "rolls", "dice") == [
        ("battle", 2, 36), ("castle re-roll", 1, 30), ("roll-off", 1, 12)]


def test_dice_fairness_per_player_in_game(t):
    d = q.dice_fairness(t, "player in game")
    assert rows(d, "group", "dice", "tests", "flagged", "unlikely_by_chance") == [
        ("g1 / Ann", 36, 2, False, False), ("g1 / b", 30, 2, True, True),
        ("g2 / c", 12, 2, False, False)]
    # 30 sixes: expected 5 a face; (25 x 5 + 625) / 5 = 150
    assert d["chi2"].to_list() == pytest.approx([0.0, 150.0, 0.0])
    assert d["p_value"].to_list()[:2] == pytest.approx([1.0, chi2_sf(150.0, 5)])
    assert d["p_value"][2] is None
    assert d["verdict"].to_list()[0] == "consistent with fair dice"
    assert d["verdict"][1].startswith("flagged: very uneven")
    assert d["verdict"][2] == "too few dice to judge (12 rolled, 30 needed)"


def test_dice_fairness_per_game_player_and_tournament(t):
    # g1: 66 dice, 6 of faces 1-5 and 36 sixes; expected 11: (5 x 25 + 625) / 11
    game = q.dice_fairness(t, "game")
    assert rows(game, "group", "dice", "tests") == [("g1", 66, 1), ("g2", 12, 1)]
    assert game["chi2"][0] == pytest.approx(750 / 11)
    assert rows(q.dice_fairness(t, "player"), "group", "dice") == [
        ("Ann", 36), ("b", 30), ("c", 12)]
    assert rows(q.dice_fairness(t, "tournament"), "group", "dice") == [
        ("(no tournament)", 12), ("T1", 66)]


def test_dice_fairness_refuses_an_unknown_level(t):
    with pytest.raises(ValueError, match="not 'seat'"):
        q.dice_fairness(t, "seat")


def test_flagged_dice_lists_every_level_most_uneven_first(t):
    flagged = q.flagged_dice(t)
    # b's 30 sixes (the same p-value as a player and as a player in g1), then g1 = T1
    assert rows(flagged, "level", "group") == [
        ("player", "b"), ("player in game", "g1 / b"), ("game", "g1"), ("tournament", "T1")]
    assert flagged["p_value"].is_sorted()


def test_corpus_summary(t):
    assert re_q.corpus_summary(t).to_dicts() == [{
        "games": 3, "finished_games": 2, "battles": 4, "battles_with_odds": 3, "dice": 78,
        "cards_played": 5, "berlin_maneuvers": 0, "tournaments": 1}]


# --- every query -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(q.QUERIES))
def test_every_query_names_every_column(t, name):
    frame = q.QUERIES[name](t)
    assert isinstance(frame, pl.DataFrame)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", c) for c in frame.columns), frame.columns
    assert len(set(frame.columns)) == len(frame.columns)


@pytest.mark.parametrize("name", list(q.QUERIES))
def test_every_query_answers_empty_tables(name):
    empty = Tables.from_frames()
    frame = q.QUERIES[name](empty)
    one_row = ("corpus_summary", "legacy_summary", "wk_summary")
    assert frame.height == (1 if name in one_row else 6 if name == "dice_faces" else 0)


def test_queries_do_not_depend_on_row_order(t):
    shuffled = Tables.from_frames(outcomes=OUTCOMES[::-1], orders_played=ORDERS[::-1],
                                  battles=BATTLES[::-1], dice=DICE[::-1], players=PLAYERS,
                                  games=GAMES[::-1])
    for name, query in q.QUERIES.items():
        assert_frame_equal(query(shuffled), query(t), check_exact=False), name


def test_world_evolution_shows_the_game_the_campaign_counts_not_a_duplicate():
    # two stored games claim game 2 of "earth", both with no rule findings; the store's campaign
    # link counts b-real (it starts from the world game 1 left) and marks a-copy a duplicate
    legacy = [dict(game_id="g1", campaign="earth", game_no=1, world_before="w0", world_after="w1"),
              dict(game_id="a-copy", campaign="earth", game_no=2, world_before="wx", world_after="wy"),
              dict(game_id="b-real", campaign="earth", game_no=2, world_before="w1", world_after="w2")]
    games = [dict(game_id="g1", findings=0, campaign_status="fits"),
             dict(game_id="a-copy", findings=0, campaign_status="duplicate"),
             dict(game_id="b-real", findings=0, campaign_status="fits")]
    out = rl_q.legacy_world_evolution(Tables.from_frames(legacy_games=legacy, games=games))
    assert out["game_id"].to_list() == ["g1", "b-real"]
    assert out["games_stored"].to_list() == [1, 2]
    assert out["continues_previous"].to_list() == [None, True]

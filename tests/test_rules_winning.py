"""Crowns, winning, elimination and Saved by the Crown (rulebook p.9, p.19, p.22 Rome).

Given a position at the start of a round, when the round is played out (everybody passes), then
this result or this state."""

from __future__ import annotations

from engine.risk_europe.common import crowns
from engine.risk_europe.state import Terr, Units
from tests.re_helpers import (
    ROUND_CARDS, TAX_CARD, disputed, ev, finish_turns, fold, held, in_battles, placed,
    play_round, rules_of, turn_of, with_board, with_player,
)


def position(board=None, **players):
    s = placed()
    if board:
        s = with_board(s, board)
    for p, fields in players.items():
        s = with_player(s, p, **fields)
    return s


RED_LOSES_PARIS = {"France": held("green", 3, castle=True, since=1), "Burgundy": held("red", 4)}


# --- RE-CROWNS --------------------------------------------------------------------------------

def test_RE_CROWNS_one_per_city_held():
    s = position({"Poland": held("blue", 1), "Hungary": held("blue", 1)})
    assert crowns(s, "blue") == 3


def test_RE_CROWNS_rome_is_worth_two():
    s = placed()
    assert crowns(s, "green") == 2
    s = with_board(s, {"Rome": held("blue", 3, castle=True)})
    assert crowns(s, "green") == 0 and crowns(s, "blue") == 3


def test_RE_CROWNS_crown_cards_count():
    assert crowns(position(blue={"crown_cards": 2}), "blue") == 3


def test_RE_CROWNS_non_city_territories_and_castles_do_not_count():
    s = position({"Bavaria": held("blue", 1, castle=True), "Highlands": held("blue", 1)})
    assert crowns(s, "blue") == 1


def test_RE_CROWNS_a_disputed_city_still_counts_for_its_defender():
    s = position({"Rusland": disputed("orange", Units(2), "blue", Units(3, siege=1), castle=True)})
    assert crowns(s, "orange") == 1 and crowns(s, "blue") == 1


# --- RE-WIN -----------------------------------------------------------------------------------

def test_RE_WIN_seven_crowns_at_the_end_of_a_round_win():
    s = play_round(position(blue={"crown_cards": 6}))
    assert s.result is not None and s.result.winners == ("blue",) and s.result.round == 1
    assert s.flow.phase == "over"


def test_RE_WIN_six_crowns_do_not_win():
    s = play_round(position(blue={"crown_cards": 5}))
    assert s.result is None and s.flow.round == 2


def test_RE_WIN_only_at_the_end_of_the_round():
    s = turn_of("blue", TAX_CARD, position(blue={"crown_cards": 6, "coins": 10}))
    s = fold(s, ev("Spent", "blue", purchases=[{"item": "crown_card"}]))
    assert crowns(s, "blue") == 8 and s.result is None
    s = finish_turns(s)
    assert s.result.winners == ("blue",)


def test_RE_WIN_after_all_battles_are_resolved():
    board = {"Hungary": disputed("orange", Units(1), "blue", Units(3))}
    s = in_battles(position(board, blue={"crown_cards": 5}))
    s = fold(s, ev("BattleStarted", "blue", territory="Hungary"),
             ev("DiceRolled", None, rolls={"blue": [6, 1, 1], "orange": [2]}))
    assert s.result is None
    s = fold(s, ev("CasualtiesRemoved", "orange", territory="Hungary", units={"footman": 1}))
    assert s.result.winners == ("blue",)


def test_RE_WIN_tie_break_more_territories():
    s = play_round(position({"Bavaria": held("orange", 1)}, blue={"crown_cards": 6},
                            orange={"crown_cards": 6}))
    assert s.result.winners == ("orange",) and s.result.reason == "crowns with tie-break"


def test_RE_WIN_tie_break_then_more_coins():
    s = play_round(position(blue={"crown_cards": 6}, orange={"crown_cards": 6, "coins": 30}))
    assert s.result.winners == ("orange",)


def test_RE_WIN_tie_break_the_first_player_marker_counts_ten_coins():
    s = position(blue={"crown_cards": 6, "coins": 7}, orange={"crown_cards": 6, "coins": 16})
    assert s.marker == "blue"
    assert play_round(s).result.winners == ("blue",)             # 7 + 10 > 16
    s = with_player(s, "orange", coins=18)
    assert play_round(s).result.winners == ("orange",)           # 17 < 18


def test_RE_WIN_more_crowns_beat_a_tie_break():
    """RE-RULING: "tied" players are those with the same number of crowns (seven or more)."""
    s = play_round(position({"Bavaria": held("orange", 1)}, blue={"crown_cards": 7},
                            orange={"crown_cards": 6}))
    assert s.result.winners == ("blue",)


def test_RE_WIN_a_complete_tie_is_shared():
    s = position(blue={"crown_cards": 6, "coins": 0}, orange={"crown_cards": 6, "coins": 10})
    assert play_round(s).result.winners == ("blue", "orange")


# --- RE-ELIMINATION ---------------------------------------------------------------------------

def test_RE_ELIMINATION_a_player_without_a_city_at_the_end_of_the_round():
    s = play_round(position(RED_LOSES_PARIS))
    assert s.players["red"].eliminated and s.players["red"].coins == 0
    assert s.terr["Burgundy"].owner is None and s.terr["Burgundy"].units == Units()
    assert "red" not in s.flow.order and s.flow.round == 2


def test_RE_ELIMINATION_a_player_with_a_city_stays():
    s = play_round(position({"France": held("green", 3, castle=True), "Poland": held("red", 1)}))
    assert not s.players["red"].eliminated and s.terr["Poland"].owner == "red"


def test_RE_ELIMINATION_only_at_the_end_of_the_round():
    s = turn_of("red", TAX_CARD, position(RED_LOSES_PARIS))
    assert not s.players["red"].eliminated
    e = ev("Spent", "red", purchases=[{"item": "footman", "territory": "Burgundy"}])
    assert rules_of(s, e) == ["RE-SPEND-PLACE"]        # still playing, but Burgundy has no castle


def test_RE_ELIMINATION_an_eliminated_player_no_longer_plays():
    s = play_round(position(RED_LOSES_PARIS))
    assert rules_of(s, ev("CardsCommitted", "red", cards=["tax-spend-2", "split-maneuver-1"])) == ["RE-ACTOR"]
    s = play_round(s, {p: ROUND_CARDS[1][p] for p in ("blue", "orange", "green")})
    assert s.flow.round == 3


def test_RE_ELIMINATION_the_marker_passes_to_the_left():
    """RE-RULING: an eliminated marker holder's marker goes to the next player still in the game."""
    s = play_round(position({"Saxony": held("green", 3, castle=True), "Bohemia": held("blue", 1)}))
    assert s.players["blue"].eliminated and s.marker == "orange"
    assert s.flow.order == ("orange", "red", "green")


def test_RE_ELIMINATION_the_last_player_standing_wins():
    board = {t: Terr() for t in ("Saxony", "Bohemia", "Rusland", "Galicia", "France", "Burgundy")}
    s = play_round(position(board))
    assert s.result.winners == ("green",) and s.result.reason == "last player standing"


def test_RE_ELIMINATION_simultaneous_elimination_can_eliminate_the_defender():
    board = {"France": disputed("red", Units(archer=1), "green", Units(archer=1), castle=True)}
    s = in_battles(position(board))
    s = fold(s, ev("BattleStarted", "blue", territory="France"),
             ev("DiceRolled", None, rolls={"green": [5], "red": [6]}),
             ev("CasualtiesRemoved", "red", territory="France", units={"archer": 1}),
             ev("CasualtiesRemoved", "green", territory="France", units={"archer": 1}))
    assert s.terr["France"] == Terr(castle=True, since=1999)
    assert s.players["red"].eliminated and crowns(s, "green") == 2


# --- RE-SAVED-BY-CROWN ------------------------------------------------------------------------

def test_RE_SAVED_BY_CROWN_a_crown_card_buys_one_more_round():
    s = play_round(position(RED_LOSES_PARIS, red={"crown_cards": 1}))
    assert not s.players["red"].eliminated and s.players["red"].saved_until == 2
    assert "red" in s.flow.order and s.terr["Burgundy"].owner == "red"


def test_RE_SAVED_BY_CROWN_still_without_a_city_after_that_round_is_eliminated():
    s = play_round(position(RED_LOSES_PARIS, red={"crown_cards": 2}))
    left = s.crown_cards_left
    s = play_round(s, ROUND_CARDS[1])
    assert s.players["red"].eliminated and s.players["red"].crown_cards == 0
    assert s.crown_cards_left == left                      # removed from the game, not returned
    assert crowns(s, "red") == 0


def test_RE_SAVED_BY_CROWN_reclaiming_a_city_keeps_the_player_in():
    s = play_round(position(RED_LOSES_PARIS, red={"crown_cards": 1}))
    s = with_board(s, {"Poland": held("red", 1)})
    s = play_round(s, ROUND_CARDS[1])
    assert not s.players["red"].eliminated and s.players["red"].saved_until == 0


def test_RE_SAVED_BY_CROWN_no_crown_card_no_grace():
    s = play_round(position(RED_LOSES_PARIS, red={"crown_cards": 0}))
    assert s.players["red"].eliminated


def test_RE_SAVED_BY_CROWN_no_tax_without_a_city_but_recruiting_in_a_castle_territory():
    s = play_round(position({**RED_LOSES_PARIS, "Burgundy": held("red", 4, castle=True)},
                            red={"crown_cards": 1, "coins": 5}))
    s = turn_of("red", "tax-spend-2", s, bottom="split-maneuver-1", cards=ROUND_CARDS[1])
    assert rules_of(s, ev("Taxed", "red", city="Paris")) == ["RE-TAX-CITY"]
    assert rules_of(s, ev("Spent", "red", purchases=[{"item": "footman", "territory": "Burgundy"}])) == []

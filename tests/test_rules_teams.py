"""Team play (rulebook p.22): opposite seats are teammates, no War Banners and no Crown Cards, the
two-city draft, no moving against a teammate, and the end after 16 rounds (or, in the long form,
when one team holds every crown city). Given a team game, when this event, then these violations
(or this result)."""

from __future__ import annotations

from dataclasses import replace

from engine.risk_europe.legal import legal_moves
from engine.risk_europe.state import Units
from tests.re_helpers import (
    DEFAULT_CARDS, ROUND_CARDS, disputed, ev, held, play_round, rules_of, teams_placed, turn_of,
    with_board, with_player,
)

E1, ES, T1 = "expand-maneuver-fortify-1", "expand-maneuver-siege", "tax-spend-1"


def test_the_team_draft_gives_two_cities_each_a_castle_on_the_first():
    s = teams_placed()
    assert [s.terr[t].castle for t in ("Saxony", "Sweden")] == [True, False]
    assert s.castles_left == 4 and s.players["blue"].coins == 5 - 2 + 4 + 3
    assert s.team_of("blue") == ("blue", "red") and s.team_of("green") == ("orange", "green")


# --- RE-TEAM-TERRITORY ----------------------------------------------------------------------------

def test_RE_TEAM_TERRITORY_expanding_against_the_other_team_is_allowed():
    s = with_board(teams_placed(), {"Bohemia": held("blue", 4), "Poland": held("orange", 1)})
    s = turn_of("blue", E1, s)
    assert rules_of(s, ev("Expanded", "blue", from_="Bohemia", to="Poland", units={"footman": 2})) == []


def test_RE_TEAM_TERRITORY_no_expanding_into_a_teammates_territory():
    s = with_board(teams_placed(), {"Bohemia": held("blue", 4), "Poland": held("red", 1)})
    s = turn_of("blue", E1, s)
    assert rules_of(s, ev("Expanded", "blue", from_="Bohemia", to="Poland", units={"footman": 2})) == ["RE-TEAM-TERRITORY"]
    assert not [m for m in legal_moves(s) if m.payload.get("to") == "Poland"]


def test_RE_TEAM_TERRITORY_no_joining_a_teammates_battle():
    s = with_board(teams_placed(), {"Bohemia": held("blue", 4),
                                    "Poland": disputed("orange", Units(2), "red", Units(2))})
    s = turn_of("blue", E1, s)
    assert rules_of(s, ev("Expanded", "blue", from_="Bohemia", to="Poland", units={"footman": 2})) == ["RE-TEAM-TERRITORY"]


def test_RE_TEAM_TERRITORY_no_siege_assault_on_a_teammate():
    board = {"Bohemia": held("blue", 2, siege=1), "Poland": held("red", 3), "Bavaria": held("green", 3)}
    s = turn_of("blue", ES, with_board(teams_placed(), board))
    assert rules_of(s, ev("SiegeAssaulted", "blue", from_="Bohemia", target="Poland")) == ["RE-TEAM-TERRITORY"]
    assert rules_of(s, ev("SiegeAssaulted", "blue", from_="Bohemia", target="Bavaria")) == []


def test_RE_TEAM_TERRITORY_no_maneuvering_through_a_teammates_territory():
    s = with_board(teams_placed(), {"Bohemia": held("blue", 4), "Poland": held("red", 1), "Prussia": held("blue", 1)})
    s = turn_of("blue", E1, s)
    assert rules_of(s, ev("Maneuvered", "blue", from_="Bohemia", to="Prussia", units={"footman": 2},
                          path=["Poland"])) == ["RE-MANEUVER-PATH"]


# --- RE-TEAM-NO-CROWNS ----------------------------------------------------------------------------

def test_RE_TEAM_NO_CROWNS_units_and_castles_are_bought_as_usual():
    s = with_player(turn_of("blue", T1, teams_placed()), "blue", coins=20)
    assert rules_of(s, ev("Spent", "blue", purchases=[{"item": "archer", "territory": "Saxony", "count": 2}])) == []


def test_RE_TEAM_NO_CROWNS_no_crown_card_is_bought():
    s = with_player(turn_of("blue", T1, teams_placed()), "blue", coins=20)
    assert rules_of(s, ev("Spent", "blue", purchases=[{"item": "crown_card"}])) == ["RE-TEAM-NO-CROWNS"]


def test_RE_TEAM_NO_CROWNS_seven_crowns_do_not_win():
    cities = {"Poland": held("blue", 1), "Hungary": held("blue", 1), "Swabia": held("blue", 1),
              "Greece": held("blue", 1), "Ireland": held("blue", 1)}
    s = play_round(with_board(teams_placed(), cities))
    assert s.result is None and s.flow.round == 2


# --- RE-TEAM-END ----------------------------------------------------------------------------------

def at_round(s, r):
    return replace(s, flow=s.flow._replace(round=r), step=r * 1000)


def test_RE_TEAM_END_the_game_goes_on_before_the_sixteenth_round():
    s = play_round(at_round(with_board(teams_placed(), {"Poland": held("blue", 1)}), 15))
    assert s.result is None and s.flow.round == 16


def test_RE_TEAM_END_after_sixteen_rounds_more_crown_cities_win():
    s = play_round(at_round(with_board(teams_placed(), {"Poland": held("blue", 1)}), 16))
    assert s.result.winners == ("blue", "red") and s.result.reason == "crown cities"
    assert s.result.detail["blue and red"]["crown_cities"] == 5


def test_RE_TEAM_END_sixteen_rounds_are_four_passes_through_the_hand():
    s = teams_placed()
    for r in range(16):
        assert s.result is None
        s = play_round(s, ROUND_CARDS[r % 4])
    assert s.result is not None and s.result.round == 16


def test_RE_TEAM_END_the_long_form_ends_when_a_team_holds_all_fifteen():
    s = teams_placed("teams+long")
    s = play_round(at_round(s, 16), DEFAULT_CARDS)
    assert s.result is None
    cities = {t: held("red" if i % 2 else "blue", 1) for i, t in enumerate(s.data.cities)}
    s = play_round(with_board(s, cities), ROUND_CARDS[1])
    assert s.result.winners == ("blue", "red") and s.result.reason == "all crown cities"

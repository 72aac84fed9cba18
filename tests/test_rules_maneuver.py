"""Maneuver (rulebook p.11-12): from a territory you control, up to two territories away through
territories you control, into your own or a disputed territory; no retreat from battle; one unit
stays in city and castle territories."""

from __future__ import annotations

from engine.risk_europe.state import Terr, Units
from tests.re_helpers import disputed, ev, fold, held, rules_of, turn_of, with_board


def maneuver(actor, frm, to, path=None, **units):
    payload = {"from_": frm, "to": to, "units": units}
    if path is not None:
        payload["path"] = path
    return ev("Maneuvered", actor, **payload)


def blue_turn(board=None):
    s = turn_of("blue")
    return with_board(s, board) if board else s


# --- RE-MANEUVER-FROM -------------------------------------------------------------------------

def test_RE_MANEUVER_FROM_own_territory_is_allowed():
    after = fold(blue_turn(), maneuver("blue", "Bohemia", "Saxony", footman=3))
    assert after.terr["Saxony"].units == Units(8) and after.terr["Bohemia"].units == Units(2)


def test_RE_MANEUVER_FROM_an_opponents_territory_is_forbidden():
    assert rules_of(blue_turn(), maneuver("blue", "Galicia", "Bohemia", footman=1)) == ["RE-MANEUVER-FROM"]


def test_RE_MANEUVER_FROM_a_dispute_the_player_defends_is_forbidden():
    """"Players may not maneuver army units out of a disputed territory for any reason.\""""
    s = blue_turn({"Bohemia": disputed("blue", Units(5), "orange", Units(2))})
    assert rules_of(s, maneuver("blue", "Bohemia", "Saxony", footman=1)) == ["RE-MANEUVER-FROM"]


def test_RE_MANEUVER_FROM_a_dispute_the_player_attacks_is_forbidden():
    s = blue_turn({"Poland": disputed("orange", Units(2), "blue", Units(4))})
    e = maneuver("blue", "Poland", "Bohemia", footman=1)
    assert rules_of(s, e) == ["RE-MANEUVER-FROM"]
    assert fold(s, e, allow=("RE-MANEUVER-FROM",)).terr["Poland"].attacker_units == Units(4)


# --- RE-MANEUVER-TO ---------------------------------------------------------------------------

def test_RE_MANEUVER_TO_a_dispute_the_player_attacks_is_allowed():
    s = blue_turn({"Poland": disputed("orange", Units(2), "blue", Units(1))})
    after = fold(s, maneuver("blue", "Bohemia", "Poland", footman=3))
    assert after.terr["Poland"].attacker_units == Units(4) and after.terr["Poland"].units == Units(2)


def test_RE_MANEUVER_TO_a_dispute_the_player_defends_is_allowed():
    s = blue_turn({"Bohemia": disputed("blue", Units(2), "orange", Units(4))})
    after = fold(s, maneuver("blue", "Saxony", "Bohemia", footman=3))
    assert after.terr["Bohemia"].units == Units(5)


def test_RE_MANEUVER_TO_an_opponents_territory_is_forbidden():
    s = blue_turn({"Poland": held("orange", 2)})
    assert rules_of(s, maneuver("blue", "Bohemia", "Poland", footman=1)) == ["RE-MANEUVER-TO"]


def test_RE_MANEUVER_TO_an_unclaimed_territory_is_forbidden():
    assert rules_of(blue_turn(), maneuver("blue", "Bohemia", "Bavaria", footman=1)) == ["RE-MANEUVER-TO"]


def test_RE_MANEUVER_TO_a_third_players_dispute_is_forbidden():
    s = blue_turn({"Poland": disputed("orange", Units(2), "red", Units(2))})
    assert rules_of(s, maneuver("blue", "Bohemia", "Poland", footman=1)) == ["RE-MANEUVER-TO"]


def test_RE_MANEUVER_TO_the_same_territory_is_forbidden():
    assert rules_of(blue_turn(), maneuver("blue", "Bohemia", "Bohemia", footman=1)) == ["RE-MANEUVER-TO"]


# --- RE-MANEUVER-PATH -------------------------------------------------------------------------

def test_RE_MANEUVER_PATH_two_territories_away_through_own_is_allowed():
    s = blue_turn({"Lorraine": held("blue", 1)})
    assert rules_of(s, maneuver("blue", "Bohemia", "Lorraine", footman=2)) == []
    assert rules_of(s, maneuver("blue", "Bohemia", "Lorraine", path=["Saxony"], footman=2)) == []


def test_RE_MANEUVER_PATH_three_territories_away_is_forbidden():
    s = blue_turn({"Lorraine": held("blue", 1), "France": held("blue", 1)})
    assert rules_of(s, maneuver("blue", "Bohemia", "France", footman=2)) == ["RE-MANEUVER-PATH"]
    e = maneuver("blue", "Bohemia", "France", path=["Saxony", "Lorraine"], footman=2)
    assert rules_of(s, e) == ["RE-MANEUVER-PATH"]


def test_RE_MANEUVER_PATH_through_an_opponents_territory_is_forbidden():
    s = blue_turn({"Saxony": held("red", 5), "Lorraine": held("blue", 1)})
    assert rules_of(s, maneuver("blue", "Bohemia", "Lorraine", footman=2)) == ["RE-MANEUVER-PATH"]


def test_RE_MANEUVER_PATH_through_an_unclaimed_territory_is_forbidden():
    s = blue_turn({"Hungary": held("blue", 1)})     # Bohemia - Bavaria (unclaimed) - Hungary
    assert rules_of(s, maneuver("blue", "Bohemia", "Hungary", footman=2)) == ["RE-MANEUVER-PATH"]


def test_RE_MANEUVER_PATH_units_stop_on_entering_a_dispute():
    """Through own Saxony, disputed: the units would have to stop there."""
    s = blue_turn({"Saxony": disputed("blue", Units(5), "red", Units(2)), "Lorraine": held("blue", 1)})
    assert rules_of(s, maneuver("blue", "Bohemia", "Lorraine", footman=2)) == ["RE-MANEUVER-PATH"]


def test_RE_MANEUVER_PATH_into_a_dispute_two_away_is_allowed():
    s = blue_turn({"Lorraine": disputed("red", Units(2), "blue", Units(1))})
    assert rules_of(s, maneuver("blue", "Bohemia", "Lorraine", footman=2)) == []


def test_RE_MANEUVER_PATH_a_declared_path_must_be_joined_up():
    s = blue_turn({"Lorraine": held("blue", 1), "Poland": held("blue", 1)})
    e = maneuver("blue", "Bohemia", "Lorraine", path=["Poland"], footman=2)
    assert rules_of(s, e) == ["RE-MANEUVER-PATH"]


def test_RE_MANEUVER_PATH_sea_lines_are_part_of_supply_lines():
    s = blue_turn({"England": held("blue", 3), "Lorraine": held("blue", 1)})
    assert rules_of(s, maneuver("blue", "Saxony", "England", footman=2)) == []


# --- RE-MANEUVER-LEAVE ------------------------------------------------------------------------

def test_RE_MANEUVER_LEAVE_a_non_city_territory_may_be_emptied():
    after = fold(blue_turn(), maneuver("blue", "Bohemia", "Saxony", footman=5))
    assert after.terr["Bohemia"] == Terr(since=after.step)       # unclaimed now
    assert after.terr["Saxony"].units == Units(10)


def test_RE_MANEUVER_LEAVE_a_city_territory_keeps_one_unit():
    assert rules_of(blue_turn(), maneuver("blue", "Saxony", "Bohemia", footman=5)) == ["RE-MANEUVER-LEAVE"]
    assert rules_of(blue_turn(), maneuver("blue", "Saxony", "Bohemia", footman=4)) == []


def test_RE_MANEUVER_LEAVE_a_castle_territory_keeps_one_unit():
    s = blue_turn({"Bohemia": held("blue", 5, castle=True)})
    assert rules_of(s, maneuver("blue", "Bohemia", "Saxony", footman=5)) == ["RE-MANEUVER-LEAVE"]
    assert rules_of(s, maneuver("blue", "Bohemia", "Saxony", footman=4)) == []


def test_RE_MANEUVER_FROM_a_defender_leaving_a_dispute_leaves_the_attacker_there():
    """Applied as recorded (judging policy): the attacker's army does not vanish with them."""
    s = blue_turn({"Bohemia": disputed("blue", Units(5), "orange", Units(2))})
    after = fold(s, maneuver("blue", "Bohemia", "Saxony", footman=5), allow=("RE-MANEUVER-FROM",))
    x = after.terr["Bohemia"]
    assert (x.owner, x.units, x.attacker, x.attacker_units) == ("blue", Units(), "orange", Units(2))

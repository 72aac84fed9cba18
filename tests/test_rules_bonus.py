"""Bonus actions (rulebook p.13): Fortify, Siege Assault (and its casualties), and when a bonus
action may be used at all."""

from __future__ import annotations

from engine.risk_europe.state import Terr, Units
from tests.re_helpers import (
    EXPAND_CARD, SIEGE_CARD, TAX_CARD, disputed, ev, fold, held, rules_of, turn_of, with_board,
)


def fortify(actor, territory, **claim):
    return ev("Fortified", actor, territory=territory, **claim)


def siege(actor, frm, target):
    return ev("SiegeAssaulted", actor, from_=frm, target=target)


def dice(actor, *values, **labels):
    return ev("DiceRolled", None, rolls={actor: list(values)}, **labels)


def removed(actor, territory, **units):
    return ev("CasualtiesRemoved", actor, territory=territory, units=units)


def blue_turn(card=EXPAND_CARD, board=None):
    s = turn_of("blue", card)
    return with_board(s, board) if board else s


SIEGE_BOARD = {"Bohemia": held("blue", 3, siege=2), "Poland": held("orange", 4)}


def siege_turn(board=None):
    return blue_turn(SIEGE_CARD, {**SIEGE_BOARD, **(board or {})})


# --- RE-BONUS-CARD ----------------------------------------------------------------------------

def test_RE_BONUS_CARD_the_bonus_on_the_card_is_allowed_before_the_order():
    s = fold(blue_turn(), fortify("blue", "Saxony"))
    assert rules_of(s, ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"footman": 1})) == []


def test_RE_BONUS_CARD_the_bonus_on_the_card_is_allowed_after_the_order():
    s = fold(blue_turn(), ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"footman": 1}))
    assert rules_of(s, fortify("blue", "Saxony")) == []


def test_RE_BONUS_CARD_a_bonus_not_on_the_card_is_forbidden():
    assert rules_of(blue_turn(TAX_CARD), fortify("blue", "Saxony")) == ["RE-BONUS-CARD"]
    assert rules_of(blue_turn(EXPAND_CARD, SIEGE_BOARD), siege("blue", "Bohemia", "Poland")) == ["RE-BONUS-CARD"]


def test_RE_BONUS_CARD_a_bonus_is_used_once():
    s = fold(blue_turn(), fortify("blue", "Saxony"))
    assert rules_of(s, fortify("blue", "Saxony")) == ["RE-BONUS-CARD"]


# --- RE-FORTIFY -------------------------------------------------------------------------------

def test_RE_FORTIFY_three_footmen_in_a_city_territory():
    s = blue_turn(board={"Poland": held("blue", 1)})
    e = fortify("blue", "Warsaw", footmen=3)
    assert rules_of(s, e) == []
    assert fold(s, e).terr["Poland"].units == Units(4)


def test_RE_FORTIFY_four_footmen_in_a_castle_territory():
    s = blue_turn(board={"Bohemia": held("blue", 1, castle=True)})
    assert fold(s, fortify("blue", "Bohemia", footmen=4)).terr["Bohemia"].units == Units(5)


def test_RE_FORTIFY_a_city_with_a_castle_is_a_castle_territory():
    s = blue_turn()
    assert fold(s, fortify("blue", "Saxony")).terr["Saxony"].units == Units(9)


def test_RE_FORTIFY_a_plain_non_city_territory_is_forbidden():
    assert rules_of(blue_turn(), fortify("blue", "Bohemia")) == ["RE-FORTIFY"]


def test_RE_FORTIFY_an_opponents_territory_is_forbidden():
    assert rules_of(blue_turn(), fortify("blue", "Kiev")) == ["RE-FORTIFY"]


def test_RE_FORTIFY_the_defender_of_a_disputed_castle_may_fortify():
    s = blue_turn(board={"Saxony": disputed("blue", Units(2), "orange", Units(5), castle=True)})
    after = fold(s, fortify("blue", "Saxony"))
    assert after.terr["Saxony"].units == Units(6) and after.terr["Saxony"].attacker_units == Units(5)


def test_RE_FORTIFY_the_attacker_in_a_disputed_city_may_not():
    s = blue_turn(board={"Rusland": disputed("orange", Units(2), "blue", Units(5), castle=True)})
    e = fortify("blue", "Kiev")
    assert rules_of(s, e) == ["RE-FORTIFY"]
    assert fold(s, e, allow=("RE-FORTIFY",)).terr["Rusland"].attacker_units == Units(5)


def test_RE_FORTIFY_no_more_footmen_than_the_reserve_holds():
    s = blue_turn(board={"Saxony": held("blue", 30, castle=True), "Bohemia": held("blue", 4)})
    assert rules_of(s, fortify("blue", "Saxony", footmen=1)) == []
    assert rules_of(s, fortify("blue", "Saxony", footmen=4)) == ["RE-CLAIM"]
    assert fold(s, fortify("blue", "Saxony")).terr["Saxony"].units == Units(31)


# --- RE-SIEGE-FROM ----------------------------------------------------------------------------

def test_RE_SIEGE_FROM_a_territory_with_siege_weapons_is_allowed():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"))
    assert s.flow.pending == ("siege_dice", "Bohemia", "Poland", 4)


def test_RE_SIEGE_FROM_a_territory_without_siege_weapons_is_forbidden():
    assert rules_of(siege_turn(), siege("blue", "Saxony", "Poland")) == ["RE-SIEGE-FROM"]


def test_RE_SIEGE_FROM_an_opponents_territory_is_forbidden():
    s = siege_turn({"Galicia": held("orange", 1, siege=1)})
    assert rules_of(s, siege("blue", "Galicia", "Poland")) == ["RE-SIEGE-FROM"]


def test_RE_SIEGE_FROM_a_disputed_territory_is_forbidden():
    s = siege_turn({"Bohemia": disputed("blue", Units(3, siege=2), "red", Units(1))})
    assert rules_of(s, siege("blue", "Bohemia", "Poland")) == ["RE-SIEGE-FROM"]


def test_RE_SIEGE_FROM_a_dispute_the_player_attacks_is_forbidden():
    s = siege_turn({"Highlands": disputed("green", Units(1), "blue", Units(siege=1))})
    assert rules_of(s, siege("blue", "Highlands", "Poland")) == ["RE-SIEGE-FROM"]


# --- RE-SIEGE-TARGET --------------------------------------------------------------------------

def test_RE_SIEGE_TARGET_an_adjacent_enemy_territory_is_allowed():
    s = siege_turn({"Highlands": held("green", 2)})
    assert rules_of(s, siege("blue", "Bohemia", "Highlands")) == []


def test_RE_SIEGE_TARGET_across_a_sea_line_is_forbidden():
    s = siege_turn({"England": held("blue", 1, siege=1), "Lorraine": held("red", 2)})
    assert rules_of(s, siege("blue", "England", "Lorraine")) == ["RE-SIEGE-TARGET"]


def test_RE_SIEGE_TARGET_a_distant_territory_is_forbidden():
    assert rules_of(siege_turn(), siege("blue", "Bohemia", "Galicia")) == ["RE-SIEGE-TARGET"]


def test_RE_SIEGE_TARGET_a_disputed_territory_is_forbidden():
    s = siege_turn({"Poland": disputed("orange", Units(4), "red", Units(2))})
    assert rules_of(s, siege("blue", "Bohemia", "Poland")) == ["RE-SIEGE-TARGET"]


def test_RE_SIEGE_TARGET_own_or_unclaimed_territory_is_forbidden():
    s = siege_turn()
    assert rules_of(s, siege("blue", "Bohemia", "Saxony")) == ["RE-SIEGE-TARGET"]
    assert rules_of(s, siege("blue", "Bohemia", "Bavaria")) == ["RE-SIEGE-TARGET"]


# --- RE-SIEGE-DICE ----------------------------------------------------------------------------

def test_RE_SIEGE_DICE_two_dice_per_weapon_each_3_or_more_hits():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"))
    e = dice("blue", 1, 2, 3, 5)
    assert rules_of(s, e) == []
    assert fold(s, e).flow.pending == ("casualties", "Poland", "orange", 2)


def test_RE_SIEGE_DICE_no_hits_ends_the_assault():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"), dice("blue", 1, 2, 2, 1))
    assert s.flow.pending is None and s.terr["Poland"].units == Units(4)


def test_RE_SIEGE_DICE_hits_beyond_the_units_there_are_capped():
    s = fold(siege_turn({"Poland": held("orange", 1)}), siege("blue", "Bohemia", "Poland"),
             dice("blue", 6, 6, 6, 6))
    assert s.flow.pending == ("casualties", "Poland", "orange", 1)


def test_RE_SIEGE_DICE_the_wrong_number_of_dice_is_forbidden():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"))
    assert rules_of(s, dice("blue", 3, 5)) == ["RE-SIEGE-DICE"]


def test_RE_SIEGE_DICE_no_defence_dice_are_rolled():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"))
    e = ev("DiceRolled", None, rolls={"blue": [1, 2, 3, 5], "orange": [6, 6]})
    assert rules_of(s, e) == ["RE-SIEGE-DICE"]


# --- RE-CASUALTIES ----------------------------------------------------------------------------

def test_RE_CASUALTIES_the_owner_removes_as_many_units_as_hits():
    s = fold(siege_turn({"Poland": held("orange", 4, archer=1)}), siege("blue", "Bohemia", "Poland"),
             dice("blue", 1, 2, 3, 5))
    after = fold(s, removed("orange", "Poland", footman=1, archer=1))
    assert after.terr["Poland"].units == Units(3) and after.flow.pending is None


def test_RE_CASUALTIES_too_few_units_removed_is_forbidden():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"), dice("blue", 1, 2, 3, 5))
    assert rules_of(s, removed("orange", "Poland", footman=1)) == ["RE-CASUALTIES"]


def test_RE_CASUALTIES_the_attacker_does_not_choose():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"), dice("blue", 1, 2, 3, 5))
    assert rules_of(s, removed("blue", "Poland", footman=2)) == ["RE-CASUALTIES"]


def test_RE_CASUALTIES_units_that_are_not_there_cannot_be_removed():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"), dice("blue", 1, 2, 3, 5))
    assert rules_of(s, removed("orange", "Poland", cavalry=2)) == ["RE-CASUALTIES"]


def test_RE_CASUALTIES_none_are_waiting_without_hits():
    assert rules_of(siege_turn(), removed("orange", "Poland", footman=1)) == ["RE-CASUALTIES"]


def test_RE_CASUALTIES_a_siege_that_kills_every_unit_leaves_the_territory_unclaimed():
    """RE-RULING-SIEGE-EMPTIES: nobody's army occupies it any more."""
    s = fold(siege_turn({"Poland": held("orange", 1)}), siege("blue", "Bohemia", "Poland"),
             dice("blue", 6, 1, 1, 1), removed("orange", "Poland", footman=1))
    assert s.terr["Poland"].owner is None and s.terr["Poland"].units == Units()


def test_RE_CASUALTIES_the_turn_waits_for_the_siege_to_be_resolved():
    s = fold(siege_turn(), siege("blue", "Bohemia", "Poland"))
    e = ev("Expanded", "blue", from_="Bohemia", to="Bavaria", units={"footman": 1})
    assert rules_of(s, e) == ["RE-FLOW"]
    assert Terr() == fold(s, e, allow=("RE-FLOW",)).terr["Bavaria"]

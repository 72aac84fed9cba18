"""Expand and split expand (rulebook p.10-11), claiming a city (p.9), disputes (p.15).

Given a position (the default kingdoms of `placed()`: blue Berlin/Saxony 5 + Bohemia 5, orange
Kiev/Rusland 6 + Galicia 4, red Paris/France 6 + Burgundy 4, green Rome 6 + Lombardy 4), when
one expand, then exactly these violations, or this state.
"""

from __future__ import annotations

from engine.risk_europe.common import crowns, has_tile
from engine.risk_europe.state import Terr, Units
from tests.re_helpers import (
    SPLIT_CARD, disputed, ev, fold, held, rules_of, turn_of, with_board,
)


def expand(actor, frm, to, **units):
    return ev("Expanded", actor, from_=frm, to=to, units=units)


def split(actor, frm, *moves):
    return ev("SplitExpanded", actor, from_=frm, moves=[{"to": t, "units": u} for t, u in moves])


def blue_turn(board=None, card="expand-maneuver-fortify-1"):
    s = turn_of("blue", card)
    return with_board(s, board) if board else s


# --- RE-EXPAND-FROM ---------------------------------------------------------------------------

def test_RE_EXPAND_FROM_own_territory_is_allowed():
    assert rules_of(blue_turn(), expand("blue", "Bohemia", "Poland", footman=2)) == []


def test_RE_EXPAND_FROM_an_opponents_territory_is_forbidden():
    s = blue_turn()
    assert rules_of(s, expand("blue", "Galicia", "Poland", footman=2)) == ["RE-EXPAND-FROM"]


def test_RE_EXPAND_FROM_an_unclaimed_territory_is_forbidden():
    assert rules_of(blue_turn(), expand("blue", "Bavaria", "Swabia", footman=1)) == ["RE-EXPAND-FROM"]


def test_RE_EXPAND_FROM_a_dispute_the_player_attacks_is_forbidden():
    """Only the defending player may expand out of a disputed territory."""
    s = blue_turn({"Poland": disputed("orange", Units(2), "blue", Units(5))})
    assert rules_of(s, expand("blue", "Poland", "Prussia", footman=1)) == ["RE-EXPAND-FROM"]


def test_RE_EXPAND_FROM_a_dispute_the_player_defends_is_allowed():
    s = blue_turn({"Bohemia": disputed("blue", Units(5), "orange", Units(2))})
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", footman=3)) == []


# --- RE-EXPAND-UNITS --------------------------------------------------------------------------

def test_RE_EXPAND_UNITS_present_units_may_move():
    assert rules_of(blue_turn(), expand("blue", "Bohemia", "Bavaria", footman=4)) == []


def test_RE_EXPAND_UNITS_more_units_than_present_is_forbidden():
    s = blue_turn()
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", footman=6)) == ["RE-EXPAND-UNITS"]
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", archer=1)) == ["RE-EXPAND-UNITS"]


def test_RE_EXPAND_UNITS_a_skipped_expand_changes_nothing():
    s = blue_turn()
    after = fold(s, expand("blue", "Bohemia", "Bavaria", footman=6), allow=("RE-EXPAND-UNITS",))
    assert after.terr["Bavaria"] == Terr() and after.terr["Bohemia"].units == Units(5)


# --- RE-EXPAND-LEAVE --------------------------------------------------------------------------

def test_RE_EXPAND_LEAVE_one_unit_left_behind_is_allowed():
    s = fold(blue_turn(), expand("blue", "Bohemia", "Bavaria", footman=4))
    assert s.terr["Bohemia"].units == Units(1) and s.terr["Bavaria"] == held("blue", 4, since=s.step)


def test_RE_EXPAND_LEAVE_emptying_the_territory_is_forbidden():
    assert rules_of(blue_turn(), expand("blue", "Bohemia", "Bavaria", footman=5)) == ["RE-EXPAND-LEAVE"]


def test_RE_EXPAND_LEAVE_zero_units_can_be_the_number_moved():
    """"(0 can be a number moved)": the order is played, nothing moves."""
    s = fold(blue_turn(), expand("blue", "Bohemia", "Bavaria"))
    assert s.terr["Bavaria"] == Terr() and s.flow.order_done == "expand"


# --- RE-EXPAND-DEFENDER-LEAVE -----------------------------------------------------------------

def test_RE_EXPAND_DEFENDER_LEAVE_as_many_as_the_attacker_is_allowed():
    s = blue_turn({"Bohemia": disputed("blue", Units(5), "orange", Units(3))})
    after = fold(s, expand("blue", "Bohemia", "Bavaria", footman=2))
    assert after.terr["Bohemia"].units == Units(3)
    assert after.terr["Bohemia"].attacker_units == Units(3)


def test_RE_EXPAND_DEFENDER_LEAVE_fewer_than_the_attacker_is_forbidden():
    s = blue_turn({"Bohemia": disputed("blue", Units(5), "orange", Units(3))})
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", footman=3)) == ["RE-EXPAND-DEFENDER-LEAVE"]


def test_RE_EXPAND_DEFENDER_LEAVE_counts_units_not_footmen():
    s = blue_turn({"Bohemia": disputed("blue", Units(4, archer=1), "orange", Units(1, cavalry=2))})
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", footman=2)) == []
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", footman=3)) == ["RE-EXPAND-DEFENDER-LEAVE"]


# --- RE-EXPAND-ADJACENT -----------------------------------------------------------------------

def test_RE_EXPAND_ADJACENT_across_a_border_is_allowed():
    assert rules_of(blue_turn(), expand("blue", "Bohemia", "Highlands", footman=1)) == []


def test_RE_EXPAND_ADJACENT_across_a_sea_line_is_allowed():
    s = blue_turn({"England": held("blue", 4)})
    assert rules_of(s, expand("blue", "England", "Lorraine", footman=2)) == []


def test_RE_EXPAND_ADJACENT_a_distant_territory_is_forbidden():
    s = blue_turn()
    assert rules_of(s, expand("blue", "Bohemia", "Hungary", footman=1)) == ["RE-EXPAND-ADJACENT"]


# --- RE-EXPAND-TARGET -------------------------------------------------------------------------

def test_RE_EXPAND_TARGET_unclaimed_or_opponents_territory_is_allowed():
    s = blue_turn({"Highlands": held("green", 2)})
    assert rules_of(s, expand("blue", "Bohemia", "Bavaria", footman=1)) == []
    assert rules_of(s, expand("blue", "Bohemia", "Highlands", footman=1)) == []


def test_RE_EXPAND_TARGET_own_territory_is_forbidden():
    assert rules_of(blue_turn(), expand("blue", "Bohemia", "Saxony", footman=1)) == ["RE-EXPAND-TARGET"]


def test_RE_EXPAND_TARGET_a_dispute_the_player_is_in_is_forbidden():
    """Units are moved into a dispute with a maneuver order, not an expand."""
    s = blue_turn({"Poland": disputed("orange", Units(2), "blue", Units(1))})
    assert rules_of(s, expand("blue", "Bohemia", "Poland", footman=1)) == ["RE-EXPAND-TARGET"]


def test_RE_EXPAND_TARGET_a_third_player_cannot_enter_a_dispute():
    """"A third player's army may not enter a disputed territory for any reason." Skipped."""
    s = blue_turn({"Poland": disputed("orange", Units(2), "red", Units(3))})
    e = expand("blue", "Bohemia", "Poland", footman=2)
    assert rules_of(s, e) == ["RE-EXPAND-TARGET"]
    after = fold(s, e, allow=("RE-EXPAND-TARGET",))
    assert after.terr["Poland"] == s.terr["Poland"] and after.terr["Bohemia"].units == Units(5)


# --- RE-EXPAND-CASTLE -------------------------------------------------------------------------

def test_RE_EXPAND_CASTLE_needs_a_siege_weapon():
    s = blue_turn({"Poland": held("orange", 2, castle=True)})
    assert rules_of(s, expand("blue", "Bohemia", "Poland", footman=3)) == ["RE-EXPAND-CASTLE"]


def test_RE_EXPAND_CASTLE_with_siege_is_allowed():
    s = blue_turn({"Bohemia": held("blue", 3, siege=1), "Poland": held("orange", 2, castle=True)})
    assert rules_of(s, expand("blue", "Bohemia", "Poland", footman=2, siege=1)) == []


def test_RE_EXPAND_CASTLE_split_expand_checks_each_army():
    s = blue_turn({"Bohemia": held("blue", 3, siege=1), "Poland": held("orange", 2, castle=True),
                   "Highlands": held("green", 1, castle=True)}, card=SPLIT_CARD)
    e = split("blue", "Bohemia", ("Poland", {"siege": 1}), ("Highlands", {"footman": 2}))
    assert rules_of(s, e) == ["RE-EXPAND-CASTLE"]


def test_RE_EXPAND_CASTLE_an_unclaimed_castle_is_claimed_by_any_unit():
    s = blue_turn({"Bavaria": Terr(castle=True)})
    after = fold(s, expand("blue", "Bohemia", "Bavaria", footman=1))
    assert after.terr["Bavaria"].owner == "blue" and after.terr["Bavaria"].castle


def test_RE_EXPAND_CASTLE_is_applied_as_recorded_when_broken():
    """Judging policy: a castle entered without a Siege Weapon is reported and the attack stands."""
    s = blue_turn({"Poland": held("orange", 2, castle=True)})
    after = fold(s, expand("blue", "Bohemia", "Poland", footman=3), allow=("RE-EXPAND-CASTLE",))
    assert after.terr["Poland"].attacker == "blue" and after.terr["Poland"].attacker_units == Units(3)


# --- RE-SPLIT-TARGETS -------------------------------------------------------------------------

def test_RE_SPLIT_TARGETS_two_different_adjacent_territories_are_allowed():
    s = fold(blue_turn(card=SPLIT_CARD),
             split("blue", "Bohemia", ("Bavaria", {"footman": 2}), ("Highlands", {"footman": 2})))
    assert s.terr["Bavaria"].owner == s.terr["Highlands"].owner == "blue"
    assert s.terr["Bohemia"].units == Units(1)


def test_RE_SPLIT_TARGETS_one_territory_is_allowed():
    s = blue_turn(card=SPLIT_CARD)
    assert rules_of(s, split("blue", "Bohemia", ("Bavaria", {"footman": 2}))) == []


def test_RE_SPLIT_TARGETS_the_same_territory_twice_is_forbidden():
    s = blue_turn(card=SPLIT_CARD)
    e = split("blue", "Bohemia", ("Bavaria", {"footman": 2}), ("Bavaria", {"footman": 1}))
    assert rules_of(s, e) == ["RE-SPLIT-TARGETS"]


def test_RE_SPLIT_TARGETS_both_must_be_adjacent_and_one_unit_stays():
    s = blue_turn(card=SPLIT_CARD)
    assert rules_of(s, split("blue", "Bohemia", ("Bavaria", {"footman": 2}),
                             ("Swabia", {"footman": 2}))) == ["RE-EXPAND-ADJACENT"]
    assert rules_of(s, split("blue", "Bohemia", ("Bavaria", {"footman": 2}),
                             ("Highlands", {"footman": 3}))) == ["RE-EXPAND-LEAVE"]


# --- RE-CLAIM-CITY ----------------------------------------------------------------------------

def test_RE_CLAIM_CITY_an_unclaimed_city_gives_crown_and_tax_value():
    s = blue_turn()
    coins, before = s.players["blue"].coins, crowns(s, "blue")
    after = fold(s, expand("blue", "Bohemia", "Poland", footman=2))
    assert after.players["blue"].coins == coins + 2          # Warsaw's Tax Value
    assert crowns(after, "blue") == before + 1
    assert after.terr["Poland"].owner == "blue"


def test_RE_CLAIM_CITY_a_gold_crown_city_also_gives_its_tile():
    s = blue_turn({"Denmark": held("blue", 3)})
    after = fold(s, expand("blue", "Denmark", "Sweden", footman=2))
    assert after.terr["Sweden"].owner == "blue"
    assert after.players["blue"].coins == s.players["blue"].coins + 3    # Stockholm
    assert after.terr["Sweden"].since == after.step                      # tile: from the next turn
    assert not has_tile(after, "blue", "Stockholm")


def test_RE_CLAIM_CITY_a_non_city_territory_gives_no_coins_nor_crown():
    s = blue_turn()
    after = fold(s, expand("blue", "Bohemia", "Bavaria", footman=2))
    assert after.players["blue"].coins == s.players["blue"].coins
    assert crowns(after, "blue") == crowns(s, "blue")


def test_RE_CLAIM_CITY_an_opponents_city_is_not_claimed_by_expanding():
    s = blue_turn({"Hungary": held("orange", 1), "Bavaria": held("blue", 4)})
    after = fold(s, expand("blue", "Bavaria", "Hungary", footman=3))
    assert after.players["blue"].coins == s.players["blue"].coins
    assert crowns(after, "blue") == crowns(s, "blue") and crowns(after, "orange") == crowns(s, "orange")


# --- RE-DISPUTE -------------------------------------------------------------------------------

def test_RE_DISPUTE_expanding_into_an_opponent_makes_a_dispute():
    s = blue_turn({"Galicia": held("orange", 4), "Poland": held("blue", 4)})
    after = fold(s, expand("blue", "Poland", "Galicia", footman=3))
    x = after.terr["Galicia"]
    assert (x.owner, x.units, x.attacker, x.attacker_units) == ("orange", Units(4), "blue", Units(3))
    assert x.is_disputed


def test_RE_DISPUTE_the_defender_keeps_city_and_castle_until_the_battle():
    s = blue_turn({"Poland": held("blue", 4, siege=1)})
    after = fold(s, expand("blue", "Poland", "Rusland", footman=2, siege=1))
    x = after.terr["Rusland"]
    assert x.owner == "orange" and x.castle and x.attacker == "blue"
    assert crowns(after, "orange") == 1 and has_tile(after, "orange", "Kiev")
    assert not has_tile(after, "blue", "Kiev")


def test_RE_DISPUTE_claiming_an_unclaimed_territory_is_no_dispute():
    after = fold(blue_turn(), expand("blue", "Bohemia", "Bavaria", footman=2))
    assert not after.terr["Bavaria"].is_disputed and after.terr["Bavaria"].attacker is None

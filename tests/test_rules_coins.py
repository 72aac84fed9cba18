"""Tax (rulebook p.12) and Spend (p.14): supply lines, disputes, placement of recruits, the army
reserve, castles and Crown Cards."""

from __future__ import annotations

import pytest

from engine.risk_europe.common import crowns, reserve
from engine.risk_europe.state import Units
from tests.re_helpers import (
    ROUND_CARDS, TAX_CARD, disputed, ev, finish_turns, fold, held, reveal_to, rules_of, turn_of,
    with_board, with_player,
)


def tax(actor, city, **claim):
    return ev("Taxed", actor, city=city, **claim)


def spend(actor, *purchases):
    return ev("Spent", actor, purchases=[dict(item=i, territory=t, count=n) if t else dict(item=i, count=n)
                                         for i, t, n in purchases])


def on_tax_card(player="blue", board=None, coins=None):
    s = turn_of(player, TAX_CARD)
    if board:
        s = with_board(s, board)
    if coins is not None:
        s = with_player(s, player, coins=coins)
    return s


def coins_after(s, e, player="blue"):
    return fold(s, e).players[player].coins - s.players[player].coins


# --- RE-TAX-CITY ------------------------------------------------------------------------------

def test_RE_TAX_CITY_a_city_the_player_controls_is_allowed():
    assert rules_of(on_tax_card(), tax("blue", "Berlin")) == []


def test_RE_TAX_CITY_named_by_its_territory_is_allowed():
    assert rules_of(on_tax_card(), tax("blue", "Saxony")) == []


def test_RE_TAX_CITY_an_opponents_city_is_forbidden():
    assert rules_of(on_tax_card(), tax("blue", "Kiev")) == ["RE-TAX-CITY"]


def test_RE_TAX_CITY_a_non_city_territory_is_forbidden():
    assert rules_of(on_tax_card(), tax("blue", "Bohemia")) == ["RE-TAX-CITY"]


def test_RE_TAX_CITY_an_unclaimed_city_is_forbidden():
    assert rules_of(on_tax_card(), tax("blue", "Warsaw")) == ["RE-TAX-CITY"]


# --- RE-TAX-AMOUNT ----------------------------------------------------------------------------

def test_RE_TAX_AMOUNT_full_city_value_plus_one_per_non_city_territory():
    s = on_tax_card()                                     # Berlin 4 + Bohemia 1
    assert coins_after(s, tax("blue", "Berlin")) == 5


def test_RE_TAX_AMOUNT_every_connected_city_pays_its_full_value():
    s = on_tax_card(board={"Poland": held("blue", 1), "Hungary": held("blue", 1), "Highlands": held("blue", 1)})
    assert coins_after(s, tax("blue", "Warsaw")) == 4 + 1 + 2 + 3 + 1   # Berlin, Bohemia, Warsaw, Buda, Highlands


def test_RE_TAX_AMOUNT_territories_not_connected_pay_nothing():
    s = on_tax_card(board={"Hungary": held("blue", 1)})   # Buda is cut off from Berlin
    assert coins_after(s, tax("blue", "Berlin")) == 5
    assert coins_after(s, tax("blue", "Buda")) == 3


def test_RE_TAX_AMOUNT_disputed_territories_pay_nothing():
    s = on_tax_card(board={"Bohemia": disputed("blue", Units(5), "orange", Units(1))})
    assert coins_after(s, tax("blue", "Berlin")) == 4


def test_RE_TAX_AMOUNT_a_disputed_city_collects_nothing():
    s = on_tax_card(board={"Saxony": disputed("blue", Units(5), "orange", Units(1))})
    assert rules_of(s, tax("blue", "Berlin")) == []
    assert coins_after(s, tax("blue", "Berlin")) == 0


def test_RE_TAX_AMOUNT_a_dispute_splits_the_supply_line():
    s = on_tax_card(board={"Bohemia": disputed("blue", Units(5), "orange", Units(1)),
                           "Poland": held("blue", 1), "Galicia": held("blue", 1)})
    assert coins_after(s, tax("blue", "Berlin")) == 4
    assert coins_after(s, tax("blue", "Warsaw")) == 2 + 1


def test_RE_TAX_AMOUNT_a_territory_the_player_attacks_pays_nothing():
    s = on_tax_card(board={"Poland": disputed("orange", Units(1), "blue", Units(3))})
    assert coins_after(s, tax("blue", "Berlin")) == 5


def test_RE_TAX_AMOUNT_sea_lines_connect_supply_lines():
    s = on_tax_card(board={"Lorraine": held("blue", 1), "England": held("blue", 1)})
    assert coins_after(s, tax("blue", "London")) == 3 + 1 + 4 + 1      # London, Lorraine, Berlin, Bohemia


def test_RE_TAX_AMOUNT_a_wrong_claim_is_reported_and_the_rules_value_used():
    s = on_tax_card()
    e = tax("blue", "Berlin", coins=9)
    assert rules_of(s, e) == ["RE-CLAIM"]
    assert fold(s, e, allow=("RE-CLAIM",)).players["blue"].coins == s.players["blue"].coins + 5


# --- RE-SPEND-COST ----------------------------------------------------------------------------

@pytest.mark.parametrize("item, territory, cost", [
    ("footman", "France", 1), ("archer", "France", 2), ("cavalry", "France", 3),
    ("siege", "France", 10), ("castle", "Burgundy", 12), ("crown_card", None, 10),
])
def test_RE_SPEND_COST_each_item_has_its_price(item, territory, cost):
    s = on_tax_card("red", coins=30)
    e = spend("red", (item, territory, 1))
    assert rules_of(s, e) == []
    assert coins_after(s, e, "red") == -cost


def test_RE_SPEND_COST_all_the_coins_may_be_spent():
    s = on_tax_card(coins=7)
    e = spend("blue", ("archer", "Saxony", 2), ("cavalry", "Saxony", 1))
    assert rules_of(s, e) == [] and fold(s, e).players["blue"].coins == 0


def test_RE_SPEND_COST_more_than_the_player_holds_is_forbidden():
    s = on_tax_card(coins=7)
    e = spend("blue", ("cavalry", "Saxony", 2), ("archer", "Saxony", 1))
    assert rules_of(s, e) == ["RE-SPEND-COST"]
    assert fold(s, e, allow=("RE-SPEND-COST",)).terr["Saxony"].units == Units(5)     # skipped


def test_RE_SPEND_COST_a_wrong_claim_is_reported():
    s = on_tax_card(coins=7)
    assert rules_of(s, ev("Spent", "blue", purchases=[{"item": "archer", "territory": "Saxony"}],
                          coins=3)) == ["RE-CLAIM"]


# --- RE-SPEND-PLACE ---------------------------------------------------------------------------

def test_RE_SPEND_PLACE_a_city_territory_is_allowed():
    after = fold(on_tax_card(coins=7), spend("blue", ("footman", "Berlin", 3)))
    assert after.terr["Saxony"].units == Units(8)


def test_RE_SPEND_PLACE_recruits_may_be_dispersed():
    s = on_tax_card(coins=7, board={"Bohemia": held("blue", 5, castle=True)})
    after = fold(s, spend("blue", ("footman", "Saxony", 1), ("archer", "Bohemia", 1)))
    assert after.terr["Saxony"].units == Units(6) and after.terr["Bohemia"].units == Units(5, 1)


def test_RE_SPEND_PLACE_a_plain_non_city_territory_is_forbidden():
    assert rules_of(on_tax_card(coins=7), spend("blue", ("footman", "Bohemia", 1))) == ["RE-SPEND-PLACE"]


def test_RE_SPEND_PLACE_a_castle_built_first_allows_remote_recruitment():
    s = on_tax_card(coins=20)
    assert rules_of(s, spend("blue", ("castle", "Bohemia", 1), ("footman", "Bohemia", 2))) == []


def test_RE_SPEND_PLACE_a_disputed_territory_is_forbidden():
    s = on_tax_card(coins=7, board={"Saxony": disputed("blue", Units(5), "orange", Units(1), castle=True)})
    assert rules_of(s, spend("blue", ("footman", "Saxony", 1))) == ["RE-SPEND-PLACE"]


def test_RE_SPEND_PLACE_an_opponents_territory_is_forbidden():
    assert rules_of(on_tax_card(coins=7), spend("blue", ("footman", "Kiev", 1))) == ["RE-SPEND-PLACE"]


# --- RE-SPEND-RESERVE -------------------------------------------------------------------------

@pytest.mark.parametrize("item, limit", [("footman", 35), ("archer", 12), ("cavalry", 12), ("siege", 4)])
def test_RE_SPEND_RESERVE_the_whole_reserve_may_be_recruited(item, limit):
    s = on_tax_card(coins=500, board={"Saxony": held("blue", 1, castle=True), "Bohemia": held("blue", 1)})
    on_board = getattr(Units(2), item)
    assert getattr(reserve(s, "blue"), item) == limit - on_board
    after = fold(s, spend("blue", (item, "Saxony", limit - on_board)))
    assert getattr(reserve(after, "blue"), item) == 0


@pytest.mark.parametrize("item, limit", [("footman", 35), ("archer", 12), ("cavalry", 12), ("siege", 4)])
def test_RE_SPEND_RESERVE_more_than_the_army_reserve_is_forbidden(item, limit):
    s = on_tax_card(coins=500, board={"Saxony": held("blue", 1, castle=True), "Bohemia": held("blue", 1)})
    on_board = getattr(Units(2), item)
    assert rules_of(s, spend("blue", (item, "Saxony", limit - on_board + 1))) == ["RE-SPEND-RESERVE"]


def test_RE_SPEND_RESERVE_units_attacking_elsewhere_are_not_in_the_reserve():
    s = on_tax_card(coins=500, board={"Poland": disputed("orange", Units(1), "blue", Units(archer=10))})
    assert rules_of(s, spend("blue", ("archer", "Saxony", 2))) == []
    assert rules_of(s, spend("blue", ("archer", "Saxony", 3))) == ["RE-SPEND-RESERVE"]


# --- RE-SPEND-CASTLE --------------------------------------------------------------------------

def test_RE_SPEND_CASTLE_a_castle_in_a_territory_the_player_controls():
    s = on_tax_card("red", coins=12, board={"Burgundy": held("red", 4)})
    after = fold(s, spend("red", ("castle", "Burgundy", 1)))
    assert after.terr["Burgundy"].castle and after.castles_left == s.castles_left - 1
    assert after.players["red"].coins == 0


def test_RE_SPEND_CASTLE_one_castle_per_territory():
    s = on_tax_card(coins=30)
    assert rules_of(s, spend("blue", ("castle", "Saxony", 1))) == ["RE-SPEND-CASTLE"]
    assert rules_of(s, spend("blue", ("castle", "Bohemia", 2))) == ["RE-SPEND-CASTLE"]


def test_RE_SPEND_CASTLE_not_in_a_disputed_territory():
    s = on_tax_card(coins=30, board={"Bohemia": disputed("blue", Units(5), "orange", Units(1))})
    assert rules_of(s, spend("blue", ("castle", "Bohemia", 1))) == ["RE-SPEND-CASTLE"]


def test_RE_SPEND_CASTLE_only_eight_castles_exist():
    from dataclasses import replace
    s = on_tax_card(coins=30)
    assert s.castles_left == 4                            # one in each starting city
    assert rules_of(replace(s, castles_left=1), spend("blue", ("castle", "Bohemia", 1))) == []
    assert rules_of(replace(s, castles_left=0), spend("blue", ("castle", "Bohemia", 1))) == ["RE-SPEND-CASTLE"]


def test_RE_SPEND_CASTLE_not_in_an_opponents_territory():
    assert rules_of(on_tax_card(coins=30), spend("blue", ("castle", "Galicia", 1))) == ["RE-SPEND-PLACE"]


# --- RE-SPEND-CROWN-CARD ----------------------------------------------------------------------

def test_RE_SPEND_CROWN_CARD_one_per_round_moves_the_banner():
    s = on_tax_card(coins=10)
    after = fold(s, spend("blue", ("crown_card", None, 1)))
    assert after.players["blue"].crown_cards == 1 and crowns(after, "blue") == crowns(s, "blue") + 1
    assert after.crown_cards_left == 7 and after.players["blue"].coins == 0


def test_RE_SPEND_CROWN_CARD_two_at_once_is_forbidden():
    s = on_tax_card(coins=20)
    assert rules_of(s, spend("blue", ("crown_card", None, 2))) == ["RE-SPEND-CROWN-CARD"]


def test_RE_SPEND_CROWN_CARD_a_second_in_the_same_round_is_forbidden():
    """"Each player is limited to one Crown Card purchase per round (even if spend orders are
    played for both turns).\""""
    s = fold(on_tax_card(coins=20), spend("blue", ("crown_card", None, 1)))
    s = reveal_to(s, "blue", turn=2)
    assert s.flow.card == "tax-spend-2" and s.flow.round == 1
    assert rules_of(s, spend("blue", ("crown_card", None, 1))) == ["RE-SPEND-CROWN-CARD"]


def test_RE_SPEND_CROWN_CARD_one_again_in_the_next_round_is_allowed():
    s = fold(on_tax_card(coins=20), spend("blue", ("crown_card", None, 1)))
    s = finish_turns(s)
    s = turn_of("blue", "tax-spend-king", s, bottom="expand-maneuver-fortify-2", cards=ROUND_CARDS[1])
    assert s.flow.round == 2
    assert rules_of(s, spend("blue", ("crown_card", None, 1))) == []


def test_RE_SPEND_CROWN_CARD_only_eight_in_the_game():
    from dataclasses import replace
    s = on_tax_card(coins=20)
    assert rules_of(replace(s, crown_cards_left=0), spend("blue", ("crown_card", None, 1))) == ["RE-SPEND-CROWN-CARD"]


def test_RE_SPEND_CROWN_CARD_is_not_placed_on_the_board():
    s = on_tax_card(coins=20)
    assert rules_of(s, spend("blue", ("crown_card", "Saxony", 1))) == ["RE-SPEND-CROWN-CARD"]

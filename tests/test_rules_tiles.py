"""City Bonus Tiles (rulebook p.22): each tile's bonus, and when a tile taken over starts to work."""

from __future__ import annotations

from engine.risk_europe.common import has_tile
from engine.risk_europe.state import Terr, Units
from tests.re_helpers import (
    SIEGE_CARD, SPLIT_CARD, TAX_CARD, disputed, ev, fold,
    held, in_battles, placed, reveal_to, rules_of, turn_of, with_board, with_player,
)


def expand(actor, frm, to, **units):
    return ev("Expanded", actor, from_=frm, to=to, units=units)


def maneuver(actor, frm, to, **units):
    return ev("Maneuvered", actor, from_=frm, to=to, units=units)


def spend(actor, item, territory=None, count=1):
    p = {"item": item, "count": count}
    if territory:
        p["territory"] = territory
    return ev("Spent", actor, purchases=[p])


def win_battle(s, territory, attacker, defender):
    """Blue (the marker) starts the battle; the attacker's 6 beats the defender's lone Footman."""
    return fold(s, ev("BattleStarted", "blue", territory=territory),
                ev("DiceRolled", None, rolls={attacker: [6], defender: [1]}),
                ev("CasualtiesRemoved", defender, territory=territory, units={"footman": 1}))


# --- RE-TILE-TIMING ---------------------------------------------------------------------------

def test_RE_TILE_TIMING_a_starting_city_tile_works_from_the_first_turn():
    s = turn_of("blue")
    assert has_tile(s, "blue", "Berlin") and has_tile(s, "orange", "Kiev")


def test_RE_TILE_TIMING_not_in_the_turn_the_city_was_taken():
    """Berlin claimed by an expand: no free maneuver after that same expand."""
    s = turn_of("orange", state=with_board(placed(), {"Saxony": Terr(castle=True), "Bohemia": held("orange", 3)}))
    s = fold(s, expand("orange", "Bohemia", "Saxony", footman=2))
    assert s.terr["Saxony"].owner == "orange" and not has_tile(s, "orange", "Berlin")
    assert rules_of(s, maneuver("orange", "Saxony", "Bohemia", footman=1)) == ["RE-ORDER-ON-CARD"]


def test_RE_TILE_TIMING_from_the_holders_next_turn():
    s = turn_of("orange", state=with_board(placed(), {"Saxony": Terr(castle=True), "Bohemia": held("orange", 3)}))
    s = fold(s, expand("orange", "Bohemia", "Saxony", footman=2))
    s = with_player(reveal_to(s, "orange", turn=2), "orange", coins=9)
    assert has_tile(s, "orange", "Berlin")
    assert rules_of(s, spend("orange", "castle", "Galicia")) == []       # Berlin: a castle for 9


def test_RE_TILE_TIMING_a_claimed_tile_works_once_the_turn_is_over():
    s = fold(turn_of("blue", state=with_board(placed(), {"Denmark": held("blue", 3)})),
             expand("blue", "Denmark", "Sweden", footman=2))
    assert not has_tile(s, "blue", "Stockholm")
    s = reveal_to(s, "orange")
    assert has_tile(s, "blue", "Stockholm") and not has_tile(s, "orange", "Stockholm")


def test_RE_TILE_TIMING_a_tile_taken_in_battle_follows_its_city():
    board = {"Rusland": disputed("orange", Units(1), "blue", Units(2, siege=1), castle=True),
             "Poland": held("blue", 1)}
    s = in_battles(with_board(placed(), board))
    s = fold(s, ev("BattleStarted", "blue", territory="Rusland"),
             ev("DiceRolled", None, rolls={"blue": [3, 1]}),
             ev("CasualtiesRemoved", "orange", territory="Rusland", units={"footman": 1}))
    assert s.terr["Rusland"].owner == "blue"
    assert has_tile(s, "blue", "Kiev") and not has_tile(s, "orange", "Kiev")      # next round
    s = turn_of("blue", TAX_CARD, s, cards={p: ("tax-spend-2", "split-maneuver-1") for p in s.flow.order})
    assert rules_of(s, spend("blue", "footman", "Bohemia")) == []   # Kiev: Bohemia-Poland-Rusland


# --- RE-TILE-STOCKHOLM ------------------------------------------------------------------------

STOCKHOLM = {"Sweden": held("blue", 2)}


def test_RE_TILE_STOCKHOLM_four_coins_for_an_attack_won():
    s = in_battles(with_board(placed(), {**STOCKHOLM, "Poland": disputed("orange", Units(1), "blue", Units(1))}))
    coins = s.players["blue"].coins
    assert win_battle(s, "Poland", "blue", "orange").players["blue"].coins == coins + 4


def test_RE_TILE_STOCKHOLM_nothing_for_an_attack_lost():
    s = in_battles(with_board(placed(), {**STOCKHOLM, "Poland": disputed("orange", Units(1), "blue", Units(1))}))
    coins = s.players["blue"].coins
    s = fold(s, ev("BattleStarted", "blue", territory="Poland"),
             ev("DiceRolled", None, rolls={"blue": [1], "orange": [1]}),
             ev("CasualtiesRemoved", "blue", territory="Poland", units={"footman": 1}))
    assert s.players["blue"].coins == coins


def test_RE_TILE_STOCKHOLM_nothing_for_a_defence_won():
    s = in_battles(with_board(placed(), {**STOCKHOLM, "Bohemia": disputed("blue", Units(1), "orange", Units(1))}))
    coins = s.players["blue"].coins
    assert win_battle(s, "Bohemia", "blue", "orange").players["blue"].coins == coins


def test_RE_TILE_STOCKHOLM_nothing_without_the_tile():
    s = in_battles(with_board(placed(), {"Poland": disputed("orange", Units(1), "blue", Units(1))}))
    coins = s.players["blue"].coins
    assert win_battle(s, "Poland", "blue", "orange").players["blue"].coins == coins


def test_RE_TILE_STOCKHOLM_not_for_a_siege_assault():
    s = turn_of("blue", SIEGE_CARD, with_board(placed(), {**STOCKHOLM, "Bohemia": held("blue", 2, siege=1),
                                                           "Poland": held("orange", 1)}))
    coins = s.players["blue"].coins
    s = fold(s, ev("SiegeAssaulted", "blue", from_="Bohemia", target="Poland"),
             ev("DiceRolled", None, rolls={"blue": [6, 6]}),
             ev("CasualtiesRemoved", "orange", territory="Poland", units={"footman": 1}))
    assert s.terr["Poland"].owner is None and s.players["blue"].coins == coins


# --- RE-TILE-BERLIN ---------------------------------------------------------------------------

def test_RE_TILE_BERLIN_a_free_maneuver_after_an_expand():
    s = fold(turn_of("blue"), expand("blue", "Bohemia", "Bavaria", footman=2))
    e = maneuver("blue", "Saxony", "Bohemia", footman=3)
    assert rules_of(s, e) == []
    after = fold(s, e)
    assert after.terr["Bohemia"].units == Units(6) and after.flow.berlin_used


def test_RE_TILE_BERLIN_a_free_maneuver_after_a_split_expand():
    s = fold(turn_of("blue", SPLIT_CARD),
             ev("SplitExpanded", "blue", from_="Bohemia", moves=[{"to": "Bavaria", "units": {"footman": 1}}]))
    assert rules_of(s, maneuver("blue", "Saxony", "Bohemia", footman=3)) == []


def test_RE_TILE_BERLIN_no_free_maneuver_without_the_tile():
    s = fold(turn_of("orange"), expand("orange", "Galicia", "Poland", footman=2))
    assert rules_of(s, maneuver("orange", "Rusland", "Galicia", footman=1)) == ["RE-ORDER-ON-CARD"]


def test_RE_TILE_BERLIN_no_free_maneuver_after_other_orders():
    s = fold(turn_of("blue", TAX_CARD), ev("Taxed", "blue", city="Berlin"))
    assert rules_of(s, maneuver("blue", "Saxony", "Bohemia", footman=1)) == ["RE-ORDER-ON-CARD"]


def test_RE_TILE_BERLIN_one_free_maneuver_per_expand():
    s = fold(turn_of("blue"), expand("blue", "Bohemia", "Bavaria", footman=2),
             maneuver("blue", "Saxony", "Bohemia", footman=1))
    assert rules_of(s, maneuver("blue", "Saxony", "Bohemia", footman=1)) == ["RE-ORDER-ON-CARD"]


def test_RE_TILE_BERLIN_the_free_maneuver_comes_after_all_other_actions():
    s = fold(turn_of("blue"), expand("blue", "Bohemia", "Bavaria", footman=2),
             maneuver("blue", "Saxony", "Bohemia", footman=1))
    assert rules_of(s, ev("Fortified", "blue", territory="Saxony")) == ["RE-BONUS-CARD"]


def test_RE_TILE_BERLIN_the_free_maneuver_follows_the_maneuver_rules():
    s = fold(turn_of("blue"), expand("blue", "Bohemia", "Bavaria", footman=2))
    assert rules_of(s, maneuver("blue", "Saxony", "Bavaria", footman=5)) == ["RE-MANEUVER-LEAVE"]


def test_RE_TILE_BERLIN_castles_cost_three_coins_less():
    s = with_player(turn_of("blue", TAX_CARD), "blue", coins=9)
    after = fold(s, spend("blue", "castle", "Bohemia"))
    assert after.players["blue"].coins == 0 and after.terr["Bohemia"].castle


def test_RE_TILE_BERLIN_without_the_tile_castles_cost_twelve():
    s = with_player(turn_of("orange", TAX_CARD), "orange", coins=11)
    assert rules_of(s, spend("orange", "castle", "Galicia")) == ["RE-SPEND-COST"]


# --- RE-TILE-CONSTANTINOPLE -------------------------------------------------------------------

CONSTANTINOPLE = {"Turkey": held("green", 1, castle=True)}


def test_RE_TILE_CONSTANTINOPLE_four_free_footmen_with_each_siege_weapon():
    s = with_player(turn_of("green", TAX_CARD, with_board(placed(), CONSTANTINOPLE)), "green", coins=20)
    after = fold(s, ev("Spent", "green", purchases=[{"item": "siege", "territory": "Rome", "count": 2}]))
    assert after.terr["Rome"].units == Units(6 + 8, siege=2) and after.players["green"].coins == 0


def test_RE_TILE_CONSTANTINOPLE_no_escort_without_the_tile():
    s = with_player(turn_of("green", TAX_CARD), "green", coins=10)
    assert fold(s, spend("green", "siege", "Rome")).terr["Rome"].units == Units(6, siege=1)


def test_RE_TILE_CONSTANTINOPLE_no_escort_for_other_units():
    s = with_player(turn_of("green", TAX_CARD, with_board(placed(), CONSTANTINOPLE)), "green", coins=10)
    assert fold(s, spend("green", "cavalry", "Rome")).terr["Rome"].units == Units(6, cavalry=1)


def test_RE_TILE_CONSTANTINOPLE_the_escort_comes_from_the_reserve():
    board = {**CONSTANTINOPLE, "Rome": held("green", 28, castle=True)}        # 33 Footmen on the board
    s = with_player(turn_of("green", TAX_CARD, with_board(placed(), board)), "green", coins=10)
    assert fold(s, spend("green", "siege", "Rome")).terr["Rome"].units == Units(30, siege=1)


# --- RE-TILE-KIEV -----------------------------------------------------------------------------

def test_RE_TILE_KIEV_recruits_in_a_connected_non_city_territory():
    s = with_board(turn_of("orange", TAX_CARD), {"Poland": held("orange", 1), "Prussia": held("orange", 1)})
    assert rules_of(s, spend("orange", "footman", "Galicia")) == []
    assert rules_of(s, spend("orange", "footman", "Prussia")) == []      # through Poland


def test_RE_TILE_KIEV_not_in_a_territory_cut_off_from_kiev():
    s = with_board(turn_of("orange", TAX_CARD), {"Bavaria": held("orange", 1)})
    assert rules_of(s, spend("orange", "footman", "Bavaria")) == ["RE-SPEND-PLACE"]


def test_RE_TILE_KIEV_not_in_a_disputed_territory():
    s = with_board(turn_of("orange", TAX_CARD), {"Galicia": disputed("orange", Units(4), "blue", Units(1))})
    assert rules_of(s, spend("orange", "footman", "Galicia")) == ["RE-SPEND-PLACE"]


def test_RE_TILE_KIEV_not_beyond_a_dispute():
    s = with_board(turn_of("orange", TAX_CARD), {"Galicia": disputed("orange", Units(4), "blue", Units(1)),
                                                 "Bulgaria": held("orange", 1)})
    assert rules_of(s, spend("orange", "footman", "Bulgaria")) == ["RE-SPEND-PLACE"]


def test_RE_TILE_KIEV_no_remote_recruitment_without_the_tile():
    s = turn_of("blue", TAX_CARD)
    assert rules_of(s, spend("blue", "footman", "Bohemia")) == ["RE-SPEND-PLACE"]


# --- RE-TILE-LONDON, RE-TILE-PARIS, RE-TILE-MADRID --------------------------------------------

def tax_turn(player, board):
    return turn_of(player, TAX_CARD, with_board(placed(), board))


def test_RE_TILE_LONDON_two_archers_in_london_when_taxed():
    s = tax_turn("blue", {"England": held("blue", 1), "Wales": held("blue", 1)})
    after = fold(s, ev("Taxed", "blue", city="London"))
    assert after.terr["England"].units == Units(1, archer=2)
    assert after.players["blue"].coins == s.players["blue"].coins + 3 + 1


def test_RE_TILE_LONDON_also_when_london_is_taxed_through_a_supply_line():
    s = tax_turn("blue", {"England": held("blue", 1), "Lorraine": held("blue", 1)})
    after = fold(s, ev("Taxed", "blue", city="Berlin"))
    assert after.terr["England"].units == Units(1, archer=2)


def test_RE_TILE_LONDON_nothing_when_london_is_not_taxed():
    s = tax_turn("blue", {"England": held("blue", 1)})
    after = fold(s, ev("Taxed", "blue", city="Berlin"))
    assert after.terr["England"].units == Units(1)


def test_RE_TILE_LONDON_nothing_when_london_is_disputed():
    s = tax_turn("blue", {"England": disputed("blue", Units(1), "red", Units(1)), "Lorraine": held("blue", 1)})
    after = fold(s, ev("Taxed", "blue", city="Berlin"))
    assert after.terr["England"].units == Units(1)


def test_RE_TILE_PARIS_one_cavalry_and_one_footman_in_paris_when_taxed():
    s = turn_of("red", TAX_CARD)
    after = fold(s, ev("Taxed", "red", city="Paris"))
    assert after.terr["France"].units == Units(7, cavalry=1)
    assert after.players["red"].coins == s.players["red"].coins + 3 + 1


def test_RE_TILE_PARIS_nothing_for_another_players_tax():
    s = tax_turn("blue", {"France": held("red", 6, castle=True), "Lorraine": held("blue", 1)})
    after = fold(s, ev("Taxed", "blue", city="Berlin"))
    assert after.terr["France"].units == Units(6)


def test_RE_TILE_MADRID_four_footmen_in_madrid_when_taxed():
    s = tax_turn("green", {"Leon Castile": held("green", 2)})
    after = fold(s, ev("Taxed", "green", city="Madrid"))
    assert after.terr["Leon Castile"].units == Units(6)


def test_RE_TILE_MADRID_several_tax_bonuses_at_once():
    """"Multiple tax bonuses may occur at the same time ... if the cities are ... connected.\""""
    s = tax_turn("red", {"Leon Castile": held("red", 2), "Navarre": held("red", 1)})
    after = fold(s, ev("Taxed", "red", city="Paris"))
    assert after.terr["Leon Castile"].units == Units(6)
    assert after.terr["France"].units == Units(7, cavalry=1)
    assert after.players["red"].coins == s.players["red"].coins + 3 + 1 + 1 + 3


def test_RE_TILE_MADRID_nothing_when_madrid_is_cut_off():
    s = tax_turn("red", {"Leon Castile": held("red", 2)})
    after = fold(s, ev("Taxed", "red", city="Paris"))
    assert after.terr["Leon Castile"].units == Units(2)


"""Every worked example printed in the rulebook (seed 000, the English game guide), as a golden
test: the position the example describes, the move it makes, and the outcome it prints. Each
docstring quotes the passage. And the sample game: game42 judges clean, blue winning in round 7.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.risk_europe.common import crowns, has_tile, tax_value, tile_territory
from engine.risk_europe.state import Terr, Units
from replay.logfile import read_log
from replay.judge import judge
from tests.re_helpers import (
    SEATS, SIEGE_CARD, SPLIT_CARD, TAX_CARD, disputed, ev, finish_turns, fold, held, in_battles, placed,
    play_round, rules_of, start, turn_of, with_board, with_player,
)

SAMPLE = Path(__file__).resolve().parent.parent / "sample_logs" / "game42.jsonl"


def expand(actor, frm, to, **units):
    return ev("Expanded", actor, from_=frm, to=to, units=units)


def roll(**rolls):
    return ev("DiceRolled", None, rolls={p: list(d) for p, d in rolls.items()})


def removed(actor, territory, **units):
    return ev("CasualtiesRemoved", actor, territory=territory, units=units)


# --- Steps for Kingdom Placement (p.7) ---------------------------------------------------------

def test_golden_blue_places_a_kingdom_in_berlin():
    """p.7: "The Blue player chooses Berlin as their starting city. They place their castle in the
    territory and their crown on that city. They also collect four coins from the reserve as a
    bonus for claiming Berlin. They then decide to divide their starting army of 10 Footmen as
    shown: five Footmen in Saxony and five Footmen in Bohemia (an adjacent non-city territory).\""""
    s = fold(start(), *[ev("BidPlaced", p, amount=a) for p, a in zip(SEATS, (1, 0, 0, 0))])
    e = ev("KingdomPlaced", "blue", city="Berlin", footmen={"Saxony": 5, "Bohemia": 5}, coins=4)
    assert rules_of(s, e) == []
    s = fold(s, e)
    assert s.terr["Saxony"] == Terr(owner="blue", units=Units(5), castle=True)
    assert s.terr["Bohemia"] == Terr(owner="blue", units=Units(5))
    assert s.players["blue"].coins == 5 - 1 + 4
    assert crowns(s, "blue") == 1 and s.castles_left == 7
    assert tile_territory(s, "Berlin") == "Saxony"          # the Berlin tile goes with the city


# --- Collecting Crowns (p.9) -------------------------------------------------------------------

def test_golden_blue_claims_warsaw_with_two_footmen():
    """p.9: "The blue player has expanded two Footmen into Poland to claim Warsaw. Since Warsaw is
    unclaimed, the blue player also collects two coins (Warsaw's Tax Value) from the reserve.\""""
    s = turn_of("blue")
    coins = s.players["blue"].coins
    s = fold(s, expand("blue", "Bohemia", "Poland", footman=2))
    assert s.terr["Poland"].owner == "blue" and s.terr["Poland"].units == Units(2)
    assert s.players["blue"].coins == coins + 2 and crowns(s, "blue") == 2


def buda_attack():
    board = {"Hungary": held("orange", 2), "Bavaria": held("blue", 4)}
    return fold(turn_of("blue", state=with_board(placed(), board)), expand("blue", "Bavaria", "Hungary", footman=3))


def test_golden_blue_attacks_buda_control_stays_until_the_battle():
    """p.9: "The blue player is attempting to take over the city of Buda by attacking the territory
    of Hungary with three Footmen. Control of both the city and the territory will exchange hands
    if the blue player wins the battle at the end of the round.\""""
    s = buda_attack()
    x = s.terr["Hungary"]
    assert (x.owner, x.attacker, x.attacker_units) == ("orange", "blue", Units(3))
    assert (crowns(s, "blue"), crowns(s, "orange")) == (1, 2)


def test_golden_buda_changes_hands_when_blue_wins():
    """p.9: "If you win the battle and take over another player's city territory, your War Banner
    advances on the Crown Tracker and your opponent's War Banner falls back. NOTE: A tax bonus is
    not collected when taking over another player's city in battle.\""""
    s = fold(finish_turns(buda_attack()), ev("BattleStarted", "blue", territory="Hungary"),
             roll(blue=[6, 5, 1], orange=[4, 3]))
    coins = s.players["blue"].coins
    s = fold(s, removed("orange", "Hungary", footman=2))
    assert s.terr["Hungary"].owner == "blue" and s.terr["Hungary"].units == Units(3)
    assert (crowns(s, "blue"), crowns(s, "orange")) == (2, 1)
    assert s.players["blue"].coins == coins


def test_golden_buda_stays_orange_when_blue_loses():
    s = fold(finish_turns(buda_attack()), ev("BattleStarted", "blue", territory="Hungary"),
             roll(blue=[2, 2, 1], orange=[4, 3]), removed("blue", "Hungary", footman=2),
             roll(blue=[1], orange=[4, 1]), removed("blue", "Hungary", footman=1))
    assert s.terr["Hungary"] == held("orange", 2)
    assert (crowns(s, "blue"), crowns(s, "orange")) == (1, 2)


# --- Expand (p.10) ------------------------------------------------------------------------------

BOHEMIA_EXAMPLE = {"Bohemia": held("blue", 3, siege=1), "Highlands": held("green", 2),
                   "Saxony": Terr(), "Bavaria": Terr(), "Poland": held("orange", 2, castle=True),
                   "Franconia": held("blue", 1), "Denmark": held("red", 1)}


def bohemia_example(card="expand-maneuver-fortify-1"):
    return with_board(turn_of("blue", card), BOHEMIA_EXAMPLE)


@pytest.mark.parametrize("target, units", [
    ("Highlands", {"footman": 3}),
    ("Saxony", {"footman": 2, "siege": 1}),
    ("Bavaria", {"footman": 1}),
    ("Poland", {"footman": 2, "siege": 1}),
])
def test_golden_the_expand_options_from_bohemia(target, units):
    """p.10: "The blue player may expand up to three units from Bohemia to attack the Highlands,
    claim Saxony to place a crown on Berlin, claim the non-city territory of Bavaria, or (because
    the blue player has a Siege Weapon in Bohemia) attack the orange player's castle territory in
    Poland.\""""
    assert rules_of(bohemia_example(), expand("blue", "Bohemia", target, **units)) == []


def test_golden_up_to_three_units_from_bohemia():
    """p.10: "You must leave at least one army unit behind in the original territory.\""""
    e = expand("blue", "Bohemia", "Bavaria", footman=3, siege=1)
    assert rules_of(bohemia_example(), e) == ["RE-EXPAND-LEAVE"]


def test_golden_claiming_saxony_places_a_crown_on_berlin():
    s = bohemia_example()
    coins = s.players["blue"].coins
    s = fold(s, expand("blue", "Bohemia", "Saxony", footman=2))
    assert s.terr["Saxony"].owner == "blue" and s.players["blue"].coins == coins + 4
    assert crowns(s, "blue") == 1


def test_golden_poland_castle_needs_the_siege_weapon():
    """p.10: "If an opponent's territory contains a castle, you may not expand into that territory
    unless your expanding army contains a Siege Weapon.\""""
    assert rules_of(bohemia_example(), expand("blue", "Bohemia", "Poland", footman=3)) == ["RE-EXPAND-CASTLE"]


def test_golden_attacking_the_highlands_makes_a_dispute():
    """p.15: "The blue player has expanded army units into Bohemia to attack the orange player's
    army. A battle at the end of the round will determine control of the territory." (here: the
    Highlands, from the expand example)."""
    s = fold(bohemia_example(), expand("blue", "Bohemia", "Highlands", footman=3))
    x = s.terr["Highlands"]
    assert (x.owner, x.units, x.attacker, x.attacker_units) == ("green", Units(2), "blue", Units(3))


# --- Split Expand (p.11) ------------------------------------------------------------------------

def test_golden_split_expand_into_two_adjacent_territories():
    """p.11: "Using a split expand order, the blue player can expand army units from the same
    territory into two different adjacent territories.\""""
    s = bohemia_example(SPLIT_CARD)
    e = ev("SplitExpanded", "blue", from_="Bohemia",
           moves=[{"to": "Saxony", "units": {"footman": 1}}, {"to": "Bavaria", "units": {"footman": 1}}])
    assert rules_of(s, e) == []
    s = fold(s, e)
    assert s.terr["Saxony"].owner == s.terr["Bavaria"].owner == "blue"


def test_golden_split_expand_not_into_a_territory_that_is_not_adjacent():
    """p.11: "They cannot expand into the territory marked with an X, because that territory is
    not adjacent.\""""
    e = ev("SplitExpanded", "blue", from_="Bohemia",
           moves=[{"to": "Bavaria", "units": {"footman": 1}}, {"to": "Swabia", "units": {"footman": 1}}])
    assert rules_of(bohemia_example(SPLIT_CARD), e) == ["RE-EXPAND-ADJACENT"]


# --- Maneuver (p.11) ----------------------------------------------------------------------------

MANEUVER_EXAMPLE = {"Rusland": held("orange", 6, castle=True), "Galicia": held("orange", 2),
                    "Hungary": held("orange", 2), "Poland": disputed("orange", Units(2), "blue", Units(3)),
                    "Bohemia": held("blue", 2)}


@pytest.mark.parametrize("to", ["Poland", "Galicia", "Hungary"])
def test_golden_orange_may_maneuver_into_disputed_poland_or_along_its_supply_line(to):
    """p.11: "The Orange player may maneuver army units into Poland because Poland is in dispute.
    They also have the option of maneuvering army units through their supply line into Galicia or
    Hungary.\""""
    s = with_board(turn_of("orange"), MANEUVER_EXAMPLE)
    assert rules_of(s, ev("Maneuvered", "orange", from_="Kiev", to=to, units={"footman": 3})) == []


def test_golden_orange_may_not_maneuver_through_disputed_poland():
    """p.11: "must stop and forfeit any remaining movement if they enter a disputed territory.\""""
    s = with_board(turn_of("orange"), {**MANEUVER_EXAMPLE, "Galicia": Terr(), "Highlands": held("orange", 1)})
    e = ev("Maneuvered", "orange", from_="Kiev", to="Highlands", units={"footman": 3})
    assert rules_of(s, e) == ["RE-MANEUVER-PATH"]


# --- Tax (p.12) ---------------------------------------------------------------------------------

TAX_EXAMPLE = {"England": held("blue", 2), "Wales": held("blue", 1), "Lorraine": held("blue", 2),
               "Saxony": held("blue", 3, castle=True), "Bohemia": held("blue", 1), "Franconia": held("blue", 1),
               "Burgundy": held("orange", 3)}


def test_golden_one_supply_line_taxes_everything():
    s = with_board(turn_of("blue", TAX_CARD), TAX_EXAMPLE)
    assert tax_value(s, "blue", "England")[0] == tax_value(s, "blue", "Saxony")[0] == 3 + 1 + 1 + 4 + 1 + 1


def test_golden_an_attack_on_lorraine_splits_blues_supply_line():
    """p.12: "The orange player has attacked Lorraine and split the blue player's supply line. Now
    the blue player must decide which area of their kingdom to tax, considering both the city
    bonuses and the total Tax Value of each area carefully.\""""
    s = fold(turn_of("orange", state=with_board(placed(), TAX_EXAMPLE)),
             expand("orange", "Burgundy", "Lorraine", footman=2))
    s = fold(s, *[ev("CardRevealed", p, card="expand-maneuver-fortify-1") for p in ("red", "green")],
             ev("CardRevealed", "blue", card=TAX_CARD))
    assert s.terr["Lorraine"].is_disputed and s.flow.current == "blue"
    london = fold(s, ev("Taxed", "blue", city="London"))
    berlin = fold(s, ev("Taxed", "blue", city="Berlin"))
    coins = s.players["blue"].coins
    assert london.players["blue"].coins - coins == 3 + 1                     # London, Wales
    assert berlin.players["blue"].coins - coins == 4 + 1 + 1                 # Berlin, Bohemia, Franconia
    assert london.terr["England"].units == Units(2, archer=2)                # the London tile's bonus
    assert berlin.terr["England"].units == Units(2)


# --- Siege Assault (p.13) -----------------------------------------------------------------------

SIEGE_EXAMPLE = {"Franconia": held("blue", 2, siege=1), "Lorraine": held("red", 2), "Swabia": held("green", 2),
                 "Bohemia": disputed("orange", Units(2), "red", Units(2)), "Saxony": held("blue", 5, castle=True),
                 "Bavaria": Terr()}


@pytest.mark.parametrize("target", ["Lorraine", "Swabia"])
def test_golden_siege_assault_from_franconia_on_lorraine_or_swabia(target):
    """p.13: "The Blue player is using their Siege Assault action. They may attack Lorraine or
    Swabia, but they cannot attack Bohemia, as it is in dispute.\""""
    s = with_board(turn_of("blue", SIEGE_CARD), SIEGE_EXAMPLE)
    assert rules_of(s, ev("SiegeAssaulted", "blue", from_="Franconia", target=target)) == []


def test_golden_siege_assault_not_on_bohemia_in_dispute():
    s = with_board(turn_of("blue", SIEGE_CARD), SIEGE_EXAMPLE)
    assert rules_of(s, ev("SiegeAssaulted", "blue", from_="Franconia", target="Bohemia")) == ["RE-SIEGE-TARGET"]


# --- The battle (p.16-18): siege attack, archer volley with castle defense, general attack ------

def the_battle():
    """Orange attacks Blue's castle territory: 2 Siege Weapons, 2 Archers, 8 Footmen against 6
    Archers and 4 Footmen (the armies the examples of p.16-18 imply)."""
    board = {"Bohemia": disputed("blue", Units(4, archer=6), "orange", Units(8, archer=2, siege=2), castle=True)}
    return fold(in_battles(with_board(placed(), board)), ev("BattleStarted", "blue", territory="Bohemia"))


def after_the_siege_attack():
    return fold(the_battle(), roll(orange=[1, 2, 3, 5]), removed("blue", "Bohemia", footman=2))


def after_the_archer_volley():
    return fold(after_the_siege_attack(), roll(orange=[5, 6], blue=[1, 2, 3, 4, 4, 2]),
                ev("DiceRerolled", "blue", rolls={"blue": [3, 4, 5, 5, 5, 6]}),
                removed("orange", "Bohemia", footman=4), removed("blue", "Bohemia", footman=2))


def test_golden_rank_1_siege_attack_1_2_3_5_is_two_hits():
    """p.16: "They roll four dice (two for each Siege Weapon) and get die values of 1, 2, 3, and 5.
    The 3 and 5 both meet or exceed the Siege Weapon's "Hits On" number of 3 or greater, so Orange
    scores two hits against Blue's army. Blue must remove two army units of their choice ... Blue
    chooses to remove two Footmen.\""""
    s = the_battle()
    assert s.battle.rank == 1
    s = fold(s, roll(orange=[1, 2, 3, 5]))
    assert dict(s.battle.owed) == {"blue": 2}
    s = fold(s, removed("blue", "Bohemia", footman=2))
    assert s.terr["Bohemia"].units == Units(2, archer=6) and s.battle.rank == 2


def test_golden_rank_2_archer_volley_with_the_castle_re_roll():
    """p.17: "Blue rolls six dice ... None of Blue's dice meets or exceeds ... 5 or greater ...
    Orange rolls a 5 and 6 – scoring two hits! ... Blue re-rolls and gets a 3, 4, 5, 5, 5, and 6 –
    four hits scored! Blue has used their one castle defense re-roll ... Orange removes four units
    of their choice and Blue removes two before moving to the next rank.\""""
    s = fold(after_the_siege_attack(), roll(orange=[5, 6], blue=[1, 2, 3, 4, 4, 2]))
    assert dict(s.battle.owed) == {"blue": 2}
    s = fold(s, ev("DiceRerolled", "blue", rolls={"blue": [3, 4, 5, 5, 5, 6]}))
    assert dict(s.battle.owed) == {"orange": 4, "blue": 2} and s.battle.reroll_used
    s = fold(s, removed("orange", "Bohemia", footman=4), removed("blue", "Bohemia", footman=2))
    x = s.terr["Bohemia"]
    assert x.attacker_units == Units(4, archer=2, siege=2) and x.units == Units(archer=6)
    assert s.battle.rank == 4                                   # no Cavalry: Rank 3 is skipped


def test_golden_the_castle_re_roll_is_once_per_cycle():
    """p.17: "may not use another re-roll unless the Ranked Attack Order restarts again at Rank 1.\""""
    s = fold(after_the_archer_volley(), roll(orange=[3, 3, 6], blue=[3, 5]))
    assert rules_of(s, ev("DiceRerolled", "blue", rolls={"blue": [6, 6]})) == ["RE-CASTLE-DEFENSE"]


def test_golden_rank_4_general_attack_3_3_6_against_3_5():
    """p.18: "Orange now has eight army units remaining ... Blue just has his six Archers remaining
    ... Orange ... gets a 3, 3, and 6. Blue rolls ... a 3 and 5. ... Orange scores one hit against
    Blue. ... Blue scores a hit since the defender always wins ties. Both players must remove one
    unit each, and since neither army was eliminated, the Ranked Attack Order begins again at Rank 1.\""""
    s = after_the_archer_volley()
    assert s.terr["Bohemia"].attacker_units.total == 8 and s.terr["Bohemia"].units.total == 6
    e = roll(orange=[3, 3, 6], blue=[3, 5])
    assert rules_of(s, e) == []
    s = fold(s, e)
    assert dict(s.battle.owed) == {"orange": 1, "blue": 1}
    s = fold(s, removed("orange", "Bohemia", footman=1), removed("blue", "Bohemia", archer=1))
    assert (s.battle.cycle, s.battle.rank, s.battle.reroll_used) == (2, 1, False)


# --- Winning the Game (p.19) --------------------------------------------------------------------

def test_golden_tie_at_seven_crowns_goes_to_more_territories_then_coins():
    """p.19: "If two or more players are tied at the end of a round with seven or more crowns, the
    player with the most territories under their control wins. If a tie still remains, the player
    with the greatest number of coins wins. If one of the tied players also controls the First
    Player Marker, that player counts the marker as ten additional coins.\""""
    s = with_player(with_player(placed(), "blue", crown_cards=6, coins=5), "red", crown_cards=6, coins=12)
    assert play_round(with_board(s, {"Bavaria": held("red", 1)})).result.winners == ("red",)
    assert play_round(s).result.winners == ("blue",)                     # 5 + 10 (marker) > 12
    assert play_round(with_player(s, "red", coins=16)).result.winners == ("red",)


def test_golden_seven_crowns_at_the_end_of_a_round_win():
    """p.6: "Control seven or more crowns at the end of a round to win the game.\""""
    s = with_player(placed(), "green", crown_cards=5)                    # Rome 2 + 5
    assert crowns(s, "green") == 7 and play_round(s).result.winners == ("green",)


# --- The sample game ----------------------------------------------------------------------------

def test_golden_game42_judges_clean_and_blue_wins_in_round_7():
    j = judge(read_log(SAMPLE))
    assert j.clean, [f.format() for f in j.findings]
    assert j.result.winners == ("blue",) and j.result.round == 7
    assert j.declared_winner == "blue"
    assert has_tile(j.final_state, "blue", "Berlin")

"""Battles in disputed territories (rulebook p.15-18): who chooses the order, the Ranked Attack
Order (dice and hits), castle defense, casualties, and how a battle ends."""

from __future__ import annotations

from engine.risk_europe.common import crowns, has_tile
from engine.risk_europe.state import Terr, Units
from tests.re_helpers import disputed, ev, fold, held, in_battles, placed, rules_of, with_board


def start_battle(territory, chooser="blue"):
    return ev("BattleStarted", chooser, territory=territory)


def roll(att, att_dice, dfn, dfn_dice, **labels):
    rolls = {}
    if att_dice:
        rolls[att] = list(att_dice)
    if dfn_dice:
        rolls[dfn] = list(dfn_dice)
    return ev("DiceRolled", None, rolls=rolls, **labels)


def reroll(actor, *values):
    return ev("DiceRerolled", actor, rolls={actor: list(values)})


def removed(actor, territory, **units):
    return ev("CasualtiesRemoved", actor, territory=territory, units=units)


def battles(board):
    """The battles of round 1 with these disputes (blue holds the First Player Marker)."""
    return in_battles(with_board(placed(), board))


def fight(territory, defender, d_units, attacker, a_units, *, castle=False, extra=None):
    s = battles({territory: disputed(defender, d_units, attacker, a_units, castle=castle), **(extra or {})})
    return fold(s, start_battle(territory))


# --- RE-BATTLE-ORDER --------------------------------------------------------------------------

def test_RE_BATTLE_ORDER_the_marker_holder_starts_a_battle():
    s = battles({"Poland": disputed("orange", Units(2), "blue", Units(3))})
    assert s.marker == "blue"
    after = fold(s, start_battle("Poland"))
    assert after.battle.territory == "Poland"
    assert (after.battle.attacker, after.battle.defender) == ("blue", "orange")


def test_RE_BATTLE_ORDER_another_player_may_not_choose():
    s = battles({"Poland": disputed("orange", Units(2), "blue", Units(3))})
    assert rules_of(s, start_battle("Poland", "orange")) == ["RE-BATTLE-ORDER"]


def test_RE_BATTLE_ORDER_the_marker_holder_chooses_any_disputed_territory_first():
    s = battles({"Poland": disputed("orange", Units(2), "blue", Units(3)),
                 "Lorraine": disputed("red", Units(2), "green", Units(3))})
    assert rules_of(s, start_battle("Lorraine")) == []
    assert rules_of(s, start_battle("Poland")) == []


def test_RE_BATTLE_ORDER_only_a_disputed_territory_is_fought():
    s = battles({"Poland": disputed("orange", Units(2), "blue", Units(3))})
    assert rules_of(s, start_battle("Bohemia")) == ["RE-BATTLE-ORDER"]


def test_RE_BATTLE_ORDER_dice_before_a_battle_is_chosen_are_forbidden():
    s = battles({"Poland": disputed("orange", Units(2), "blue", Units(3))})
    assert rules_of(s, roll("blue", [6, 6, 6], "orange", [1, 1])) == ["RE-BATTLE-ORDER"]


# --- RE-BATTLE-DICE ---------------------------------------------------------------------------

def test_RE_BATTLE_DICE_footmen_only_skip_to_the_general_attack():
    s = fight("Poland", "orange", Units(2), "blue", Units(3))
    assert s.battle.rank == 4


def test_RE_BATTLE_DICE_general_attack_attacker_three_defender_two():
    s = fight("Poland", "orange", Units(5), "blue", Units(7))
    assert rules_of(s, roll("blue", [1, 2, 3], "orange", [4, 5])) == []
    assert rules_of(s, roll("blue", [1, 2, 3, 4], "orange", [4, 5])) == ["RE-BATTLE-DICE"]
    assert rules_of(s, roll("blue", [1, 2, 3], "orange", [4, 5, 6])) == ["RE-BATTLE-DICE"]


def test_RE_BATTLE_DICE_general_attack_with_few_units_rolls_fewer_dice():
    s = fight("Poland", "orange", Units(1), "blue", Units(2))
    assert rules_of(s, roll("blue", [1, 2], "orange", [4])) == []
    assert rules_of(s, roll("blue", [1, 2, 3], "orange", [4, 5])) == ["RE-BATTLE-DICE"]


def test_RE_BATTLE_DICE_siege_weapons_roll_two_dice_each_and_only_their_owner_rolls():
    s = fight("Poland", "orange", Units(4), "blue", Units(2, siege=2))
    assert s.battle.rank == 1
    assert rules_of(s, roll("blue", [1, 2, 3, 5], "orange", [])) == []
    assert rules_of(s, roll("blue", [1, 2], "orange", [])) == ["RE-BATTLE-DICE"]
    assert rules_of(s, roll("blue", [1, 2, 3, 5], "orange", [6])) == ["RE-BATTLE-DICE"]


def test_RE_BATTLE_DICE_archers_and_cavalry_one_die_each():
    s = fight("Poland", "orange", Units(1, archer=2), "blue", Units(1, archer=1, cavalry=3))
    assert s.battle.rank == 2
    assert rules_of(s, roll("blue", [1], "orange", [2, 3])) == []
    s = fold(s, roll("blue", [1], "orange", [2, 3]))
    assert s.battle.rank == 3
    assert rules_of(s, roll("blue", [1, 1, 1], "orange", [])) == []
    assert rules_of(s, roll("blue", [1, 1], "orange", [])) == ["RE-BATTLE-DICE"]


def test_RE_BATTLE_DICE_a_third_player_does_not_roll():
    s = fight("Poland", "orange", Units(2), "blue", Units(3))
    e = ev("DiceRolled", None, rolls={"blue": [1, 2, 3], "orange": [1, 2], "red": [6]})
    assert rules_of(s, e) == ["RE-BATTLE-DICE"]


def test_RE_BATTLE_DICE_a_wrong_rank_label_is_reported():
    s = fight("Poland", "orange", Units(2), "blue", Units(3))
    assert rules_of(s, roll("blue", [1, 2, 3], "orange", [4, 5], rank=4)) == []
    assert rules_of(s, roll("blue", [1, 2, 3], "orange", [4, 5], rank=1)) == ["RE-BATTLE-DICE"]


# --- RE-BATTLE-HITS ---------------------------------------------------------------------------

def test_RE_BATTLE_HITS_highest_against_highest_then_next():
    s = fold(fight("Poland", "orange", Units(5), "blue", Units(5)), roll("blue", [6, 1, 4], "orange", [5, 3]))
    assert dict(s.battle.owed) == {"orange": 2}


def test_RE_BATTLE_HITS_ties_go_to_the_defender():
    s = fold(fight("Poland", "orange", Units(5), "blue", Units(5)), roll("blue", [4, 4, 4], "orange", [4, 4]))
    assert dict(s.battle.owed) == {"blue": 2}


def test_RE_BATTLE_HITS_at_most_as_many_hits_as_pairs():
    s = fold(fight("Poland", "orange", Units(1), "blue", Units(5)), roll("blue", [6, 6, 6], "orange", [1]))
    assert dict(s.battle.owed) == {"orange": 1}


def test_RE_BATTLE_HITS_ranks_one_to_three_hit_on_their_number():
    s = fight("Poland", "orange", Units(1, archer=3), "blue", Units(1, archer=3))
    s = fold(s, roll("blue", [4, 5, 6], "orange", [1, 2, 5]))
    assert dict(s.battle.owed) == {"orange": 2, "blue": 1}


# --- RE-CASUALTIES (battle) -------------------------------------------------------------------

def test_RE_CASUALTIES_both_sides_remove_their_hits_then_the_next_rank():
    s = fight("Poland", "orange", Units(1, archer=3), "blue", Units(1, archer=3))
    s = fold(s, roll("blue", [4, 5, 6], "orange", [1, 2, 5]), removed("orange", "Poland", footman=1, archer=1))
    assert s.battle.rank == 2 and dict(s.battle.owed) == {"blue": 1}
    s = fold(s, removed("blue", "Poland", archer=1))
    assert s.battle.rank == 4 and s.battle.owed == ()
    assert s.terr["Poland"].units == Units(archer=2) and s.terr["Poland"].attacker_units == Units(1, 2)


def test_RE_CASUALTIES_the_wrong_number_is_forbidden():
    s = fold(fight("Poland", "orange", Units(5), "blue", Units(5)), roll("blue", [6, 1, 4], "orange", [5, 3]))
    assert rules_of(s, removed("orange", "Poland", footman=1)) == ["RE-CASUALTIES"]


def test_RE_CASUALTIES_a_player_without_hits_removes_nothing():
    s = fold(fight("Poland", "orange", Units(5), "blue", Units(5)), roll("blue", [6, 1, 4], "orange", [5, 3]))
    assert rules_of(s, removed("blue", "Poland", footman=1)) == ["RE-CASUALTIES"]


def test_RE_CASUALTIES_before_the_next_roll():
    s = fold(fight("Poland", "orange", Units(5), "blue", Units(5)), roll("blue", [6, 1, 4], "orange", [5, 3]))
    assert rules_of(s, roll("blue", [1, 2, 3], "orange", [4, 5])) == ["RE-FLOW"]


# --- RE-CASTLE-DEFENSE ------------------------------------------------------------------------

def castle_fight():
    return fight("Saxony", "blue", Units(2, archer=3), "orange", Units(3, archer=2, siege=1), castle=True)


def test_RE_CASTLE_DEFENSE_the_defender_re_rolls_all_dice_of_a_rank():
    s = fold(castle_fight(), roll("orange", [1, 1], "blue", []))           # rank 1: no hits
    s = fold(s, roll("orange", [1, 1], "blue", [1, 1, 1]))                 # rank 2: no hits
    assert s.battle.rank == 2 and s.battle.stage == "rolled"
    e = reroll("blue", 5, 6, 1)
    assert rules_of(s, e) == []
    after = fold(s, e)
    assert dict(after.battle.owed) == {"orange": 2} and after.battle.reroll_used


def test_RE_CASTLE_DEFENSE_the_attacker_may_not_re_roll():
    s = fold(castle_fight(), roll("orange", [1, 1], "blue", []), roll("orange", [1, 1], "blue", [1, 1, 1]))
    assert rules_of(s, reroll("orange", 6, 6)) == ["RE-CASTLE-DEFENSE"]


def test_RE_CASTLE_DEFENSE_no_castle_no_re_roll():
    s = fight("Bohemia", "blue", Units(2, archer=3), "orange", Units(3, archer=2))
    s = fold(s, roll("orange", [1, 1], "blue", [1, 1, 1]))
    assert rules_of(s, reroll("blue", 6, 6, 6)) == ["RE-CASTLE-DEFENSE"]


def test_RE_CASTLE_DEFENSE_once_per_cycle():
    s = fold(castle_fight(), roll("orange", [1, 1], "blue", []), roll("orange", [1, 1], "blue", [1, 1, 1]),
             reroll("blue", 1, 1, 1))
    assert s.battle.rank == 4                                               # no cavalry: rank 3 skipped
    s = fold(s, roll("orange", [1, 1, 1], "blue", [1, 1]))                  # rank 4: blue 2 hits
    assert rules_of(s, reroll("blue", 6, 6)) == ["RE-CASTLE-DEFENSE"]


def test_RE_CASTLE_DEFENSE_again_when_the_ranked_attack_order_repeats():
    s = fold(castle_fight(), roll("orange", [1, 1], "blue", []), roll("orange", [1, 1], "blue", [1, 1, 1]),
             reroll("blue", 1, 1, 1), roll("orange", [1, 1, 6], "blue", [1, 5]),
             removed("orange", "Saxony", footman=1), removed("blue", "Saxony", footman=1))
    assert (s.battle.cycle, s.battle.rank, s.battle.reroll_used) == (2, 1, False)
    s = fold(s, roll("orange", [1, 1], "blue", []), roll("orange", [1, 1], "blue", [1, 1, 1]))
    assert rules_of(s, reroll("blue", 1, 1, 1)) == []


def test_RE_CASTLE_DEFENSE_only_before_casualties_are_removed():
    s = fold(castle_fight(), roll("orange", [1, 1], "blue", []), roll("orange", [5, 1], "blue", [1, 1, 1]),
             removed("blue", "Saxony", footman=1))
    assert rules_of(s, reroll("blue", 6, 6, 6)) == ["RE-CASTLE-DEFENSE"]


def test_RE_CASTLE_DEFENSE_all_dice_of_the_rank_are_re_rolled():
    s = fold(castle_fight(), roll("orange", [1, 1], "blue", []), roll("orange", [1, 1], "blue", [1, 1, 1]))
    assert rules_of(s, reroll("blue", 6)) == ["RE-CASTLE-DEFENSE"]


def test_RE_CASTLE_DEFENSE_not_for_a_rank_the_defender_did_not_roll():
    s = fold(castle_fight(), roll("orange", [6, 1], "blue", []))
    assert rules_of(s, reroll("blue", 6)) == ["RE-CASTLE-DEFENSE"]


# --- RE-BATTLE-END ----------------------------------------------------------------------------

def buda(defender_units=Units(1), attacker_units=Units(3)):
    return fight("Hungary", "orange", defender_units, "blue", attacker_units,
                 extra={"Bavaria": held("blue", 1)})


def test_RE_BATTLE_END_the_attacker_wins_territory_and_city():
    s = buda()
    before = s.players["blue"].coins, crowns(s, "blue"), crowns(s, "orange")
    s = fold(s, roll("blue", [6, 1, 1], "orange", [5]), removed("orange", "Hungary", footman=1))
    assert s.terr["Hungary"] == Terr(owner="blue", units=Units(3), since=1999)
    assert (crowns(s, "blue"), crowns(s, "orange")) == (before[1] + 1, before[2] - 1)
    assert s.last_battle == ("Hungary", "blue") and s.battle is None


def test_RE_BATTLE_END_the_defender_wins_and_keeps_everything():
    s = buda(attacker_units=Units(1))
    s = fold(s, roll("blue", [4], "orange", [4]), removed("blue", "Hungary", footman=1))
    assert s.terr["Hungary"] == held("orange", 1)
    assert s.last_battle == ("Hungary", "orange")


def test_RE_BATTLE_END_the_winner_takes_the_castle_and_the_tile():
    s = fight("Saxony", "blue", Units(1), "orange", Units(2, siege=1), castle=True)
    s = fold(s, roll("orange", [3, 1], "blue", []), removed("blue", "Saxony", footman=1))
    x = s.terr["Saxony"]
    assert x.owner == "orange" and x.castle and x.units == Units(2, siege=1)
    assert s.flow.round == 2 and has_tile(s, "orange", "Berlin") and not has_tile(s, "blue", "Berlin")


def test_RE_BATTLE_END_simultaneous_elimination_leaves_the_territory_unclaimed():
    """"the territory becomes unclaimed and any crowns present return to the reserve.\""""
    s = buda(defender_units=Units(archer=1), attacker_units=Units(archer=1))
    before = crowns(s, "orange")
    s = fold(s, roll("blue", [5], "orange", [6]), removed("orange", "Hungary", archer=1),
             removed("blue", "Hungary", archer=1))
    assert s.terr["Hungary"].owner is None and s.terr["Hungary"].units == Units()
    assert crowns(s, "orange") == before - 1
    assert s.last_battle == ("Hungary", None)


def test_RE_BATTLE_END_simultaneous_elimination_keeps_the_castle_on_the_board():
    s = fight("Bohemia", "blue", Units(archer=1), "orange", Units(archer=1, siege=0), castle=True)
    s = fold(s, roll("orange", [5], "blue", [6]), removed("orange", "Bohemia", archer=1),
             removed("blue", "Bohemia", archer=1))
    assert s.terr["Bohemia"] == Terr(castle=True, since=1999)


def test_RE_BATTLE_END_the_round_ends_after_the_last_battle():
    s = fold(buda(), roll("blue", [6, 1, 1], "orange", [5]))
    assert s.flow.phase == "battles"
    s = fold(s, removed("orange", "Hungary", footman=1))
    assert s.flow.phase == "commit" and s.flow.round == 2


def test_RE_BATTLE_END_the_battle_goes_on_while_both_armies_remain():
    s = fold(buda(defender_units=Units(2)), roll("blue", [6, 1, 1], "orange", [5, 1]),
             removed("orange", "Hungary", footman=1), removed("blue", "Hungary", footman=1))
    assert s.battle is not None and (s.battle.cycle, s.battle.rank) == (2, 4)


# --- RE-NO-TAX-IN-BATTLE ----------------------------------------------------------------------

def test_RE_NO_TAX_IN_BATTLE_a_city_taken_in_battle_pays_no_tax_value():
    s = buda()
    coins = s.players["blue"].coins
    s = fold(s, roll("blue", [6, 1, 1], "orange", [5]), removed("orange", "Hungary", footman=1))
    assert s.terr["Hungary"].owner == "blue" and s.players["blue"].coins == coins


def test_RE_NO_TAX_IN_BATTLE_the_loser_pays_nothing_either():
    s = buda()
    coins = s.players["orange"].coins
    s = fold(s, roll("blue", [6, 1, 1], "orange", [5]), removed("orange", "Hungary", footman=1))
    assert s.players["orange"].coins == coins

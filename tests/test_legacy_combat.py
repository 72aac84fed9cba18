"""Expanding, attacking and maneuvering (rulebook: 3 Expand and Attack, Modifying Die Rolls,
Fortifications, Missiles, If the Defender Has No More Troops, Knocking Out Another Player,
4 Maneuver Troops)."""

from __future__ import annotations

from engine.risk_legacy import RULESET
from engine.risk_legacy import world as W
from engine.risk_legacy.combat import Modifier, casualties, final_dice
from engine.risk_legacy.state import Terr
from tests.test_legacy_helpers import (
    board, ev, fold, held, placed, rules_of, turn_of, with_board, with_marks, with_player,
)


def ann_turn(board_=None, s=None):
    s = turn_of(s or placed(), "ann")
    return with_board(s, board_) if board_ else s


def attack(frm, to, n, actor="ann"):
    return ev("AttackDeclared", actor, from_=frm, to=to, troops=n)


def roll(att, dfn, attacker="ann", defender="bob"):
    return ev("DiceRolled", None, rolls={attacker: att, defender: dfn})


def removed(a, d):
    return ev("CasualtiesRemoved", None, attacker=a, defender=d)


def peru(bob=2, ann_brazil=8):
    return ann_turn({"peru": held("bob", bob), "brazil": held("ann", ann_brazil, "enclave_of_the_bear")})


# --- RL-EXPAND-* ----------------------------------------------------------------------------------

def test_RL_EXPAND_FROM_leaves_one_troop_behind():
    s = fold(ann_turn(), ev("Expanded", "ann", from_="brazil", to="peru", troops=7))
    assert board(s, "brazil").troops == 1 and board(s, "peru") == Terr("ann", 7)
    s = ann_turn({"brazil": held("ann", 3, "enclave_of_the_bear")})
    assert rules_of(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=3)) == ["RL-EXPAND-FROM"]


def test_RL_EXPAND_FROM_only_from_a_controlled_territory():
    vs, nxt = RULESET.step(ann_turn(), ev("Expanded", "ann", from_="china", to="mongolia", troops=2))
    assert [v.rule for v in vs] == ["RL-EXPAND-FROM"] and nxt is None


def test_RL_EXPAND_ADJACENT_only_next_door():
    assert rules_of(ann_turn(), ev("Expanded", "ann", from_="brazil", to="egypt", troops=2)) == ["RL-EXPAND-ADJACENT"]
    assert rules_of(ann_turn(), ev("Expanded", "ann", from_="brazil", to="north_africa", troops=2)) == []  # sea-line


def test_RL_EXPAND_TARGET_an_occupied_territory_is_attacked():
    s = ann_turn({"peru": held("bob", 1)})
    assert rules_of(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=2)) == ["RL-EXPAND-TARGET"]


def test_RL_EXPAND_CITY_loses_the_population():
    s = with_marks(ann_turn(), "peru", city=W.CityMark(kind="major", name="Lima"))
    s = fold(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=4, lost=2))
    assert board(s, "peru").troops == 2


def test_RL_EXPAND_CITY_fortified_costs_two_more():
    s = with_marks(ann_turn(), "peru", city=W.CityMark(kind="minor", name="Lima"), fortification=0)
    assert rules_of(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=3)) == ["RL-EXPAND-CITY"]
    s = fold(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=4))
    assert board(s, "peru").troops == 1


def test_RL_EXPAND_CITY_a_spent_fortification_costs_nothing_more():
    s = with_marks(ann_turn(), "peru", city=W.CityMark(kind="minor", name="Lima"), fortification=10)
    assert board(fold(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=2)), "peru").troops == 1


def test_RL_EXPAND_CITY_a_wrong_claim_of_losses():
    s = with_marks(ann_turn(), "peru", city=W.CityMark(kind="minor", name="Lima"))
    vs = RULESET.check(s, ev("Expanded", "ann", from_="brazil", to="peru", troops=3, lost=0))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CLAIM", False)]


# --- RL-ATTACK-* ----------------------------------------------------------------------------------

def test_RL_ATTACK_FROM_one_to_three_attack_and_one_stays():
    s = peru(ann_brazil=3)
    assert rules_of(s, attack("brazil", "peru", 2)) == []
    assert rules_of(s, attack("brazil", "peru", 3)) == ["RL-ATTACK-FROM"]
    assert rules_of(peru(ann_brazil=1), attack("brazil", "peru", 1)) == ["RL-ATTACK-FROM"]


def test_RL_ATTACK_TARGET_an_adjacent_enemy():
    assert rules_of(peru(), attack("brazil", "peru", 3)) == []
    assert rules_of(ann_turn(), attack("brazil", "peru", 3)) == ["RL-ATTACK-TARGET"]           # empty
    s = ann_turn({"egypt": held("bob", 2)})
    assert rules_of(s, attack("brazil", "egypt", 3)) == ["RL-ATTACK-TARGET"]                  # not adjacent


def test_RL_ATTACK_DICE_one_die_per_attacker_one_or_two_for_the_defender():
    s = fold(peru(), attack("brazil", "peru", 3))
    assert rules_of(s, roll([1, 2, 3], [4, 5])) == []
    assert rules_of(s, roll([1, 2], [4, 5])) == ["RL-ATTACK-DICE"]
    s1 = fold(peru(bob=1), attack("brazil", "peru", 3))
    assert rules_of(s1, roll([1, 2, 3], [4, 5])) == ["RL-ATTACK-DICE"]
    assert rules_of(s, ev("DiceRolled", None, rolls={"ann": [1, 2, 3], "cat": [4]})) == ["RL-ATTACK-DICE"]


def test_RL_ATTACK_COMPARE_highest_against_highest_ties_to_the_defender():
    assert casualties([6, 4, 1], [6, 3]) == (1, 1)
    assert casualties([5], [4, 6]) == (0, 1)
    s = fold(peru(), attack("brazil", "peru", 3), roll([6, 4, 1], [6, 3]), removed(1, 1))
    assert board(s, "brazil").troops == 7 and board(s, "peru").troops == 1


def test_RL_CASUALTIES_the_removal_is_checked_as_a_claim():
    s = fold(peru(), attack("brazil", "peru", 3), roll([6, 4, 1], [6, 3]))
    vs, nxt = RULESET.step(s, removed(0, 2))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CASUALTIES", False)]
    assert board(nxt, "brazil").troops == 7 and board(nxt, "peru").troops == 1


def test_RL_CASUALTIES_only_after_a_roll():
    assert rules_of(peru(), removed(0, 1)) == ["RL-CASUALTIES"]


# --- RL-MODIFIERS, scars, fortification -------------------------------------------------------------

def test_RL_MODIFIERS_clamped_to_one_to_six():
    assert final_dice([6, 2], [Modifier("each", +1, "fort")]) == [6, 3]
    assert final_dice([1], [Modifier("higher", -1, "ammo")]) == [1]


def test_RL_MODIFIERS_one_of_equal_dice_changes():
    assert final_dice([5, 5], [Modifier("higher", +1, "bunker")]) == [6, 5]


def test_RL_MODIFIERS_dice_are_sorted_again():
    # ammo shortage: the defender's 4 becomes 3, now below the 4 beside it... then re-sorted
    assert final_dice([4, 4], [Modifier("higher", -1, "ammo")]) == [4, 3]
    assert final_dice([2, 5], [Modifier("higher", -1, "ammo"), Modifier("lower", -1, "bear")]) == [4, 1]
    assert final_dice([3, 3], [Modifier("higher", +1, "bunker")], missiles=[1]) == [6, 4]


def test_RL_SCAR_PLACE_before_the_roll_onto_the_defender():
    s = with_player(fold(peru(), attack("brazil", "peru", 3)), "bob", scar="bunker")
    s2 = fold(s, ev("ScarPlaced", "bob", scar="bunker", territory="peru"))
    assert W.marks(s2.world, "peru").scar == "bunker" and s2.players["bob"].scar is None
    assert s2.world.supply["scar:bunker"] == 2


def test_RL_SCAR_PLACE_only_the_holder_only_there_only_unscarred_only_before():
    s = with_player(fold(peru(), attack("brazil", "peru", 3)), "bob", scar="bunker")
    s = with_player(s, "ann", scar="ammo_shortage")
    assert rules_of(s, ev("ScarPlaced", "ann", scar="bunker", territory="peru")) == ["RL-SCAR-PLACE"]   # ann holds ammo
    assert rules_of(s, ev("ScarPlaced", "ann", scar="ammo_shortage", territory="peru")) == []
    assert rules_of(s, ev("ScarPlaced", "bob", scar="bunker", territory="brazil")) == ["RL-SCAR-PLACE"]
    scarred = with_marks(s, "peru", scar="ammo_shortage")
    assert rules_of(scarred, ev("ScarPlaced", "bob", scar="bunker", territory="peru")) == ["RL-SCAR-PLACE"]
    rolled = fold(s, roll([1, 1, 1], [1, 1]))
    assert rules_of(rolled, ev("ScarPlaced", "bob", scar="bunker", territory="peru")) == ["RL-SCAR-PLACE"]


def test_RL_SCAR_BUNKER_defender_adds_one_to_the_higher_die():
    s = with_marks(peru(), "peru", scar="bunker")
    # [5, 4] becomes [6, 4]: 6 against 6 goes to the defender, 5 against 4 to the attacker
    s = fold(s, attack("brazil", "peru", 3), roll([6, 5, 1], [5, 4]), removed(1, 1))
    assert board(s, "peru").troops == 1 and board(s, "brazil").troops == 7


def test_RL_SCAR_AMMO_SHORTAGE_defender_subtracts_one_from_the_higher_die():
    s = with_marks(peru(), "peru", scar="ammo_shortage")
    # [5, 3] becomes [4, 3]: 5 beats 4, 2 loses to 3
    s = fold(s, attack("brazil", "peru", 3), roll([5, 2, 1], [5, 3]), removed(1, 1))
    assert board(s, "peru").troops == 1


def fortified_peru(boxes=0):
    return with_marks(peru(bob=3), "peru", city=W.CityMark(kind="minor", name="Lima"), fortification=boxes)


def test_RL_FORTIFICATION_plus_one_on_both_defense_dice():
    s = fold(fortified_peru(), attack("brazil", "peru", 2), roll([5, 4], [4, 3]), removed(2, 0))
    assert board(s, "peru").troops == 3


def test_RL_FORTIFICATION_worn_by_attacks_with_three():
    s = fold(fortified_peru(), attack("brazil", "peru", 3), roll([1, 1, 1], [6, 6]), removed(2, 0))
    assert W.marks(s.world, "peru").fortification == 1
    s = fold(fortified_peru(), attack("brazil", "peru", 2), roll([1, 1], [6, 6]), removed(2, 0))
    assert W.marks(s.world, "peru").fortification == 0


def test_RL_FORTIFICATION_spent_after_ten():
    s = fold(fortified_peru(9), attack("brazil", "peru", 3), roll([6, 5, 1], [5, 4]), removed(2, 0))
    assert W.marks(s.world, "peru").fortification == 10                  # the 10th attack still had it
    assert not W.is_fortified(s.world, "peru")
    s = fold(s, attack("brazil", "peru", 3), roll([6, 5, 1], [5, 4]), removed(0, 2))
    assert board(s, "peru").troops == 1


# --- RL-MISSILE, RL-MISSILE-TIMING ----------------------------------------------------------------

def test_RL_MISSILE_any_player_turns_a_die_into_a_six():
    s = with_player(fold(peru(), attack("brazil", "peru", 3), roll([4, 3, 1], [5, 4])), "cat", missiles=1)
    s = fold(s, ev("MissileFired", "cat", side="defender", die=1))
    assert s.players["cat"].missiles == 0
    s = fold(s, removed(2, 0))
    assert board(s, "brazil").troops == 6


def test_RL_MISSILE_the_six_is_unmodifiable():
    s = with_marks(peru(), "peru", scar="ammo_shortage")
    s = with_player(fold(s, attack("brazil", "peru", 3), roll([5, 3, 1], [6, 2])), "bob", missiles=1)
    # without the missile: [5, 1] against [5, 3] (ammo on the 6); with it the 2 is an unmodifiable 6
    s = fold(s, ev("MissileFired", "bob", side="defender", die=1))
    from engine.risk_legacy.common import roll_result
    fa, fd, a, d = roll_result(s, s.combat)
    assert fd == [6, 5] and (a, d) == (2, 0)


def test_RL_MISSILE_needs_a_missile_and_a_die():
    s = fold(peru(), attack("brazil", "peru", 3), roll([4, 3, 1], [5, 4]))
    assert rules_of(s, ev("MissileFired", "cat", side="defender", die=1)) == ["RL-MISSILE"]
    s = with_player(s, "cat", missiles=2)
    assert rules_of(s, ev("MissileFired", "cat", side="defender", die=2)) == ["RL-MISSILE"]
    s = fold(s, ev("MissileFired", "cat", side="defender", die=1))
    assert rules_of(s, ev("MissileFired", "cat", side="defender", die=1)) == ["RL-MISSILE"]


def test_RL_MISSILE_TIMING_after_the_roll_before_removal():
    s = with_player(fold(peru(), attack("brazil", "peru", 3)), "ann", missiles=1)
    assert rules_of(s, ev("MissileFired", "ann", side="attacker", die=0)) == ["RL-MISSILE-TIMING"]
    s = fold(s, roll([4, 3, 1], [5, 4]), removed(2, 0))
    vs, nxt = RULESET.step(s, ev("MissileFired", "ann", side="attacker", die=0))
    assert [v.rule for v in vs] == ["RL-MISSILE-TIMING"] and nxt is None


# --- RL-CONQUER-MOVE, RL-HQ-CAPTURE, RL-KNOCK-OUT -------------------------------------------------

def test_RL_CONQUER_MOVE_the_attackers_move_in_and_more_may_follow():
    s = fold(peru(bob=1), attack("brazil", "peru", 3), roll([6, 1, 1], [2]), removed(0, 1))
    assert s.combat.stage == "conquered"
    assert rules_of(s, ev("MovedIn", "ann", troops=2)) == ["RL-CONQUER-MOVE"]
    assert rules_of(s, ev("MovedIn", "ann", troops=8)) == ["RL-CONQUER-MOVE"]
    s = fold(s, ev("MovedIn", "ann", troops=7))
    assert board(s, "peru") == Terr("ann", 7) and board(s, "brazil").troops == 1


def test_RL_CONQUER_MOVE_no_attack_until_the_move():
    s = fold(peru(bob=1), attack("brazil", "peru", 3), roll([6, 1, 1], [2]), removed(0, 1))
    vs = RULESET.check(s, ev("Expanded", "ann", from_="brazil", to="argentina", troops=1))
    assert [(v.rule, v.blocking) for v in vs] == [("RL-CONQUER-MOVE", False)]


def test_RL_HQ_CAPTURE_the_hq_stays_and_changes_hands():
    s = ann_turn({"china": held("bob", 1, "die_mechaniker"), "india": held("ann", 5)})
    s = fold(s, attack("india", "china", 3), ev("DiceRolled", None, rolls={"ann": [6, 1, 1], "bob": [2]}),
             removed(0, 1), ev("MovedIn", "ann", troops=3))
    assert board(s, "china") == Terr("ann", 3, "die_mechaniker")
    from engine.risk_legacy.common import stars
    assert stars(s, "ann") == 3 and stars(s, "bob") == 1


def test_RL_KNOCK_OUT_takes_the_resource_cards_not_scars_or_tokens():
    s = ann_turn({"china": held("bob", 1, "die_mechaniker"), "india": held("ann", 5)})
    s = with_player(s, "bob", hand=("A5", "coin"), missiles=1)
    s = fold(s, attack("india", "china", 3), ev("DiceRolled", None, rolls={"ann": [6, 1, 1], "bob": [2]}),
             removed(0, 1), ev("MovedIn", "ann", troops=3))
    assert s.players["ann"].hand == ("A5", "coin") and s.players["bob"].hand == ()
    assert s.players["bob"].scar is not None and s.players["bob"].missiles == 1 and s.players["bob"].tokens == 1


# --- RL-MANEUVER-ONCE, RL-MANEUVER-PATH -----------------------------------------------------------

def test_RL_MANEUVER_ONCE_one_maneuver_per_turn():
    s = ann_turn({"peru": held("ann", 2)})
    s = fold(s, ev("Maneuvered", "ann", from_="brazil", to="peru", troops=3))
    assert rules_of(s, ev("Maneuvered", "ann", from_="brazil", to="peru", troops=1)) == ["RL-MANEUVER-ONCE"]


def test_RL_MANEUVER_PATH_through_own_territories():
    s = ann_turn({"peru": held("ann", 1), "argentina": held("ann", 1)})
    assert rules_of(s, ev("Maneuvered", "ann", from_="brazil", to="argentina", troops=3)) == []
    far = ann_turn({"argentina": held("ann", 1)})
    assert rules_of(far, ev("Maneuvered", "ann", from_="brazil", to="argentina", troops=3)) == []   # adjacent
    cut = ann_turn({"central_america": held("ann", 1)})
    assert rules_of(cut, ev("Maneuvered", "ann", from_="brazil", to="central_america", troops=3)) == ["RL-MANEUVER-PATH"]


def test_RL_MANEUVER_PATH_leaves_one_and_goes_to_own_territory():
    s = ann_turn({"peru": held("ann", 1)})
    assert rules_of(s, ev("Maneuvered", "ann", from_="brazil", to="peru", troops=8)) == ["RL-MANEUVER-PATH"]
    vs, nxt = RULESET.step(s, ev("Maneuvered", "ann", from_="brazil", to="venezuela", troops=2))
    assert [v.rule for v in vs] == ["RL-MANEUVER-PATH"] and nxt is None


def test_RL_EXPAND_TARGET_an_hq_left_without_troops_is_taken_by_expanding():
    """Only an Event's claimed effect can empty a territory around its HQ (RL-RULING-EVENT-EFFECTS);
    the HQ alone does not control it, and whoever expands in takes the HQ."""
    s = ann_turn({"china": Terr(None, 0, "die_mechaniker"), "india": held("ann", 5)})
    s = fold(s, ev("Expanded", "ann", from_="india", to="china", troops=2))
    assert board(s, "china") == Terr("ann", 2, "die_mechaniker")

"""Warrior Knights: the round (Planning, Actions revealed stack by stack, allocation and Special
Phases) and the Baron actions (summary, "Game Round", "Actions" 1-6), with trading, adjustments
and the declared result; each rule with an allowed and a forbidden case."""

from __future__ import annotations

from engine.core.commit import commitment
from engine.core.ruleset import GameResult
from engine.warrior_knights.rounds import plan_text
from engine.warrior_knights.state import Flow, evolve
from tests.wk_helpers import baron, clear_board, ok, place, ready, refused, rules, when, with_card

PLAN = [["levy_taxes", "mobilize_forces"], ["rally_support", "draft_soldiers"], ["versatile", "mobilize_forces"]]


def planned(plans=None):
    """Round 1 after both Barons planned in clear: stack 1 is being revealed."""
    s = ready()
    for q in s.seats:
        s = ok(s, "StacksPlanned", q, stacks=(plans or {}).get(q, PLAN))
    return s


# --- Planning -----------------------------------------------------------------------------------------------

def test_WK_PLAN_allows_up_to_two_cards_of_the_hand_in_each_stack():
    s = ok(ready(), "StacksPlanned", "red", stacks=[["levy_taxes", "versatile"], ["rally_support"], []])
    assert s.plans["red"].counts == (2, 1, 0)
    assert len(s.barons["red"].hand) == 9


def test_WK_PLAN_forbids_three_in_a_stack_and_a_card_not_in_hand():
    refused(ready(), "WK-PLAN", "StacksPlanned", "red",
            stacks=[["levy_taxes", "levy_taxes", "versatile"], [], []])
    refused(ready(), "WK-PLAN", "StacksPlanned", "red", stacks=[["forced_march"], [], []])


def test_WK_PLAN_COMMIT_allows_a_plan_opened_with_its_salt():
    s = ready()
    s = ok(s, "StacksPlanned", "red", counts=[2, 2, 2], commitment=commitment(plan_text(PLAN), "pepper"))
    s = ok(s, "StacksPlanned", "blue", stacks=PLAN)
    s = ok(s, "CardRevealed", None, stack=1, owner="red", card="levy_taxes")
    s = ok(s, "PlanOpened", "red", stacks=PLAN, salt="pepper")
    assert s.plans["red"].opened


def test_WK_PLAN_COMMIT_forbids_a_wrong_salt_and_a_plan_that_differs_from_the_cards_revealed():
    s = ready()
    s = ok(s, "StacksPlanned", "red", counts=[2, 2, 2], commitment=commitment(plan_text(PLAN), "pepper"))
    s = ok(s, "StacksPlanned", "blue", stacks=PLAN)
    s = ok(s, "CardRevealed", None, stack=1, owner="red", card="levy_taxes")
    refused(s, "WK-PLAN-COMMIT", "PlanOpened", "red", stacks=PLAN, salt="salt")
    other = [["rally_support", "mobilize_forces"], ["levy_taxes", "draft_soldiers"], ["versatile", "mobilize_forces"]]
    v, _ = when(s, "PlanOpened", "red", stacks=other, salt="x")
    assert rules(v).count("WK-PLAN-COMMIT") == 2


# --- revealing ----------------------------------------------------------------------------------------------

def test_WK_REVEAL_allows_the_current_stacks_cards():
    s = planned()
    s = ok(s, "CardRevealed", None, stack=1, owner="blue", card="mobilize_forces")
    assert s.flow.pending.card == "mobilize_forces" and s.flow.left[0]["blue"] == 1


def test_WK_REVEAL_forbids_another_stack_and_a_baron_with_no_card_left_in_it():
    s = planned({"red": [["levy_taxes"], [], []], "blue": PLAN})
    refused(s, "WK-REVEAL", "CardRevealed", None, stack=2, owner="blue", card="rally_support")
    s = ok(s, "CardRevealed", None, stack=1, owner="red", card="levy_taxes")
    s = ok(s, "TaxesLevied", "red")
    refused(s, "WK-REVEAL", "CardRevealed", None, stack=1, owner="red", card="levy_taxes")


def test_WK_NEUTRAL_DECK_allows_the_decks_copies():
    s = evolve(planned(), neutral_used={"uncertain_times": 1})
    s = ok(s, "CardRevealed", None, stack=1, owner=None, card="uncertain_times")


def test_WK_NEUTRAL_DECK_forbids_more_copies_than_the_deck_holds():
    s = evolve(planned(), neutral_used={"uncertain_times": 2})
    refused(s, "WK-NEUTRAL-DECK", "CardRevealed", None, stack=1, owner=None, card="uncertain_times")


def test_WK_ACTION_allows_the_action_the_card_lists():
    s = ok(with_card(ready(), "red", "levy_taxes"), "TaxesLevied", "red")
    assert s.flow.pending is None


def test_WK_ACTION_forbids_another_action_and_another_barons_hand():
    s = with_card(ready(), "red", "levy_taxes")
    refused(s, "WK-ACTION", "SupportRallied", "red")
    refused(s, "WK-ACTOR", "TaxesLevied", "blue")


# --- allocation and the Special Phases --------------------------------------------------------------------------

def test_WK_ALLOCATE_allows_the_printed_area_and_the_versatile_back_to_hand():
    s = ok(with_card(ready(), "red", "rally_support"), "SupportRallied", "red")
    assert s.areas["wages"] == 1 and s.allocated["wages"] == (("red", "rally_support"),)
    hand = len(ready().barons["red"].hand)
    s = ok(with_card(ready(), "red", "versatile"), "SupportRallied", "red")
    assert len(s.barons["red"].hand) == hand + 1 and not s.areas.get("wages")


def test_WK_ALLOCATE_forbids_an_area_the_card_does_not_list():
    refused(with_card(ready(), "red", "mobilize_forces"), "WK-ALLOCATE", "ActionDeclined", "red", area="taxation")


def test_WK_SPECIAL_allows_a_full_area_to_trigger_its_phase_and_return_its_cards():
    s = ready()
    s = evolve(s, areas={"taxation": 3}, allocated={"taxation": (("blue", "draft_soldiers"),) * 3})
    s = baron(s, "blue", hand=s.barons["blue"].hand[:5])
    s = with_card(s, "red", "serve_the_church")
    s = ok(s, "ChurchServed", "red")
    assert s.areas["taxation"] == 0 and s.barons["blue"].hand.count("draft_soldiers") >= 3
    assert s.flow.phase == "actions" and "Special Phase: Taxation" in s.notes


def test_WK_SPECIAL_forbids_a_card_revealed_before_the_phase_is_over():
    s = evolve(ready(), areas={"wages": 3}, allocated={"wages": (("blue", "rally_support"),) * 3})
    s = ok(with_card(s, "red", "rally_support"), "SupportRallied", "red")
    assert (s.flow.phase, s.flow.step) == ("special", "wages")
    refused(s, "WK-SPECIAL", "CardRevealed", None, stack=1, owner=None, card="uncertain_times")


# --- Baron actions -------------------------------------------------------------------------------------------------

def _spread(s):
    s = clear_board(s)
    s = place(s, "red-star", "ironvale")
    s = place(s, "red-square", "ironvale")
    s = place(s, "red-triangle", "jesmond")
    return place(s, "red-circle", "larkspur", at_sea=True)


def test_WK_LEVY_allows_a_crown_per_area_with_a_noble_not_on_a_port():
    s = with_card(_spread(ready()), "red", "levy_taxes")
    crowns = s.barons["red"].crowns
    s = ok(s, "TaxesLevied", "red", crowns=2)
    assert s.barons["red"].crowns == crowns + 2


def test_WK_LEVY_forbids_a_wrong_claim_and_uses_the_rules_count():
    s = with_card(_spread(ready()), "red", "levy_taxes")
    crowns = s.barons["red"].crowns
    v, after = refused(s, "WK-LEVY", "TaxesLevied", "red", crowns=3)
    assert not v[0].blocking and after.barons["red"].crowns == crowns + 2


def test_WK_DRAFT_SPOT_allows_a_free_space_in_play():
    s = ok(with_card(ready(), "red", "draft_soldiers"), "SoldiersDrafted", "red", spot=3)
    assert s.track[2] == "red"


def test_WK_DRAFT_SPOT_forbids_a_space_out_of_play_or_taken():
    s = with_card(ready(), "red", "draft_soldiers")
    refused(s, "WK-DRAFT-SPOT", "SoldiersDrafted", "red", spot=4)        # numbered 3: not with 2 players
    refused(evolve(s, track=("blue",) + s.track[1:]), "WK-DRAFT-SPOT", "SoldiersDrafted", "red", spot=1)


def test_WK_DRAFT_TRIGGER_allows_the_last_marker_to_start_the_draft_after_the_cards_phase():
    s = evolve(ready(), track=("blue", "blue", None) + (None,) * 4, areas={"taxation": 3},
               allocated={"taxation": (("blue", "levy_taxes"),) * 3})
    s = ok(with_card(s, "red", "draft_soldiers"), "SoldiersDrafted", "red", spot=3)
    assert (s.flow.phase, s.flow.step) == ("special", "draft") and s.flow.order == ("blue", "blue", "red")
    assert s.notes.index("Special Phase: Taxation") < s.notes.index("Special Phase: Mercenary Draft")


def test_WK_DRAFT_TRIGGER_forbids_a_draft_before_the_track_is_full():
    refused(with_card(ready(), "red", "levy_taxes"), "WK-DRAFT-TRIGGER", "MercenaryHired", "red", hires={})


def test_WK_RALLY_allows_two_votes_and_the_chair_to_the_one_with_most():
    s = evolve(with_card(ready(), "red", "rally_support"), chairman="blue")
    s = ok(baron(s, "blue", votes=1), "SupportRallied", "red")
    assert s.barons["red"].votes == 2 and s.chairman == "red"


def test_WK_RALLY_forbids_the_chair_on_a_tie():
    s = evolve(with_card(ready(), "red", "rally_support"), chairman="blue")
    s = ok(baron(s, "blue", votes=2), "SupportRallied", "red")
    assert s.chairman == "blue"


def test_WK_CHURCH_allows_faith_and_the_church_to_the_one_with_most():
    s = ok(with_card(ready(), "red", "serve_the_church"), "ChurchServed", "red")
    assert s.barons["red"].faith == 1 and s.head_of_church == "red"


def test_WK_CHURCH_forbids_the_church_on_a_tie():
    s = ok(baron(with_card(ready(), "red", "serve_the_church"), "blue", faith=1), "ChurchServed", "red")
    assert s.head_of_church == "blue"


def test_WK_MOBILIZE_allows_nobles_into_the_chosen_area_exhausted():
    s = with_card(_spread(ready()), "red", "mobilize_forces")
    s = ok(s, "ForcesMobilized", "red", area="jesmond", moves=[{"noble": "star", "path": ["jesmond"]}])
    assert s.nobles["red-star"].area == "jesmond" and s.nobles["red-star"].exhausted
    assert s.areas["wages"] == 1                       # a move only: the move's area


def test_WK_MOBILIZE_forbids_a_move_that_ends_elsewhere_and_an_empty_order():
    s = with_card(_spread(ready()), "red", "mobilize_forces")
    refused(s, "WK-MOBILIZE", "ForcesMobilized", "red", area="jesmond", moves=[{"noble": "star", "path": ["oakhurst"]}])
    refused(s, "WK-MOBILIZE", "ForcesMobilized", "red", area="jesmond")


def test_WK_VERSATILE_allows_a_listed_action_and_a_marker_for_its_fee():
    s = with_card(ready(), "red", "versatile")
    s = ok(s, "SoldiersDrafted", "red", spot=1)
    assert s.barons["red"].crowns == 15 - 8 and s.track[0] == "red"


def test_WK_VERSATILE_forbids_a_marker_its_owner_cannot_pay_for():
    refused(baron(with_card(ready(), "red", "versatile"), "red", crowns=5), "WK-VERSATILE", "SoldiersDrafted",
            "red", spot=1)


# --- money, adjustments, the result ------------------------------------------------------------------------------

def test_WK_TRADE_allows_crowns_given_to_another_baron():
    s = ok(ready(), "CrownsGiven", "red", to="blue", crowns=4)
    assert (s.barons["red"].crowns, s.barons["blue"].crowns) == (11, 19)


def test_WK_TRADE_forbids_more_crowns_than_one_has_and_gifts_to_oneself():
    refused(ready(), "WK-TRADE", "CrownsGiven", "red", to="blue", crowns=16)
    refused(ready(), "WK-TRADE", "CrownsGiven", "red", to="red", crowns=1)


def test_WK_ADJUST_allows_a_cards_effect_signed_by_a_seat():
    s = ok(ready(), "Adjusted", "blue", source="ev01", baron="blue", crowns=3, text="The drawer gains 3 crowns.")
    assert s.barons["blue"].crowns == 18
    assert s.notes[0].startswith("Adjustment signed by blue for ev01")


def test_WK_ADJUST_forbids_a_baron_below_zero():
    v, s = refused(ready(), "WK-ADJUST", "Adjusted", "red", source="ev04", crowns=-20)
    assert s.barons["red"].crowns == 0


def test_WK_RESULT_allows_the_winner_the_rules_give():
    s = evolve(ready(), result=GameResult(("blue",), "test", 3, {}), flow=Flow(phase="over", step="over", round=3))
    ok(s, "GameEnded", None, winner="blue")


def test_WK_RESULT_forbids_another_winner_or_a_game_not_over():
    s = evolve(ready(), result=GameResult(("blue",), "test", 3, {}))
    v, _ = refused(s, "WK-RESULT", "GameEnded", None, winner="red")
    assert not v[0].blocking
    refused(ready(), "WK-RESULT", "GameEnded", None, winner="red")


def test_WK_ACTION_forbids_a_card_never_resolved_and_takes_it_as_declined():
    s = ok(planned(), "CardRevealed", None, stack=1, owner="red", card="levy_taxes")
    v, s = when(s, "CardRevealed", None, stack=1, owner="blue", card="mobilize_forces")
    assert rules(v) == ["WK-ACTION"] and not v[0].blocking
    assert s.areas["assembly"] == 1 and s.flow.pending.card == "mobilize_forces"


def test_WK_FLOW_forbids_a_battle_left_unfinished_and_drops_it():
    from tests.test_wk_battles import ASSAULT, board
    s = ok(board(red_star="oakhurst"), "ForcesMobilized", "red", area="oakhurst", attack=ASSAULT)
    v, s = when(s, "CardRevealed", None, stack=1, owner=None, card="uncertain_times")
    assert rules(v) == ["WK-FLOW"] and s.battle is None and s.areas["assembly"] == 1
    assert "Uncertain Times: the Fate deck is shuffled" in s.notes

"""Warrior Knights: the Neutral actions, the Special Phases (Taxation, Wages, Assembly, Mercenary
Draft) and the Upkeep and winning (summary, "Neutral Actions", "Special Phases", "Game Round" 3,
"Winning the Game"); each rule with an allowed and a forbidden case. Red is the Chairman and blue
the Head of the Church (tests/wk_helpers.py)."""

from __future__ import annotations

from engine.core.commit import commitment
from engine.warrior_knights.common import Ctx
from engine.warrior_knights.rounds import advance
from engine.warrior_knights.state import Expedition, Flow, evolve
from tests.wk_helpers import D, army, baron, clear_board, ok, own, place, ready, refused, with_card


def neutral(card, **kw):
    return with_card(clear_board(ready()), None, card, **kw)


# --- 1) Important Event ---------------------------------------------------------------------------------------

def test_WK_EVENT_allows_the_head_of_the_church_to_draw_a_red_event_himself_for_free():
    s = ok(neutral("important_event"), "EventDrawerChosen", "blue", drawer="blue", colour="red")
    s = ok(s, "EventCardDrawn", "blue", card="ev07")
    assert s.flow.pending.stage == "effects" and s.barons["blue"].faith == 0


def test_WK_EVENT_forbids_another_chooser_a_paid_choice_without_faith_and_a_card_of_another_colour():
    s = neutral("important_event")
    refused(s, "WK-EVENT", "EventDrawerChosen", "red", drawer="red", colour="blue")
    refused(s, "WK-EVENT", "EventDrawerChosen", "blue", drawer="red", colour="red")
    s = ok(s, "EventDrawerChosen", "blue", drawer="red", colour="green")
    refused(s, "WK-EVENT", "EventCardDrawn", "red", card="ev02")


def drawn_event(card="ev07", drawer="blue", colour="red"):
    s = baron(neutral("important_event"), "blue", faith=2)
    s = ok(s, "EventDrawerChosen", "blue", drawer=drawer, colour=colour)
    return ok(s, "EventCardDrawn", drawer, card=card)


def test_WK_EVENT_CANCEL_allows_the_drawer_to_pay_a_red_events_faith():
    s = ok(drawn_event(), "EventCancelled", "blue", faith={"blue": 1})
    assert s.barons["blue"].faith == 1 and s.flow.pending.detail["cancelled"]


def test_WK_EVENT_CANCEL_forbids_another_payer_for_a_red_event_and_the_wrong_amount():
    s = baron(drawn_event(), "red", faith=3)
    refused(s, "WK-EVENT-CANCEL", "EventCancelled", "red", faith={"red": 1})
    refused(s, "WK-EVENT-CANCEL", "EventCancelled", "blue", faith={"blue": 2})
    refused(drawn_event("ev01", "red", "green"), "WK-EVENT-CANCEL", "EventCancelled", "red", faith={"red": 1})


def test_WK_EVENT_TARGET_allows_the_fate_card_then_a_cancelling_after_it():
    s = ok(drawn_event("ev02"), "EventTargetDrawn", None, cards=["fate30"])      # Plague: a city by Fate card
    assert s.flow.pending.detail["target"] == "fate30" and "fate30" in s.fate.discard
    assert any("city " + D.cards.fate["fate30"].city in n for n in s.notes)
    s = ok(s, "EventCancelled", "blue", faith={"blue": 1})                        # "cancelled *after*"
    assert s.flow.pending.detail["cancelled"]


def test_WK_EVENT_TARGET_forbids_a_target_for_an_event_needing_none_a_second_one_and_after_cancelling():
    refused(drawn_event(), "WK-EVENT-TARGET", "EventTargetDrawn", None, cards=["fate30"])
    s = ok(drawn_event("ev02"), "EventTargetDrawn", None, cards=["fate30"])
    refused(s, "WK-EVENT-TARGET", "EventTargetDrawn", None, cards=["fate31"])
    s = ok(drawn_event("ev02"), "EventCancelled", "blue", faith={"blue": 1})
    refused(s, "WK-EVENT-TARGET", "EventTargetDrawn", None, cards=["fate30"])


# --- 2) Fund Expedition ------------------------------------------------------------------------------------------

def test_WK_EXPEDITION_allows_a_start_with_stakes_and_a_payout_on_the_3_spot():
    s = ok(neutral("fund_expedition"), "ExpeditionFunded", "red", expedition="spice_isles",
           stakes={"red": 3, "blue": 2})
    assert s.expeditions["spice_isles"].spot == 1 and s.barons["red"].crowns == 12
    s = evolve(neutral("fund_expedition"), expeditions={**s.expeditions, "far_east": Expedition(2, {"red": 4})})
    s = ok(s, "ExpeditionFunded", "red", expedition=None)
    assert s.flow.pending.stage == "fate"
    s = ok(s, "ExpeditionFateDrawn", None, expedition="far_east", cards=["fate06"])        # far_east: 3x
    assert s.barons["red"].crowns == 15 + 12 and s.expeditions["far_east"].spot == 0


def test_WK_EXPEDITION_forbids_a_stake_over_5_one_under_way_and_another_starter():
    s = neutral("fund_expedition")
    refused(s, "WK-EXPEDITION", "ExpeditionFunded", "red", expedition="far_east", stakes={"red": 6})
    refused(s, "WK-EXPEDITION", "ExpeditionFunded", "blue", expedition="far_east")
    s = evolve(s, expeditions={**s.expeditions, "far_east": Expedition(1, {"red": 1})})
    refused(s, "WK-EXPEDITION", "ExpeditionFunded", "red", expedition="far_east")


# --- 3) Upgrade Defenses, 4) Muster Troops ------------------------------------------------------------------

def test_WK_UPGRADE_allows_the_chairman_first_to_fortify_one_of_his_cities():
    s = own(neutral("upgrade_defenses"), "hythe", "red")
    s = ok(s, "DefensesUpgraded", "red", city="hythe", fortify=True)
    assert s.cities["hythe"].fortified and s.barons["red"].crowns == 11
    s = ok(own(s, "kelso", "blue", breaches=2), "DefensesUpgraded", "blue", city="kelso", repair=2)
    assert s.cities["kelso"].breaches == 0 and s.barons["blue"].crowns == 11


def test_WK_UPGRADE_forbids_a_city_not_his_a_besieged_one_and_acting_after_a_later_seat():
    s = own(own(neutral("upgrade_defenses"), "hythe", "red"), "kelso", "blue")
    refused(s, "WK-UPGRADE", "DefensesUpgraded", "red", city="kelso", fortify=True)
    refused(place(own(s, "hythe", "red", siege=("blue", 1)), "blue-star", "oakhurst"), "WK-UPGRADE",
            "DefensesUpgraded", "red", city="hythe", fortify=True)
    s = ok(s, "DefensesUpgraded", "blue", city="kelso", fortify=True)
    refused(s, "WK-UPGRADE", "DefensesUpgraded", "red", city="hythe", fortify=True)


def test_WK_MUSTER_allows_tokens_removed_at_2_crowns_each():
    s = army(neutral("muster_troops"), "red-star", ("red-r4", "m03"), casualties=2)
    s = ok(s, "TroopsMustered", "red", army="star", tokens=2)
    assert s.nobles["red-star"].army.casualties == 0 and s.barons["red"].crowns == 11


def test_WK_MUSTER_forbids_more_tokens_than_the_army_has():
    s = army(neutral("muster_troops"), "red-star", ("red-r4", "m03"), casualties=1)
    refused(s, "WK-MUSTER", "TroopsMustered", "red", army="star", tokens=2)


# --- Taxation and Wages ----------------------------------------------------------------------------------------

def taxed(s):
    s = evolve(s, areas={"taxation": 3}, allocated={"taxation": (("blue", "draft_soldiers"),) * 3})
    return ok(with_card(s, "red", "serve_the_church"), "ChurchServed", "red")


def test_WK_TAXATION_allows_income_of_each_city_and_one_more_when_fortified():
    s = own(own(clear_board(ready()), "hythe", "red", fortified=True), "kelso", "blue")
    s = taxed(s)
    assert s.barons["red"].crowns == 15 + 4 and s.barons["blue"].crowns == 15 + 3


def test_WK_TAXATION_forbids_income_from_a_besieged_city():
    s = own(place(clear_board(ready()), "blue-star", "oakhurst"), "hythe", "red", siege=("blue", 1))
    assert taxed(s).barons["red"].crowns == 15


def wages(s=None):
    s = s or ready()
    return evolve(s, flow=Flow(phase="special", step="wages", round=1, stack=1, left=({None: 1},) * 3,
                               specials=("wages",), order=("red", "blue")))


def test_WK_WAGES_allows_regulars_then_the_mercenaries_kept():
    s = ok(wages(), "WagesPaid", "red", crowns=8)          # regulars 1+1+1+2, m01 1, m03 2
    assert s.barons["red"].crowns == 7 and s.flow.current == "blue"
    s = ok(s, "WagesPaid", "blue", unpaid=["m10"])
    assert "m10" not in s.barons["blue"].troops and s.flow.phase == "actions"


def test_WK_WAGES_forbids_kept_mercenaries_he_cannot_pay_a_wrong_claim_and_another_turn():
    refused(wages(baron(ready(), "red", crowns=6)), "WK-WAGES", "WagesPaid", "red")
    v, _ = refused(wages(), "WK-WAGES", "WagesPaid", "red", crowns=5)
    assert not v[0].blocking
    refused(wages(), "WK-WAGES", "WagesPaid", "blue")


def office_wages(office="ag05"):
    """Wages, red's star Noble holding the office `office` (ag05 maintains 100 strength)."""
    s = ready()
    nobles = {**s.nobles, "red-star": s.nobles["red-star"]._replace(office=office)}
    return wages(evolve(s, nobles=nobles))


def test_WK_OFFICE_TROOPS_allows_troops_within_the_offices_strength_to_go_unpaid():
    s = ok(office_wages(), "WagesPaid", "red", maintained=["m03"], crowns=6)      # regulars 5, m01 1; m03 free
    assert s.barons["red"].crowns == 9 and "m03" in s.barons["red"].troops
    s = ok(office_wages(), "WagesPaid", "red", maintained=["r4"], crowns=6)       # a regular 100: 2 crowns saved
    assert s.barons["red"].crowns == 9


def test_WK_OFFICE_TROOPS_forbids_more_strength_than_printed_no_office_and_a_troop_let_go():
    refused(office_wages(), "WK-OFFICE-TROOPS", "WagesPaid", "red", maintained=["m03", "m01"])   # 150 > 100
    refused(office_wages("ag06"), "WK-OFFICE-TROOPS", "WagesPaid", "red", maintained=["m01"])   # prints none
    refused(wages(), "WK-OFFICE-TROOPS", "WagesPaid", "red", maintained=["m01"])
    refused(office_wages(), "WK-OFFICE-TROOPS", "WagesPaid", "red", maintained=["m03"], unpaid=["m03"])
    refused(office_wages(), "WK-OFFICE-TROOPS", "WagesPaid", "red", maintained=["m10"])        # blue's


# --- the Assembly ----------------------------------------------------------------------------------------------

def assembly(s=None):
    s = s or clear_board(ready())
    s = evolve(s, areas={"assembly": 3}, allocated={"assembly": (("blue", "levy_taxes"),) * 3})
    return ok(with_card(s, "red", "levy_taxes"), "TaxesLevied", "red")


def test_WK_ASSEMBLY_allows_one_vote_plus_one_per_kingdom_city():
    s = assembly(own(own(clear_board(ready()), "hythe", "red"), "acre", "red"))
    assert s.barons["red"].votes == 2 and s.barons["blue"].votes == 1
    assert s.assembly.step == "private" and s.assembly.chairman == "red"


def test_WK_ASSEMBLY_forbids_an_absent_barons_votes_and_an_absent_acting_chairman():
    s = assembly(baron(clear_board(ready()), "red", banned=True))
    assert s.barons["red"].votes == 0 and s.assembly.step == "acting"
    refused(s, "WK-ASSEMBLY", "ActingChairmanAppointed", "red", baron="red")
    s = ok(s, "ActingChairmanAppointed", "red", baron="blue")
    assert s.assembly.chairman == "blue"


def test_WK_ASSEMBLY_PRIVATE_allows_the_baron_the_fate_cards_name_to_call_a_motion():
    s = ok(assembly(), "PrivateMotionDrawn", None, cards=["fate05", "fate13"])       # purple, then red
    s = ok(s, "PrivateMotionCalled", "red")
    assert s.assembly.step == "order"


def test_WK_ASSEMBLY_PRIVATE_forbids_another_caller_and_a_motion_on_nothing():
    s = ok(assembly(), "PrivateMotionDrawn", None, cards=["fate13"])
    refused(s, "WK-ASSEMBLY-PRIVATE", "PrivateMotionCalled", "blue")
    refused(s, "WK-ASSEMBLY-PRIVATE", "PrivateMotionCalled", "red", motion="discard", target="ag09")


def ordered():
    s = ok(assembly(), "PrivateMotionDrawn", None, cards=["fate13"])
    s = ok(s, "PrivateMotionCalled", "red")
    return ok(s, "AgendaOrderDeclared", "red", order=["ag02", "ag01", "ag03"])


def test_WK_ASSEMBLY_ORDER_allows_the_chairman_to_order_the_agendas():
    s = ordered()
    assert s.assembly.agendas == ("ag02", "ag01", "ag03") and s.assembly.step == "hide"


def test_WK_ASSEMBLY_ORDER_forbids_another_baron_and_a_missing_agenda():
    s = ok(ok(assembly(), "PrivateMotionDrawn", None, cards=["fate13"]), "PrivateMotionCalled", "red")
    refused(s, "WK-ASSEMBLY-ORDER", "AgendaOrderDeclared", "blue", order=["ag01", "ag02", "ag03"])
    refused(s, "WK-ASSEMBLY-ORDER", "AgendaOrderDeclared", "red", order=["ag01", "ag02"])


def hidden(red=(1, 0, 0), blue=(0, 0, 1)):
    """With 2 players every Baron writes his votes for all three Agendas before any is revealed."""
    s = ordered()
    for seat, votes in (("red", red), ("blue", blue)):
        for agenda, n in zip(("ag02", "ag01", "ag03"), votes):
            s = ok(s, "VotesHidden", seat, agenda=agenda, commitment=commitment(n, f"{seat}{agenda}"))
    return s


def test_WK_VOTES_allows_hidden_votes_revealed_together_then_declared_from_the_chairman():
    s = ok(hidden(), "VotesRevealed", "red", agenda="ag02", votes=1, salt="redag02")
    s = ok(s, "VotesRevealed", "blue", agenda="ag02", votes=0, salt="blueag02")
    assert s.assembly.step == "declare" and s.barons["red"].votes == 0
    s = ok(s, "VoteDeclared", "red", agenda="ag02", choice="red")
    assert s.assembly.at == 1 and "ag02" in s.agenda_discards


def test_WK_VOTES_forbids_a_reveal_that_is_not_the_vote_hidden_and_more_votes_than_held():
    refused(hidden(), "WK-VOTES", "VotesRevealed", "red", agenda="ag02", votes=0, salt="redag02")
    s = ordered()
    refused(s, "WK-VOTES", "VotesRevealed", "red", agenda="ag02", votes=5)
    refused(s, "WK-VOTES", "VotesRevealed", "red", agenda="ag01", votes=0)      # ag02 comes first


def tied():
    s = ok(hidden(red=(1, 0, 0), blue=(1, 0, 0)), "VotesRevealed", "red", agenda="ag02", votes=1, salt="redag02")
    s = ok(s, "VotesRevealed", "blue", agenda="ag02", votes=1, salt="blueag02")
    s = ok(s, "VoteDeclared", "red", agenda="ag02", choice="red")
    return ok(s, "VoteDeclared", "blue", agenda="ag02", choice="blue")


def test_WK_VOTE_RESULT_allows_the_chairman_to_break_a_tie():
    s = tied()
    assert s.assembly.step == "tie"
    s = ok(s, "TieBroken", "red", agenda="ag02", choice="red")
    assert s.assembly.at == 1


def test_WK_VOTE_RESULT_forbids_a_choice_outside_the_tie_and_another_tie_breaker():
    refused(tied(), "WK-VOTE-RESULT", "TieBroken", "red", agenda="ag02", choice="yes")
    refused(tied(), "WK-VOTE-RESULT", "TieBroken", "blue", agenda="ag02", choice="blue")


def charged():
    """Blue holds 3 charges; the Agenda now voted is a fourth (ag07) and red's vote gives it to blue."""
    s = clear_board(ready())
    s = baron(s, "blue", charges=("ag08", "ag09", "ag10"))
    s = evolve(s, agendas=("ag07",))
    s = ok(ok(assembly(s), "PrivateMotionDrawn", None, cards=["fate13"]), "PrivateMotionCalled", "red")
    s = ok(s, "AgendaOrderDeclared", "red", order=["ag07"])
    s = ok(s, "VotesRevealed", "red", agenda="ag07", votes=1)
    s = ok(s, "VotesRevealed", "blue", agenda="ag07", votes=0)
    return ok(s, "VoteDeclared", "red", agenda="ag07", choice="blue")


def test_WK_AGENDA_allows_a_fourth_charge_to_make_him_discard_an_original():
    s = charged()
    assert s.assembly.step == "charge"
    s = ok(s, "ChargeDiscarded", "blue", agenda="ag09")
    assert s.barons["blue"].charges == ("ag08", "ag10", "ag07")


def test_WK_AGENDA_forbids_discarding_the_new_charge_and_an_office_on_anothers_noble():
    refused(charged(), "WK-AGENDA", "ChargeDiscarded", "blue", agenda="ag07")
    s = evolve(clear_board(ready()), agendas=("ag06",))
    s = ok(ok(assembly(s), "PrivateMotionDrawn", None, cards=["fate13"]), "PrivateMotionCalled", "red")
    s = ok(s, "AgendaOrderDeclared", "red", order=["ag06"])
    s = ok(s, "VotesRevealed", "red", agenda="ag06", votes=1)
    s = ok(s, "VotesRevealed", "blue", agenda="ag06", votes=0)
    s = ok(s, "VoteDeclared", "red", agenda="ag06", choice="red")
    refused(s, "WK-AGENDA", "OfficeAssigned", "red", agenda="ag06", noble="blue-star")
    s = ok(s, "OfficeAssigned", "red", agenda="ag06", noble="star")
    assert s.nobles["red-star"].office == "ag06"


# --- the Mercenary Draft ------------------------------------------------------------------------------------------

def draft(s=None):
    s = s or ready()
    return evolve(s, track=("blue", "red", "blue") + (None,) * 4,
                  flow=Flow(phase="special", step="draft", round=1, stack=1, left=({None: 1},) * 3,
                            specials=("draft",), order=("blue", "red", "blue")))


def test_WK_MERC_DRAFT_allows_each_marker_in_order_and_a_batch_of_one_nationality():
    s = ok(draft(), "MercenaryHired", "blue", hires={"m05": "stronghold", "m06": "stronghold"})   # alban, 2 markers
    assert s.flow.order == ("blue", "red") and s.barons["blue"].crowns == 15 - 6
    s = ok(s, "MercenaryHired", "red")
    assert s.flow.step == "draft_reveal" and s.market == ()


def test_WK_MERC_DRAFT_forbids_another_turn_and_two_nationalities_at_once():
    refused(draft(), "WK-MERC-DRAFT", "MercenaryHired", "red", hires={"m05": "stronghold"})
    refused(draft(), "WK-MERC-DRAFT", "MercenaryHired", "blue", hires={"m05": "stronghold", "m12": "stronghold"})


def test_WK_MERC_ASSIGN_allows_a_noble_at_his_stronghold_or_off_the_board():
    s = draft()
    home = s.barons["blue"].stronghold
    s = ok(place(s, "blue-star", home), "MercenaryHired", "blue", hires={"m05": "star"})
    assert "m05" in s.nobles["blue-star"].army.troops
    ok(place(draft(), "blue-star", None), "MercenaryHired", "blue", hires={"m05": "star"})


def test_WK_MERC_ASSIGN_forbids_a_noble_away_from_his_cities_and_stronghold():
    s = place(draft(), "blue-star", "ironvale")
    refused(s, "WK-MERC-ASSIGN", "MercenaryHired", "blue", hires={"m05": "star"})


# --- the Upkeep and winning ---------------------------------------------------------------------------------------

def upkeep(s):
    """The last card of the round resolved: the Upkeep begins."""
    s = evolve(s, flow=Flow(phase="actions", step="reveal", round=1, stack=3, left=({None: 0},) * 3))
    return advance(s, Ctx())


FIVE = ("newburn", "otterburn", "ludlow", "morpeth", "penrith")


def test_WK_WIN_CITIES_allows_a_2_player_win_with_5_kingdom_cities():
    s = ready()
    for city in FIVE:
        s = own(s, city, "red")
    s = upkeep(s)
    assert s.result.winners == ("red",) and s.flow.phase == "over"


def test_WK_WIN_CITIES_forbids_a_win_with_4():
    s = ready()
    for city in FIVE[:4]:
        s = own(s, city, "red")
    assert upkeep(s).result is None


def test_WK_INFLUENCE_allows_one_per_unbesieged_city():
    s = own(own(own(ready(), "newburn", "red"), "otterburn", "red", siege=("blue", 1)), "ludlow", "blue")
    s = place(s, "blue-square", "elmstead")                          # the besieger, at Otterburn
    s = upkeep(s)
    assert s.barons["red"].influence == 1 and s.barons["blue"].influence == 1 and s.influence_pool == 18


def test_WK_INFLUENCE_forbids_influence_without_a_stronghold_on_the_board():
    s = upkeep(baron(own(ready(), "newburn", "red"), "red", stronghold=None))
    assert s.barons["red"].influence == 0


def test_WK_REVOLT_allows_a_draw_for_an_unguarded_city_and_faith_to_stop_it():
    s = upkeep(baron(own(clear_board(ready()), "kelso", "red"), "red", faith=1))
    assert s.flow.revolts == ("kelso",)
    s = ok(s, "RevoltDrawn", None, city="kelso", card="fate04")            # revolt
    s = ok(s, "RevoltSettled", "red", city="kelso", pay="faith")
    assert s.cities["kelso"].owner == "red" and s.flow.step == "return"


def test_WK_REVOLT_forbids_a_draw_for_a_guarded_city_and_another_baron_settling():
    s = own(own(clear_board(ready()), "kelso", "red"), "hythe", "red")
    s = upkeep(place(s, "red-star", "oakhurst"))
    refused(s, "WK-REVOLT", "RevoltDrawn", None, city="hythe", card="fate04")
    s = ok(s, "RevoltDrawn", None, city="kelso", card="fate04")
    refused(s, "WK-REVOLT", "RevoltSettled", "blue", city="kelso")
    s = ok(s, "RevoltSettled", "red", city="kelso")
    assert s.cities["kelso"].owner is None


def returning():
    s = upkeep(clear_board(ready()))
    assert s.flow.step == "return"
    return s


def test_WK_RETURN_allows_a_noble_with_troops_at_his_stronghold():
    s = returning()
    s = ok(s, "NobleReturned", "red", noble="star", area=s.barons["red"].stronghold)
    assert s.nobles["red-star"].area == s.barons["red"].stronghold


def test_WK_RETURN_forbids_another_place_a_noble_without_troops_and_the_chairman_after_others():
    s = returning()
    refused(s, "WK-RETURN", "NobleReturned", "red", noble="star", area=s.barons["blue"].stronghold)
    refused(army(s, "red-star", ()), "WK-RETURN", "NobleReturned", "red", noble="star",
            area=s.barons["red"].stronghold)
    s = ok(s, "NobleReturned", "blue", noble="star", area=s.barons["blue"].stronghold)
    refused(s, "WK-RETURN", "NobleReturned", "red", noble="star", area=s.barons["red"].stronghold)


def test_WK_WIN_INFLUENCE_allows_the_most_influence_with_the_tie_breaks():
    s = own(own(clear_board(ready()), "kelso", "red"), "hythe", "blue")
    s = place(place(s, "red-star", "valewick"), "blue-star", "oakhurst")
    s = evolve(baron(s, "blue", crowns=10), influence_pool=2)
    s = upkeep(s)
    # 1 Influence each, 1 city each: red's 15 crowns beat blue's 10
    assert s.result.winners == ("red",) and "Influence" in s.result.reason
    assert s.result.detail["red"]["crowns_faith_votes"] == 15


def test_WK_WIN_INFLUENCE_forbids_a_winner_when_every_count_ties():
    s = own(own(clear_board(ready()), "kelso", "red"), "hythe", "blue")
    s = place(place(s, "red-star", "valewick"), "blue-star", "oakhurst")
    s = evolve(s, influence_pool=2)
    s = upkeep(s)
    assert s.result is not None and s.result.winners == ()

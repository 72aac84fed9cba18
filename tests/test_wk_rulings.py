"""The rulings on the Warrior Knights rules summary's gaps and defects (docs/warrior-knights.md,
"Rulings"): one test each, named after the ruling."""

from __future__ import annotations

from engine.warrior_knights.common import Ctx
from engine.warrior_knights.rounds import advance, neutral_copies
from engine.warrior_knights.state import CASUALTY_TOKEN, Deck, Expedition, Flow, evolve
from tests.test_wk_battles import ASSAULT, board, drawn, field_battle
from tests.test_wk_phases import FIVE, neutral, upkeep
from tests.wk_helpers import D, baron, clear_board, ok, own, place, ready, refused, setup_until, with_card


def test_WK_RULING_TRACK_NUMBER_unnumbered_spaces_and_those_up_to_the_players_are_in_play():
    assert [t.spot for t in D.board.usable_spots(2)] == [1, 2, 3]
    assert [t.spot for t in D.board.usable_spots(6)] == [1, 2, 3, 4, 5, 6, 7]


def test_WK_RULING_BLESSING_the_head_of_the_church_pays_1_faith_and_the_better_of_2_cards_counts():
    s = baron(neutral("fund_expedition"), "blue", faith=1)
    s = ok(s, "ExpeditionFunded", "red", expedition="far_east", stakes={"red": 2}, blessed=True)
    assert s.barons["blue"].faith == 0 and s.expeditions["far_east"].blessed
    s = evolve(neutral("fund_expedition"), expeditions={"far_east": Expedition(2, {"red": 2}, True),
                                                        "spice_isles": Expedition(), "new_world": Expedition()})
    s = ok(s, "ExpeditionFunded", "red", expedition=None)
    refused(s, "WK-EXPEDITION", "ExpeditionFateDrawn", None, expedition="far_east", cards=["fate04"])
    s = ok(s, "ExpeditionFateDrawn", None, expedition="far_east", cards=["fate05", "fate08"])   # no news, 4x
    assert s.barons["red"].crowns == 15 + 8


def test_WK_RULING_SAME_CARDS_a_versatile_card_starts_a_battle_too():
    s = with_card(place(clear_board(ready()), "red-star", "oakhurst"), "red", "versatile")
    s = ok(s, "ForcesMobilized", "red", area="oakhurst", attack=ASSAULT)
    assert s.battle is not None and s.flow.pending.area == "hand"


def test_WK_RULING_FORTIFIED_STRENGTH_a_fortified_city_defends_with_its_printed_strength():
    s = own(board(red_star="oakhurst"), "hythe", None, fortified=True)
    s = ok(s, "ForcesMobilized", "red", area="oakhurst", attack=ASSAULT)
    from engine.warrior_knights.battles import fate_count
    assert fate_count(s, s.battle, "defender") == 4


def test_WK_RULING_MOBILIZE_AREA_one_action_goes_to_its_area_both_to_the_barons_choice():
    s = ok(board(red_star="ironvale"), "ForcesMobilized", "red", area="oakhurst",
           moves=[{"noble": "star", "path": ["oakhurst"]}], attack=ASSAULT, card_area="wages")
    assert s.flow.pending.area == "wages"
    s = ok(board(red_star="oakhurst"), "ForcesMobilized", "red", area="oakhurst", attack=ASSAULT)
    assert s.flow.pending.area == "assembly"


def test_WK_RULING_TWO_PLAYER_VICTORY_five_cities_even_when_more_than_half_is_four():
    s = ready()
    unrazed = [c for c in D.board.kingdom_cities if not s.cities[c].razed]
    assert len(unrazed) == 7
    for city in FIVE[:4]:
        s = own(s, city, "red")
    assert upkeep(s).result is None


def test_WK_RULING_NOBLE_PLACEMENT_players_go_round_until_every_noble_with_troops_is_placed():
    s = setup_until(2, "nobles")
    placed = 0
    while s.flow.phase == "setup":
        q = s.flow.current
        noble = sorted(n.id for n in s.nobles.values() if n.owner == q and n.area is None and n.army.troops)[0]
        s = ok(s, "NoblePlaced", q, noble=noble, area=s.barons[q].stronghold)
        placed += 1
    assert placed == 8 and s.flow.phase == "planning"


def test_WK_RULING_PASSING_THROUGH_a_move_may_end_where_another_baron_stands():
    s = ok(board(red_star="ironvale", blue_star="jesmond"), "ForcesMobilized", "red", area="jesmond",
           moves=[{"noble": "star", "path": ["jesmond"]}])
    assert s.nobles["red-star"].area == "jesmond"


def test_WK_RULING_CASUALTY_DEATH_tokens_count_100_each_with_those_from_earlier_battles():
    s = field_battle(("fate13", "fate04", "fate02", "fate07"), ("fate08", "fate15", "fate14", "fate19"), (2, 3), (2, 3))
    s = evolve(s, nobles={**s.nobles, "blue-star": s.nobles["blue-star"]._replace(
        army=s.nobles["blue-star"].army._replace(casualties=0))})
    s = ok(s, "CasualtiesAssigned", "red", tokens={"star": 1})
    s = ok(s, "CasualtiesAssigned", "blue", tokens={"star": 3})          # 300 >= 150: he dies
    assert s.battle.after[0] == ("die", "blue-star")


def test_WK_RULING_ABILITIES_the_commanders_ability_counts():
    # red keeps two deal_100 and his star deals 100 more: 3 breaches on Hythe
    s = ok(drawn(att=("fate13", "fate04", "fate03", "fate08")), "FateDiscarded", "red", discard=[2, 3])
    assert s.battle.defender.breaches == 3


def test_WK_RULING_NEUTRAL_VICTORIES_a_city_with_strength_left_stands_for_the_defending_noble():
    s = ok(drawn(att=("fate05", "fate12", "fate03", "fate08"), dfn=("fate15", "fate20", "fate27", "fate32")), "FateDiscarded", "red",
           discard=[2, 3])
    assert s.battle.after == (("take", "hythe"),)


def test_WK_RULING_SIEGE_NO_BATTLE_a_siege_draws_no_fate_cards():
    s = ok(board(red_star="valewick"), "ForcesMobilized", "red", area="valewick",
           attack={"defender": "neutral", "kind": "siege", "armies": ["star"], "commander": "star"})
    assert s.battle is None and s.flow.pending is None


def test_WK_RULING_STRONGHOLD_SIEGE_a_stronghold_is_assaulted_not_besieged():
    s = baron(board(red_star="ironvale"), "blue", stronghold="ironvale")
    refused(s, "WK-BATTLE", "ForcesMobilized", "red", area="ironvale",
            attack={"defender": "blue", "kind": "siege", "armies": ["star"], "commander": "star"})


def test_WK_RULING_VICTORY_CHECK_TIME_cities_win_only_at_the_upkeep():
    s = ready()
    for city in FIVE:
        s = own(s, city, "red")
    s = ok(with_card(s, "red", "levy_taxes"), "TaxesLevied", "red")
    assert s.result is None
    assert upkeep(s).result.winners == ("red",)


def test_WK_RULING_POOL_END_the_result_stands_after_the_revolts():
    s = own(clear_board(ready()), "kelso", "red")
    s = evolve(s, influence_pool=1)
    s = upkeep(s)
    assert s.result is None and s.flow.revolts == ("kelso",)
    s = ok(s, "RevoltDrawn", None, city="kelso", card="fate04")
    s = ok(s, "RevoltSettled", "red", city="kelso")             # he loses the city: cities tie at 0
    assert s.result is not None and s.result.detail["red"]["cities"] == 0


def test_WK_RULING_UNCERTAIN_TIMES_the_draw_deck_is_shuffled_the_discards_stay():
    s = clear_board(ready())
    s = evolve(s, fate=s.fate._replace(pile=s.fate.pile - {"fate01", "fate02"}, bottom=("fate02",), discard=frozenset({"fate01"})))
    s = with_card(s, None, "uncertain_times")
    assert "fate02" in s.fate.pile and s.fate.bottom == () and s.fate.discard == {"fate01"}


def test_WK_RULING_RETREAT_BORDER_a_retreat_crosses_a_passable_border_only():
    from engine.warrior_knights.battles import _retreat_spots
    s = place(clear_board(ready()), "blue-star", "kestrel")
    assert "larkspur" not in _retreat_spots(s, s.nobles["blue-star"])          # the mountain


def test_WK_RULING_DECK_EXHAUSTED_fewer_cards_when_a_deck_and_its_discards_run_out():
    from engine.warrior_knights.state import Deck
    s = ready()
    s = evolve(s, mercs=Deck(frozenset({"m20"})), track=(None,) * 7,
               flow=Flow(phase="special", step="draft_reveal", round=1, stack=1, left=({None: 1},) * 3,
                         specials=("draft",)))
    s = ok(s, "MercenariesRevealed", None, cards=["m20"])
    assert [t.id for t in s.market] == ["m20"]


def test_WK_RULING_EVENT_BLUE_the_head_of_the_church_gives_a_blue_event_to_anyone_for_free():
    s = ok(neutral("important_event"), "EventDrawerChosen", "blue", drawer="red", colour="blue")
    assert s.barons["blue"].faith == 0 and s.flow.pending.detail["drawer"] == "red"


def test_WK_RULING_EXPEDITION_STAKES_the_chairmans_record_names_every_stake():
    s = ok(neutral("fund_expedition"), "ExpeditionFunded", "red", expedition="new_world",
           stakes={"red": 1, "blue": 5})
    assert dict(s.expeditions["new_world"].stakes) == {"red": 1, "blue": 5} and s.barons["blue"].crowns == 10


def test_WK_RULING_WAGES_ORDER_the_cheapest_regulars_are_paid_first():
    from engine.warrior_knights.phases import regular_wages
    s = baron(ready(), "red", crowns=3)
    assert regular_wages(s, "red") == (3, 1)            # three of wage 1 paid, the wage-2 one not


def test_WK_RULING_TIE_ZERO_no_votes_cast_is_a_tie_the_chairman_breaks():
    from tests.test_wk_phases import hidden
    s = ok(hidden(red=(0, 0, 0), blue=(0, 0, 0)), "VotesRevealed", "red", agenda="ag02", votes=0, salt="redag02")
    s = ok(s, "VotesRevealed", "blue", agenda="ag02", votes=0, salt="blueag02")
    assert s.assembly.step == "tie" and set(s.setup["tied"]) == {"red", "blue"}


def test_WK_RULING_TOP_EVENT_the_event_deck_keeps_every_card_whatever_its_order():
    assert ready().events.pile == frozenset(D.cards.events)


def test_WK_RULING_OFFICE_TROOPS_the_holder_names_the_troops_within_the_printed_strength():
    from tests.test_wk_phases import office_wages
    s = ok(office_wages(), "WagesPaid", "red", maintained=["m01", "red-r1"], crowns=6)   # 50 + 50 of 100
    assert s.barons["red"].crowns == 9
    refused(office_wages(), "WK-OFFICE-TROOPS", "WagesPaid", "red", maintained=["m01", "m03"])


def test_WK_RULING_AFTER_ILLEGAL_a_draw_that_breaks_a_rule_is_applied_as_recorded():
    s = ok(setup_until(2, "market"), "MarketRevealed", None, mercenaries=["m05", "m06", "m07"],
           agendas=["ag01", "ag02", "ag03"])
    v, s2 = refused(s, "WK-FLOW", "MarketRevealed", None, mercenaries=["m12"], agendas=["ag04"])
    assert s2 is s                                        # out of place: skipped
    assert advance(s, Ctx()).flow.step == "offices"


# --- Crown & Glory ----------------------------------------------------------------------------------------------

def test_WK_RULING_KING_TIE_no_king_until_one_leads_alone():
    from tests.test_wk_glory import glory
    s = own(own(clear_board(glory(ready(), "king")), "kelso", "red"), "hythe", "blue")
    s = place(place(s, "red-star", "valewick"), "blue-star", "oakhurst")
    s = upkeep(evolve(s, influence_pool=2))
    assert s.glory.king is None and s.influence_pool == 0
    s = upkeep(own(s, "newburn", "blue"))                        # blue now leads: crowned
    assert s.glory.king == "blue"


def test_WK_RULING_USURP_WIN_the_stronghold_eliminated_usurps():
    from tests.test_wk_battles import stronghold_fallen
    from tests.test_wk_glory import glory
    s = glory(stronghold_fallen(), "king", king="blue")
    assert s.glory.king == "blue"                                # the battle alone usurps nothing
    s = ok(s, "StrongholdCityGiven", "blue", city="everton")
    assert s.glory.king == "red"


def test_WK_RULING_KING_ARMY_regulars_that_stay_with_the_heir():
    from tests.test_wk_glory import crowned
    s = ok(crowned(), "KingsArmyAssigned", "red", armies={"star": 2})
    assert not any(s.barons["red"].troops[t].mercenary for t in ("kings-army-1", "kings-army-2"))


def test_WK_RULING_MISSION_END_a_cities_victory_reveals_no_mission():
    from tests.test_wk_glory import dealt
    s = dealt()
    s = evolve(clear_board(evolve(ready(), glory=s.glory)))
    for c in ("newburn", "otterburn", "ludlow", "morpeth", "penrith"):
        s = own(s, c, "red")
    s = upkeep(s)
    assert s.result.winners == ("red",) and not s.glory.missions["red"].revealed


def test_WK_RULING_GARRISON_UPGRADE_a_repair_and_a_garrison_in_one_turn():
    from tests.test_wk_glory import upgrading
    from engine.warrior_knights.state import CityState
    s = upgrading()
    s = evolve(s, cities={**s.cities, "hythe": CityState(owner="red", breaches=1)})
    s = ok(s, "DefensesUpgraded", "red", city="hythe", repair=1, garrison="hythe")
    assert s.cities["hythe"].breaches == 0 and s.glory.garrisons == {"hythe": "red"}


def test_WK_RULING_GARRISON_STRENGTH_counts_defending_but_takes_no_breaches():
    from engine.warrior_knights.battles import defending_bonus, target_strength
    from engine.warrior_knights.state import Battle, Side
    from tests.test_wk_glory import fg
    s = own(fg(), "hythe", "red")
    s = evolve(s, glory=s.glory._replace(garrisons={"hythe": "red"}))
    b = Battle("oakhurst", "assault", Side("blue", ("blue-star",)), Side("red"), city="hythe")
    assert target_strength(s, b) == 400 and defending_bonus(s, b) == 100


def test_WK_RULING_GARRISON_WAGE_from_the_cards_file():
    from engine.warrior_knights.glory import garrison_wage
    from tests.test_wk_glory import fg
    assert garrison_wage(fg()) == 1


def test_WK_RULING_LEVY_WAGES_a_levy_is_never_let_go_for_wages():
    from tests.test_wk_glory import levied
    from tests.test_wk_phases import wages
    v, _ = refused(wages(levied()), "WK-TOWN-LEVY-LOSS", "WagesPaid", "red", unpaid=["lv-hythe"])
    assert v[0].blocking


def test_WK_RULING_GLORY_FATE_DECK_the_blue_deck_replaces_the_base_one():
    from tests.wk_helpers import new
    s = new(2, variants=["for_glory"])
    assert s.fate.pile and all(x.startswith("gfate") for x in s.fate.pile)


def test_WK_RULING_ADVANCEMENT_EXCESS_the_named_card_goes_to_the_bottom():
    from tests.test_wk_glory import enriched
    s = enriched(knowledge={"red": 5}, owned={"red": ("ad04", "ad05", "ad06")})
    s = ok(s, "AdvancementBought", "red", advancement="ad03", returned=["ad05"])
    assert s.glory.owned["red"] == ("ad04", "ad06", "ad03") and s.glory.adv_deck.bottom == ("ad05",)


def test_WK_RULING_SCHOLAR_KEEPS_the_token_while_knowledge_is_spent():
    from tests.test_wk_glory import enriched
    s = enriched(knowledge={"red": 1, "blue": 1})
    assert s.glory.scholar == "red"
    s = ok(s, "AdvancementBought", "red", advancement="ad01")            # 0 Knowledge left
    assert s.glory.scholar == "red" and s.glory.knowledge["red"] < s.glory.knowledge["blue"]


def test_WK_RULING_ADVANCEMENT_TIME_from_the_cards_file():
    from tests.test_wk_glory import scholarly
    s = scholarly(owned={"red": ("ad08",)})                              # when: upkeep
    refused(s, "WK-ADVANCEMENT-USE", "AdvancementUsed", "red", advancement="ad08")
    s = evolve(s, flow=s.flow._replace(phase="upkeep", step="return"))
    assert ok(s, "AdvancementUsed", "red", advancement="ad08").glory.exhausted == ("ad08",)


def test_WK_RULING_GLORY_RETREAT_no_deserters_card_is_drawn():
    from tests.test_wk_glory import glory_field
    s = ok(glory_field(), "RetreatChosen", "blue", retreat=True)
    assert s.battle.deserters["blue-star"] == "" and s.battle.stage == "aftermath"
    refused(s, "WK-DESERTERS", "DesertersDrawn", None, noble="blue-star", card="gfate13")


def test_WK_RULING_PRESSING_STACK_the_card_waits_in_the_assembly_stack_and_returns_to_the_deck_after():
    from tests.test_wk_glory import pressing
    s = ok(pressing(assembly=3), "AgendasRevealed", None, cards=["ag04"])          # the 4th card: an Assembly
    assert s.flow.step == "assembly" and s.allocated["assembly"][-1] == (None, "pressing_agenda")
    assert neutral_copies(s, "pressing_agenda") == 0                                # out of the Neutral deck
    s = evolve(s, assembly=s.assembly._replace(step="new"))
    s = ok(s, "AgendasRevealed", None, cards=["ag05", "ag06", "ag07"])
    assert s.allocated["assembly"] == () and neutral_copies(s, "pressing_agenda") == 1
    out = with_card(evolve(pressing(), agenda_deck=Deck()), None, "pressing_agenda")   # the deck is out
    assert out.flow.pending is not None and out.flow.pending.area == "assembly" and out.flow.pending.stage == "done"


def test_WK_RULING_CASUALTY_SPOT_the_leftmost_free_space_in_play_and_a_draft_of_tokens_alone():
    from tests.test_wk_glory import assembling
    s = ok(assembling(track=("red", "blue", None, None, None, None, None), s=clear_board(ready(4))),
           "MercenariesRevealed", None, cards=["m20"])
    assert s.track[:3] == ("red", "blue", CASUALTY_TOKEN)                           # 5 spaces in play with 4
    from engine.warrior_knights.phases import begin_draft
    tokens = evolve(s, track=(CASUALTY_TOKEN,) * 3 + (None,) * 4)
    d = begin_draft(evolve(tokens, flow=tokens.flow._replace(phase="special", step="draft")), Ctx())
    assert d.flow.step == "draft_reveal" and d.track == (None,) * 7 and d.market == ()


def test_WK_RULING_LEADER_STRONGHOLD_a_stronghold_keeps_any_number_and_grants_nothing():
    from engine.warrior_knights.glory import leader_problem
    from tests.test_wk_glory import fg, holding, merc
    assert leader_problem("stronghold", [merc("m29"), merc("m30")]) is None
    assert "single Leader" in leader_problem("blue-star", [merc("m29"), merc("m30")])
    refused(holding(fg(), "blue", "stronghold", "m31"), "WK-LEADER-ABILITY", "Adjusted", "blue", source="m31", votes=1)

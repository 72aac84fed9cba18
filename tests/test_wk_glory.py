"""Warrior Knights with Crown & Glory (summary, "CROWN & GLORY EXPANSION": the Missions Variant, The
King Variant, For Glory's Garrisons, Town Levies, Riots, New Fate Deck, new Neutral cards); each
rule with an allowed and a forbidden case, on the shipped invented example cards (their
"crown_and_glory" section and the "for_glory" Fate cards gfate01-48). Red is the Chairman and blue
the Head of the Church (tests/wk_helpers.py)."""

from __future__ import annotations

from engine.core.commit import commitment
from engine.warrior_knights import engine as E
from engine.warrior_knights import glory as G
from engine.warrior_knights.battles import fate_count
from engine.warrior_knights.common import Ctx, stronghold_spot_problem
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.phases import income_of
from engine.warrior_knights.rounds import advance
from engine.warrior_knights.state import CASUALTY_TOKEN, Battle, Deck, Flow, Glory, Side, Troop, evolve
from engine.warrior_knights.upkeep import after_revolts
from tests.test_wk_battles import stronghold_fallen
from tests.test_wk_phases import upkeep, wages
from tests.test_wk_round import PLAN
from tests.wk_helpers import (
    D, army, baron, clear_board, new, ok, own, place, ready, refused, rules, setup_until, when, with_card,
)


def glory(s, *variants, **changes):
    """`s` playing the Crown & Glory `variants`."""
    return evolve(s, glory=Glory(tuple(variants))._replace(**changes))


def fg(s=None):
    """A For Glory game on a clear board, the blue-backed Fate deck in play."""
    return clear_board(glory(s or ready(), "for_glory"))


def start_problems(variants):
    model = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "warrior-knights", "players": [{"id": "red"}, {"id": "blue"}], "variants": variants})
    return rules(E.check_start(model, D))


# --- the variants ---------------------------------------------------------------------------------------------

def test_WK_CG_VARIANTS_allows_all_three_variants_together():
    assert start_problems(["for_glory", "missions", "king"]) == []
    s = new(2, variants=["for_glory", "missions", "king"])
    assert s.glory.variants == ("for_glory", "missions", "king")
    assert all(D.cards.fate[f].deck == "for_glory" for f in s.fate.pile)      # "Replace the original Fate deck"


def test_WK_CG_VARIANTS_forbids_a_variant_twice_and_a_variants_event_in_a_game_without_it():
    assert start_problems(["king", "king"]) == ["WK-CG-VARIANTS"]
    s = setup_until(2, "strongholds")
    refused(s, "WK-CG-VARIANTS", "MissionDealt", "red", mission="mi01")
    refused(glory(s, "king", king_army_owed="red"), "WK-CG-VARIANTS", "MissionDealt", "red", mission="mi01")


# --- The King -----------------------------------------------------------------------------------------------

def test_WK_KING_POOL_allows_8_influence_per_player():
    assert new(2, variants=["king"]).influence_pool == 16 and new(4, variants=["king"]).influence_pool == 32


def test_WK_KING_POOL_forbids_the_base_games_10_per_player():
    assert new(2).influence_pool == 20 and new(2, variants=["missions"]).influence_pool == 20


def king_upkeep(s, pool=1):
    """The Upkeep of a King game with `pool` Influence left; red has the most Influence."""
    s = own(own(clear_board(s if s.glory is not None else glory(s, "king")), "kelso", "red"), "hythe", "blue")
    s = place(place(s, "red-star", "valewick"), "blue-star", "oakhurst")
    s = baron(baron(s, "red", influence=7), "blue", influence=6)
    return upkeep(evolve(s, influence_pool=pool))


def test_WK_KING_CROWN_allows_the_leader_to_become_king_when_the_pool_runs_out_and_play_goes_on():
    s = king_upkeep(ready())
    assert s.glory.king == "red" and s.glory.king_army_owed == "red"
    assert s.result is None and s.influence_pool == 0 and s.flow.step == "return"


def test_WK_KING_CROWN_forbids_a_king_on_a_tie_of_every_count_and_before_the_pool_runs_out():
    s = own(own(clear_board(glory(ready(), "king")), "kelso", "red"), "hythe", "blue")
    s = place(place(s, "red-star", "valewick"), "blue-star", "oakhurst")
    tied = upkeep(evolve(s, influence_pool=2))
    assert tied.glory.king is None and tied.result is None
    assert king_upkeep(ready(), pool=10).glory.king is None


def crowned(s=None):
    s = s or clear_board(glory(ready(), "king", king="red", king_army_owed="red"))
    s = place(own(s, "hythe", "red"), "red-star", "oakhurst")
    return evolve(s, flow=Flow(phase="upkeep", step="return", round=1, order=("red", "blue")))


def test_WK_KING_ARMY_allows_one_card_per_player_to_his_stronghold_and_nobles_at_his_cities():
    s = ok(crowned(), "KingsArmyAssigned", "red", armies={"stronghold": 1, "star": 1})
    assert s.glory.king_army_owed is None
    assert s.nobles["red-star"].army.troops[-1] == "kings-army-1"          # holders in sorted order
    assert s.barons["red"].stronghold_army.troops[-1] == "kings-army-2"
    t = s.barons["red"].troops["kings-army-2"]
    assert (t.strength, t.wage, t.mercenary, t.kind) == (100, 1, False, "king")   # regulars: never desert


def test_WK_KING_ARMY_forbids_another_baron_another_count_a_noble_away_and_a_log_that_skips_it():
    s = crowned()
    refused(s, "WK-KING-ARMY", "KingsArmyAssigned", "blue", armies={"stronghold": 2})
    refused(s, "WK-KING-ARMY", "KingsArmyAssigned", "red", armies={"stronghold": 3})
    refused(place(s, "red-star", "valewick"), "WK-KING-ARMY", "KingsArmyAssigned", "red", armies={"star": 2})
    v, after = when(s, "StacksPlanned", "red", stacks=PLAN)             # never assigned: a claim
    assert rules(v) == ["WK-KING-ARMY"] and after.glory.king_army_owed is None
    assert "kings-army-2" in after.barons["red"].stronghold_army.troops


def test_WK_KING_INFLUENCE_allows_the_king_one_more_influence_each_upkeep():
    s = king_upkeep(evolve(ready(), glory=Glory(("king",), king="red")), pool=0)
    assert s.barons["red"].influence == 7 + 1 + 1 and s.barons["blue"].influence == 6 + 1


def test_WK_KING_INFLUENCE_forbids_the_bonus_to_a_baron_who_is_not_king():
    s = king_upkeep(evolve(ready(), glory=Glory(("king",), king="blue")), pool=0)
    assert s.barons["red"].influence == 7 + 1 and s.barons["blue"].influence == 6 + 1 + 1


def test_WK_KING_USURP_allows_the_winner_against_the_kings_stronghold_to_take_token_and_army():
    s = stronghold_fallen()
    s = glory(s, "king", king="blue")
    s = ok(s, "StrongholdCityGiven", "blue", city="everton")
    assert s.glory.king == "red" and s.glory.king_army_owed == "red"
    s = ok(place(s, "red-star", "jesmond"), "KingsArmyAssigned", "red", armies={"star": 2})
    assert s.nobles["red-star"].army.troops[-2:] == ("kings-army-1", "kings-army-2")


def test_WK_KING_USURP_forbids_a_crown_for_eliminating_a_stronghold_that_is_not_the_kings():
    s = ok(glory(stronghold_fallen(), "king", king="green"), "StrongholdCityGiven", "blue", city="everton")
    assert s.glory.king == "green" and s.glory.king_army_owed is None


def test_WK_KING_END_allows_the_end_of_the_round_with_16_influence_and_most_influence_wins():
    s = evolve(ready(), glory=Glory(("king",), king="blue"), influence_pool=0)
    s = baron(baron(s, "red", influence=16), "blue", influence=12)
    s = after_revolts(evolve(s, flow=s.flow._replace(phase="upkeep", step="revolts", ends_after_upkeep=True)), Ctx())
    assert s.result.winners == ("red",) and "16 Influence" in s.result.reason     # not the King: most Influence


def test_WK_KING_END_forbids_an_end_when_the_pool_runs_out_below_16():
    s = king_upkeep(ready(), pool=0)
    assert s.result is None and s.flow.step == "return"


# --- Missions -----------------------------------------------------------------------------------------------------

def dealt(s=None):
    s = glory(s or setup_until(2, "strongholds"), "missions")
    s = ok(s, "MissionDealt", "red", commitment=commitment("mi03", "salt-r"))
    return ok(s, "MissionDealt", "blue", mission="mi05")


def test_WK_MISSION_DEAL_allows_a_card_each_before_the_strongholds_committed_or_in_clear():
    s = dealt()
    assert s.glory.missions["red"].commitment and s.glory.missions["blue"].mission == "mi05"
    for q in s.flow.order:
        area = next(a for a in sorted(D.board.areas) if not stronghold_spot_problem(s, a, q, True))
        s = ok(s, "StrongholdPlaced", q, area=area)
    assert s.flow.step == "nobles"


def test_WK_MISSION_DEAL_forbids_a_second_card_a_card_not_in_the_deck_and_strongholds_first():
    s = dealt()
    refused(s, "WK-MISSION-DEAL", "MissionDealt", "red", mission="mi01")
    one = ok(glory(setup_until(2, "strongholds"), "missions"), "MissionDealt", "red", mission="mi01")
    refused(one, "WK-MISSION-DEAL", "MissionDealt", "blue", mission="mi99")
    refused(one, "WK-MISSION-DEAL", "MissionDealt", "blue", mission="mi01")         # dealt already
    area = next(a for a in sorted(D.board.areas) if D.board.areas[a].central and D.board.areas[a].city is None)
    v, _ = refused(one, "WK-MISSION-DEAL", "StrongholdPlaced", "red", area=area)
    assert not v[0].blocking


def ending(s=None):
    """The last Upkeep of a Missions game: the pool ran out; both Missions wait to be revealed."""
    s = dealt(setup_until(2, "strongholds"))
    s = own(own(clear_board(evolve(ready(), glory=s.glory)), "kelso", "red"), "hythe", "blue")
    s = place(place(s, "red-star", "valewick"), "blue-star", "oakhurst")
    return upkeep(evolve(s, influence_pool=2))


def test_WK_MISSION_REVEAL_allows_the_chairman_first_and_2_influence_for_a_fulfilled_mission():
    s = ending()
    assert s.result is None and s.flow.step == "missions" and s.flow.current == "red"
    s = ok(s, "MissionRevealed", "red", mission="mi03", salt="salt-r", fulfilled=True)
    assert s.barons["red"].influence == 3
    s = ok(s, "MissionRevealed", "blue", mission="mi05")
    assert s.result.winners == ("red",)                     # 3 Influence to 1


def test_WK_MISSION_REVEAL_forbids_another_card_than_committed_out_of_turn_and_before_the_end():
    s = ending()
    refused(s, "WK-MISSION-REVEAL", "MissionRevealed", "blue", mission="mi05")
    refused(s, "WK-MISSION-REVEAL", "MissionRevealed", "red", mission="mi04", salt="salt-r")
    s2 = ok(s, "MissionRevealed", "red", mission="mi03", salt="salt-r")
    refused(s2, "WK-MISSION-REVEAL", "MissionRevealed", "blue", mission="mi06")
    refused(dealt(), "WK-MISSION-REVEAL", "MissionRevealed", "red", mission="mi03", salt="salt-r")


def test_WK_MISSION_REVEAL_forbids_scoring_when_the_kings_pool_runs_out():
    s = dealt(setup_until(2, "strongholds"))
    s = evolve(king_upkeep(ready()), glory=s.glory._replace(variants=("missions", "king")))
    s = king_upkeep(evolve(ready(), glory=s.glory), pool=0)
    assert s.flow.step == "return" and s.result is None    # the game goes on: no reveal yet


# --- Riots ------------------------------------------------------------------------------------------------------------

def riot_upkeep(s=None, crowns=15, faith=0):
    s = baron(own(fg(s), "kelso", "red"), "red", crowns=crowns, faith=faith)
    return upkeep(s)


def test_WK_RIOT_allows_a_riot_token_when_unpaid_and_none_when_paid():
    s = ok(riot_upkeep(), "RevoltDrawn", None, city="kelso", card="gfate04")        # riot
    assert s.flow.revolt_owed == "kelso"
    unpaid = ok(s, "RevoltSettled", "red", city="kelso")
    assert unpaid.glory.riots == {"kelso": "red"} and unpaid.cities["kelso"].owner == "red"
    paid = ok(s, "RevoltSettled", "red", city="kelso", pay="crowns")
    assert not paid.glory.riots and paid.barons["red"].crowns == 15 - 6


def test_WK_RIOT_forbids_a_second_riot_on_a_rioting_city_as_anything_but_a_revolt():
    s = riot_upkeep()
    s = evolve(s, glory=s.glory._replace(riots={"kelso": "red"}))
    s = ok(s, "RevoltDrawn", None, city="kelso", card="gfate07")                  # riot again
    s = ok(s, "RevoltSettled", "red", city="kelso")
    assert s.cities["kelso"].owner is None and not s.glory.riots
    refused(riot_upkeep(), "WK-REVOLT", "RevoltDrawn", None, city="hythe", card="gfate04")


def test_WK_RIOT_EFFECT_allows_the_token_to_go_when_his_noble_enters():
    s = fg()
    s = own(evolve(s, glory=s.glory._replace(riots={"kelso": "red"})), "kelso", "red")
    s = ok(with_card(place(s, "red-star", "elmstead"), "red", "mobilize_forces"), "ForcesMobilized", "red",
           area="valewick", moves=[{"noble": "star", "path": ["valewick"]}])
    assert not s.glory.riots


def test_WK_RIOT_EFFECT_forbids_crowns_and_influence_from_a_rioting_city():
    s = own(own(fg(), "kelso", "red"), "hythe", "red")
    rioting = evolve(s, glory=s.glory._replace(riots={"kelso": "red"}))
    assert income_of(s, "red") == 6 and income_of(rioting, "red") == 3
    assert upkeep(rioting).barons["red"].influence == 1


# --- Garrisons ---------------------------------------------------------------------------------------------------------

def upgrading(s=None):
    return with_card(s or own(own(fg(), "hythe", "red"), "kelso", "blue"), None, "upgrade_defenses")


def test_WK_GARRISON_allows_one_for_a_crown_with_a_repair_and_adds_its_strength_defending():
    s = ok(upgrading(), "DefensesUpgraded", "red", garrison="hythe", city="hythe", fortify=True)
    assert s.glory.garrisons == {"hythe": "red"} and s.barons["red"].crowns == 15 - 1 - 4
    b = Battle("oakhurst", "assault", Side("blue", ("blue-star",)), Side("red"), city="hythe")
    assert G.garrison_strength(s, "hythe") == 100
    assert fate_count(s, b, "defender") == (400 + 100) // 100


def test_WK_GARRISON_forbids_a_city_not_his_a_second_one_there_the_ninth_and_no_for_glory():
    s = upgrading()
    refused(s, "WK-GARRISON", "DefensesUpgraded", "red", garrison="kelso")
    taken = evolve(s, glory=s.glory._replace(garrisons={"hythe": "red"}))
    refused(taken, "WK-GARRISON", "DefensesUpgraded", "red", garrison="hythe")
    full = evolve(s, glory=s.glory._replace(garrisons={c: "blue" for c in sorted(D.board.cities)[:8]
                                                       if c != "hythe"} | {"x": "blue"}))
    refused(evolve(full, glory=full.glory._replace(garrisons=dict(list(full.glory.garrisons.items())[:8]))),
            "WK-GARRISON", "DefensesUpgraded", "red", garrison="hythe")
    refused(upgrading(own(clear_board(ready()), "hythe", "red")), "WK-CG-VARIANTS", "DefensesUpgraded", "red",
            garrison="hythe")


def test_WK_GARRISON_forbids_keeping_a_garrison_when_the_city_changes_hands():
    s = own(fg(), "hythe", "red")
    s = evolve(s, glory=s.glory._replace(garrisons={"hythe": "red"}))
    s = ok(s, "Adjusted", "blue", source="ev03", city="hythe", owner="blue")
    assert not s.glory.garrisons


def test_WK_GARRISON_WAGES_allows_a_wage_per_garrison_and_a_garrison_let_go():
    s = own(own(fg(), "hythe", "red"), "newburn", "red")
    s = wages(evolve(s, glory=s.glory._replace(garrisons={"hythe": "red", "newburn": "red"})))
    s2 = ok(s, "WagesPaid", "red", crowns=10)              # regulars 5, m01 1, m03 2, 2 Garrisons
    assert s2.barons["red"].crowns == 5
    s3 = ok(s, "WagesPaid", "red", unpaid_garrisons=["newburn"], crowns=9)
    assert s3.glory.garrisons == {"hythe": "red"}


def test_WK_GARRISON_WAGES_forbids_garrisons_he_cannot_pay_and_another_barons_garrison():
    s = own(own(fg(), "hythe", "red"), "newburn", "red")
    s = wages(baron(evolve(s, glory=s.glory._replace(garrisons={"hythe": "red", "newburn": "red"})), "red", crowns=9))
    refused(s, "WK-GARRISON-WAGES", "WagesPaid", "red")
    refused(s, "WK-GARRISON-WAGES", "WagesPaid", "red", unpaid_garrisons=["kelso"])


# --- Town Levies -----------------------------------------------------------------------------------------------------

def mustering(s=None):
    s = s or place(own(fg(), "hythe", "red"), "red-star", "oakhurst")
    return with_card(s, None, "muster_troops")


def test_WK_TOWN_LEVY_allows_levies_for_2_crowns_each_for_a_noble_at_the_city_on_the_card():
    s = ok(mustering(), "TroopsMustered", "red", levies=[{"levy": "lv-hythe", "noble": "star"}])
    assert s.nobles["red-star"].army.troops[-1] == "lv-hythe" and s.barons["red"].crowns == 13
    t = s.barons["red"].troops["lv-hythe"]
    assert (t.strength, t.wage, t.kind) == (50, 0, "levy")


def test_WK_TOWN_LEVY_forbids_a_noble_elsewhere_a_city_not_his_and_a_levy_held_already():
    refused(mustering(place(own(fg(), "hythe", "red"), "red-star", "valewick")), "WK-TOWN-LEVY",
            "TroopsMustered", "red", levies=[{"levy": "lv-hythe", "noble": "star"}])
    refused(mustering(place(own(fg(), "hythe", "blue"), "red-star", "oakhurst")), "WK-TOWN-LEVY",
            "TroopsMustered", "red", levies=[{"levy": "lv-hythe", "noble": "star"}])
    refused(mustering(), "WK-TOWN-LEVY", "TroopsMustered", "red",
            levies=[{"levy": "lv-hythe", "noble": "star"}, {"levy": "lv-hythe", "noble": "star"}])


def levied():
    s = ok(mustering(), "TroopsMustered", "red", levies=[{"levy": "lv-hythe", "noble": "star"}])
    return army(s, "red-star", ("red-r4", "m03", "lv-hythe"))


def test_WK_TOWN_LEVY_LOSS_allows_wages_without_the_levies_and_drops_them_when_a_mercenary_deserts():
    s = wages(levied())
    kept = ok(s, "WagesPaid", "red", crowns=8)                      # the Levy draws no wage
    assert "lv-hythe" in kept.nobles["red-star"].army.troops
    gone = ok(s, "WagesPaid", "red", unpaid=["m03"], crowns=6)
    assert gone.nobles["red-star"].army.troops == ("red-r4",) and "lv-hythe" not in gone.barons["red"].troops


def test_WK_TOWN_LEVY_LOSS_forbids_a_levy_let_go_for_wages():
    refused(wages(levied()), "WK-TOWN-LEVY-LOSS", "WagesPaid", "red", unpaid=["lv-hythe"])


# --- the New Fate Deck, the new Neutral cards -----------------------------------------------------------------------

def big_army(n):
    s = fg()
    troops = {f"x{i}": Troop(f"x{i}", 100, 0, False) for i in range(n)}
    s = baron(s, "blue", troops={**s.barons["blue"].troops, **troops})
    s = army(s, "blue-star", tuple(troops))
    return s, Battle("oakhurst", "assault", Side("blue", ("blue-star",)), Side("red"), city="hythe")


def test_WK_FATE_GLORY_allows_up_to_20_fate_cards_with_for_glory():
    s, b = big_army(17)
    assert fate_count(s, b, "attacker") == 17 and G.max_fate(s) == 20


def test_WK_FATE_GLORY_forbids_more_than_20():
    s, b = big_army(25)
    assert fate_count(s, b, "attacker") == 20
    assert fate_count(evolve(s, glory=None), b, "attacker") == 10            # the base game: 10


def glory_planned():
    s = glory(ready(), "for_glory", offer_laid=True, scholar_drawn=True)
    for q in s.seats:
        s = ok(s, "StacksPlanned", q, stacks=PLAN)
    return s


def test_WK_NEUTRAL_GLORY_allows_3_neutral_cards_in_each_stack():
    s = glory_planned()
    assert [x[None] for x in s.flow.left] == [3, 3, 3]


def test_WK_NEUTRAL_GLORY_forbids_the_removed_base_copies():
    s = evolve(glory_planned(), neutral_used={"uncertain_times": 1})
    refused(s, "WK-NEUTRAL-DECK", "CardRevealed", None, stack=1, owner=None, card="uncertain_times")
    s = ok(evolve(glory_planned(), neutral_used={"research": 1}), "CardRevealed", None, stack=1, owner=None,
           card="research")
    assert s.neutral_used["research"] == 2                   # the deck's 2 copies (no Scholar: nothing to do)


def test_the_for_glory_setup_razes_cities_by_town_levy_cards():
    s = glory(setup_until(2, "raze"), "for_glory")
    s = ok(s, "CitiesRazed", None, cards=[f"lv-{c}" for c in sorted(D.board.kingdom_cities)[:11]])
    assert sum(1 for c in s.cities.values() if c.razed) == 11
    refused(glory(setup_until(2, "raze"), "for_glory"), "WK-DECK", "CitiesRazed", None, cards=["fate01"])


def test_round_1_claims_a_setup_without_the_advancements_laid_out():
    v, _ = when(glory(ready(), "for_glory"), "StacksPlanned", "red", stacks=PLAN)
    assert rules(v) == ["WK-ADVANCEMENT-BUY"] and not v[0].blocking


def test_a_game_with_the_kings_army_owed_settles_it_after_the_battle_it_came_in():
    s = advance(crowned(), Ctx())
    assert s.glory.king_army_owed == "red"


# --- Knowledge, Advancements and the Scholar ------------------------------------------------------------------------

def scholarly(**changes):
    """A For Glory game with the Advancement deck, ad01-ad03 face up, and `changes` to its glory."""
    s = fg()
    deck = Deck(frozenset(f"ad{i:02d}" for i in range(4, 11)))
    return evolve(s, glory=s.glory._replace(adv_deck=deck, offer=("ad01", "ad02", "ad03"), offer_laid=True,
                                            scholar_drawn=True, **changes))


def enriched(**changes):
    s = with_card(scholarly(**changes), "red", "enrich_mind")
    return ok(s, "MindEnriched", "red", area="assembly")


def test_WK_KNOWLEDGE_allows_one_knowledge_and_the_card_to_the_assembly_stack():
    s = enriched()
    assert s.glory.knowledge["red"] == 1 and s.flow.pending.stage == "enrich"
    s = advance(evolve(s, flow=s.flow._replace(pending=s.flow.pending._replace(stage="done"))), Ctx())
    assert s.allocated["assembly"] == (("red", "enrich_mind"),)


def test_WK_KNOWLEDGE_forbids_another_stack_and_another_barons_card():
    s = with_card(scholarly(), "red", "enrich_mind")
    v, s2 = refused(s, "WK-KNOWLEDGE", "MindEnriched", "red", area="wages")
    assert s2.flow.pending.area == "taxation"
    refused(s, "WK-ACTOR", "MindEnriched", "blue", area="taxation")


def test_WK_SCHOLAR_allows_the_most_knowledge_and_a_random_baron_at_a_3_player_setup():
    assert enriched().glory.scholar == "red"
    s = clear_board(glory(setup_until(3, "strongholds"), "for_glory"))
    s = ok(s, "ScholarChosen", None, cards=["gfate01", "gfate02", "gfate03"])     # red, blue: drawn past
    assert s.glory.scholar == "green"


def test_WK_SCHOLAR_forbids_a_tie_a_chairman_and_a_2_player_setup():
    assert enriched(knowledge={"blue": 1}).glory.scholar is None
    s = clear_board(glory(setup_until(3, "strongholds"), "for_glory"))
    refused(s, "WK-SCHOLAR", "ScholarChosen", None, cards=["gfate01"])            # red is the Chairman
    refused(clear_board(glory(setup_until(2, "strongholds"), "for_glory")), "WK-SCHOLAR", "ScholarChosen",
            None, cards=["gfate03"])


def test_WK_ADVANCEMENT_BUY_allows_one_for_its_knowledge_replaced_at_once():
    s = enriched(knowledge={"red": 1})                       # 2 with Enrich Mind
    s = ok(s, "AdvancementBought", "red", advancement="ad01")        # 2 Knowledge
    assert s.glory.owned["red"] == ("ad01",) and s.glory.knowledge["red"] == 0 and s.glory.refill_owed == 1
    s = ok(s, "AdvancementsRevealed", None, cards=["ad04"])
    assert s.glory.offer == ("ad02", "ad03", "ad04") and "ad04" not in s.glory.adv_deck.pile


def test_WK_ADVANCEMENT_BUY_forbids_too_dear_not_face_up_a_second_without_the_token_and_a_fourth_kept():
    s = enriched(knowledge={"red": 1, "blue": 5})            # blue has more: red is not the Scholar
    refused(s, "WK-ADVANCEMENT-BUY", "AdvancementBought", "red", advancement="ad02")      # 3 > 2
    refused(s, "WK-ADVANCEMENT-BUY", "AdvancementBought", "red", advancement="ad09")
    s = ok(s, "AdvancementBought", "red", advancement="ad03")
    refused(s, "WK-ADVANCEMENT-BUY", "AdvancementBought", "red", advancement="ad01")      # refill first
    s = ok(s, "AdvancementsRevealed", None, cards=["ad07"])
    refused(s, "WK-ADVANCEMENT-BUY", "AdvancementBought", "red", advancement="ad07")      # one only
    full = enriched(knowledge={"red": 5}, owned={"red": ("ad04", "ad05", "ad06")})
    v, after = refused(full, "WK-ADVANCEMENT-BUY", "AdvancementBought", "red", advancement="ad03")
    assert len(after.glory.owned["red"]) == 3 and "ad04" in after.glory.adv_deck.bottom


def test_WK_ADVANCEMENT_USE_allows_its_owner_at_its_time_and_a_refresh_in_the_upkeep():
    s = scholarly(owned={"red": ("ad07", "ad08")})
    s = ok(s, "AdvancementUsed", "red", advancement="ad07")          # any time
    assert s.glory.exhausted == ("ad07",)
    s = ok(s, "Adjusted", "red", source="ad07", crowns=1)
    assert upkeep(s).glory.exhausted == ()


def test_WK_ADVANCEMENT_USE_forbids_another_owner_an_exhausted_card_and_a_battle_card_outside_battle():
    s = scholarly(owned={"red": ("ad07", "ad09")}, exhausted=("ad07",))
    refused(s, "WK-ADVANCEMENT-USE", "AdvancementUsed", "red", advancement="ad07")
    refused(s, "WK-ADVANCEMENT-USE", "AdvancementUsed", "blue", advancement="ad09")
    refused(s, "WK-ADVANCEMENT-USE", "AdvancementUsed", "red", advancement="ad09")       # when: battle


def researching(**changes):
    s = with_card(scholarly(**changes), None, "research")
    return s


def test_WK_RESEARCH_allows_the_scholar_to_draw_and_buy_for_one_knowledge_less():
    s = researching(scholar="red", knowledge={"red": 1})
    assert s.flow.pending.stage == "research"
    s = ok(s, "AdvancementResearched", "red", card="ad05", buy=True)            # prints 2
    assert s.glory.owned["red"] == ("ad05",) and s.glory.knowledge["red"] == 0 and s.barons["red"].crowns == 13


def test_WK_RESEARCH_forbids_another_baron_than_the_scholar_and_no_crowns():
    refused(researching(scholar="red"), "WK-RESEARCH", "AdvancementResearched", "blue", card="ad05")
    refused(baron(researching(scholar="red"), "red", crowns=1), "WK-RESEARCH", "AdvancementResearched", "red",
            card="ad05")


def marching():
    s = place(place(fg(), "red-star", "oakhurst", exhausted=True), "red-square", "valewick", exhausted=True)
    return with_card(s, "red", "forced_march")


def test_WK_FORCED_MARCH_allows_one_noble_free_and_the_others_for_2_crowns():
    s = ok(marching(), "MarchForced", "red", nobles=["star", "square"])
    assert not s.nobles["red-star"].exhausted and not s.nobles["red-square"].exhausted
    assert s.barons["red"].crowns == 13 and s.allocated["wages"] == (("red", "forced_march"),)


def test_WK_FORCED_MARCH_forbids_a_fresh_noble_and_nobles_he_cannot_pay_for():
    refused(marching(), "WK-FORCED-MARCH", "MarchForced", "red", nobles=["triangle"])
    refused(baron(marching(), "red", crowns=1), "WK-FORCED-MARCH", "MarchForced", "red", nobles=["star", "square"])


# --- Retreat/Draw 1 Fate ---------------------------------------------------------------------------------------------

def glory_field(att=("gfate03", "gfate12", "gfate01", "gfate02"), dfn=("gfate06", "gfate15", "gfate04", "gfate07")):
    """For Glory: red's star attacks blue's in Ironvale; each keeps his first two cards (blue: a
    Retreat/Draw 1 Fate and a blank; red: two blanks)."""
    s = clear_board(glory(ready(), "for_glory", offer_laid=True, scholar_drawn=True))
    s = with_card(place(place(s, "red-star", "ironvale"), "blue-star", "ironvale"), "red", "mobilize_forces")
    s = ok(s, "ForcesMobilized", "red", area="ironvale",
           attack={"defender": "blue", "kind": "field", "armies": ["star"], "commander": "star"})
    s = ok(s, "CommanderDeclared", "blue", noble="star")
    s = ok(s, "FateDrawn", None, side="attacker", cards=list(att))
    s = ok(s, "FateDrawn", None, side="defender", cards=list(dfn))
    s = ok(s, "FateDiscarded", "red", discard=[2, 3])
    return ok(s, "FateDiscarded", "blue", discard=[2, 3])


def test_WK_RETREAT_GLORY_allows_the_defender_with_more_results_to_retreat_without_casualties():
    s = glory_field()
    assert s.battle.stage == "retreat_offer"
    s = ok(s, "RetreatChosen", "blue", retreat=True)
    assert s.battle.after == (("retreat", "blue-star"),)
    to = retreat_spots(s, "blue-star")[0]
    s = ok(s, "Retreated", "blue", noble="star", to=to)
    assert s.battle is None and s.nobles["blue-star"].area == to and s.nobles["blue-star"].army.casualties == 0


def test_WK_RETREAT_GLORY_forbids_the_attacker_choosing_and_makes_the_result_a_draw_1_when_he_fights_on():
    s = glory_field()
    refused(s, "WK-RETREAT-GLORY", "RetreatChosen", "red", retreat=True)
    on = ok(s, "RetreatChosen", "blue", retreat=False)
    assert on.battle.stage == "draw1" and on.battle.defender.owed_draws == 1
    even = glory_field(att=("gfate18", "gfate12", "gfate01", "gfate02"))          # one each: no choice
    assert even.battle.stage == "draw1"
    refused(even, "WK-FLOW", "RetreatChosen", "blue", retreat=True)


def retreat_spots(s, noble):
    from engine.warrior_knights.battles import _retreat_spots
    return _retreat_spots(s, s.nobles[noble])


def test_WK_ADVANCEMENT_SWAP_allows_the_scholar_to_replace_one_face_up_with_uncertain_times():
    s = with_card(scholarly(scholar="red"), None, "uncertain_times")
    assert s.flow.pending.stage == "swap"
    s = ok(s, "AdvancementSwapped", "red", discard="ad02", card="ad06")
    assert s.glory.offer == ("ad01", "ad06", "ad03") and "ad02" in s.glory.adv_deck.discard


def test_WK_ADVANCEMENT_SWAP_forbids_another_baron_and_a_card_not_face_up():
    s = with_card(scholarly(scholar="red"), None, "uncertain_times")
    refused(s, "WK-ADVANCEMENT-SWAP", "AdvancementSwapped", "blue", discard="ad02", card="ad06")
    refused(s, "WK-ADVANCEMENT-SWAP", "AdvancementSwapped", "red", discard="ad09", card="ad06")
    assert with_card(scholarly(), None, "uncertain_times").flow.pending is None or \
        with_card(scholarly(), None, "uncertain_times").flow.pending.stage == "done"   # no Scholar: no swap


def first_event(s=None):
    s = baron(with_card(fg(s), None, "important_event"), "blue", faith=2)
    return s


def test_WK_EVENT_GLORY_allows_a_green_or_blue_first_event_and_red_ones_later():
    s = ok(first_event(), "EventDrawerChosen", "blue", drawer="red", colour="green")
    s = ok(s, "EventCardDrawn", "red", card="ev01")                          # green
    assert s.glory.event_seen
    later = with_card(evolve(fg(), glory=s.glory), None, "important_event")
    ok(baron(later, "blue", faith=1), "EventDrawerChosen", "blue", drawer="blue", colour="red")


def test_WK_EVENT_GLORY_forbids_a_red_first_event():
    v, s = refused(first_event(), "WK-EVENT-GLORY", "EventDrawerChosen", "blue", drawer="blue", colour="red")
    assert s.flow.pending.stage == "draw"                     # applied as recorded


def test_WK_ADVANCEMENT_USE_forbids_the_attacker_declaring_after_the_defender():
    s = glory_field_drawn()
    s = ok(s, "AdvancementUsed", "blue", advancement="ad09")
    refused(s, "WK-ADVANCEMENT-USE", "AdvancementUsed", "red", advancement="ad01")
    refused(s, "WK-ADVANCEMENT-USE", "AdvancementUsed", "blue", advancement="ad05")          # one per battle


def test_WK_ADVANCEMENT_USE_allows_each_side_one_in_battle_after_drawing():
    s = glory_field_drawn()
    s = ok(s, "AdvancementUsed", "red", advancement="ad01")
    s = ok(s, "AdvancementUsed", "blue", advancement="ad09")
    assert set(s.glory.battle_uses) == {"red", "blue"}
    s = ok(s, "FateDiscarded", "red", discard=[2, 3])
    s = ok(s, "FateDiscarded", "blue", discard=[2, 3])
    s = ok(s, "RetreatChosen", "blue", retreat=False)
    assert s.glory.battle_uses == ("red", "blue")


def glory_field_drawn():
    s = clear_board(glory(ready(), "for_glory", offer_laid=True, scholar_drawn=True,
                          owned={"red": ("ad01",), "blue": ("ad09", "ad05")}))
    s = with_card(place(place(s, "red-star", "ironvale"), "blue-star", "ironvale"), "red", "mobilize_forces")
    s = ok(s, "ForcesMobilized", "red", area="ironvale",
           attack={"defender": "blue", "kind": "field", "armies": ["star"], "commander": "star"})
    s = ok(s, "CommanderDeclared", "blue", noble="star")
    s = ok(s, "FateDrawn", None, side="attacker", cards=["gfate03", "gfate12", "gfate01", "gfate02"])
    return ok(s, "FateDrawn", None, side="defender", cards=["gfate06", "gfate15", "gfate04", "gfate07"])


# --- A Pressing Agenda, Assemble Troops (New Neutral Action Cards) -------------------------------------------------

def pressing(s=None, **areas):
    s = s or fg()
    return with_card(evolve(s, areas={**s.areas, **areas}), None, "pressing_agenda")


def test_WK_PRESSING_AGENDA_allows_the_top_agenda_with_the_current_ones_and_the_card_to_the_assembly_stack():
    s = pressing()
    assert s.flow.pending.stage == "press"
    s = ok(s, "AgendasRevealed", None, cards=["ag04"])
    assert s.agendas == ("ag01", "ag02", "ag03", "ag04") and s.flow.pending is None
    assert s.allocated["assembly"] == ((None, "pressing_agenda"),) and s.areas["assembly"] == 1
    # the 4th card in the Assembly stack (2 players) calls an Assembly, which votes on all 4 Agendas
    s = ok(pressing(assembly=3), "AgendasRevealed", None, cards=["ag04"])
    assert s.flow.step == "assembly" and s.agendas == ("ag01", "ag02", "ag03", "ag04")
    s = ok(ok(s, "PrivateMotionDrawn", None, cards=["gfate01"]), "PrivateMotionCalled", "red")
    s = ok(s, "AgendaOrderDeclared", "red", order=["ag04", "ag03", "ag02", "ag01"])
    assert s.assembly.agendas == ("ag04", "ag03", "ag02", "ag01")


def test_WK_PRESSING_AGENDA_forbids_two_agendas_a_log_that_skips_the_draw_and_a_copy_still_in_the_stack():
    refused(pressing(), "WK-PRESSING-AGENDA", "AgendasRevealed", None, cards=["ag04", "ag05"])
    v, after = when(pressing(), "CardRevealed", None, stack=1, owner=None, card="fund_expedition")
    assert rules(v) == ["WK-PRESSING-AGENDA"] and not v[0].blocking         # a claim; the card goes on
    assert after.agendas == ("ag01", "ag02", "ag03") and after.allocated["assembly"] == ((None, "pressing_agenda"),)
    waiting = ok(pressing(), "AgendasRevealed", None, cards=["ag04"])       # the deck's one copy waits
    refused(evolve(waiting, neutral_used={}), "WK-NEUTRAL-DECK", "CardRevealed", None, stack=1, owner=None,
            card="pressing_agenda")


def assembling(s=None, track=(None, None, None, None, None, None, None)):
    s = s or fg()
    return with_card(evolve(s, track=track), None, "assemble_troops")


def test_WK_ASSEMBLE_TROOPS_allows_a_mercenary_more_and_a_casualty_token_on_the_first_free_spot():
    s = ok(assembling(track=("red", None, None, None, None, None, None)), "MercenariesRevealed", None, cards=["m20"])
    assert s.track[:3] == ("red", CASUALTY_TOKEN, None) and s.market[-1].id == "m20"
    assert "m20" not in s.mercs.pile and s.flow.phase == "actions"
    # the token fills the track (players + 1 = 3 spaces): a Draft at once, the token removed and skipped
    s = ok(assembling(track=("red", None, "blue", None, None, None, None)), "MercenariesRevealed", None,
           cards=["m20"])
    assert s.flow.step == "draft" and s.flow.order == ("red", "blue") and CASUALTY_TOKEN not in s.track
    s = ok(ok(s, "MercenaryHired", "red", hires={"m20": "stronghold"}), "MercenaryHired", "blue")
    assert s.flow.step == "draft_reveal" and s.track == (None,) * 7


def test_WK_ASSEMBLE_TROOPS_forbids_two_cards_and_a_baron_marker_on_a_casualty_token():
    refused(assembling(), "WK-ASSEMBLE-TROOPS", "MercenariesRevealed", None, cards=["m20", "m21"])
    s = ok(assembling(), "MercenariesRevealed", None, cards=["m20"])
    s = with_card(s, "red", "draft_soldiers")
    refused(s, "WK-ASSEMBLE-TROOPS", "SoldiersDrafted", "red", spot=1)
    ok(s, "SoldiersDrafted", "red", spot=2)
    v, after = when(assembling(), "CardRevealed", None, stack=1, owner=None, card="fund_expedition")
    assert rules(v) == ["WK-ASSEMBLE-TROOPS"] and after.track[0] == CASUALTY_TOKEN    # a claim; the token goes on


# --- Leaders and Heralds (New Mercenary Cards) ----------------------------------------------------------------------

def merc(card):
    """The invented example's Mercenary `card` as a troop (m29, m30: Leaders; m31, m32: Heralds)."""
    m = D.cards.mercenaries[card]
    return Troop(m.id, m.strength, m.wage, True, m.nationality, m.kind if m.kind != "troop" else "")


def holding(s, seat, holder, *cards):
    """`seat`'s `holder` (a Noble, or "stronghold") also holds the Mercenaries `cards`."""
    s = baron(s, seat, troops={**s.barons[seat].troops, **{x: merc(x) for x in cards}})
    if holder == "stronghold":
        b = s.barons[seat]
        return baron(s, seat, stronghold_army=b.stronghold_army._replace(troops=b.stronghold_army.troops + cards))
    return army(s, holder, s.nobles[holder].army.troops + cards)


def leaders_drafted(s=None):
    """For Glory: a Draft (blue's marker first) with Leaders m29, m30 and Herald m31 for hire; blue's
    Nobles are off the board (each may receive)."""
    from tests.test_wk_phases import draft
    return evolve(draft(s or fg()), market=(merc("m29"), merc("m30"), merc("m31")))


def test_WK_LEADER_HERALD_allows_one_leader_and_one_herald_per_noble_and_more_in_the_stronghold():
    s = ok(leaders_drafted(), "MercenaryHired", "blue", hires={"m29": "star"})
    assert s.nobles["blue-star"].army.troops[-1] == "m29" and s.barons["blue"].troops["m29"].kind == "leader"
    s = ok(leaders_drafted(holding(fg(), "blue", "blue-star", "m29")), "MercenaryHired", "blue", hires={"m31": "star"})
    assert s.nobles["blue-star"].army.troops[-2:] == ("m29", "m31")
    ok(leaders_drafted(holding(fg(), "blue", "stronghold", "m29")), "MercenaryHired", "blue",
       hires={"m30": "stronghold"})
    s = holding(fg(), "blue", "stronghold", "m29", "m31")
    s = evolve(s, flow=Flow(phase="upkeep", step="return", round=1, order=("red", "blue")))
    ok(s, "TroopsTransferred", "blue", from_="stronghold", to="square", troops=["m29", "m31"])


def test_WK_LEADER_HERALD_forbids_a_second_leader_hired_transferred_or_assigned_to_one_noble():
    refused(leaders_drafted(holding(fg(), "blue", "blue-star", "m29")), "WK-LEADER-HERALD", "MercenaryHired", "blue",
            hires={"m30": "star"})
    s = holding(holding(fg(), "blue", "stronghold", "m30"), "blue", "blue-star", "m29")
    s = evolve(s, flow=Flow(phase="upkeep", step="return", round=1, order=("red", "blue")))
    refused(s, "WK-LEADER-HERALD", "TroopsTransferred", "blue", from_="stronghold", to="star", troops=["m30"])
    s = holding(holding(glory(setup_until(2, "assign"), "for_glory"), "red", "stronghold"), "red", "stronghold",
                "m29", "m30")
    refused(s, "WK-LEADER-HERALD", "TroopsAssigned", "red",
            armies={"star": ["r4", "m03", "m29", "m30"], "square": ["r1", "m01"], "triangle": ["r2"], "circle": ["r3"]})


def test_WK_LEADER_SETUP_allows_troops_dealt_and_leaders_in_the_for_glory_deck():
    s = new(2, variants=["for_glory"])
    assert {"m29", "m30", "m31", "m32"} <= s.mercs.pile and "m29" not in new(2).mercs.pile
    ok(s, "TroopsDealt", None, mercenaries={"red": ["m01", "m03"], "blue": ["m08", "m10"]})


def test_WK_LEADER_SETUP_forbids_a_leader_or_herald_dealt_as_a_50_strength_mercenary():
    s = new(2, variants=["for_glory"])
    v, after = refused(s, "WK-LEADER-SETUP", "TroopsDealt", None, mercenaries={"red": ["m29", "m03"],
                                                                               "blue": ["m08", "m10"]})
    assert rules(v) == ["WK-LEADER-SETUP"] and "m29" in after.barons["red"].troops      # applied as recorded


def test_WK_LEADER_ABILITY_allows_its_owner_to_apply_it_even_when_his_noble_is_exhausted():
    s = holding(place(fg(), "blue-star", "oakhurst", exhausted=True), "blue", "blue-star", "m31")
    s = ok(s, "Adjusted", "blue", source="m31", votes=1, text=D.cards.mercenaries["m31"].ability)
    assert s.barons["blue"].votes == 1
    assert any("m31 (Herald of blue-star)" in n for n in s.notes)


def test_WK_LEADER_ABILITY_forbids_another_signer_a_card_in_the_stronghold_and_a_card_nobody_holds():
    s = holding(place(fg(), "blue-star", "oakhurst"), "blue", "blue-star", "m31")
    refused(s, "WK-LEADER-ABILITY", "Adjusted", "red", source="m31", votes=1)
    refused(holding(fg(), "blue", "stronghold", "m31"), "WK-LEADER-ABILITY", "Adjusted", "blue", source="m31", votes=1)
    refused(fg(), "WK-LEADER-ABILITY", "Adjusted", "blue", source="m30", crowns=1)

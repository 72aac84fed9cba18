"""Warrior Knights movement and battles (summary, "Movement", "Battles", "Open Field Battles",
"City Assault", "City Siege", "Attacking a Stronghold", "Retreats", "Noble Death"); each rule
with an allowed and a forbidden case. The example board: a road runs ironvale - jesmond - kestrel
- quarrington; a mountain between kestrel and larkspur; a river between northcote and thornbury;
a bridge from oakhurst (Hythe, strength 400) to umberleigh; larkspur and ambridge are ports.

Red's Nobles: star (deal_100) with 200 strength, square (prevent_100) 100, triangle (victory_1)
50; blue's star (deal_100) 200. Fate cards by battle result: deal_100 fate01 fate04 fate06 fate09 ...;
prevent_100 fate02 fate07 fate14; victory fate05 fate12 fate17 fate24; draw_1 fate10 fate22; none fate03 fate08 fate15 fate20."""

from __future__ import annotations

from engine.warrior_knights.state import evolve
from tests.wk_helpers import army, baron, clear_board, ok, own, place, ready, refused, when, with_card


def board(**at):
    """Round 1, a clean board, Nobles where given (noble=area), red's Mobilize Forces waiting."""
    s = clear_board(ready())
    for noble, area in at.items():
        s = place(s, noble.replace("_", "-"), area)
    return with_card(s, "red", "mobilize_forces")


def mobilize(s, area, moves=(), attack=None, **kw):
    return when(s, "ForcesMobilized", "red", area=area, moves=list(moves), attack=attack, **kw)


# --- movement -------------------------------------------------------------------------------------------------

def test_WK_MOVE_allows_three_areas_along_a_road():
    s = board(red_star="ironvale")
    s = ok(s, "ForcesMobilized", "red", area="quarrington",
           moves=[{"noble": "star", "path": ["jesmond", "kestrel", "quarrington"]}])
    assert s.nobles["red-star"].area == "quarrington"


def test_WK_MOVE_forbids_two_areas_off_the_road_and_a_jump():
    s = board(red_star="ironvale")
    refused(s, "WK-MOVE", "ForcesMobilized", "red", area="brackwater",
            moves=[{"noble": "star", "path": ["coldharbour", "brackwater"]}])
    refused(s, "WK-MOVE", "ForcesMobilized", "red", area="quarrington", moves=[{"noble": "star", "path": ["quarrington"]}])


def test_WK_MOVE_CROSSING_allows_a_bridge():
    s = ok(board(red_star="oakhurst"), "ForcesMobilized", "red", area="umberleigh",
           moves=[{"noble": "star", "path": ["umberleigh"]}])
    assert s.nobles["red-star"].area == "umberleigh"


def test_WK_MOVE_CROSSING_forbids_a_mountain_and_a_river_without_bridge():
    refused(board(red_star="kestrel"), "WK-MOVE-CROSSING", "ForcesMobilized", "red", area="larkspur",
            moves=[{"noble": "star", "path": ["larkspur"]}])
    refused(board(red_star="northcote"), "WK-MOVE-CROSSING", "ForcesMobilized", "red", area="thornbury",
            moves=[{"noble": "star", "path": ["thornbury"]}])


def test_WK_MOVE_BLOCKED_allows_passing_with_the_holders_permission():
    s = board(red_star="ironvale", blue_star="jesmond")
    s = ok(s, "PermissionGiven", "blue", to="red", area="jesmond")
    s = ok(s, "ForcesMobilized", "red", area="kestrel", moves=[{"noble": "star", "path": ["jesmond", "kestrel"]}])
    assert s.nobles["red-star"].area == "kestrel"


def test_WK_MOVE_BLOCKED_forbids_passing_another_barons_noble_or_city():
    refused(board(red_star="ironvale", blue_star="jesmond"), "WK-MOVE-BLOCKED", "ForcesMobilized", "red",
            area="kestrel", moves=[{"noble": "star", "path": ["jesmond", "kestrel"]}])
    s = own(board(red_star="ironvale"), "everton", "blue")
    refused(s, "WK-MOVE-BLOCKED", "ForcesMobilized", "red", area="kestrel",
            moves=[{"noble": "star", "path": ["jesmond", "kestrel"]}])


def test_WK_MOVE_EXHAUSTED_allows_a_refreshed_noble():
    s = place(board(), "red-star", "ironvale", exhausted=False)
    ok(s, "ForcesMobilized", "red", area="jesmond", moves=[{"noble": "star", "path": ["jesmond"]}])


def test_WK_MOVE_EXHAUSTED_forbids_an_exhausted_noble_moving_or_attacking():
    s = place(board(), "red-star", "ironvale", exhausted=True)
    refused(s, "WK-MOVE-EXHAUSTED", "ForcesMobilized", "red", area="jesmond", moves=[{"noble": "star", "path": ["jesmond"]}])
    s = place(board(), "red-star", "oakhurst", exhausted=True)
    refused(s, "WK-MOVE-EXHAUSTED", "ForcesMobilized", "red", area="oakhurst",
            attack={"defender": "neutral", "kind": "assault", "armies": ["star"], "commander": "star"})


def test_WK_MOVE_SEA_allows_port_to_port_arriving_in_the_upkeep():
    s = ok(board(red_star="larkspur"), "ForcesMobilized", "red", area="ambridge",
           moves=[{"noble": "star", "path": ["ambridge"], "sea": True}])
    n = s.nobles["red-star"]
    assert (n.area, n.at_sea, n.exhausted) == ("ambridge", True, True)


def test_WK_MOVE_SEA_forbids_sailing_from_an_area_without_a_port():
    refused(board(red_star="ironvale"), "WK-MOVE-SEA", "ForcesMobilized", "red", area="ambridge",
            moves=[{"noble": "star", "path": ["ambridge"], "sea": True}])


def test_WK_TRANSFER_allows_troops_from_the_stronghold_in_the_same_area():
    s = baron(board(red_star="ironvale"), "red", stronghold="ironvale")
    s = evolve(s, barons={**s.barons, "red": s.barons["red"]._replace(
        stronghold_army=s.nobles["red-triangle"].army)})
    s = place(s, "red-triangle", None)
    s = evolve(s, nobles={**s.nobles, "red-triangle": s.nobles["red-triangle"]._replace(army=s.nobles["red-triangle"].army._replace(troops=()))})
    s = ok(s, "TroopsTransferred", "red", from_="stronghold", to="star", troops=["r2"])
    assert "red-r2" in s.nobles["red-star"].army.troops


def test_WK_TRANSFER_forbids_another_area_and_part_of_a_wounded_army():
    s = board(red_star="ironvale", red_square="jesmond")
    refused(s, "WK-TRANSFER", "TroopsTransferred", "red", from_="square", to="star", troops=["r1"])
    s = board(red_star="ironvale", red_square="ironvale")
    s = evolve(s, nobles={**s.nobles, "red-square": s.nobles["red-square"]._replace(
        army=s.nobles["red-square"].army._replace(casualties=1))})
    refused(s, "WK-TRANSFER", "TroopsTransferred", "red", from_="square", to="star", troops=["r1"])


# --- starting a battle -----------------------------------------------------------------------------------------

ASSAULT = {"defender": "neutral", "kind": "assault", "armies": ["star"], "commander": "star"}
FIELD = {"defender": "blue", "kind": "field", "armies": ["star"], "commander": "star"}


def test_WK_BATTLE_allows_an_assault_on_a_neutral_city_where_the_noble_stands():
    v, s = mobilize(board(red_star="oakhurst"), "oakhurst", attack=ASSAULT)
    assert v == [] and s.battle.city == "hythe" and s.battle.stage == "draw"
    assert s.nobles["red-star"].exhausted


def test_WK_BATTLE_forbids_no_opponent_there_and_a_noble_on_a_port():
    refused(board(red_star="ironvale"), "WK-BATTLE", "ForcesMobilized", "red", area="ironvale", attack=FIELD)
    s = place(board(blue_star="larkspur"), "red-star", "larkspur", at_sea=True)
    refused(s, "WK-BATTLE", "ForcesMobilized", "red", area="larkspur", attack=FIELD)


def test_WK_BATTLE_PERMISSION_allows_an_assault_the_other_baron_there_permits():
    s = board(red_star="oakhurst", blue_star="oakhurst")
    s = ok(s, "PermissionGiven", "blue", to="red", area="oakhurst")
    v, s = mobilize(s, "oakhurst", attack=ASSAULT)
    assert v == [] and s.battle is not None


def test_WK_BATTLE_PERMISSION_forbids_an_assault_where_another_baron_has_armies():
    refused(board(red_star="oakhurst", blue_star="oakhurst"), "WK-BATTLE-PERMISSION", "ForcesMobilized", "red",
            area="oakhurst", attack=ASSAULT)


def test_WK_COMMANDER_allows_the_defender_one_of_his_nobles_there():
    s = ok(board(red_star="ironvale", blue_star="ironvale"), "ForcesMobilized", "red", area="ironvale", attack=FIELD)
    assert s.battle.stage == "commanders"
    s = ok(s, "CommanderDeclared", "blue", noble="star")
    assert s.battle.defender.commander == "blue-star" and s.battle.stage == "draw"


def test_WK_COMMANDER_forbids_a_noble_not_fighting_and_another_barons_choice():
    s = ok(board(red_star="ironvale", blue_star="ironvale", blue_square="jesmond"), "ForcesMobilized", "red",
           area="ironvale", attack=FIELD)
    refused(s, "WK-COMMANDER", "CommanderDeclared", "blue", noble="square")
    refused(s, "WK-COMMANDER", "CommanderDeclared", "red", noble="blue-star")
    refused(board(red_star="oakhurst"), "WK-COMMANDER", "ForcesMobilized", "red", area="oakhurst",
            attack={**ASSAULT, "commander": None})


# --- Fate cards ------------------------------------------------------------------------------------------------
# (the defender, neutral Hythe, draws fate06 deal_100, fate32, fate15, fate20 none unless a test says otherwise)

def assault():
    """Red's star (200 + 200) assaults neutral Hythe (400): 4 Fate cards each."""
    return ok(board(red_star="oakhurst"), "ForcesMobilized", "red", area="oakhurst", attack=ASSAULT)


def test_WK_FATE_COUNT_allows_one_card_per_100_strength():
    s = ok(assault(), "FateDrawn", None, side="attacker", cards=["fate01", "fate04", "fate05", "fate03"])
    assert len(s.battle.attacker.drawn) == 4


def test_WK_FATE_COUNT_forbids_another_count():
    v, s = refused(assault(), "WK-FATE-COUNT", "FateDrawn", None, side="attacker", cards=["fate01", "fate04", "fate05"])
    assert len(s.battle.attacker.drawn) == 3            # applied as recorded


def drawn(att=("fate01", "fate04", "fate05", "fate03"), dfn=("fate06", "fate32", "fate15", "fate20")):
    s = ok(assault(), "FateDrawn", None, side="attacker", cards=list(att))
    return ok(s, "FateDrawn", None, side="defender", cards=list(dfn))


def test_WK_FATE_DISCARD_allows_two_face_down_to_the_bottom():
    s = ok(drawn(), "FateDiscarded", "red", discard=[2, 3])
    assert [f.id for f in s.battle.attacker.kept] if s.battle else True
    assert s.fate.bottom == ("fate05", "fate03")


def test_WK_FATE_DISCARD_forbids_none_or_all_with_a_commander():
    refused(drawn(), "WK-FATE-DISCARD", "FateDiscarded", "red", discard=[])
    refused(drawn(), "WK-FATE-DISCARD", "FateDiscarded", "red", discard=[0, 1, 2, 3])


def test_WK_FATE_DRAW1_allows_a_card_for_each_draw_1_kept():
    s = ok(drawn(att=("fate10", "fate01", "fate03", "fate08")), "FateDiscarded", "red", discard=[2, 3])
    assert s.battle.stage == "draw1" and s.battle.attacker.owed_draws == 1
    s = ok(s, "FateDrawn", None, side="attacker", cards=["fate09"])
    assert s.battle.stage == "casualties"


def test_WK_FATE_DRAW1_forbids_more_cards_than_owed():
    s = ok(drawn(att=("fate10", "fate01", "fate03", "fate08")), "FateDiscarded", "red", discard=[2, 3])
    refused(s, "WK-FATE-DRAW1", "FateDrawn", None, side="attacker", cards=["fate09", "fate11"])


# --- casualties and outcomes --------------------------------------------------------------------------------------

def test_WK_CASUALTIES_allows_a_token_per_100_on_the_fighting_armies():
    # attacker keeps deal, deal (+100 for the star): 3 to the city; the city deals 1 (fate06)
    s = ok(drawn(att=("fate01", "fate04", "fate03", "fate08")), "FateDiscarded", "red", discard=[2, 3])
    assert s.battle.stage == "casualties"
    s = ok(s, "CasualtiesAssigned", "red", tokens={"star": 1})
    assert s.cities["hythe"].breaches == 3


def test_WK_CASUALTIES_forbids_a_wrong_count_and_breaches_on_the_attacker():
    s = ok(drawn(att=("fate01", "fate04", "fate03", "fate08")), "FateDiscarded", "red", discard=[2, 3])
    refused(s, "WK-CASUALTIES", "CasualtiesAssigned", "red", tokens={"star": 2})
    refused(s, "WK-CASUALTIES", "CasualtiesAssigned", "red", tokens={}, breaches=1)


def field_battle(att, dfn, red_discard=(), blue_discard=()):
    s = board(red_star="ironvale", blue_star="ironvale")
    s = ok(s, "ForcesMobilized", "red", area="ironvale", attack=FIELD)
    s = ok(s, "CommanderDeclared", "blue", noble="star")
    s = ok(s, "FateDrawn", None, side="attacker", cards=list(att))
    s = ok(s, "FateDrawn", None, side="defender", cards=list(dfn))
    s = ok(s, "FateDiscarded", "red", discard=list(red_discard))
    return ok(s, "FateDiscarded", "blue", discard=list(blue_discard))


def test_WK_BATTLE_OUTCOME_allows_a_partial_victory_to_make_the_loser_retreat():
    # 4 cards each; red keeps victory + none, blue keeps none + none: 1 victory more
    s = field_battle(("fate05", "fate03", "fate02", "fate07"), ("fate08", "fate15", "fate14", "fate19"), (2, 3), (2, 3))
    assert s.battle.stage == "casualties"         # each star deals 100
    s = ok(s, "CasualtiesAssigned", "red", tokens={"star": 1})
    s = ok(s, "CasualtiesAssigned", "blue", tokens={"star": 1})
    assert s.battle.after == (("retreat", "blue-star"),)


def test_WK_BATTLE_OUTCOME_forbids_a_noble_surviving_casualties_equal_to_his_troops():
    s = field_battle(("fate01", "fate04", "fate02", "fate07"), ("fate08", "fate15", "fate14", "fate19"), (2, 3), (2, 3))
    # red deals 2 + 1 (star) = 3 tokens, 300 >= blue's 150 troops: blue's star dies
    s = ok(s, "CasualtiesAssigned", "red", tokens={"star": 1})
    s = ok(s, "CasualtiesAssigned", "blue", tokens={"star": 3})
    assert s.battle.after[0] == ("die", "blue-star")


def test_WK_CAPTURE_allows_a_city_taken_on_a_full_victory():
    s = ok(drawn(att=("fate05", "fate12", "fate03", "fate08"), dfn=("fate15", "fate20", "fate27", "fate32")), "FateDiscarded", "red",
           discard=[2, 3])
    assert s.battle.after == (("take", "hythe"),)
    s = ok(s, "CityTaken", "red", raze=False)
    assert s.cities["hythe"].owner == "red" and s.battle is None and s.areas.get("assembly") == 1


def test_WK_CAPTURE_forbids_a_city_taken_on_a_stalemate():
    s = ok(drawn(att=("fate05", "fate03", "fate08", "fate15"), dfn=("fate12", "fate20", "fate27", "fate32")), "FateDiscarded", "red",
           discard=[2, 3])
    assert s.battle is None and s.cities["hythe"].owner is None
    refused(s, "WK-FLOW", "CityTaken", "red", raze=False)


def test_WK_RAZE_allows_a_taken_city_razed_for_three_times_its_income():
    s = ok(drawn(att=("fate05", "fate12", "fate03", "fate08"), dfn=("fate15", "fate20", "fate27", "fate32")), "FateDiscarded", "red",
           discard=[2, 3])
    s = ok(s, "CityTaken", "red", raze=True)
    assert s.cities["hythe"].razed and s.barons["red"].crowns == 15 + 9


def test_WK_RAZE_forbids_attacking_a_razed_city_again():
    s = ok(drawn(att=("fate05", "fate12", "fate03", "fate08"), dfn=("fate15", "fate20", "fate27", "fate32")), "FateDiscarded", "red",
           discard=[2, 3])
    s = ok(s, "CityTaken", "red", raze=True)
    s = with_card(place(s, "red-square", "oakhurst"), "red", "mobilize_forces")
    refused(s, "WK-BATTLE", "ForcesMobilized", "red", area="oakhurst",
            attack={**ASSAULT, "armies": ["square"], "commander": "square"})


def test_WK_SIEGE_allows_a_siege_and_a_second_one_a_round_later_takes_the_city():
    s = ok(board(red_star="valewick"), "ForcesMobilized", "red", area="valewick",
           attack={"defender": "neutral", "kind": "siege", "armies": ["star"], "commander": "star"})
    assert s.cities["kelso"].siege == ("red", 1)
    s = with_card(evolve(place(s, "red-star", "valewick", exhausted=False), flow=s.flow._replace(round=2)),
                  "red", "mobilize_forces")
    s = ok(s, "ForcesMobilized", "red", area="valewick",
           attack={"defender": "neutral", "kind": "siege", "armies": ["star"], "commander": "star"})
    assert s.battle.after == (("take", "kelso"),)


def test_WK_SIEGE_allows_the_siege_to_be_lifted_when_the_besiegers_leave():
    s = ok(board(red_star="valewick"), "ForcesMobilized", "red", area="valewick",
           attack={"defender": "neutral", "kind": "siege", "armies": ["star"], "commander": "star"})
    s = with_card(place(s, "red-star", "valewick", exhausted=False), "red", "mobilize_forces")
    s = ok(s, "ForcesMobilized", "red", area="umberleigh", moves=[{"noble": "star", "path": ["umberleigh"]}])
    assert s.cities["kelso"].siege is None and "The siege of kelso is lifted" in s.notes


def test_WK_SIEGE_forbids_a_siege_without_more_strength():
    refused(board(red_star="oakhurst"), "WK-SIEGE", "ForcesMobilized", "red", area="oakhurst",
            attack={"defender": "neutral", "kind": "siege", "armies": ["star"], "commander": "star"})


# --- retreats, deserters, death -----------------------------------------------------------------------------------

def retreating():
    s = field_battle(("fate05", "fate03", "fate02", "fate07"), ("fate08", "fate15", "fate14", "fate19"), (2, 3), (2, 3))
    s = ok(s, "CasualtiesAssigned", "red", tokens={"star": 1})
    return ok(s, "CasualtiesAssigned", "blue", tokens={"star": 1})


def test_WK_RETREAT_allows_an_adjacent_area_without_a_city():
    s = ok(retreating(), "DesertersDrawn", None, noble="blue-star", card="fate01")    # alban: blue has none
    s = ok(s, "Retreated", "blue", noble="star", to="brackwater")
    assert s.nobles["blue-star"].area == "brackwater" and s.battle is None


def test_WK_RETREAT_forbids_an_area_with_a_city():
    s = ok(retreating(), "DesertersDrawn", None, noble="blue-star", card="fate01")
    refused(s, "WK-RETREAT", "Retreated", "blue", noble="star", to="oakhurst")


def test_WK_DESERTERS_allows_a_mercenary_of_the_drawn_nationality():
    s = ok(retreating(), "DesertersDrawn", None, noble="blue-star", card="fate06")    # brennic: m10
    s = ok(s, "Retreated", "blue", noble="star", to="brackwater", deserter="m10")
    assert "m10" not in s.barons["blue"].troops and "m10" in s.mercs.pile


def test_WK_DESERTERS_forbids_keeping_a_mercenary_of_that_nationality():
    s = ok(retreating(), "DesertersDrawn", None, noble="blue-star", card="fate06")
    refused(s, "WK-DESERTERS", "Retreated", "blue", noble="star", to="brackwater")


def dying():
    s = field_battle(("fate01", "fate04", "fate02", "fate07"), ("fate08", "fate15", "fate14", "fate19"), (2, 3), (2, 3))
    s = ok(s, "CasualtiesAssigned", "red", tokens={"star": 1})
    s = ok(s, "CasualtiesAssigned", "blue", tokens={"star": 3})
    return ok(s, "DesertersDrawn", None, noble="blue-star", card="fate13")      # alban: none


def test_WK_NOBLE_DEATH_allows_mercenaries_discarded_for_the_tokens_and_an_heir_with_the_rest():
    s = ok(dying(), "NobleLost", "blue", noble="star", discarded=["m10"])
    n = s.nobles["blue-star"]
    assert n.dead and n.area is None and n.army.troops == ("blue-r4",) and n.army.casualties == 0


def test_WK_NOBLE_DEATH_forbids_regular_troops_discarded_or_too_few_mercenaries():
    refused(dying(), "WK-NOBLE-DEATH", "NobleLost", "blue", noble="star", discarded=["r4"])
    refused(dying(), "WK-NOBLE-DEATH", "NobleLost", "blue", noble="star", discarded=[])


def stronghold_fallen():
    s = clear_board(ready())
    s = baron(s, "blue", stronghold="ironvale", stronghold_army=s.barons["blue"].stronghold_army._replace(troops=()))
    s = own(place(s, "red-star", "ironvale"), "everton", "blue")
    s = with_card(s, "red", "mobilize_forces")
    s = ok(s, "ForcesMobilized", "red", area="ironvale",
           attack={"defender": "blue", "kind": "assault", "armies": ["star"], "commander": "star"})
    s = ok(s, "FateDrawn", None, side="attacker", cards=["fate05", "fate12", "fate03", "fate08"])
    s = ok(s, "FateDrawn", None, side="defender", cards=["fate15", "fate20"])
    return ok(s, "FateDiscarded", "red", discard=[2, 3])


def test_WK_STRONGHOLD_allows_half_the_crowns_and_a_city_of_the_losers_choice():
    s = stronghold_fallen()
    assert s.battle.after == (("stronghold", "blue"),)
    s = ok(s, "StrongholdCityGiven", "blue", city="everton")
    assert s.barons["blue"].stronghold is None and s.cities["everton"].owner == "red"
    assert (s.barons["red"].crowns, s.barons["blue"].crowns) == (22, 8)


def test_WK_STRONGHOLD_forbids_a_city_the_loser_does_not_hold():
    refused(stronghold_fallen(), "WK-STRONGHOLD", "StrongholdCityGiven", "blue", city="hythe")


def on_the_road(**square):
    """Red's star in Ambridge about to take the road to Umberleigh through Thornbury, where red's
    square Noble (r1, m01) and red's stronghold (r2) stand."""
    s = place(place(clear_board(ready()), "red-star", "ambridge"), "red-square", "thornbury", **square)
    s = baron(s, "red", stronghold="thornbury")
    s = evolve(s, barons={**s.barons, "red": s.barons["red"]._replace(stronghold_army=s.nobles["red-triangle"].army)})
    s = army(place(s, "red-triangle", None), "red-triangle", ())
    return with_card(s, "red", "mobilize_forces")


def road_move(*pickups):
    return {"noble": "star", "path": ["thornbury", "umberleigh"], "pickups": list(pickups)}


def test_WK_TRANSFER_allows_troops_picked_up_in_the_middle_of_a_road_move():
    s = ok(on_the_road(), "ForcesMobilized", "red", area="umberleigh",
           moves=[road_move({"at": "thornbury", "from": "square", "troops": ["r1"]},
                            {"at": "thornbury", "from": "stronghold", "troops": ["r2"]})])
    assert s.nobles["red-star"].area == "umberleigh"
    assert s.nobles["red-star"].army.troops[-2:] == ("red-r1", "red-r2") and s.nobles["red-square"].army.troops == ("m01",)


def test_WK_TRANSFER_forbids_a_pickup_off_the_route_or_from_an_exhausted_noble():
    refused(on_the_road(), "WK-TRANSFER", "ForcesMobilized", "red", area="umberleigh",
            moves=[road_move({"at": "jesmond", "from": "square", "troops": ["r1"]})])
    refused(on_the_road(exhausted=True), "WK-TRANSFER", "ForcesMobilized", "red", area="umberleigh",
            moves=[road_move({"at": "thornbury", "from": "square", "troops": ["r1"]})])
    refused(on_the_road(), "WK-TRANSFER", "ForcesMobilized", "red", area="umberleigh",
            moves=[road_move({"at": "ambridge", "from": "stronghold", "troops": ["r2"]})])

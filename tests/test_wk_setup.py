"""Warrior Knights setup rules (summary, "Setup" 1-7), the log's own rules (flow, actors, decks,
cards, data digests), each with an allowed and a forbidden case."""

from __future__ import annotations

from engine.warrior_knights import engine as E
from engine.warrior_knights.events import PAYLOADS
from engine.warrior_knights.gamedata import load_data
from tests.wk_helpers import (
    D, MERCS, new, ok, ready, refused, rules, setup_until, start_payload,
)


def start_problems(**extra):
    model = PAYLOADS["GameStarted"].model_validate(start_payload(2, **extra))
    return rules(E.check_start(model, D))


# --- the start --------------------------------------------------------------------------------------------

def test_WK_START_allows_barons_of_different_colours():
    assert start_problems() == []


def test_WK_START_forbids_a_colour_twice_or_one_the_cards_do_not_have():
    model = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "warrior-knights", "players": [{"id": "ann", "color": "red"}, {"id": "bob", "color": "red"}]})
    assert "WK-START" in rules(E.check_start(model, D))
    model = PAYLOADS["GameStarted"].model_validate(
        {"ruleset": "warrior-knights", "players": [{"id": "ann", "color": "red"}, {"id": "bob", "color": "orange"}]})
    assert "WK-START" in rules(E.check_start(model, D))
    assert start_problems(variants=["king"]) == []          # Crown & Glory is judged (tests/test_wk_glory.py)


def test_WK_DATA_DIGEST_allows_the_data_the_log_names():
    assert start_problems(data={"board": D.board.digest, "cards": D.cards.digest}) == []


def test_WK_DATA_DIGEST_forbids_judging_with_other_data_as_a_claim():
    model = PAYLOADS["GameStarted"].model_validate(start_payload(2, data={"board": "ab" * 32}))
    v = E.check_start(model, D)
    assert rules(v) == ["WK-DATA-DIGEST"] and not v[0].blocking


# --- Setup 1 -------------------------------------------------------------------------------------------------

def test_WK_SETUP_TROOPS_allows_one_50_and_one_100_mercenary_each():
    s = ok(new(), "TroopsDealt", None, mercenaries={"red": ["m01", "m03"], "blue": ["m08", "m10"]})
    assert {t for t in s.barons["red"].troops} == {"red-r1", "red-r2", "red-r3", "red-r4", "m01", "m03"}
    assert s.flow.step == "assign"


def test_WK_SETUP_TROOPS_forbids_two_100_mercenaries():
    refused(new(), "WK-SETUP-TROOPS", "TroopsDealt", None, mercenaries={"red": ["m03", "m04"], "blue": ["m08", "m10"]})


def test_WK_SETUP_ASSIGN_allows_every_troop_to_a_noble_or_the_stronghold():
    s = setup_until(2, "assign")
    s = ok(s, "TroopsAssigned", "red", armies={"star": ["r4", "m03"], "stronghold": ["r1", "r2", "r3", "m01"]})
    assert s.nobles["red-star"].army.troops == ("red-r4", "m03")
    assert s.barons["red"].stronghold_army.troops == ("red-r1", "red-r2", "red-r3", "m01")


def test_WK_SETUP_ASSIGN_forbids_a_troop_left_out_or_given_twice():
    s = setup_until(2, "assign")
    v, after = refused(s, "WK-SETUP-ASSIGN", "TroopsAssigned", "red", armies={"star": ["r4", "m03", "r1", "r2", "r3"]})
    assert after.barons["red"].stronghold_army.troops == ("m01",)      # applied: the missing one to the stronghold
    refused(s, "WK-SETUP-ASSIGN", "TroopsAssigned", "red", armies={"star": ["r4", "r4"]})


# --- Setup 3, 5, 6 ---------------------------------------------------------------------------------------------

def test_WK_SETUP_RAZE_allows_11_cities_razed_with_2_players():
    s = setup_until(2, "raze")
    s = ok(s, "CitiesRazed", None, cards=[f"fate{i:02d}" for i in range(1, 12)])
    assert sum(1 for c in s.cities.values() if c.razed) == 11
    assert s.fate.pile == frozenset(k for k, f in D.cards.fate.items() if f.deck == "base")   # Setup 4: shuffled again


def test_WK_SETUP_RAZE_forbids_too_few_cities():
    s = setup_until(2, "raze")
    refused(s, "WK-SETUP-RAZE", "CitiesRazed", None, cards=[f"fate{i:02d}" for i in range(1, 11)])


def test_WK_SETUP_MARKET_allows_players_plus_one_mercenaries_and_3_agendas():
    s = ok(setup_until(3, "market"), "MarketRevealed", None, mercenaries=["m05", "m06", "m07", "m12"],
           agendas=["ag01", "ag02", "ag03"])
    assert len(s.market) == 4 and s.agendas == ("ag01", "ag02", "ag03")


def test_WK_SETUP_MARKET_forbids_a_market_of_the_wrong_size():
    refused(setup_until(3, "market"), "WK-SETUP-MARKET", "MarketRevealed", None,
            mercenaries=["m05", "m06"], agendas=["ag01", "ag02", "ag03"])


def test_WK_SETUP_OFFICES_allows_fate_cards_naming_the_barons_in_play():
    s = ok(setup_until(2, "offices"), "OfficesChosen", None, chairman=["fate03", "fate02"], head_of_church=["fate01"])
    assert (s.chairman, s.head_of_church) == ("blue", "red")       # fate03 names green, who does not play


def test_WK_SETUP_OFFICES_forbids_cards_naming_nobody_in_play_or_drawn_past_the_choice():
    refused(setup_until(2, "offices"), "WK-SETUP-OFFICES", "OfficesChosen", None, chairman=["fate03"],
            head_of_church=["fate01"])
    refused(setup_until(2, "offices"), "WK-SETUP-OFFICES", "OfficesChosen", None, chairman=["fate01", "fate02"],
            head_of_church=["fate01"])


# --- Setup 7 ---------------------------------------------------------------------------------------------------

def test_WK_SETUP_STRONGHOLD_allows_the_chairman_first_on_a_central_hex_without_a_city():
    s = setup_until(2, "strongholds")
    assert s.flow.current == "red"
    s = ok(s, "StrongholdPlaced", "red", area="ironvale")
    assert s.barons["red"].stronghold == "ironvale" and s.flow.current == "blue"


def test_WK_SETUP_STRONGHOLD_forbids_the_rim_with_2_players_an_unrazed_city_and_another_turn():
    s = setup_until(2, "strongholds")
    refused(s, "WK-SETUP-STRONGHOLD", "StrongholdPlaced", "red", area="greystone")        # not central
    refused(s, "WK-SETUP-STRONGHOLD", "StrongholdPlaced", "red", area="elmstead")         # Otterburn stands
    refused(s, "WK-SETUP-STRONGHOLD", "StrongholdPlaced", "blue", area="ironvale")        # red first


def test_WK_SETUP_NOBLES_allows_the_last_placer_first_then_counterclockwise():
    s = setup_until(2, "nobles")
    assert s.flow.current == "blue"            # blue placed the last stronghold
    s = ok(s, "NoblePlaced", "blue", noble="star", area=s.barons["blue"].stronghold)
    assert s.flow.current == "red"


def test_WK_SETUP_NOBLES_forbids_another_players_stronghold_and_another_turn():
    s = setup_until(2, "nobles")
    refused(s, "WK-SETUP-NOBLES", "NoblePlaced", "blue", noble="star", area=s.barons["red"].stronghold)
    refused(s, "WK-SETUP-NOBLES", "NoblePlaced", "red", noble="star", area=s.barons["red"].stronghold)


def test_WK_SETUP_NOBLES_forbids_a_noble_with_no_troops():
    from tests.wk_helpers import army
    s = army(setup_until(2, "nobles"), "blue-circle", ())
    refused(s, "WK-SETUP-NOBLES", "NoblePlaced", "blue", noble="circle", area=s.barons["blue"].stronghold)


# --- the log ------------------------------------------------------------------------------------------------

def test_WK_FLOW_allows_the_setup_in_its_order_and_reaches_round_1():
    s = ready(2)
    assert (s.flow.phase, s.flow.round) == ("planning", 1)


def test_WK_FLOW_forbids_a_step_out_of_order():
    refused(new(), "WK-FLOW", "StrongholdPlaced", "red", area="ironvale")


def test_WK_ACTOR_allows_a_baron_deciding_for_himself():
    ok(setup_until(2, "assign"), "TroopsAssigned", "blue", armies={"star": ["r1", "r2", "r3", "r4", "m08", "m10"]})


def test_WK_ACTOR_forbids_an_unknown_actor_and_a_decision_without_one():
    s = setup_until(2, "assign")
    refused(s, "WK-ACTOR", "TroopsAssigned", "zed", armies={})
    refused(s, "WK-ACTOR", "TroopsAssigned", None, armies={})


def test_WK_DECK_allows_cards_still_in_the_deck():
    s = ok(new(), "TroopsDealt", None, mercenaries={"red": MERCS["red"], "blue": MERCS["blue"]})
    assert "m01" not in s.mercs.pile


def test_WK_DECK_forbids_a_card_already_drawn():
    s = setup_until(2, "market")
    v, after = refused(s, "WK-DECK", "MarketRevealed", None, mercenaries=["m01", "m05", "m06"],
                       agendas=["ag01", "ag02", "ag03"])
    assert len(after.market) == 3                  # applied as recorded


def test_WK_CARD_allows_printed_fields_when_the_cards_file_leaves_the_deck_out(tmp_path):
    import json
    from pathlib import Path
    cards = json.loads((Path(__file__).parent.parent / "engine/warrior_knights/data/example_cards.json").read_text())
    del cards["mercenaries"]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cards))
    data = load_data(board=Path(__file__).parent.parent / "engine/warrior_knights/data/example_board.json", cards=path)
    s = new(2, data=data)
    s = ok(s, "TroopsDealt", None, mercenaries={
        "red": [{"id": "x1", "nationality": "alban", "strength": 50, "wage": 1},
                {"id": "x2", "nationality": "alban", "strength": 100, "wage": 2}],
        "blue": [{"id": "x3", "nationality": "dornish", "strength": 50, "wage": 1},
                 {"id": "x4", "nationality": "dornish", "strength": 100, "wage": 2}]})
    assert s.barons["red"].troops["x2"].strength == 100 and s.mercs is None


def test_WK_CARD_forbids_printed_fields_for_a_listed_deck_and_an_id_for_an_observed_one():
    refused(new(), "WK-CARD", "TroopsDealt", None, mercenaries={
        "red": [{"id": "x1", "nationality": "a", "strength": 50, "wage": 1}, "m03"], "blue": ["m08", "m10"]})
    refused(setup_until(2, "raze"), "WK-CARD", "CitiesRazed", None, cards=["fate99"])


def test_WK_GAME_OVER_allows_the_result_to_be_declared():
    from engine.core.ruleset import GameResult
    from engine.warrior_knights.state import evolve
    s = evolve(ready(), result=GameResult(("red",), "test", 1, {}))
    ok(s, "GameEnded", None, winner="red")


def test_WK_GAME_OVER_forbids_play_after_the_end():
    from engine.core.ruleset import GameResult
    from engine.warrior_knights.state import evolve
    s = evolve(ready(), result=GameResult(("red",), "test", 1, {}))
    refused(s, "WK-GAME-OVER", "StacksPlanned", "red", stacks=[[], [], []])

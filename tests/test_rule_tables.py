"""Risk Europe's numeric rule tables live in engine/risk_europe/data/rule_tables.json with their
provenance (issue #11), loaded through the data loader with a digest. They are the ruleset's own,
not a game's data: a game's data digest (board and cards) is unchanged by them, and their own
digest is pinned here, so that a change of the numbers is a reviewed change of the rules."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from engine.core.data import DataShapeError
from engine.risk_europe import common
from engine.risk_europe.rules import RULES
from engine.risk_europe.state import Units
from engine.risk_europe.tables import RULE_TABLES_DIGEST, TABLES, parse

PINNED = "9836192f8eded2a7330ead207f07e3a0d5665778fc85820b70ef4ad050c25e32"


def _raw() -> dict:
    text = resources.files("engine.risk_europe").joinpath("data/rule_tables.json").read_text("utf-8")
    return json.loads(text)


def test_the_tables_digest_is_pinned():
    assert RULE_TABLES_DIGEST == PINNED, (
        "data/rule_tables.json changed: that is a change of the Risk Europe rules (bump the "
        "ruleset's version, check the golden tests, then pin the new digest here)")


def test_each_table_cites_the_rulebook_section_of_the_rules_that_apply_it():
    by_id = {r.id: r for r in RULES}
    for table, (section, rule_ids) in TABLES.sections.items():
        assert rule_ids, table
        for rule_id in rule_ids:
            assert rule_id in by_id, (table, rule_id)
            assert section in by_id[rule_id].section, (table, rule_id, by_id[rule_id].section)


def test_the_engine_judges_with_the_tables():
    assert common.COST == {"footman": 1, "archer": 2, "cavalry": 3, "siege": 10, "castle": 12,
                           "crown_card": 10}
    assert common.RANK_UNIT == {1: "siege", 2: "archer", 3: "cavalry"}
    assert common.RANK_DICE_PER_UNIT == {1: 2, 2: 1, 3: 1}
    assert common.RANK_HITS_ON == {1: 3, 2: 5, 3: 3}
    assert (common.GENERAL_RANK, common.GENERAL_DICE) == (4, (3, 2))
    assert common.SIEGE_HITS_ON == 3 and TABLES.siege_dice_per_siege == 2
    assert TABLES.fortify_footmen == (3, 4) and TABLES.starting_coins == 5
    assert (TABLES.stockholm_coins, TABLES.berlin_castle_discount, TABLES.constantinople_footmen) == (4, 3, 4)
    assert common.TAX_TILE_UNITS == {"London": Units(archer=2), "Paris": Units(footman=1, cavalry=1),
                                     "Madrid": Units(footman=4)}


def test_the_rule_texts_say_the_tables_numbers():
    text = {r.id: r.text for r in RULES}
    c = TABLES.costs
    assert (f"Footman {c['footman']}, Archer {c['archer']}, Cavalry {c['cavalry']}, Siege Weapon "
            f"{c['siege']}, Castle {c['castle']}, Crown Card {c['crown_card']} coins") in text["RE-SPEND-COST"]
    assert f"castles cost {TABLES.berlin_castle_discount} coins less" in text["RE-TILE-BERLIN"]
    assert f"{TABLES.stockholm_coins} coins" in text["RE-TILE-STOCKHOLM"]
    assert f"{TABLES.fortify_footmen[0]} Footmen" in text["RE-FORTIFY"]


@pytest.mark.parametrize("change,where", [
    (lambda t: t["costs"]["coins"].pop("castle"), "costs.coins"),
    (lambda t: t["ranks"]["ranked"][1].update(hits_on=7), "ranks.ranked[1].hits_on"),
    (lambda t: t["ranks"]["ranked"][0].update(unit="dragon"), "ranks.ranked[0].unit"),
    (lambda t: t["tiles"]["tax_units"]["Madrid"].update(knight=1), "tiles.tax_units.Madrid"),
    (lambda t: t.update(schema="something/else"), "schema"),
])
def test_a_wrong_table_is_refused_naming_file_and_key(change, where):
    raw = copy.deepcopy(_raw())
    change(raw)
    with pytest.raises(DataShapeError) as caught:
        parse(raw, "x", "rule_tables.json")
    assert f"rule_tables.json: {where}" in str(caught.value)


def test_the_tables_are_not_part_of_a_games_data_digest():
    from engine import get_ruleset
    rs = get_ruleset("risk-europe")
    assert RULE_TABLES_DIGEST not in rs.data_digest(rs.default_data())

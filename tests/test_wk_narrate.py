"""Warrior Knights in words: every event of the sample games has a line of its own in a replay,
naming what was done ("blue takes the city and razes it"), not its type and raw payload."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.warrior_knights import RULESET
from engine.warrior_knights.narrate import describe

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "sample_logs" / "warrior_knights").glob("game-*.jsonl"))
RAW = re.compile(r"^(\w+|the table): [A-Z][A-Za-z]+( \(|$)")   # the fallback: "blue: CityTaken (raze True)"


def test_every_sample_event_has_a_line_of_its_own():
    raw = {}
    for path in SAMPLES:
        for line in path.read_text("utf-8").splitlines():
            e = json.loads(line)
            if e["type"] == "GameStarted":      # a replay opens with the ruleset's start_lines
                continue
            text = RULESET.describe(e["type"], e.get("actor"), e["payload"], None)
            if RAW.match(text) or e["type"] in text:
                raw.setdefault(e["type"], text)
    assert raw == {}


def test_the_lines_say_what_was_done():
    assert describe("CityTaken", "blue", {"raze": True}, None) == "blue takes the city and razes it"
    assert describe("EventDrawerChosen", "red", {"drawer": "red", "colour": "green"}, None) == \
        "red names himself to draw the green Event"
    assert describe("EventDrawerChosen", "red", {"drawer": "blue", "colour": "red"}, None) == \
        "red names blue to draw the red Event"
    assert describe("ExpeditionFunded", "blue", {"expedition": "new_world", "stakes": {"red": 1, "blue": 2},
                                                 "blessed": True}, None) == \
        "blue funds the expedition to new_world: stakes red 1, blue 2; blessed by the Church"
    assert describe("TroopsMustered", "green", {"army": None, "tokens": 0,
                                                "levies": [{"levy": "lv-newburn", "noble": "green-circle"}]},
                    None) == "green musters the Town Levy lv-newburn for green-circle"
    assert describe("TroopsTransferred", "red", {"from": "stronghold", "to": "red-star", "troops": ["red-r1"]},
                    None) == "red moves red-r1 from stronghold to red-star"
    assert describe("DefensesUpgraded", "red", {"city": "everton", "repair": 0, "fortify": False}, None) == \
        "red upgrades no defense"

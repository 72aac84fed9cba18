"""The map of a Risk Legacy game's page (engine/risk_legacy/page.py says what is on it,
analytics/game_page.py draws it): every territory at an approximate real-world position, owners,
troops, HQs, cities, scars and fortifications after each turn, continents and sea-lines; a
territory a corrected board adds without a position is named on the page, not a crash (#16)."""

from __future__ import annotations

import dataclasses
import json
import math
from importlib import resources
from pathlib import Path

import pytest

from analytics.game_page import map_figure, page_game, player_colours, render_game_page, straight
from engine.core.page import Badge
from engine.risk_legacy.board import default_data, load_data
from engine.risk_legacy.page import (
    CITIES, FORTIFICATION, HQ, board_map, coords, page, scar_badge,
)
from replay.judge import judge
from replay.logfile import read_log

LEGACY = Path(__file__).resolve().parent.parent / "sample_logs" / "legacy"


@pytest.fixture(scope="module")
def game5():
    return judge(read_log(LEGACY / "game-05.jsonl"), views=True)


def test_every_territory_has_a_place_in_the_world_keyed_by_its_id():
    places = coords()["territories"]
    data = default_data()
    assert set(places) == set(data.territories)
    assert len(set(places.values())) == len(places)           # no two on the same spot
    assert set(coords()["continents"]) == set(data.continents)
    # facts anyone can check on an atlas, roughly
    assert places["alaska"][0] > 55 and places["alaska"][1] < -140
    assert places["kamchatka"][1] > 150 and places["japan"][1] > 130
    for southern in ("argentina", "south_africa", "madagascar", "western_australia",
                     "eastern_australia", "peru", "brazil"):
        assert places[southern][0] < 0, southern
    for northern in ("greenland", "iceland", "scandinavia", "yakutsk", "egypt", "india"):
        assert places[northern][0] > 15, northern


def test_neighbours_on_the_board_are_near_each_other_on_the_map():
    places, data = coords()["territories"], default_data()
    for a in data.territories:
        for b in data.neighbours[a]:
            (la, lo), (lb, lob) = places[a], places[b]
            east_west = min(abs(lo - lob), 360 - abs(lo - lob)) * math.cos(math.radians(
                (la + lb) / 2))
            # the board's borders are long (China-Ural); a sea-line crosses an ocean
            limit = 90 if frozenset((a, b)) in data.sea_lines else 60
            assert abs(la - lb) + east_west < limit, (a, b)


def test_the_board_data_keeps_its_23_sea_lines():
    data = default_data()
    assert len(data.sea_lines) == 23
    assert frozenset(("alaska", "kamchatka")) in data.sea_lines
    assert frozenset(("alaska", "alberta")) not in data.sea_lines


def test_the_map_has_every_territory_every_border_and_the_continents():
    data = default_data()
    board = page(page_game(judge(read_log(LEGACY / "game-01.jsonl"), views=True)), data).map
    land, sea = board.lines
    assert (land.name, sea.name, sea.dashed) == ("land border", "sea-line", True)
    assert len(land.segments) + len(sea.segments) == 83 and len(sea.segments) == 23
    assert ("alaska", "kamchatka") in sea.segments
    assert board.names["eastern_canada"] == "Eastern Canada"
    assert sorted(c.text for c in board.captions) == [
        "Africa +3", "Asia +7", "Australia +2", "Europe +5", "North America +5",
        "South America +2"]


def test_the_line_from_alaska_to_kamchatka_goes_across_the_pacific():
    lats, lons = straight(coords()["territories"]["alaska"], coords()["territories"]["kamchatka"])
    assert all(-180 <= lon < 180 for lon in lons)
    assert all(lon <= -150 or lon >= 160 for lon in lons)   # never across the Atlantic
    assert min(lons) < -175 and max(lons) > 175             # it crosses the 180th meridian
    assert lats[0] == 64 and lats[-1] == 58


def test_each_board_shows_owners_troops_hqs_cities_scars_and_fortifications(game5):
    spec = page(page_game(game5), None)
    last = {m.place: m for m in spec.frames[-1].marks}
    view = game5.steps[-1].view
    for t, entry in view["board"].items():
        assert (last[t].owner, last[t].count) == (entry["owner"], entry["troops"])
    assert sum(m.count for m in last.values()) == sum(
        p["troops"] for p in view["players"].values())
    # Afghanistan: a minor city with a fortification (2 of 10 boxes marked), held by nobody
    afghanistan = last["afghanistan"]
    assert afghanistan.owner is None and afghanistan.count == 0
    assert afghanistan.badges == (Badge(CITIES["minor"].key, text="Afghanistan Town"),
                                  Badge(FORTIFICATION.key))
    assert "fortification: 2 of 10 boxes marked" in afghanistan.lines
    # East Africa's fortification is spent: no badge, and hovering says so
    assert Badge(FORTIFICATION.key) not in last["east_africa"].badges
    assert "fortification: 10 of 10 boxes marked (spent)" in last["east_africa"].lines
    # Egypt: a major city with a bunker; Mongolia: a minor city with an ammo shortage
    assert Badge(scar_badge("bunker").key) in last["egypt"].badges
    assert Badge(CITIES["major"].key, text="Egypt City") in last["egypt"].badges
    assert Badge(scar_badge("ammo_shortage").key) in last["mongolia"].badges
    # every HQ on the board, in the colour of the player whose faction it is
    faction_of = {p: info["faction"] for p, info in view["players"].items()}
    hqs = {t: b.player for t, m in last.items() for b in m.badges if b.kind == HQ.key}
    assert hqs == {t: next(p for p, f in faction_of.items() if f == entry["hq"])
                   for t, entry in view["board"].items() if entry.get("hq")}
    assert len(hqs) >= 2


def test_a_scar_placed_during_the_game_appears_from_that_turn_on():
    j = judge(read_log(LEGACY / "game-01.jsonl"), views=True)
    spec = page(page_game(j), None)
    bunker = Badge(scar_badge("bunker").key)
    scarred = [bunker in {m.place: m for m in f.marks}["southern_europe"].badges
               for f in spec.frames]
    first = scarred.index(True)
    assert 0 < first and all(scarred[first:])
    assert "dan places a scar" in spec.frames[first].label


def test_the_map_writes_each_count_and_each_name(game5):
    spec = page(page_game(game5), None)
    fig = map_figure(spec, game5.players, player_colours(game5.players))
    marks = next(t for t in fig.data if t.name == "territories")
    names = next(t for t in fig.data if t.name == "names")
    data = default_data()
    assert len(marks.lat) == len(data.territories) == 42
    assert list(names.text) == [data.names[t] for t in data.territories]
    assert list(marks.text) == [str(m.count) if m.count else "" for m in spec.frames[-1].marks]
    assert all("_" not in name for name in names.text)
    # the slider redraws the marks, the names and the badges of each board
    assert len(fig.frames) == len(spec.frames) and len(fig.frames[0].data) == \
        2 + len(spec.map.badges)


def test_a_territory_without_a_position_is_named_on_the_page_not_drawn(tmp_path, game5):
    board = json.loads(resources.files("engine.risk_legacy").joinpath("data", "board.json")
                       .read_text("utf-8"))
    board["territories"].append({"id": "atlantis", "name": "Atlantis", "continent": "europe",
                                 "card_id": "A43"})
    board["continents"][2]["territories"].append("atlantis")
    board["borders"].append({"a": "atlantis", "b": "iceland", "sea_line": True})
    (tmp_path / "board.json").write_text(json.dumps(board), "utf-8")
    corrected = load_data(tmp_path / "board.json")
    spec = page(page_game(game5), corrected)
    assert spec.map.unplaced == ("atlantis",) and "atlantis" not in spec.map.places
    report = render_game_page(game5, tmp_path / "g5.html", data=corrected)
    assert report.unplaced == ("atlantis",)
    html = (tmp_path / "g5.html").read_text("utf-8")
    assert "Not on the map (the map has no position for it): Atlantis." in html


def test_a_badge_of_a_kind_the_map_does_not_have_is_refused(game5):
    spec = page(page_game(game5), None)
    frame = spec.frames[-1]
    odd = dataclasses.replace(frame.marks[0], badges=(Badge("volcano"),))
    broken = dataclasses.replace(spec, frames=(dataclasses.replace(
        frame, marks=(odd, *frame.marks[1:])),))
    with pytest.raises(ValueError, match="no kind of badge 'volcano' on the map"):
        map_figure(broken, game5.players, player_colours(game5.players))


def test_a_scar_from_a_sealed_pack_gets_a_badge_of_its_own(game5):
    spec = page(page_game(game5), None)
    board = spec.map
    assert [k.key for k in board.badges if k.symbol == "x"] == ["scar bunker",
                                                                "scar ammo_shortage"]
    more = board_map(default_data(), ("poison",))
    assert "scar: poison" in [k.name for k in more.badges]

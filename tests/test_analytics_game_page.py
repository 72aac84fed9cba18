"""The page of a Risk Europe game (engine/risk_europe/page.py says what is on it, analytics/game_page.py
draws it): the board on a map of Europe after each turn, and the crown race, coins, army and
territories by round; and the page of a game whose ruleset has no page hook."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from typer.testing import CliRunner

from analytics.extract import extract_rows
from analytics.game_page import map_figure, page_game, player_colours, render_game_page
from analytics.page import BASE_MAPS
from engine.core.page import round_ends
from engine.core.ruleset import get_ruleset
from engine.risk_europe.board import default_data
from engine.risk_europe.page import board_frames, territory_coords
from ledger.cli import app
from replay.logfile import read_log, read_log_text
from replay.judge import judge
from tests.test_store_support import GAME42, game, text_of


@pytest.fixture(scope="module")
def j42():
    return judge(read_log(GAME42), views=True)


def test_every_territory_has_a_place_in_europe():
    coords = territory_coords()
    assert set(coords) == set(default_data().territories)
    for territory, (lat, lon) in coords.items():
        assert 30 <= lat <= 66 and -12 <= lon <= 36, territory
    assert len(set(coords.values())) == len(coords)     # no two on the same spot


def test_neighbours_on_the_board_are_near_each_other_on_the_map():
    coords = territory_coords()
    data = default_data()
    for a in data.territories:
        for b in data.land_neighbours[a]:
            (la, lo), (lb, lob) = coords[a], coords[b]
            assert abs(la - lb) + abs(lo - lob) < 16, (a, b)


def test_one_board_per_kingdom_turn_and_battle(j42):
    frames = board_frames(page_game(j42))
    # 4 kingdoms, 56 turns (7 rounds x 8), 6 battles
    assert len(frames) == 66
    assert frames[0].label == "Setup: blue places a kingdom at Berlin"
    assert frames[4].label == "Round 1, turn 1: blue reveals expand-maneuver-fortify-1 · expand"
    assert frames[-1].label == "Round 7: battle for Hungary"
    assert frames[-1].view == j42.steps[-1].view          # the board at the end of the log


def test_round_series_agree_with_the_stored_player_rounds(j42):
    series = round_ends(page_game(j42))
    assert list(series) == list(range(8))
    rows = extract_rows(read_log(GAME42)).frame("player_rounds")
    for r in rows.iter_rows(named=True):
        p = series[r["round"]]["players"][r["player"]]
        assert (p["crowns"], p["coins"], p["territories"]) == \
            (r["crowns"], r["coins"], r["territories"]), r


def test_render_the_page_of_game42(j42, tmp_path):
    report = render_game_page(j42, tmp_path / "game42.html")
    assert (report.frames, report.rounds) == (66, 7)
    page = (tmp_path / "game42.html").read_text(encoding="utf-8")
    assert "Game game42: blue wins (crowns) in round 7" in page
    assert re.findall(r'<div id="([a-z-]+)" class="plotly-graph-div', page) == [
        "board-map", "crown-race", "coins", "army", "territories"]
    # the map, offline: the world's base map, whose land has North Africa and Anatolia (#16)
    assert f'window.PlotlyGeoAssets.topojson["{BASE_MAPS["world"]}"]' in page
    assert page.index("PlotlyGeoAssets.topojson[") < page.index("window.Plotly = Plotly")
    assert "<script src=" not in page
    assert "The crown race (7 rounds; 7 crowns win)" in page


def test_a_game_that_is_not_over(tmp_path):
    j = judge(read_log_text(text_of(game("cut", 100)), "cut.jsonl"), views=True)
    report = render_game_page(j, tmp_path / "cut.html")
    assert report.rounds == 4
    assert "Game cut: not over" in (tmp_path / "cut.html").read_text(encoding="utf-8")


def test_a_judgement_without_boards_is_refused(tmp_path):
    with pytest.raises(ValueError, match="views=True"):
        render_game_page(judge(read_log(GAME42)), tmp_path / "x.html")
    early = judge(read_log_text(text_of(game("early", 3)), "early.jsonl"), views=True)
    with pytest.raises(ValueError, match="no kingdom was placed"):
        render_game_page(early, tmp_path / "y.html")


def test_player_colours():
    assert player_colours(["blue", "Red"]) == {"blue": "#1f6fd1", "Red": "#d62728"}
    named = player_colours(["ann", "bob", "blue"])
    assert named["blue"] == "#1f6fd1" and len(set(named.values())) == 3


def test_the_coordinates_file_says_where_they_come_from():
    from importlib import resources
    raw = json.loads(resources.files("engine.risk_europe").joinpath("data", "territory_coords.json")
                     .read_text("utf-8"))
    assert "chosen by hand" in raw["provenance"] and "approximate" in raw["provenance"].lower()


def test_the_map_writes_each_territorys_units_and_names_every_territory(j42):
    """#16: the unit counts are on the map, not only on hover, and every territory is named."""
    spec = get_ruleset("risk-europe").page(page_game(j42), None)
    fig = map_figure(spec, j42.players, player_colours(j42.players))
    marks = next(t for t in fig.data if t.name == "territories")
    names = next(t for t in fig.data if t.name == "names")
    board = j42.steps[-1].view["board"]
    units = {t: sum(board.get(t, {}).get("units", {}).values()) for t in default_data().territories}
    assert list(marks.text) == [str(n) if n else "" for n in units.values()]
    assert list(names.text) == list(default_data().territories)
    cities = [t for t in fig.data if t.name in ("city, gold crown", "city, black crown")
              and t.mode == "markers+text"]
    assert sum(len(t.lat) for t in cities) == len(default_data().cities) == 15
    assert any("Paris" in text for t in cities for text in t.text)


def test_a_corrected_board_whose_new_territory_has_no_position(tmp_path):
    """A territory the coordinates file does not place is named on the page and by the command,
    not a crash; the rest of the map is drawn."""
    board = json.loads(resources.files("engine.risk_europe").joinpath("data", "board.json")
                       .read_text("utf-8"))
    board["territories"].append({"name": "Atlantis", "city": None})
    board["edges"].append({"a": "Atlantis", "b": "Morocco", "kind": "sea", "sources": 1})
    (tmp_path / "board.json").write_text(json.dumps(board), "utf-8")
    out = tmp_path / "g42.html"
    result = CliRunner().invoke(app, ["replay", str(GAME42), "--board", str(tmp_path / "board.json"),
                                      "--html", str(out)], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "leaves out Atlantis (no map position" in result.output
    page = out.read_text("utf-8")
    assert "Not on the map (the map has no position for it): Atlantis." in page
    assert '"Saxony"' in page and '"Atlantis"' not in page

"""A data file's keys are checked, not only its values: a key that its shape does not have is a
problem naming the file, the place and the closest known key, so that a misspelt optional key (an
edge's "kidn", a border's "raod") is never read as that key left out. Risk Europe's loader stops
at the first problem; Warrior Knights' collects them all (tests/test_wk_data.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.core.data import DataShapeError, Shape
from engine.risk_europe.board import load_data

DATA = Path(__file__).resolve().parent.parent / "engine" / "risk_europe" / "data"
BOARD = json.loads((DATA / "board.json").read_text("utf-8"))
CARDS = json.loads((DATA / "kings_orders.json").read_text("utf-8"))


def test_unknown_keys_name_the_closest_known_one_or_list_them():
    s = Shape({"a": 1, "raod": True, "zz": 0}, "f.json", "borders[2]")
    found = s.unknown_keys(("a", "b", "road"))
    assert [(at.at, text) for at, text in found] == [
        ("borders[2].raod", "unknown key 'raod' (did you mean 'road'?)"),
        ("borders[2].zz", "unknown key 'zz' (the keys here: 'a', 'b', 'road')"),
    ]
    assert Shape([1, 2], "f.json").unknown_keys(("a",)) == []      # not an object: its reader says so
    with pytest.raises(DataShapeError, match=r"f.json: borders\[2\].raod: unknown key 'raod'"):
        s.only(("a", "b", "road"))
    assert Shape({"a": 1}, "f.json").only(("a", "b")).value == {"a": 1}


def _first_city(board: dict) -> dict:
    return next(t for t in board["territories"] if t.get("city"))["city"]


@pytest.mark.parametrize("change, expected", [
    (lambda b: b["edges"][0].update(kidn="sea"), r"edges\[0\].kidn: unknown key 'kidn' \(did you mean 'kind'\?\)"),
    (lambda b: b["edges"][0].update(kind="Sea"), r"edges\[0\].kind: expected one of 'land', 'sea', found 'Sea'"),
    (lambda b: _first_city(b).update(crown="Gold"), r"city.crown: expected one of 'gold', 'black', found 'Gold'"),
    (lambda b: _first_city(b).update(taxes=2), r"city.taxes: unknown key 'taxes' \(did you mean 'tax'\?\)"),
    (lambda b: b["territories"][0].update(capital=True), r"territories\[0\].capital: unknown key 'capital'"),
    (lambda b: b.update(edge=[]), r"edge: unknown key 'edge' \(did you mean 'edges'\?\)"),
])
def test_a_risk_europe_board_with_a_key_it_does_not_have_is_named(tmp_path, change, expected):
    bad = copy.deepcopy(BOARD)
    change(bad)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(bad), "utf-8")
    with pytest.raises(DataShapeError, match=f"{path}: .*{expected}"):
        load_data(path)


def test_a_risk_europe_card_file_with_a_key_it_does_not_have_is_named(tmp_path):
    bad = copy.deepcopy(CARDS)
    bad["cards"][2]["bonsu"] = "tax"
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(bad), "utf-8")
    with pytest.raises(DataShapeError, match=r"cards\[2\].bonsu: unknown key 'bonsu' \(did you mean 'bonus'\?\)"):
        load_data(cards_path=path)


def test_the_shipped_files_have_only_known_keys():
    data = load_data()
    assert len(data.territories) == len(BOARD["territories"]) and len(data.cards) == len(CARDS["cards"])


@pytest.mark.parametrize("change, expected", [
    (lambda b: b["borders"][0].update(sealine=True), r"borders\[0\].sealine: unknown key 'sealine' \(did you mean 'sea_line'\?\)"),
    (lambda b: b["borders"][0].update(sea_line="yes"), r"borders\[0\].sea_line: expected true or false, found 'yes'"),
    (lambda b: b["territories"][5].update(continet="asia"), r"territories\[5\].continet: unknown key 'continet' \(did you mean 'continent'\?\)"),
    (lambda b: b["continents"][0].update(bonsu=2), r"continents\[0\].bonsu: unknown key 'bonsu' \(did you mean 'bonus'\?\)"),
])
def test_a_risk_legacy_board_with_a_key_it_does_not_have_is_named(tmp_path, change, expected):
    from engine.risk_legacy.board import load_data as load_legacy
    board = json.loads((DATA.parent.parent / "risk_legacy" / "data" / "board.json").read_text("utf-8"))
    change(board)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board), "utf-8")
    with pytest.raises(DataShapeError, match=f"{path}: {expected}"):
        load_legacy(path)

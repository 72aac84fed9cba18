"""Warrior Knights data files (#14): the board and cards files a user supplies, checked with every
problem named by file, key and what; the invented example marked as such in every report;
`ledger data check`; observed mode when a card section is left out."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import get_ruleset
from engine.core.data import DataErrors, DataShapeError
from engine.warrior_knights.gamedata import check_data, data_notes, load_data
from ledger import exitcodes
from ledger.cli import app
from tests.wk_helpers import D

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "engine" / "warrior_knights" / "data"
BOARD = json.loads((DATA / "example_board.json").read_text("utf-8"))
CARDS = json.loads((DATA / "example_cards.json").read_text("utf-8"))
runner = CliRunner()


def write(tmp_path: Path, name: str, value) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def problems_of(kind: str, path: Path) -> list[str]:
    with pytest.raises(DataShapeError) as exc:
        check_data(kind, path)
    return list(exc.value.problems) if isinstance(exc.value, DataErrors) else [str(exc.value)]


def test_the_ruleset_is_found_by_name_and_names_its_data_files():
    rs = get_ruleset("warrior-knights")
    assert rs.title == "Warrior Knights"
    assert [o.key for o in rs.data_options] == ["board", "cards"]
    assert {o.schema for o in rs.data_options} == {"ledger.warrior_knights.board/1", "ledger.warrior_knights.cards/1"}


def test_the_shipped_example_is_valid_and_says_it_is_invented():
    assert check_data("board", DATA / "example_board.json").summary[1].startswith("18 Kingdom cities (of 18)")
    notes = data_notes(D)
    assert any("an invented example board, not the published board" in n for n in notes)
    assert any("invented example cards, not the published cards" in n for n in notes)
    assert BOARD["invented"] is True and "not the published board" in BOARD["note"]
    assert CARDS["invented"] is True and "not the published cards" in CARDS["note"]


def test_a_board_with_17_kingdom_cities_an_asymmetric_border_and_a_bad_crossing_is_named(tmp_path):
    bad = copy.deepcopy(BOARD)
    first = bad["borders"][0]
    bad["borders"].append({"a": first["b"], "b": first["a"], "crossing": "river", "road": False})
    bad["borders"][3]["crossing"] = "ford"
    next(a for a in bad["areas"] if a["city"] and a["city"]["id"] == "kelso")["city"] = None
    found = problems_of("board", write(tmp_path, "b.json", bad))
    text = "\n".join(found)
    assert "b.json: borders[3].crossing: expected one of 'open', 'river', 'bridge', 'mountain', found 'ford'" in text
    assert "b.json: borders[85]: asymmetric border: glenmark-ashmoor is river without a road here but open" in text
    assert "b.json: areas: the Kingdom has 18 cities; this board has 17" in text
    assert len(found) == 3


@pytest.mark.parametrize("change, expected", [
    (lambda b: b["borders"][0].update(b="atlantis"), "borders[0].b: unknown area 'atlantis'"),
    (lambda b: b["borders"].append(dict(b["borders"][0])), "is listed twice"),
    (lambda b: b["borders"][0].update(crossing="mountain", road=True), "a road crosses the mountain border"),
    (lambda b: b["areas"][40].update(port=False), "an overseas area is reached only by sea"),
    (lambda b: b["areas"][0].update(central=True), "this board marks 17"),
    (lambda b: b["mercenary_track"].pop(), "with 6 players the track must have 7 spots in play"),
    (lambda b: b["expeditions"][0].update(spots=2), "an expedition track has at least 3 spots"),
    (lambda b: b["areas"][0]["city"].update(strength=250), "a multiple of 100"),
    (lambda b: b.update(schema="something/else"), "expected 'ledger.warrior_knights.board/1'"),
    (lambda b: b["borders"].append({"a": "ashmoor", "b": "outremer", "crossing": "open"}), "overseas areas have no land borders"),
    # a misspelt optional key would read as the key left out (no road, not a port): named instead
    (lambda b: b["borders"][0].update(raod=True), "borders[0].raod: unknown key 'raod' (did you mean 'road'?)"),
    (lambda b: b["areas"][1].update(prot=True), "areas[1].prot: unknown key 'prot' (did you mean 'port'?)"),
    (lambda b: b["areas"][0]["city"].update(incmoe=2), "areas[0].city.incmoe: unknown key 'incmoe' (did you mean 'income'?)"),
    (lambda b: b["mercenary_track"][0].update(cost=8), "mercenary_track[0].cost: unknown key 'cost' (the keys here: 'spot', 'label', 'fee')"),
    (lambda b: b.update(border=[]), "border: unknown key 'border' (did you mean 'borders'?)"),
])
def test_each_board_problem_names_its_key(tmp_path, change, expected):
    bad = copy.deepcopy(BOARD)
    change(bad)
    found = problems_of("board", write(tmp_path, "b.json", bad))
    assert any(expected in p for p in found), found
    assert all(p.startswith(str(tmp_path / "b.json")) for p in found)


@pytest.mark.parametrize("change, expected", [
    (lambda c: c["barons"][0]["regulars"].pop(), "each Baron has 4 regular troops"),
    (lambda c: c["nobles"].pop(), "each Baron has 4 Nobles (Setup 1); white has 3"),
    (lambda c: c["action_cards"]["baron"][0].update(copies=3), "the base cards listed make 13"),
    (lambda c: c["fate"][0].update(battle="win"), "fate[0].battle: expected one of"),
    (lambda c: c["fate"][1].update(id="fate01"), "the Fate card id 'fate01' is used twice"),
    (lambda c: c["events"][0].update(color="purple"), "events[0].color"),
    (lambda c: c.update(extra=[]), "unknown section 'extra'"),
    (lambda c: c["mercenaries"][0].update(strength=75), "a positive multiple of 50"),
    # For Glory's Leaders and Heralds (New Mercenary Cards): the ability they grant, their deck
    (lambda c: c["mercenaries"][28].pop("ability"), "a Leader grants its Noble an ability: give the card's \"ability\""),
    (lambda c: c["mercenaries"][30].update(deck="base"), "a Herald is one of For Glory's New Mercenary Cards"),
    (lambda c: c["mercenaries"][0].update(ability="Sneaky"), "mercenaries[0].ability: only a Leader or a Herald"),
    (lambda c: c["mercenaries"][29].update(kind="captain"), "mercenaries[29].kind: expected one of"),
    # a misspelt optional key would read as the key left out: named instead, with the closest key
    (lambda c: c["mercenaries"][0].update(wages=1), "mercenaries[0].wages: unknown key 'wages' (did you mean 'wage'?)"),
    (lambda c: c["events"][0].update(colour="red"), "events[0].colour: unknown key 'colour' (did you mean 'color'?)"),
    (lambda c: c["agendas"][0].update(bars_attendence=True), "agendas[0].bars_attendence: unknown key 'bars_attendence' (did you mean 'bars_attendance'?)"),
    (lambda c: c["fate"][0].update(natonality="x"), "fate[0].natonality: unknown key 'natonality' (did you mean 'nationality'?)"),
    (lambda c: c["barons"][0]["regulars"][0].update(wgae=1), "barons[0].regulars[0].wgae: unknown key 'wgae' (did you mean 'wage'?)"),
    (lambda c: c["nobles"][0].update(abilty="x"), "nobles[0].abilty: unknown key 'abilty' (did you mean 'ability'?)"),
    (lambda c: c["action_cards"]["neutral"][0].update(area="hand"), "action_cards.neutral[0].area: unknown key 'area'"),
    (lambda c: c["crown_and_glory"]["missions"][0].update(txt="a"), "crown_and_glory.missions[0].txt: unknown key 'txt' (did you mean 'text'?)"),
    (lambda c: c["crown_and_glory"].update(garisson={}), "crown_and_glory.garisson: unknown key 'garisson' (did you mean 'garrison'?)"),
])
def test_each_cards_problem_names_its_key(tmp_path, change, expected):
    bad = copy.deepcopy(CARDS)
    change(bad)
    found = problems_of("cards", write(tmp_path, "c.json", bad))
    assert any(expected in p for p in found), found


def test_a_cards_file_with_a_city_the_board_does_not_have_is_refused_together(tmp_path):
    bad = copy.deepcopy(CARDS)
    bad["fate"][0]["city"] = "atlantis"
    path = write(tmp_path, "c.json", bad)
    check_data("cards", path)            # alone it is fine: it knows no board
    with pytest.raises(DataErrors) as exc:
        load_data(board=DATA / "example_board.json", cards=path)
    assert "fate[id=fate01]: city 'atlantis' is not a Kingdom city of the board" in str(exc.value)


def test_every_card_section_is_optional_and_a_missing_one_is_observed(tmp_path):
    path = write(tmp_path, "c.json", {"schema": "ledger.warrior_knights.cards/1", "fate": CARDS["fate"]})
    data = load_data(board=DATA / "example_board.json", cards=path)
    assert data.cards.fate is not None and data.cards.events is None
    assert "barons" in data.cards.observed and "fate" not in data.cards.observed
    assert any("observed mode for barons, nobles, action_cards, mercenaries, agendas, events" in n
               for n in data_notes(data))
    board_only = load_data(board=DATA / "example_board.json")
    assert board_only.cards.digest is None
    assert any(n.startswith("no cards file: observed mode") for n in data_notes(board_only))


# --- ledger data check ------------------------------------------------------------------------------------

def test_data_check_says_what_a_valid_file_holds():
    r = runner.invoke(app, ["data", "check", str(DATA / "example_board.json")])
    assert r.exit_code == 0, r.output
    assert "valid Warrior Knights board file" in r.output and "16 central (of 16)" in r.output
    assert "an invented example board, not the published board" in r.output


def test_data_check_of_a_bad_board_lists_every_problem_with_exit_7_and_no_traceback(tmp_path):
    bad = copy.deepcopy(BOARD)
    bad["borders"][3]["crossing"] = "ford"
    bad["borders"][4]["b"] = "nowhere"
    path = write(tmp_path, "board.json", bad)
    r = runner.invoke(app, ["data", "check", str(path)])
    assert r.exit_code == exitcodes.INVALID_DATA == 7
    assert "INVALID Warrior Knights board file: 2 problems" in r.output
    assert "borders[3].crossing" in r.output and "unknown area 'nowhere'" in r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    j = runner.invoke(app, ["data", "check", str(path), "--json"])
    report = json.loads(j.stdout)
    assert j.exit_code == 7 and report["valid"] is False and len(report["problems"]) == 2
    assert report["ruleset"] == "warrior-knights" and report["kind"] == "board"


def test_data_check_of_files_it_cannot_read_or_tell_exits_2(tmp_path):
    r = runner.invoke(app, ["data", "check", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "no such file" in r.output
    path = write(tmp_path, "x.json", {"hello": 1})
    r = runner.invoke(app, ["data", "check", str(path)])
    assert r.exit_code == 2 and "give --ruleset and --kind" in r.output
    notjson = tmp_path / "n.json"
    notjson.write_text("{not json", encoding="utf-8")
    r = runner.invoke(app, ["data", "check", str(notjson), "--ruleset", "warrior-knights", "--kind", "board"])
    assert r.exit_code == 7 and "not valid JSON" in r.output


def test_data_check_works_for_any_game_through_its_ruleset(tmp_path):
    shipped = ROOT / "engine" / "risk_europe" / "data" / "board.json"
    r = runner.invoke(app, ["data", "check", str(shipped), "--ruleset", "risk-europe", "--kind", "board"])
    assert r.exit_code == 0 and "valid Risk Europe board file" in r.output
    bad = json.loads(shipped.read_text("utf-8"))
    del bad["territories"][0]["name"]
    r = runner.invoke(app, ["data", "check", str(write(tmp_path, "re.json", bad)), "--ruleset", "risk-europe",
                            "--kind", "board"])
    assert r.exit_code == 7 and "territories[0]" in r.output


def test_data_check_of_two_files_checks_them_together(tmp_path):
    bad = copy.deepcopy(CARDS)
    bad["fate"][0]["city"] = "atlantis"
    r = runner.invoke(app, ["data", "check", str(DATA / "example_board.json"), str(write(tmp_path, "c.json", bad))])
    assert r.exit_code == 7 and "INVALID together" in r.output


def test_data_kinds_lists_every_games_files():
    r = runner.invoke(app, ["data", "kinds", "--json"])
    rows = json.loads(r.stdout)
    assert {"ruleset": "warrior-knights", "kind": "cards", "schema": "ledger.warrior_knights.cards/1"}.items() \
        <= next(x for x in rows if x["ruleset"] == "warrior-knights" and x["kind"] == "cards").items()


def test_a_game_judged_with_a_bad_board_is_a_message_not_a_traceback(tmp_path):
    from engine.warrior_knights.sim import play_game
    from replay.logfile import write_log
    log = tmp_path / "g.jsonl"
    write_log(log, play_game(1, "g", 2).envelopes)
    bad = copy.deepcopy(BOARD)
    bad["borders"][0]["crossing"] = "ford"
    r = runner.invoke(app, ["verify", str(log), "--board", str(write(tmp_path, "b.json", bad))])
    assert r.exit_code == 2 and "borders[0].crossing" in r.output and "Traceback" not in r.output

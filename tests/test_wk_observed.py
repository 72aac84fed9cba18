"""Observed mode, end to end (#14): a whole game whose every card is logged by its printed fields,
judged with a board and no cards file, comes to the same result with no finding, and every report
says that deck membership was not checked."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from typer.testing import CliRunner

from engine.warrior_knights.gamedata import default_data
from ledger.cli import app
from replay.judge import judge
from replay.logfile import read_log, seal, write_log

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_logs" / "warrior_knights" / "game-2p.jsonl"
BOARD = ROOT / "engine" / "warrior_knights" / "data" / "example_board.json"
CARDS = default_data().cards

FATE_KEYS = ("baron", "revolt", "noble", "battle", "expeditions", "city", "nationality")


def fate(card_id: str) -> dict:
    f = CARDS.fate[card_id]
    return {k: getattr(f, k) if k != "expeditions" else dict(f.expeditions) for k in FATE_KEYS}


def merc(card_id: str) -> dict:
    m = CARDS.mercenaries[card_id]
    return {"id": m.id, "nationality": m.nationality, "strength": m.strength, "wage": m.wage}


def agenda(card_id: str) -> dict:
    a = CARDS.agendas[card_id]
    return {"id": a.id, "title": a.title, "kind": a.kind, "vote": a.vote, "income": a.income,
            "maintained_troops": a.maintained_troops, "bars_attendance": a.bars_attendance, "text": a.text}


def event(card_id: str) -> dict:
    e = CARDS.events[card_id]
    return {"id": e.id, "title": e.title, "color": e.color, "cancel_faith": e.cancel_faith,
            "needs_fate_target": e.needs_fate_target, "text": e.text}


def observed(envs: list[dict]) -> list[dict]:
    """The game as a table without a cards file records it: printed fields for every card."""
    out = copy.deepcopy(envs)
    start = out[0]["payload"]
    colours = [p.get("color") or p["id"] for p in start["players"]]
    start["data"] = {"board": start["data"]["board"], "cards": None}
    start["barons"] = {c: {"stronghold_strength": CARDS.barons[c].stronghold_strength,
                           "regulars": [list(r) for r in CARDS.barons[c].regulars]} for c in colours}
    start["nobles"] = {c: {shape: CARDS.nobles[(c, shape)].ability for shape in ("star", "square", "triangle", "circle")}
                       for c in colours}
    for e in out[1:]:
        p, t = e["payload"], e["type"]
        if t == "TroopsDealt":
            p["mercenaries"] = {q: [merc(m) for m in ms] for q, ms in p["mercenaries"].items()}
        elif t in ("MarketRevealed",):
            p["mercenaries"] = [merc(m) for m in p["mercenaries"]]
            p["agendas"] = [agenda(a) for a in p["agendas"]]
        elif t == "MercenariesRevealed":
            p["cards"] = [merc(m) for m in p["cards"]]
        elif t == "AgendasRevealed":
            p["cards"] = [agenda(a) for a in p["cards"]]
        elif t in ("CitiesRazed", "FateDrawn", "ExpeditionFateDrawn", "PrivateMotionDrawn"):
            p["cards"] = [fate(f) for f in p["cards"]]
        elif t == "OfficesChosen":
            p["chairman"] = [fate(f) for f in p["chairman"]]
            p["head_of_church"] = [fate(f) for f in p["head_of_church"]]
        elif t in ("DesertersDrawn", "RevoltDrawn"):
            p["card"] = fate(p["card"])
        elif t == "EventCardDrawn":
            p["card"] = event(p["card"])
        elif t == "CardRevealed" and p["owner"] is not None:
            area = CARDS.baron_actions[p["card"]].area
            p["area"] = dict(area) if isinstance(area, dict) else area
    return seal(out)


def test_a_game_logged_by_printed_fields_is_judged_the_same_without_a_cards_file(tmp_path):
    path = tmp_path / "observed.jsonl"
    write_log(path, observed([json.loads(x) for x in SAMPLE.read_text("utf-8").splitlines()]))
    from engine.warrior_knights.gamedata import load_data
    j = judge(read_log(path), data=load_data(board=BOARD))
    original = judge(read_log(SAMPLE))
    assert [f.format() for f in j.findings] == []
    assert j.result.winners == original.result.winners and j.result.round == original.result.round
    assert j.data_digest.endswith("cards:none")
    assert any("observed mode for barons, nobles, action_cards, mercenaries, fate, agendas, events" in n
               for n in j.data_notes)
    r = CliRunner().invoke(app, ["verify", str(path), "--board", str(BOARD)])
    assert r.exit_code == 0, r.output
    assert "deck membership not checked" in r.output


def test_a_printed_card_missing_a_field_the_rules_need_is_named(tmp_path):
    envs = observed([json.loads(x) for x in SAMPLE.read_text("utf-8").splitlines()])
    first = next(e for e in envs if e["type"] == "CitiesRazed")
    del first["payload"]["cards"][0]["city"]
    path = tmp_path / "o.jsonl"
    write_log(path, seal(envs))
    from engine.warrior_knights.gamedata import load_data
    j = judge(read_log(path), data=load_data(board=BOARD))
    assert j.findings[0].rule == "WK-CARD" and "names its city" in j.findings[0].message

"""`ledger serve` with the Crown & Glory variants of Warrior Knights: for each variant (and all
three together) one 2-player game is played through HTTP on the real server by seat clients
whose bots choose from their own legal moves, the server drawing every card (the Advancements,
the Town Levies that raze cities, the Missions, the Events...) from the committed seed. The game
ends, the seed is revealed, every event folds with no finding at all, and every card drawn is
the one the revealed seed gives (rule WK-SEED). One game per variant is shared by the assertions
(module-scoped fixture)."""

from __future__ import annotations


import pytest

from engine.core.dice import DiceTape
from engine.core.ruleset import get_ruleset
from engine.warrior_knights import live as L
from ledger.service import create_app
from tests.service_support import export_of, fold_stored, play_live, served

PLAYERS = ["ann", "bob"]
RS = get_ruleset("warrior-knights")
VARIANTS = ("for_glory", "missions", "king", "all")
# What each variant's game must show was served (a drawn card or a decision of its own).
SHOWN = {"for_glory": {"AdvancementsRevealed", "MindEnriched", "AdvancementBought", "MarchForced"},
         "missions": {"MissionDealt", "MissionRevealed"},
         "king": {"KingsArmyAssigned"},
         "all": {"AdvancementsRevealed", "MissionDealt", "MissionRevealed"}}


def claim(result: dict) -> dict:
    winners = result["winners"]
    return {"winner": winners[0] if winners else None, "reason": result["reason"]}


def _fold(lines: list[str]):
    """Every (state before, envelope, findings) of a stored game."""
    return fold_stored(RS, lines)


@pytest.fixture(scope="module", params=VARIANTS)
def played(request, tmp_path_factory):
    """(variant, seed, the log the seats read, the stored lines, the export) of one served game."""
    variant = request.param
    seed = f"wk-glory-{variant}"
    tmp = tmp_path_factory.mktemp(f"wk-{variant}")
    db = tmp / "live.duckdb"
    app = create_app(db, seed_for=lambda _g: seed, poll_seconds=0.02)
    gid = f"wk-{variant.replace('_', '-')}"
    try:
        with served(app) as http:
            r = http.post("/games", json={"ruleset": "warrior-knights", "players": PLAYERS, "game_id": gid,
                                          "options": {"variants": variant}})
            assert r.status_code == 201, r.text
            seats = play_live(http, r.json(), claim, seed=seed)
            lines = app.state.store.events(gid)
    finally:
        app.state.store.close()
    return variant, seed, seats["ann"].log, lines, export_of(tmp, db, gid)


def test_a_crown_and_glory_game_is_played_to_its_end_on_the_real_server(played):
    variant, seed, seen, _lines, exported = played
    want = list(L.variants_of({"variants": variant}))
    assert seen[0]["type"] == "GameStarted" and seen[0]["payload"]["variants"] == want
    assert seen[-2]["type"] == "GameEnded" and seen[-2]["payload"]["winner"] in PLAYERS
    assert seen[-1]["type"] == "SeedRevealed" and seen[-1]["payload"] == {"seed": seed}
    assert exported == seen                                      # `ledger verify` passed, too
    types = {e["type"] for e in seen}
    assert SHOWN[variant] <= types, SHOWN[variant] - types
    if variant == "for_glory":                                   # a Garrison hired, a Town Levy recruited
        extras = [e["payload"] for e in seen if e["type"] in ("DefensesUpgraded", "TroopsMustered")]
        assert any("garrison" in p for p in extras) and any(p.get("levies") for p in extras)


def test_every_event_of_a_served_crown_and_glory_game_folds_with_no_finding(played):
    _variant, _seed, _seen, lines, _ = played
    final, steps = _fold(lines)
    assert final.result is not None
    assert [(e["seq"], e["type"], [v.rule for v in p]) for _, e, p in steps if p] == []


def test_every_card_drawn_for_crown_and_glory_is_the_one_the_seed_gives(played):
    variant, seed, _seen, lines, _ = played
    tape = DiceTape(seed)
    drawn = [(s, e) for s, e, _ in _fold(lines)[1] if e["type"] in L.CHANCE_TYPES]
    assert len(drawn) > 20
    for s, e in drawn:
        assert L.chance(s, tape) == (e["type"], e["actor"], e["payload"]), e["seq"]
    kinds = {e["type"] for _, e in drawn}
    if variant in ("for_glory", "all"):
        assert "AdvancementsRevealed" in kinds
    if variant in ("missions", "all"):
        assert "MissionDealt" in kinds


def test_an_unknown_variant_is_refused_with_422(tmp_path):
    from fastapi.testclient import TestClient
    app = create_app(tmp_path / "svc.duckdb", seed_for=lambda _g: "x")
    try:
        client = TestClient(app)
        r = client.post("/games", json={"ruleset": "warrior-knights", "players": PLAYERS, "game_id": "wk-bad",
                                        "options": {"variants": "for_glory,glory"}})
        assert r.status_code == 422, r.text
        assert "glory" in r.text and "for_glory, missions, king" in r.text
    finally:
        app.state.store.close()

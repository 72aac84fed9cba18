"""`ledger serve` with Risk Legacy (issue #12, Done-when): a whole game played through HTTP on
the real server by seat clients whose bots choose from their own legal moves, a spectator
following the stream; the stored game verifies and its export is the log the clients saw. And
no route shows a player's Scar card to another seat or a spectator before it is played."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from engine.core import views as V
from engine.core.events import Event
from engine.core.ruleset import get_ruleset
from engine.risk_legacy import world as W
from engine.risk_legacy.board import default_data
from engine.risk_legacy.sim import random_world
from ledger.service import create_app
from tests.service_support import Spectator, auth, export_of, play_live, served
from tests.test_views import in_payload, in_view

PLAYERS = ["ann", "bob", "cat", "dan"]
SEED = "legacy-live-7"


def world_option(seed: int = 7) -> str:
    """A box customized before the first game (faction powers, coin stickers), as JSON."""
    return json.dumps(W.world_to_dict(random_world(default_data(), random.Random(seed))))


def claim(result: dict) -> dict:
    """The organizer's GameEnded: the winner the rules give."""
    winners = result["winners"]
    return {"winner": winners[0] if winners else None, "reason": result["reason"]}


def new_game(client, game_id: str) -> dict:
    r = client.post("/games", json={"ruleset": "risk-legacy", "players": PLAYERS, "game_id": game_id,
                                    "options": {"world": world_option()}})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_whole_risk_legacy_game_is_played_on_the_real_server_and_verifies(tmp_path):
    db = tmp_path / "live.duckdb"
    app = create_app(db, seed_for=lambda _g: SEED, poll_seconds=0.02)
    try:
        with served(app) as http:
            created = new_game(http, "rl-live")
            assert created["dice"]["mode"] == "seeded"
            spectator = Spectator(http.base, "rl-live", drop_after=25)
            spectator.start()
            seats = play_live(http, created, claim, seed=SEED)
            spectator.join(60)
            assert not spectator.is_alive() and spectator.reconnects == 1
            public = http.get("/games/rl-live/events").json()
    finally:
        app.state.store.close()
    seen = seats["ann"].log
    assert all(c.log == seen for c in seats.values())          # once over, every seat reads it all
    assert all(c.posted > 0 for c in seats.values())
    types = {e["type"] for e in seen}
    assert {"ScarCardsDealt", "FactionChosen", "AttackDeclared", "DefenceDeclared", "DiceRolled",
            "CasualtiesRemoved", "TurnEnded", "GameEnded", "SeedRevealed"} <= types
    assert seen[-2]["type"] == "GameEnded" and seen[-2]["payload"]["winner"] in PLAYERS
    assert public["events"] == seen and public["over"]           # the spectator's read once over
    streamed = spectator.events                                  # each event as it was when sent
    assert [e["seq"] for e in streamed] == list(range(len(seen)))
    for e, final in zip(streamed, seen):
        assert e == final or (e["hash"] is None and (e["type"], e["actor"]) == (final["type"], final["actor"]))
    assert streamed[1]["payload"]["dice"] == V.HIDDEN and streamed[-1] == seen[-1]
    assert export_of(tmp_path, db, "rl-live") == seen


def _referee(client, gid):
    """The full state of the game the app serves, folded from the store (the test's referee)."""
    rs = get_ruleset("risk-legacy")
    s = None
    for line in client.app.state.store.events(gid):
        e = json.loads(line)
        p = rs.payload_models[e["type"]].model_validate(e["payload"])
        if s is None:
            s = rs.initial_state(p, rs.default_data())
            continue
        _, nxt = rs.step(s, Event(e["seq"], e["type"], e["actor"], p))
        s = s if nxt is None else nxt
    return s


def _no_leak(client, created) -> int:
    """Every route, as each seat and a spectator: no Scar card of another seat. The checks made."""
    gid = created["game"]
    rs = get_ruleset("risk-legacy")
    secrets = V.secrets_of(rs, _referee(client, gid))
    checked = 0
    for seat in [None, *PLAYERS]:
        h = {} if seat is None else auth(created["seats"][seat])
        state = client.get(f"/games/{gid}/state", headers=h).json()
        events = client.get(f"/games/{gid}/events", headers=h).json()["events"]
        moves = client.get(f"/games/{gid}/legal", headers=h).json()["moves"]
        for x in secrets:
            mine = x.owner == seat
            assert in_view(state["view"], x) == mine, (seat, x)
            assert any(in_payload(e["payload"], e["actor"], x) for e in events) == mine, (seat, x)
            assert not any(in_payload(m["payload"], m["actor"], x) for m in moves if not mine), (seat, x)
            if not mine:
                assert state["digest"] is None and events[-1]["hash"] is None
            checked += 1
    return checked


def test_no_route_shows_a_scar_card_to_another_seat_or_a_spectator(tmp_path):
    client = TestClient(create_app(tmp_path / "svc.duckdb", seed_for=lambda _g: SEED))
    created = new_game(client, "rl-leak")
    deal = client.get("/games/rl-leak/events", headers=auth(created["seats"]["ann"])).json()["events"][1]
    assert deal["type"] == "ScarCardsDealt" and deal["payload"]["dice"] == V.HIDDEN
    assert deal["payload"]["cards"]["ann"] != V.HIDDEN and deal["payload"]["cards"]["bob"] == V.HIDDEN
    assert _no_leak(client, created) == 4 * 5
    checked = []

    def watch(state):           # at each of the first attacks (the Scar window is open)
        if state["view"]["combat"] and len(checked) < 6:
            checked.append(_no_leak(client, created))
    play_live(client, created, claim, seed=SEED, watch=watch)
    assert checked and all(n > 0 for n in checked)
    assert V.secrets_of(get_ruleset("risk-legacy"), _referee(client, "rl-leak")) == ()   # over: all public

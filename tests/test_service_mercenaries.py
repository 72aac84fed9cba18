"""`ledger serve` with Mercenary Armies (2- and 3-player Risk Europe): the server flips the top
card of a Mercenary deck when the turn before it ends, as its `chance` hook rolls dice, from the
game's seed; no seat flips it, and no one can before that turn ends."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engine.risk_europe.sim import armies_for, simulate_game
from ledger.service import create_app
from tests.service_support import auth, post, replay


def _served(tmp_path, log: list[dict], variant: str):
    seed = log[-1]["payload"]["seed"]
    client = TestClient(create_app(tmp_path / "svc.duckdb", seed_for=lambda _g: seed))
    players, _ = armies_for(variant)
    r = client.post("/games", json={"ruleset": "risk-europe", "players": list(players),
                                    "variant": variant, "game_id": log[0]["game"]})
    assert r.status_code == 201, r.text
    return client, r.json()


def _is_flip(e: dict, mercs) -> bool:
    return e["type"] == "CardRevealed" and e["actor"] in mercs


@pytest.mark.parametrize("variant", ["mercenaries-3p", "mercenaries-2p"])
def test_the_server_flips_a_mercenary_card_once_the_turn_before_it_ends(tmp_path, variant):
    log = simulate_game(4, f"svc-{variant}", variant, live=True)
    _, mercs = armies_for(variant)
    client, created = _served(tmp_path, log, variant)
    gid, seats = created["game"], created["seats"]
    first = next(e["seq"] for e in log if _is_flip(e, mercs))
    ended = log[first - 1]
    assert ended["type"] == "TurnEnded"
    army = log[first]["actor"]
    replay(client, created, log, upto=first - 1)
    boss = client.get(f"/games/{gid}/state").json()["view"]["players"][army]["controller"]
    r = client.post(f"/games/{gid}/events", headers=auth(seats[boss]),
                    json={"expected_seq": first - 1, "type": "CardRevealed", "actor": army, "payload": {}})
    assert r.status_code == 403 and r.json()["code"] == "not-your-turn", r.text
    who = seats.get(ended["actor"]) or seats[boss]
    out = post(client, gid, who, first - 1, "TurnEnded", ended["actor"], {})
    assert out["head"]["next_seq"] == first + 1                # the server's flip came with it
    stored = client.get(f"/games/{gid}/events?since={first}").json()["events"][0]
    assert stored == log[first] and stored["payload"]["dice"]  # drawn with the seed's dice
    assert client.get(f"/games/{gid}/state").json()["actors"] == [army]


def test_a_three_player_game_with_its_mercenary_is_played_through_the_app(tmp_path):
    variant = "mercenaries-3p"
    log = simulate_game(4, f"svc-{variant}", variant, live=True)
    _, mercs = armies_for(variant)
    client, created = _served(tmp_path, log, variant)
    posted = replay(client, created, log)
    flips = [e["seq"] for e in log if _is_flip(e, mercs)]
    assert len(flips) > 10 and not set(flips) & set(posted)   # every flip is the server's
    assert all(log[f - 1]["type"] == "TurnEnded" for f in flips)
    seen = client.get(f"/games/{created['game']}/events", headers=auth(created["seats"]["blue"])).json()
    assert seen["over"] and seen["events"] == log

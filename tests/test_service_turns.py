"""`ledger serve` waits for the decision the rules wait for (RULESET.actors): a bid or a card
committed as a hash is revealed by its seat, the next seat cannot cut a turn short (the turn is
its player's until TurnEnded), and a castle's defender decides on the re-roll before the attacker
removes anything. Each test failed before the `actors` hook (reveals got 403; the next reveal,
or the attacker's casualties, were taken)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engine.risk_europe.sim import simulate_game
from ledger.service import create_app
from tests.service_support import auth, post, replay


def _served(tmp_path, log: list[dict]):
    seed = log[-1]["payload"]["seed"]
    client = TestClient(create_app(tmp_path / "svc.duckdb", seed_for=lambda _g: seed))
    r = client.post("/games", json={"ruleset": "risk-europe", "players": ["blue", "orange", "red", "green"],
                                    "game_id": log[0]["game"]})
    assert r.status_code == 201, r.text
    return client, r.json()


@pytest.fixture(scope="module")
def committed_log() -> list[dict]:
    """A bot game as digital play logs it: bids and cards as commitments, revealed with salts."""
    return simulate_game(3, "svc-3", live=True)


def test_a_game_of_commitments_is_played_through_the_app_reveals_and_all(tmp_path, committed_log):
    log = committed_log
    assert any(e["type"] == "BidRevealed" for e in log) and any("salt" in e["payload"] for e in log)
    client, created = _served(tmp_path, log)
    replay(client, created, log)
    seen = client.get(f"/games/{created['game']}/events", headers=auth(created["seats"]["blue"])).json()
    assert seen["over"] and seen["events"] == log


def test_a_bid_is_revealed_once_every_bid_is_in(tmp_path, committed_log):
    log = committed_log
    client, created = _served(tmp_path, log)
    gid, seats = created["game"], created["seats"]
    placed = [e for e in log if e["type"] == "BidPlaced"][:4]
    reveal = next(e for e in log if e["type"] == "BidRevealed")
    replay(client, created, log, upto=placed[0]["seq"] + 1)
    post(client, gid, seats[reveal["actor"]], 2, "BidRevealed", reveal["actor"], reveal["payload"], status=403)
    replay(client, created, log, upto=placed[-1]["seq"] + 1)
    state = client.get(f"/games/{gid}/state").json()
    assert sorted(state["actors"]) == sorted(seats)          # every commitment waits for its reveal
    moves = client.get(f"/games/{gid}/legal", headers=auth(seats[reveal["actor"]])).json()["moves"]
    assert moves == []                                        # the server does not know the salt
    post(client, gid, seats[reveal["actor"]], reveal["seq"], "BidRevealed", reveal["actor"], reveal["payload"])


def test_the_next_seat_cannot_cut_a_turn_short(tmp_path, committed_log):
    log = committed_log
    client, created = _served(tmp_path, log)
    gid, seats = created["game"], created["seats"]
    k = next(i for i, e in enumerate(log) if e["type"] == "TurnEnded")
    ended, reveal = log[k], log[k + 1]
    assert reveal["type"] == "CardRevealed" and reveal["actor"] != ended["actor"]
    replay(client, created, log, upto=k)
    r = client.post(f"/games/{gid}/events", headers=auth(seats[reveal["actor"]]),
                    json={"expected_seq": k, **{x: reveal[x] for x in ("type", "actor", "payload")}})
    assert r.status_code == 403 and r.json()["code"] == "not-your-turn", r.text
    assert client.get(f"/games/{gid}/state").json()["actors"] == [ended["actor"]]
    assert client.get(f"/games/{gid}/legal", headers=auth(seats[reveal["actor"]])).json()["moves"] == []
    mine = client.get(f"/games/{gid}/legal", headers=auth(seats[ended["actor"]])).json()["moves"]
    assert {"actor": ended["actor"], "type": "TurnEnded", "payload": {}} in mine
    post(client, gid, seats[ended["actor"]], k, "TurnEnded", ended["actor"], {})
    assert client.get(f"/games/{gid}/state").json()["actors"] == [reveal["actor"]]
    post(client, gid, seats[reveal["actor"]], k + 1, "CardRevealed", reveal["actor"], reveal["payload"])


def test_the_castle_defender_decides_on_the_re_roll_before_the_attacker_removes_units(tmp_path):
    log = simulate_game(22, "svc-22", live=True)
    k = next(i for i, e in enumerate(log) if e["type"] == "RerollDeclined"
             and log[i + 1]["type"] == "CasualtiesRemoved" and log[i + 1]["actor"] != e["actor"])
    declined, casualties = log[k], log[k + 1]
    client, created = _served(tmp_path, log)
    gid, seats = created["game"], created["seats"]
    replay(client, created, log, upto=k)
    assert client.get(f"/games/{gid}/state").json()["actors"] == [declined["actor"]]
    post(client, gid, seats[casualties["actor"]], k, casualties["type"], casualties["actor"],
         casualties["payload"], status=403)
    kinds = {m["type"] for m in client.get(f"/games/{gid}/legal", headers=auth(seats[declined["actor"]])).json()["moves"]}
    assert {"DiceRerolled", "RerollDeclined"} <= kinds
    post(client, gid, seats[declined["actor"]], k, "RerollDeclined", declined["actor"], declined["payload"])
    post(client, gid, seats[casualties["actor"]], k + 1, casualties["type"], casualties["actor"], casualties["payload"])

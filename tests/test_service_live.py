"""Bots that play live (issue #12): seat clients choose every move from their own
`GET /games/{id}/legal` with the simulator's bots' policy (the ruleset's `bot` hook), reading the
game from the log as their seat reads it; nothing is replayed from a pre-simulated log. A whole
Risk Europe game on the real server with a spectator following, and the first twelve rounds of
a 2-player game with its two Mercenary Armies, each played by the seat that won its bid."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ledger.service import create_app
from tests.service_support import Spectator, export_of, play_live, served


def claim(result: dict) -> dict:
    """The organizer's GameEnded: the winner (or the shared win) the rules give."""
    winners = result["winners"]
    return {"winners": winners} if len(winners) > 1 else {"winner": winners[0] if winners else None}


def test_a_whole_risk_europe_game_chosen_live_on_the_real_server_verifies(tmp_path):
    db = tmp_path / "live.duckdb"
    app = create_app(db, seed_for=lambda g: f"seed-{g}", poll_seconds=0.02)
    try:
        with served(app) as http:
            r = http.post("/games", json={"ruleset": "risk-europe", "game_id": "re-live",
                                          "players": ["blue", "orange", "red", "green"]})
            assert r.status_code == 201, r.text
            created = r.json()
            spectator = Spectator(http.base, "re-live")
            spectator.start()
            seats = play_live(http, created, claim, seed="re-live")
            spectator.join(60)
            assert not spectator.is_alive() and spectator.reconnects == 1
    finally:
        app.state.store.close()
    seen = seats["blue"].log
    assert all(c.log == seen for c in seats.values()) and all(c.posted for c in seats.values())
    types = [e["type"] for e in seen]
    assert {"BidPlaced", "KingdomPlaced", "CardsCommitted", "CardRevealed", "TurnEnded"} <= set(types)
    assert types[-2:] == ["GameEnded", "SeedRevealed"]
    streamed = spectator.events
    assert [e["seq"] for e in streamed] == list(range(len(seen))) and streamed[-1] == seen[-1]
    assert all(e == f or e["hash"] is None for e, f in zip(streamed, seen))
    assert export_of(tmp_path, db, "re-live") == seen


ROUNDS = 12


def test_the_mercenary_armies_of_a_two_player_game_are_played_live_by_their_controllers(tmp_path):
    client = TestClient(create_app(tmp_path / "m2.duckdb", seed_for=lambda g: f"seed-{g}"))
    r = client.post("/games", json={"ruleset": "risk-europe", "game_id": "m2-live", "players": ["blue", "orange"],
                                    "variant": "mercenaries-2p"})
    assert r.status_code == 201, r.text
    created = r.json()
    # the first ROUNDS rounds (about 530 events, 15-20 s here): the whole game (34 rounds, 1,496
    # events) plays at the same rate, 45-55 s, too long for the suite (bench_serve --long times it)
    seats = play_live(client, created, claim, seed="m2-live",
                      until=lambda state: state["view"]["round"] > ROUNDS)
    seen = seats["blue"].log
    assert seats["orange"].log == seen and len(seen) > 400
    mercs = {"red", "green"}
    flips = [e for e in seen if e["type"] == "CardRevealed" and e["actor"] in mercs]
    played = [e for e in seen if e["actor"] in mercs and e["type"] != "CardRevealed"]
    kinds = {e["type"] for e in seen}
    assert {"TilesDrawn", "MercenaryBidsOrdered", "TurnEnded"} <= kinds
    assert len(flips) == 2 * 2 * ROUNDS and all("dice" in e["payload"] for e in flips)  # the server's, with dice
    assert any(e["type"] == "TurnEnded" for e in played)            # their turns, ended by their controllers
    decisions = [e for e in seen if e["actor"] is not None and e not in flips]
    assert seats["blue"].posted + seats["orange"].posted == len(decisions)

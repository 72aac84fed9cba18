"""`ledger serve` (issue #12, phase 1): games and seats, appends judged on the way in, the
server's dice, every read as one seat or a spectator may see it, errors, races, and a whole
Risk Europe game played through HTTP against the real server."""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engine.core import views as V
from engine.core.ruleset import get_ruleset
from ledger.cli import app as cli
from ledger.service import create_app
from ledger.store import open_store
from tests.test_views import open_europe

SIM_SEED, SIM_GAME = 3, "svc-3"


@pytest.fixture(scope="module")
def sim_log() -> list[dict]:
    """A bot game with its secrets in clear (bids as amounts, cards as ids): what seat clients
    that trust the server with their secrets send."""
    from engine.risk_europe.sim import simulate_game
    return open_europe(simulate_game(SIM_SEED, SIM_GAME))


def _seed_of(log):
    return log[-1]["payload"]["seed"]


def make_client(tmp_path, log=None):
    seed = _seed_of(log) if log else None
    app = create_app(tmp_path / "svc.duckdb", seed_for=(lambda _g: seed) if seed else None)
    return TestClient(app)


def new_game(client, **over):
    body = {"ruleset": "risk-europe", "players": ["blue", "orange", "red", "green"],
            "game_id": SIM_GAME, **over}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def play_log(client, created, log, *, check_legal_every=0) -> list[dict]:
    """Post every decision of `log` with its seat's token (the organizer's for claims), asking
    the server for the dice (empty payloads) where the log rolls; the events the server stored
    are checked against the log one by one. The seat clients' log as read at the end."""
    seats, org = created["seats"], created["organizer"]
    rs = get_ruleset("risk-europe")
    for i, e in enumerate(log[1:], start=1):
        head = client.get(f"/games/{SIM_GAME}/state").json()["next_seq"]
        if head > i:
            continue                       # the server made it (dice no one decides, the seed)
        if e["type"] == rs.seed_event:
            continue
        chance = e["type"] in ("DiceRolled", "TilesDrawn") or (
            e["type"] == "CardRevealed" and "dice" in e["payload"])
        payload = {} if chance else {k: v for k, v in e["payload"].items()
                                     if not (e["type"] == "DiceRerolled" and k == "rolls")}
        who = seats[e["actor"]] if e["actor"] in seats and not chance else org
        if check_legal_every and e["actor"] in seats and i % check_legal_every == 0 and not chance:
            moves = client.get(f"/games/{SIM_GAME}/legal", headers=auth(who)).json()["moves"]
            assert all(m["actor"] == e["actor"] for m in moves)
        r = client.post(f"/games/{SIM_GAME}/events", headers=auth(who),
                        json={"expected_seq": i, "type": e["type"], "actor": e["actor"],
                              "payload": payload})
        assert r.status_code == 200, (i, e, r.text)
        assert r.json()["findings"] == []
    out = client.get(f"/games/{SIM_GAME}/events", headers=auth(seats["blue"])).json()
    assert out["over"]
    return out["events"]


def test_a_whole_game_through_the_app_equals_the_bots_log(tmp_path, sim_log):
    client = make_client(tmp_path, sim_log)
    created = new_game(client)
    assert created["dice"]["seed_hash"] == sim_log[0]["payload"]["dice"]["seed_hash"]
    seen = play_log(client, created, sim_log, check_legal_every=7)
    assert seen == sim_log


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _HttpClient:
    """httpx against the real server, with TestClient's calling convention."""

    def __init__(self, base: str):
        self.c = httpx.Client(base_url=base, timeout=30)

    def get(self, url, **kw):
        return self.c.get(url, **kw)

    def post(self, url, **kw):
        return self.c.post(url, **kw)


def test_the_real_server_plays_a_whole_game_a_spectator_follows_and_it_verifies(tmp_path, sim_log):
    import uvicorn
    db = tmp_path / "live.duckdb"
    seed = _seed_of(sim_log)
    app = create_app(db, seed_for=lambda _g: seed, poll_seconds=0.02)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    client = _HttpClient(base)
    try:
        created = new_game(client)
        streamed: list[dict] = []

        def spectate():
            last = None
            while True:             # reconnects resume with Last-Event-ID
                headers = {} if last is None else {"Last-Event-ID": str(last)}
                with httpx.stream("GET", f"{base}/games/{SIM_GAME}/stream", headers=headers,
                                  timeout=60) as r:
                    kind = None
                    for line in r.iter_lines():
                        if line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: ") and kind == "event":
                            streamed.append(json.loads(line[6:]))
                            last = streamed[-1]["seq"]
                            if len(streamed) == 40:
                                break       # drop the connection once, resume after it
                        elif line.startswith("data: ") and kind == "end":
                            return
        spectator = threading.Thread(target=spectate, daemon=True)
        spectator.start()
        seen = play_log(client, created, sim_log)
        spectator.join(30)
        assert not spectator.is_alive()
        assert [e["seq"] for e in streamed] == list(range(len(sim_log)))
        assert streamed[-1] == sim_log[-1]
        public = client.get(f"/games/{SIM_GAME}/events").json()["events"]
        assert public == seen == sim_log
    finally:
        server.should_exit = True
        thread.join(10)
        app.state.store.close()
    runner = CliRunner()
    r = runner.invoke(cli, ["verify", SIM_GAME, "--db", str(db)])
    assert r.exit_code == 0, r.output
    out = tmp_path / "export.jsonl"
    r = runner.invoke(cli, ["export", SIM_GAME, "--db", str(db), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert [json.loads(line) for line in out.read_text().splitlines()] == seen

"""`ledger serve` (issue #12, phase 1): games and seats, appends judged on the way in, the
server's dice, every read as one seat or a spectator may see it, errors, races, and a whole
Risk Europe game played through HTTP against the real server."""

from __future__ import annotations

import json
import threading

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engine.core import views as V
from engine.core.ruleset import get_ruleset
from ledger.cli import app as cli
from ledger.service import create_app
from ledger.store import open_store
from tests.service_support import Spectator, auth, fold_stored, served
from tests.test_views import open_europe

SIM_SEED, SIM_GAME = 3, "svc-3"


@pytest.fixture(scope="module")
def sim_log() -> list[dict]:
    """A bot game with its secrets in clear (bids as amounts, cards as ids): what seat clients
    that trust the server with their secrets send; logged as a live table does (each turn
    ended by its player: the game waits for them until then)."""
    from engine.risk_europe.sim import simulate_game
    return open_europe(simulate_game(SIM_SEED, SIM_GAME, live=True))


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


class PlayedGame:
    """The module's one game played through the real server (see `played`)."""


@pytest.fixture(scope="module")
def played(tmp_path_factory, sim_log) -> PlayedGame:
    """The bots' game posted decision by decision through the real server (uvicorn, a free
    port), each seat's legal moves asked for every seventh decision (`play_log`), while a
    spectator follows the stream (dropping once after 40 events and resuming with
    Last-Event-ID). The whole-game tests read this one game: it takes CPU tens of seconds."""
    g = PlayedGame()
    g.tmp = tmp_path_factory.mktemp("re-played")
    g.db = g.tmp / "live.duckdb"
    seed = _seed_of(sim_log)
    app = create_app(g.db, seed_for=lambda _g: seed, poll_seconds=0.02)
    try:
        with served(app) as client:
            base = client.base
            g.created = new_game(client)
            spectator = Spectator(base, SIM_GAME)   # drops once after 40 events, resumes
            spectator.start()
            g.seen = play_log(client, g.created, sim_log, check_legal_every=7)
            spectator.join(30)
            g.spectator_alive = spectator.is_alive()
            g.streamed = spectator.events
            g.public = client.get(f"/games/{SIM_GAME}/events").json()["events"]
    finally:
        app.state.store.close()
    return g


def test_a_whole_game_through_the_app_equals_the_bots_log(played, sim_log):
    assert played.created["dice"]["seed_hash"] == sim_log[0]["payload"]["dice"]["seed_hash"]
    assert played.seen == sim_log


def test_the_real_server_plays_a_whole_game_a_spectator_follows_and_it_verifies(played, sim_log):
    streamed, seen = played.streamed, played.seen
    assert not played.spectator_alive
    assert [e["seq"] for e in streamed] == list(range(len(sim_log)))
    assert streamed[-1] == sim_log[-1]
    assert played.public == seen == sim_log
    runner = CliRunner()
    r = runner.invoke(cli, ["verify", SIM_GAME, "--db", str(played.db)])
    assert r.exit_code == 0, r.output
    out = played.tmp / "export.jsonl"
    r = runner.invoke(cli, ["export", SIM_GAME, "--db", str(played.db), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert [json.loads(line) for line in out.read_text().splitlines()] == seen


def _play_until(client, created, log, upto):
    """Post the log's events up to seq `upto` (exclusive), as `play_log` does."""
    seats, org = created["seats"], created["organizer"]
    for e in log[1:upto]:
        i = e["seq"]
        if client.get(f"/games/{SIM_GAME}/state").json()["next_seq"] > i:
            continue
        chance = e["type"] in ("DiceRolled", "TilesDrawn") or (
            e["type"] == "CardRevealed" and "dice" in e["payload"])
        who = seats[e["actor"]] if e["actor"] in seats and not chance else org
        r = client.post(f"/games/{SIM_GAME}/events", headers=auth(who),
                        json={"expected_seq": i, "type": e["type"], "actor": e["actor"],
                              "payload": {} if chance else e["payload"]})
        assert r.status_code == 200, r.text


def test_no_route_shows_a_secret_to_another_seat_or_a_spectator(tmp_path, sim_log):
    from tests.test_views import in_payload, in_view
    client = make_client(tmp_path, sim_log)
    created = new_game(client)
    rs = get_ruleset("risk-europe")
    app_tables = client.app.state
    checked = 0
    at = [e["seq"] + 1 for e in sim_log if e["type"] in ("BidPlaced", "CardsCommitted")][:12]
    for upto in at:
        _play_until(client, created, sim_log, upto)
        state = client.get(f"/games/{SIM_GAME}/state").json()
        from ledger.service.live import LiveTable  # noqa: F401  (the table the app keeps)
        secrets = V.secrets_of(rs, _live_state(client))
        for seat in [None, *created["seats"]]:
            h = {} if seat is None else auth(created["seats"][seat])
            view = client.get(f"/games/{SIM_GAME}/state", headers=h).json()
            events = client.get(f"/games/{SIM_GAME}/events", headers=h).json()["events"]
            moves = client.get(f"/games/{SIM_GAME}/legal", headers=h).json()["moves"]
            for x in secrets:
                if x.owner == seat:
                    continue
                assert view["digest"] is None
                assert events[-1]["hash"] is None
                if not isinstance(x.value, str):
                    continue    # a number is not searched in a board of numbers (test_views perturbs it)
                checked += 1
                assert not in_view(view["view"], x), (seat, x)
                assert not any(in_payload(e["payload"], e["actor"], x) for e in events), (seat, x)
                assert not any(in_payload(m["payload"], m["actor"], x) for m in moves), (seat, x)
                assert events[-1]["hash"] is None
        assert state["over"] is False
    assert checked > 0 and app_tables is not None


def _live_state(client):
    """The referee's state of the game the app serves (for the test's list of secrets)."""
    rs = get_ruleset("risk-europe")
    log = client.get(f"/games/{SIM_GAME}/events").json()["events"]
    store_events = client.app.state.store.events(SIM_GAME)
    assert len(log) == len(store_events)
    return fold_stored(rs, store_events)[0]


def test_racing_appends_lose_nothing_and_duplicate_nothing(tmp_path, sim_log):
    """Every bidder posts its bid at once at the same expected seq: one wins, the rest get 409
    with the new head and retry; each bid is stored once."""
    client = make_client(tmp_path, sim_log)
    created = new_game(client)
    bids = [e for e in sim_log if e["type"] == "BidPlaced"][:4]
    conflicts: list[dict] = []
    barrier = threading.Barrier(len(bids))

    def bidder(e):
        token = created["seats"][e["actor"]]
        expected = 1
        barrier.wait()
        while True:
            r = client.post(f"/games/{SIM_GAME}/events", headers=auth(token),
                            json={"expected_seq": expected, "type": "BidPlaced",
                                  "actor": e["actor"], "payload": e["payload"]})
            if r.status_code == 200:
                return
            assert r.status_code == 409, r.text
            body = r.json()
            assert body["code"] == "stale-seq" and body["seq"] > expected - 1
            conflicts.append(body)
            expected = body["head"]["next_seq"]

    threads = [threading.Thread(target=bidder, args=(e,)) for e in bids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    log = client.get(f"/games/{SIM_GAME}/events", headers=auth(created["organizer"])).json()["events"]
    placed = [e["actor"] for e in log if e["type"] == "BidPlaced"]
    assert sorted(placed) == sorted(e["actor"] for e in bids)
    assert [e["seq"] for e in log] == list(range(len(log)))
    assert conflicts, "the bidders raced: some must have lost"


def test_errors_are_json_with_stable_codes(tmp_path, sim_log):
    client = make_client(tmp_path, sim_log)
    created = new_game(client)
    seats, org = created["seats"], created["organizer"]
    first = sim_log[1]
    other = next(p for p in seats if p != first["actor"])
    cases = [
        (client.get("/games/nope/state"), 404, "unknown-game"),
        (client.post("/games", json={"ruleset": "chess", "players": ["a"]}), 422, "unknown-ruleset"),
        (client.post("/games", json={"ruleset": "risk-europe", "players": ["a"]}), 422, "bad-game"),
        (client.post("/games", json={"ruleset": "risk-europe"}), 422, "bad-request"),
        (client.post("/games", content=b"{not json", headers={"content-type": "application/json"}), 422, "bad-request"),
        (client.post("/games", content=b"x" * 300_000, headers={"content-type": "application/json"}), 413, "body-too-large"),
        (client.post(f"/games/{SIM_GAME}/nope", json={}), 404, "not-found"),
        (client.delete("/games"), 405, "method-not-allowed"),
        (client.post(f"/games/{SIM_GAME}/events", json={"expected_seq": 1, **_ev(first)}), 401, "unauthorized"),
        (client.get(f"/games/{SIM_GAME}/state", headers=auth("forged")), 401, "unauthorized"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(seats[other]),
                     json={"expected_seq": 1, **_ev(first)}), 403, "forbidden"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(org),
                     json={"expected_seq": 1, **_ev(first)}), 403, "forbidden"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(seats[first["actor"]]),
                     json={"expected_seq": 5, **_ev(first)}), 409, "stale-seq"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(seats[first["actor"]]),
                     json={"expected_seq": 1, "type": "Nope", "actor": first["actor"]}), 422, "unknown-type"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(seats[first["actor"]]),
                     json={"expected_seq": 1, "type": "BidPlaced", "actor": first["actor"],
                           "payload": {"amount": "lots"}}), 422, "invalid-payload"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(seats[first["actor"]]),
                     json={"expected_seq": 1, "type": "BidPlaced", "actor": first["actor"],
                           "payload": {"amount": 999}}), 422, "illegal"),
        (client.post(f"/games/{SIM_GAME}/events", headers=auth(org),
                     json={"expected_seq": 1, "type": "SeedRevealed", "payload": {"seed": "x"}}), 422, "dice-by-server"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, (code, r.text)
        body = r.json()
        assert body["code"] == code and body["message"], body
    assert client.get(f"/games/{SIM_GAME}/state").json()["next_seq"] == 1   # nothing stored
    illegal = cases[-2][0].json()
    assert illegal["seq"] == 1 and illegal["rule"] and illegal["findings"]
    listed = client.get("/games", headers=auth(org)).json()["games"]
    assert [g["game"] for g in listed] == [SIM_GAME]
    assert client.get("/openapi.json").json()["paths"]["/games/{game_id}/events"]


def _ev(e):
    return {"type": e["type"], "actor": e["actor"], "payload": e["payload"]}

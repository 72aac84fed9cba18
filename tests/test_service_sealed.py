"""`ledger serve` takes lines its clients seal themselves (issue #12: "the server fills
prev/hash, or accepts a client-sealed line and checks it"): a whole game played on the real
server by seat clients that hash each of their own lines onto their own copy of the log, whose
copies are byte for byte the export and verify; every bad seal refused with its code (422,
nothing stored); items of one append chained in order; and no sealed line taken while the chain
is hidden from its seat (the hash would be an oracle for the hidden payload)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engine.core.record import event_hash, make_envelope
from engine.risk_europe.sim import simulate_game
from ledger.cli import app as cli
from ledger.service import create_app
from replay.logfile import format_line, write_log
from tests.service_support import auth, is_europe_chance, post, replay, served
from tests.test_views import open_europe

GAME = "svc-3"
PLAYERS = ["blue", "orange", "red", "green"]


@pytest.fixture(scope="module")
def committed_log() -> list[dict]:
    """A bot game as digital play logs it: bids and cards as commitments (public as they are),
    so every seat may see the whole chain all game long."""
    return simulate_game(3, GAME, live=True)


def _stamp(seq: int) -> str:
    return f"2026-11-25T19:{seq // 60 % 60:02d}:{seq % 60:02d}Z"


class SealingClient:
    """A seat (or the organizer) keeping its own copy of the log: every line it reads is checked
    against the chain it holds, and every line it sends it seals itself onto its copy's head."""

    def __init__(self, http, game: str, token: str):
        self.http, self.game, self.token = http, game, token
        self.lines: list[dict] = []

    def catch_up(self) -> None:
        r = self.http.get(f"/games/{self.game}/events", params={"since": len(self.lines)},
                          headers=auth(self.token))
        assert r.status_code == 200, r.text
        for e in r.json()["events"]:
            head = self.lines[-1]["hash"] if self.lines else None
            assert e["seq"] == len(self.lines) and e["prev"] == head and event_hash(e) == e["hash"], e
            self.lines.append(e)

    def sealed(self, type_: str, actor: str | None, payload: dict) -> dict:
        """The next line, sealed onto this client's copy (read up to the server's head first)."""
        self.catch_up()
        line = make_envelope(self.game, len(self.lines), type_, actor, payload, at=_stamp(len(self.lines)))
        line["prev"] = self.lines[-1]["hash"]
        line["hash"] = event_hash(line)
        return line

    def send_sealed(self, type_: str, actor: str | None, payload: dict) -> dict:
        line = self.sealed(type_, actor, payload)
        r = self.http.post(f"/games/{self.game}/events", headers=auth(self.token),
                           json={"expected_seq": line["seq"], **line})
        assert r.status_code == 200, (line, r.text)
        assert r.json()["events"] == [line]        # as sealed (the head may be the server's next)
        self.lines.append(line)
        return line

    def send_unsealed(self, seq: int, type_: str, actor: str | None, payload: dict) -> None:
        post(self.http, self.game, self.token, seq, type_, actor, payload)


def _serve(tmp_path, log, app_at=None):
    seed = log[-1]["payload"]["seed"]
    app = create_app(app_at or tmp_path / "svc.duckdb", seed_for=lambda _g: seed)
    return app


def _new_game(client) -> dict:
    r = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS, "game_id": GAME})
    assert r.status_code == 201, r.text
    return r.json()


def test_clients_that_seal_their_own_lines_play_a_whole_game_and_their_copies_are_the_export(
        tmp_path, committed_log):
    log = committed_log
    db = tmp_path / "live.duckdb"
    app = _serve(tmp_path, log, db)
    sealed_by_clients = 0
    try:
        with served(app) as http:
            created = _new_game(http)
            clients = {p: SealingClient(http, GAME, tok) for p, tok in created["seats"].items()}
            table = SealingClient(http, GAME, created["organizer"])
            for e in log[1:]:
                nxt = http.get(f"/games/{GAME}/state").json()["next_seq"]
                if nxt > e["seq"] or e["type"] == "SeedRevealed":
                    continue                      # the server's own line (dice no one decides)
                client = clients.get(e["actor"], table)
                if is_europe_chance(e):           # the server rolls: asked for unsealed
                    table.send_unsealed(e["seq"], e["type"], e["actor"], {})
                elif e["type"] == "DiceRerolled":  # a decision the server adds dice to
                    client.send_unsealed(e["seq"], e["type"], e["actor"],
                                         {k: v for k, v in e["payload"].items() if k != "rolls"})
                else:
                    client.send_sealed(e["type"], e["actor"], e["payload"])
                    sealed_by_clients += 1
            for c in [*clients.values(), table]:
                c.catch_up()
            assert http.get(f"/games/{GAME}/state").json()["over"]
    finally:
        app.state.store.close()
    assert sealed_by_clients > 300
    runner = CliRunner()
    export = tmp_path / "export.jsonl"
    r = runner.invoke(cli, ["export", GAME, "--db", str(db), "--out", str(export)])
    assert r.exit_code == 0, r.output
    exported = export.read_bytes()
    assert exported.count(b'"at":"2026-11-25T19:') == sealed_by_clients
    for name, c in [*clients.items(), ("organizer", table)]:
        mine = tmp_path / f"{name}.jsonl"
        write_log(mine, c.lines)
        assert mine.read_bytes() == exported, name
        r = runner.invoke(cli, ["verify", str(mine)])
        assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["verify", GAME, "--db", str(db)])
    assert r.exit_code == 0, r.output


def _at_first_decision(tmp_path, log):
    """A served game at seq 1 (blue's bid, a decision), and blue's sealing client."""
    client = TestClient(_serve(tmp_path, log))
    created = _new_game(client)
    blue = SealingClient(client, GAME, created["seats"]["blue"])
    return client, created, blue


def _refused(client, token, body, code, rule=None, seq=1, status=422) -> dict:
    before = client.app.state.store.events(GAME)
    r = client.post(f"/games/{GAME}/events", headers=auth(token), json=body)
    assert r.status_code == status and r.json()["code"] == code, r.text
    assert r.json().get("rule") == rule and r.json().get("seq") == seq, r.text
    assert client.app.state.store.events(GAME) == before           # nothing stored
    return r.json()


def test_each_bad_seal_is_refused_with_its_code_and_nothing_is_stored(tmp_path, committed_log):
    bid = committed_log[1]
    client, created, blue = _at_first_decision(tmp_path, committed_log)
    tok = created["seats"]["blue"]
    good = blue.sealed(bid["type"], bid["actor"], bid["payload"])
    head = good["prev"]

    edited = {**good, "payload": {"commitment": "0" * 64}}           # content changed after sealing
    _refused(client, tok, {"expected_seq": 1, **edited}, "bad-hash", "LOG-HASH")
    wrong = {**good, "prev": "f" * 64}
    wrong["hash"] = event_hash(wrong)                                # hashed right, chained wrong
    body = _refused(client, tok, {"expected_seq": 1, **wrong}, "bad-prev", "LOG-CHAIN")
    assert body["expected_prev"] == head
    _refused(client, tok, {"expected_seq": 1, **{k: v for k, v in good.items() if k != "hash"}},
             "bad-seal", "LOG-UNSEALED")
    _refused(client, tok, {"expected_seq": 1, **{k: v for k, v in good.items() if k != "prev"}},
             "bad-seal", "LOG-UNSEALED")
    _refused(client, tok, {"expected_seq": 1, **good, "seq": 2}, "bad-seq", "LOG-SEQ-GAP")
    _refused(client, tok, {"expected_seq": 1, **good, "seq": 0}, "bad-seq", "LOG-SEQ-ORDER")
    _refused(client, tok, {"expected_seq": 1, **good, "game": "another"}, "bad-game-id", "LOG-GAME-ID")
    _refused(client, tok, {"expected_seq": 1, **good, "v": 2}, "bad-seal", "LOG-ENVELOPE")
    _refused(client, tok, {"expected_seq": 1, **good, "at": "Tuesday"}, "bad-seal", "LOG-ENVELOPE")
    unhashed = {**good, "hash": good["hash"].upper()}
    _refused(client, tok, {"expected_seq": 1, **unhashed}, "bad-hash", "LOG-HASH")
    _refused(client, tok, {"expected_seq": 1, "events": [good], "prev": head}, "bad-request", seq=None)
    # a line sealed without the keys the server fills in (v, game, seq) hashes other content
    bare = {k: v for k, v in good.items() if k not in ("v", "game", "seq", "hash")}
    bare["hash"] = event_hash(bare)
    _refused(client, tok, {"expected_seq": 1, **bare}, "bad-hash", "LOG-HASH")
    # another seat's line, sealed right, is still another seat's
    _refused(client, created["seats"]["orange"], {"expected_seq": 1, **good}, "forbidden", seq=1,
             status=403)

    r = client.post(f"/games/{GAME}/events", headers=auth(tok), json={"expected_seq": 1, **good})
    assert r.status_code == 200, r.text
    assert client.app.state.store.events(GAME)[1] == format_line(good)     # stored as sealed
    assert r.json()["events"] == [good]


def test_the_server_refuses_to_take_a_sealed_line_it_must_complete(tmp_path):
    """A castle's re-roll is the defender's decision, but its dice are the server's: sealed, it
    cannot be stored as sealed since the server adds the dice (`server-fills`), whatever rolls
    the client put in it; unsealed it is taken, and the client chains on the line it is given."""
    game = "svc-22"
    log = simulate_game(22, game, live=True)
    reroll = next(e for e in log if e["type"] == "DiceRerolled")
    client = TestClient(_serve(tmp_path, log))
    r = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS, "game_id": game})
    created = r.json()
    replay(client, created, log, upto=reroll["seq"])
    seq, who = reroll["seq"], created["seats"][reroll["actor"]]
    seat = SealingClient(client, game, who)
    for payload in ({k: v for k, v in reroll["payload"].items() if k != "rolls"}, reroll["payload"]):
        line = seat.sealed("DiceRerolled", reroll["actor"], payload)
        assert line["seq"] == seq
        r = client.post(f"/games/{game}/events", headers=auth(who), json={"expected_seq": seq, **line})
        assert r.status_code == 422 and r.json()["code"] == "server-fills" and r.json()["seq"] == seq, r.text
    assert client.get(f"/games/{game}/state").json()["next_seq"] == seq
    seat.send_unsealed(seq, "DiceRerolled", reroll["actor"],
                       {k: v for k, v in reroll["payload"].items() if k != "rolls"})
    seat.catch_up()
    assert seat.lines[seq] == reroll                       # the server's seal, the dice its own
    nxt = log[seq + 1]                                    # the defender's casualties next
    assert (nxt["type"], nxt["actor"]) == ("CasualtiesRemoved", reroll["actor"])
    assert seat.send_sealed(nxt["type"], nxt["actor"], nxt["payload"])["prev"] == reroll["hash"]


def test_the_items_of_one_append_are_chained_in_order_sealed_or_not(tmp_path, committed_log):
    log = committed_log
    client, created, _blue = _at_first_decision(tmp_path, log)
    org = created["organizer"]
    record = TestClient(create_app(tmp_path / "rec.duckdb"))
    r = record.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS, "game_id": GAME,
                                    "mode": "record", "dice": "table"})
    assert r.status_code == 201, r.text
    org = r.json()["organizer"]
    table = SealingClient(record, GAME, org)
    table.catch_up()
    b1, b2, b3 = log[1:4]
    # b1 unsealed (the server seals it), b2 sealed onto the server's seal of b1, b3 unsealed
    first = make_envelope(GAME, 1, b1["type"], b1["actor"], b1["payload"])
    first["prev"] = table.lines[-1]["hash"]
    first["hash"] = event_hash(first)
    second = make_envelope(GAME, 2, b2["type"], b2["actor"], b2["payload"], at=_stamp(2))
    second["prev"] = first["hash"]
    second["hash"] = event_hash(second)
    items = [{k: b1[k] for k in ("type", "actor", "payload")}, second,
             {k: b3[k] for k in ("type", "actor", "payload")}]
    bad = {**second, "prev": table.lines[-1]["hash"]}
    bad["hash"] = event_hash(bad)                  # onto the stored head, not onto the item before
    before = record.app.state.store.events(GAME)
    r = record.post(f"/games/{GAME}/events", headers=auth(org),
                    json={"expected_seq": 1, "events": [items[0], bad, items[2]]})
    assert r.status_code == 422 and r.json()["code"] == "bad-prev" and r.json()["seq"] == 2, r.text
    assert r.json()["expected_prev"] == first["hash"]
    assert record.app.state.store.events(GAME) == before             # none of the three
    r = record.post(f"/games/{GAME}/events", headers=auth(org), json={"expected_seq": 1, "events": items})
    assert r.status_code == 200, r.text
    stored = record.app.state.store.events(GAME)
    assert stored[1] == format_line(first) and stored[2] == format_line(second)
    table.catch_up()
    assert table.lines[3]["prev"] == second["hash"] and "at" not in table.lines[3]
    # an unsealed item may carry `at` (and the other line keys) too: checked and stored
    b4 = log[4]
    r = record.post(f"/games/{GAME}/events", headers=auth(org),
                    json={"expected_seq": 4, "seq": 4, "game": GAME, "v": 1, "at": _stamp(4),
                          **{k: b4[k] for k in ("type", "actor", "payload")}})
    assert r.status_code == 200, r.text
    table.catch_up()
    assert table.lines[4]["at"] == _stamp(4)


def test_no_sealed_line_is_taken_while_the_chain_is_hidden_from_its_seat(tmp_path, committed_log):
    """Blue seals its bid in clear; the bid is hidden from orange, and so is every hash from it
    on (a hash over the bid would let orange test guesses of it): no route shows orange blue's
    hash, and orange's sealed bid is refused before its prev is compared, the right head and a
    wrong one alike (an answer that told them apart would be the same test)."""
    log = open_europe(committed_log)
    client, created, blue = _at_first_decision(tmp_path, log)
    mine = blue.send_sealed("BidPlaced", "blue", log[1]["payload"])
    orange = created["seats"]["orange"]
    seen = client.get(f"/games/{GAME}/events", headers=auth(orange)).json()["events"]
    assert seen[1]["payload"]["amount"] != log[1]["payload"]["amount"] and seen[1]["hash"] is None
    stale = client.post(f"/games/{GAME}/events", headers=auth(orange), json={
        "expected_seq": 1, "type": "BidPlaced", "actor": "orange", "payload": log[2]["payload"]})
    assert stale.status_code == 409 and stale.json()["head"]["hash"] is None
    state = client.get(f"/games/{GAME}/state", headers=auth(orange)).json()
    for answer in (seen, stale.json(), state):
        assert mine["hash"] not in str(answer)
    import json
    true_head = json.loads(client.app.state.store.events(GAME)[1])["hash"]   # the referee's
    bodies = []
    for prev in (true_head, "0" * 64):
        line = make_envelope(GAME, 2, "BidPlaced", "orange", log[2]["payload"])
        line["prev"] = prev
        line["hash"] = event_hash(line)
        bodies.append(_refused(client, orange, {"expected_seq": 2, **line}, "chain-hidden", seq=2))
    assert bodies[0] == bodies[1] and true_head not in str(bodies[0])
    post(client, GAME, orange, 2, "BidPlaced", "orange", log[2]["payload"])   # unsealed: taken

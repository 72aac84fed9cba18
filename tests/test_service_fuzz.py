"""Made-up input against `ledger serve` (#12), through ASGI (no network): no answer is a server
error, and every error is the service's JSON `{"code", "message", ...}`.

- schemathesis, from the service's OpenAPI schema: every operation with inputs that fit the
  schema and inputs that break it. Random game ids only ever meet a 404, so half of the cases
  go to a game the service runs: one in play (seeded dice, round 1's cards face down), one
  recorded at a table, one finished (the only kind whose stream ends: the stream of a game in
  play runs until the client goes, which schemathesis's ASGI client never does); half of those
  with one of the game's tokens, half of the appends at the seq the game expects and with an
  event type of its ruleset, half of the new games with a ruleset there is.
- events mutated from legal ones (a key dropped, a value swapped for junk of another type, a
  key added, the type or the actor changed), appended by the seat that may act in a game in
  play and by the organizer of a game recorded at a table, which stores whatever it is sent;
  every read of the recorded game (events, state, legal moves, the live page, the stream) as
  every seat and a spectator.

Bounded: a fixed number of examples, derandomized so that CI runs the same cases
(LEDGER_FUZZ=random explores new ones; LEDGER_FUZZ_EXAMPLES sets the number per operation).
"""

from __future__ import annotations

import copy
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings, strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from engine.core.ruleset import get_ruleset
from ledger.service import create_app
from tests.service_clients import auth, post_log
from tests.test_views import open_europe

PLAYERS = ["blue", "orange", "red", "green"]
EXAMPLES = int(os.environ.get("LEDGER_FUZZ_EXAMPLES", "40"))
DERANDOMIZE = os.environ.get("LEDGER_FUZZ") != "random"
SETTINGS = dict(deadline=None, database=None, derandomize=DERANDOMIZE,
                suppress_health_check=list(HealthCheck))


@dataclass
class Served:
    """A game the service runs, and how to reach it."""

    game_id: str
    seats: dict[str, str]
    organizer: str
    client: Any

    @property
    def tokens(self) -> list[str | None]:
        return [None, *self.seats.values(), self.organizer]

    def next_seq(self) -> int:
        return self.client.get(f"/games/{self.game_id}/state").json()["next_seq"]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """The app, a TestClient, the bot game it plays, and three games: {id: Served}."""
    from fastapi.testclient import TestClient

    from engine.risk_europe.sim import simulate_game
    log = open_europe(simulate_game(5, "fuzz-play", live=True))
    seed = log[-1]["payload"]["seed"]
    app = create_app(tmp_path_factory.mktemp("fuzz") / "fuzz.duckdb",
                     seed_for=lambda _g: seed, poll_seconds=0.01)
    client = TestClient(app)
    games: dict[str, Served] = {}

    def new(game_id, **body) -> Served:
        r = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS,
                                        "game_id": game_id, **body})
        assert r.status_code == 201, r.text
        made = r.json()
        games[game_id] = Served(game_id, made["seats"], made["organizer"], client)
        return games[game_id]

    # in play: round 1's cards committed face down
    play = new("fuzz-play")
    post_log(client, play.game_id, {"seats": play.seats, "organizer": play.organizer}, log, 14)
    # finished: a bot game recorded to its end
    events = [{"type": e["type"], "actor": e["actor"], "payload": e["payload"]}
              for e in open_europe(simulate_game(5, "fuzz-done", live=True))[1:]]
    done = new("fuzz-done", dice="table", mode="record")
    for start in range(0, len(events), 64):
        r = client.post("/games/fuzz-done/events", headers=auth(done.organizer),
                        json={"expected_seq": start + 1, "events": events[start:start + 64]})
        assert r.status_code == 200, r.text
    assert client.get("/games/fuzz-done/state").json()["over"]
    # recorded at a table, a few events in
    table = new("fuzz-record", dice="table", mode="record")
    r = client.post("/games/fuzz-record/events", headers=auth(table.organizer),
                    json={"expected_seq": 1, "events": events[:6]})
    assert r.status_code == 200, r.text
    return app, client, log, games


# --- schemathesis ------------------------------------------------------------------------------------


def _operations(app) -> dict:
    """The schema's operations by label ("POST /games")."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    return {op.label: op for op in (result.ok() for result in schema.get_all_operations())}


def _labels() -> list[str]:
    """The labels of the operations the service declares (read from a service over an empty
    store, so that a route added later is fuzzed too)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "labels.duckdb")
        try:
            return sorted(_operations(app))
        finally:
            app.state.store.close()


@pytest.fixture(scope="module")
def operations(service) -> dict:
    return _operations(service[0])


def _steer(case, games: dict[str, Served]) -> None:
    """Send a case where it reaches past the first check (see the module's docstring); chosen
    from the case itself, so that a failing case shrinks and replays alike."""
    digest = hashlib.sha256(repr((case.path_parameters, case.query, case.body)).encode()).digest()
    body = case.body if isinstance(case.body, dict) else None
    post = case.method.upper() == "POST"
    if case.path == "/games" and post and body is not None and digest[4] % 2:
        case.body = {**body, "ruleset": "risk-europe"}
    if "game_id" not in (case.path_parameters or {}) or digest[0] % 2:
        return
    names = ["fuzz-done"] if case.path.endswith("/stream") else sorted(games)
    game = games[names[digest[1] % len(names)]]
    case.path_parameters["game_id"] = game.game_id
    token = game.tokens[digest[2] % len(game.tokens)]
    if token is not None and digest[3] % 2:
        case.headers = {**(case.headers or {}), **auth(token)}
    if case.path.endswith("/events") and post and body is not None and digest[4] % 2:
        types = sorted(get_ruleset("risk-europe").payload_models)
        case.body = {**body, "expected_seq": game.next_seq(), "type": types[digest[5] % len(types)]}


def _answered_well(response) -> None:
    assert response.status_code < 500, response.text[:2000]
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("code"), str) and isinstance(body.get("message"), str), body


@pytest.mark.parametrize("label", _labels())
def test_no_input_is_a_server_error(label, operations, service):
    """Cases that fit the schema and cases that break it, for one operation."""
    games = service[3]
    op = operations[label]
    strategy = op.as_strategy(GenerationMode.POSITIVE) | op.as_strategy(GenerationMode.NEGATIVE)

    @given(case=strategy)
    @settings(max_examples=EXAMPLES, **SETTINGS)
    def run(case):
        _steer(case, games)
        # schemathesis's own check (a failure names the case as a curl command)
        _answered_well(case.call_and_validate(checks=[not_a_server_error]))

    run()


# --- events mutated from legal ones ------------------------------------------------------------------

# junk of every JSON type, and what Python's json reads but JSON has not: NaN, Infinity and
# lone surrogates (sent as Python writes them, `_post`)
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                 st.text(max_size=12), st.text(st.characters(min_codepoint=0xD7F0,
                                                             max_codepoint=0xE010), max_size=3),
                 st.sampled_from(["hidden", "", "blue", "Poland", "footman"]),
                 st.lists(st.integers(-3, 9), max_size=4),
                 st.dictionaries(st.sampled_from(["footman", "blue", "x"]), st.integers(-3, 9),
                                 max_size=3))


@st.composite
def mutated(draw, examples: list[dict], types: list[str]) -> dict:
    """One of `examples` (type, actor, payload) changed in one to three places."""
    event = copy.deepcopy(draw(st.sampled_from(examples)))
    for _ in range(draw(st.integers(1, 3))):
        payload = event["payload"]
        how = draw(st.sampled_from(["drop", "junk", "add", "type", "actor", "nested"]))
        keys = sorted(payload)
        if how == "drop" and keys:
            payload.pop(draw(st.sampled_from(keys)))
        elif how == "junk" and keys:
            payload[draw(st.sampled_from(keys))] = draw(JUNK)
        elif how == "add":
            payload[draw(st.text(min_size=1, max_size=8))] = draw(JUNK)
        elif how == "type":
            event["type"] = draw(st.sampled_from(types))
        elif how == "actor":
            event["actor"] = draw(st.sampled_from([None, *PLAYERS, "nobody"]))
        elif how == "nested":
            inner = [k for k in keys if isinstance(payload[k], (dict, list)) and payload[k]]
            if inner:
                part = payload[draw(st.sampled_from(inner))]
                if isinstance(part, dict):
                    part[draw(st.sampled_from(sorted(part)))] = draw(JUNK)
                else:
                    part[draw(st.integers(0, len(part) - 1))] = draw(JUNK)
    return event


def _examples(log: list[dict]) -> list[dict]:
    """A logged event of each type (its first two), as an append carries them."""
    seen: dict[str, int] = {}
    out = []
    for e in log[1:]:
        if seen.get(e["type"], 0) < 2:
            seen[e["type"]] = seen.get(e["type"], 0) + 1
            out.append({"type": e["type"], "actor": e["actor"], "payload": e["payload"]})
    return out


def _post(client, game: Served, token: str, event: dict):
    """Append `event` at the game's next seq, the body written by Python's json (which writes
    NaN, Infinity and lone surrogates as it reads them)."""
    import json
    body = json.dumps({"expected_seq": game.next_seq(), **event})
    return client.post(f"/games/{game.game_id}/events", content=body.encode(),
                       headers={**auth(token), "content-type": "application/json"})


def _reads_answer_well(client, game: Served) -> None:
    """Every read of the game, as every seat and a spectator, answers without a server error
    (the stream is read to the game's head and left)."""
    head = game.next_seq() - 1
    for token in game.tokens:
        for route in ("events", "state", "legal", "page"):
            _answered_well(client.get(f"/games/{game.game_id}/{route}", headers=auth(token)))
        _answered_well(client.get(f"/games/{game.game_id}/events?since={head}",
                                  headers=auth(token)))
    _answered_well(client.get(f"/games/{game.game_id}"))


def test_mutated_events_in_play_are_refused_cleanly(service):
    """In play, the seat that may act (or the organizer, for what has no actor) sends a
    mutation of a legal event: refused with a 4xx, or legal after all and stored."""
    _, client, log, games = service
    game = games["fuzz-play"]
    types = sorted(get_ruleset("risk-europe").payload_models)
    examples = _examples(log)

    @given(event=mutated(examples, types))
    @settings(max_examples=4 * EXAMPLES, **SETTINGS)
    def run(event):
        seat = game.seats.get(event["actor"]) if event["actor"] else None
        r = _post(client, game, seat or game.organizer, event)
        _answered_well(r)

    run()
    _reads_answer_well(client, game)


def test_mutated_events_recorded_at_a_table_break_no_read(service):
    """A table records whatever it is sent (findings attached): the mutated events are stored,
    and every read of the game still answers, as every seat and a spectator."""
    _, client, log, games = service
    game = games["fuzz-record"]
    types = sorted(get_ruleset("risk-europe").payload_models)
    examples = _examples(log)
    stored = []

    @given(event=mutated(examples, types))
    @settings(max_examples=2 * EXAMPLES, **SETTINGS)
    def run(event):
        r = _post(client, game, game.organizer, event)
        _answered_well(r)
        if r.status_code == 200:
            stored.append(event)
            if len(stored) % 10 == 0:
                _reads_answer_well(client, game)

    run()
    assert stored, "a table records what it is sent"
    _reads_answer_well(client, game)


# --- what the fuzzing found, kept ------------------------------------------------------------------


@pytest.mark.parametrize("raw", [
    r'{"expected_seq": 1, "type": "BidPlaced", "actor": "blue", "payload": {"amount": NaN}}',
    r'{"expected_seq": 1, "type": "BidPlaced", "actor": "blue", "payload": {"x": -Infinity}}',
    r'{"expected_seq": 1, "type": "BidPlaced", "actor": "blue", "payload": {"x": "\ud800"}}',
    r'{"expected_seq": 1, "type": "BidPlaced", "actor": "bl\udfffue", "payload": {}}',
    r'{"expected_seq": 1, "type": "BidPlaced", "actor": "blue", "payload": {"\ud800": 1}}',
])
def test_what_python_reads_but_json_has_not_is_a_bad_request(raw, tmp_path):
    """NaN, Infinity and lone surrogates were stored in a table's log line (or failed when
    written back): a 500. Now the body is refused, saying what and where, and nothing stored."""
    from fastapi.testclient import TestClient
    client = TestClient(create_app(tmp_path / "s.duckdb"))
    made = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS, "game_id": "g",
                                       "dice": "table", "mode": "record"}).json()
    r = client.post("/games/g/events", content=raw.encode(),
                    headers={**auth(made["organizer"]), "content-type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "bad-request", r.text
    assert "NaN" in r.json()["message"] or "Infinity" in r.json()["message"] \
        or "surrogate" in r.json()["message"]
    assert client.get("/games/g/state").json()["next_seq"] == 1
    r = client.post("/games/g/events", content=b'{"expected_seq": 1, "type": "\xff"}',
                    headers={**auth(made["organizer"]), "content-type": "application/json"})
    assert r.status_code == 422 and "UTF-8" in r.json()["message"]


def test_a_game_that_cannot_start_or_a_seat_named_as_a_role_is_refused(tmp_path):
    """A player id the start event's model refuses ("") made a game the service stored and
    then could not judge (a 500 on every later call); a seat named "server" or "organizer"
    would have had that role's rights. Both are refused before anything is stored."""
    from fastapi.testclient import TestClient
    client = TestClient(create_app(tmp_path / "s.duckdb"))
    for players, word in ((["", "a", "b", "c"], "cannot start"), (["server", "a", "b", "c"], "reserved"),
                          (["a", "organizer", "b", "c"], "reserved")):
        r = client.post("/games", json={"ruleset": "risk-europe", "players": players, "game_id": "g"})
        assert r.status_code == 422 and r.json()["code"] == "bad-game" and word in r.json()["message"]
    assert client.get("/games/g/state").status_code == 404
    assert client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS,
                                       "game_id": "g"}).status_code == 201


def test_an_event_a_table_recorded_in_the_wrong_shape_is_told_as_logged(tmp_path):
    """Risk Europe's narration failed on a payload of the wrong shape (a table records
    anything): the live page was a 500, and `ledger replay` of such a log a traceback. Such an
    event is now told as logged."""
    from fastapi.testclient import TestClient

    from engine.core.ruleset import get_ruleset
    from replay.narrate import event_line
    rs = get_ruleset("risk-europe")
    assert event_line(rs, "KingdomPlaced", "blue", {"city": "Paris", "footmen": 5}) == \
        "blue KingdomPlaced {'city': 'Paris', 'footmen': 5}"
    client = TestClient(create_app(tmp_path / "s.duckdb"))
    made = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS, "game_id": "g",
                                       "dice": "table", "mode": "record"}).json()
    r = client.post("/games/g/events", headers=auth(made["organizer"]),
                    json={"expected_seq": 1, "type": "CardsCommitted", "actor": "blue",
                          "payload": {"cards": 7}})
    assert r.status_code == 200 and r.json()["findings"][0]["rule"] == "LOG-PAYLOAD"
    page = client.get("/games/g/page", headers=auth(made["seats"]["blue"]))
    assert page.status_code == 200
    assert page.json()["events"][0]["text"] == "blue CardsCommitted {'cards': 7}"
    # to the others the whole value is withheld, as one word
    seen = client.get("/games/g/page").json()["events"][0]["text"]
    assert seen == "blue commits two cards face down (hidden)"

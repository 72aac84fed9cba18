"""Hidden information through every route of `ledger serve` (#12), the stream and the errors
included, as each other seat and as a spectator, against the real server.

Risk Europe hides three kinds of thing (docs/views.md): the bids for the First Player Marker
until the last bid reveals them all, the two King's Orders cards each player commits face down
until each is revealed on its turn, and (the Kingdom Missions variant) a kept mission until it
is completed. A bot game of basic+missions with its secrets in clear (bids as amounts, cards and
missions as ids: what seat clients that trust the server send) is played through the service,
and at moments when each kind is face down:

- by value: no secret of another seat is in what a viewer reads of the stream (which must be
  what it reads of /events), the state, its legal moves, the live page's picture, or any error
  its appends get (a stale seq, acting for another, an illegal move of its own); a distinct
  secret (a mission) nowhere, a card or bid in its owner's part (another seat may hold a card
  of the same name);
- by difference: two servers play the same game but for one secret (blue's bid, the order of
  blue's two cards); every other viewer reads the very same bytes from every route, errors
  included, until the reveal. This catches what a search cannot: a bid is a small number, and
  numbers are everywhere in a board.
"""

from __future__ import annotations

import contextlib
import copy
import json

import httpx
import pytest

from engine.core import views as V
from engine.core.ruleset import get_ruleset
from ledger.service import create_app
from tests.service_clients import auth, is_chance, post_log, served_at
from tests.test_views import game_of_text, in_payload, in_view, open_europe, text_of

GAME, VARIANT, PLAYERS = "leak", "basic+missions", ["blue", "orange", "red", "green"]
ROUTES = ("events", "state", "legal", "page")


@pytest.fixture(scope="module")
def log() -> list[dict]:
    from engine.risk_europe.sim import simulate_game
    return open_europe(simulate_game(11, GAME, variant=VARIANT, live=True))


def _seq_of(log, type_: str, actor: str, n: int = 0) -> int:
    return [e["seq"] for e in log if e["type"] == type_ and e["actor"] == actor][n]


@contextlib.contextmanager
def table(tmp_path, log: list[dict], name: str = "svc"):
    """The service on a real server, with the bot game created: (base URL, what creating it
    answered, an httpx client)."""
    seed = log[-1]["payload"]["seed"]
    app = create_app(tmp_path / f"{name}.duckdb", seed_for=lambda _g: seed, poll_seconds=0.01)
    with served_at(app) as base, httpx.Client(base_url=base, timeout=60) as client:
        r = client.post("/games", json={"ruleset": "risk-europe", "players": PLAYERS,
                                        "variant": VARIANT, "game_id": GAME})
        assert r.status_code == 201, r.text
        yield base, r.json(), client


def _stream_text(base: str, token: str | None, head: int) -> str:
    """The raw text of the stream from the start to the event at `head` (then left)."""
    text = []
    with httpx.stream("GET", f"{base}/games/{GAME}/stream", headers=auth(token), timeout=60) as r:
        assert r.status_code == 200
        last = False
        for line in r.iter_lines():
            text.append(line)
            last = last or (line.startswith("id: ") and int(line[4:]) >= head)
            if last and line.startswith("data: "):          # the data of the head's event
                break
    return "\n".join(text)


def _stream_events(text: str) -> list[dict]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def _probes(log: list[dict], created: dict, token: str | None, viewer: str | None,
            next_seq: int) -> list[tuple[str, dict, dict]]:
    """Appends a viewer may try that must fail, as (name, headers, body): a stale seq, the next
    logged event sent by a seat not its actor, and moves of its own that break the rules."""
    nxt = log[next_seq]
    event = {"type": nxt["type"], "actor": nxt["actor"],
             "payload": {} if is_chance(nxt) else nxt["payload"]}
    out = [("stale", auth(token), {"expected_seq": next_seq - 1, **event})]
    if viewer is not None and nxt["actor"] != viewer:
        out.append(("not theirs", auth(token), {"expected_seq": next_seq, **event}))
    me = viewer or "blue"
    for type_, payload in (("CardRevealed", {"card": "no-such-card"}),
                           ("BidPlaced", {"amount": 99}),
                           ("CardsCommitted", {"cards": ["no-such-card", "tax-spend-1"]}),
                           ("MissionCompleted", {"mission": "mission-99"}),
                           ("Expanded", {"from": "Poland", "to": "Rusland",
                                         "units": {"footman": 1}})):
        out.append((f"{type_} by {me}", auth(token),
                    {"expected_seq": next_seq, "type": type_, "actor": me, "payload": payload}))
    return out


def _reads(base: str, client, created: dict, viewer: str | None, log: list[dict]) -> dict:
    """Everything `viewer` (a seat, None: a spectator) reads now, and the errors its probes get."""
    token = created["seats"].get(viewer) if viewer else None
    head = client.get(f"/games/{GAME}/state").json()["next_seq"] - 1
    out = {route: client.get(f"/games/{GAME}/{route}", headers=auth(token)).json()
           for route in ROUTES}
    out["stream"] = _stream_text(base, token, head)
    errors = {}
    for who, tok in ((viewer, token), *(((None, created["organizer"]),) if viewer is None else ())):
        for name, headers, body in _probes(log, created, tok, who, head + 1):
            r = client.post(f"/games/{GAME}/events", headers=headers, json=body)
            assert r.status_code in (401, 403, 409, 422), (name, r.status_code, r.text)
            errors[f"{'organizer' if tok == created['organizer'] else who}: {name}"] = \
                [r.status_code, r.json()]
    out["errors"] = errors
    assert client.get(f"/games/{GAME}/state").json()["next_seq"] == head + 1, "a probe was stored"
    return out


def _referee(log: list[dict], upto: int):
    """The state of the game after the log's events before `upto`, judged here."""
    return game_of_text(text_of(log[:upto])).final


# the event that holds each kind of secret in clear (docs/views.md)
HOLDER = {"bid": "BidPlaced", "card": "CardsCommitted", "mission": "MissionKept"}


def _holder(events: list[dict], x: V.Secret) -> dict | None:
    """The owner's latest event of the kind that holds the secret: the one its value is in.
    (The owner's earlier events may name the same card, revealed in an earlier round.)"""
    held = [e for e in events if e["actor"] == x.owner and e["type"] == HOLDER[x.kind]]
    return held[-1] if held else None


def _stream_tells(events: list[dict], x: V.Secret) -> bool:
    if x.distinct:
        return V.has_value(events, x.value)
    held = _holder(events, x)
    return held is not None and in_payload(held["payload"], held["actor"], x)


def _view_tells(body: dict, x: V.Secret) -> bool:
    """Does a state or legal-moves answer hold the secret: a distinct one anywhere, another in
    its owner's entry of the view (tests.test_views.in_view) or in a move of its owner."""
    if x.distinct:
        return V.has_value(body, x.value)
    if "view" in body:
        return in_view(body["view"], x)
    return any(m["actor"] == x.owner and V.has_value(m["payload"], x.value)
               for m in body.get("moves", []))


def _page_tells(page: dict, x: V.Secret) -> bool:
    """Does the live page's picture tell the secret: a distinct one anywhere, another in what
    it says of the event that holds it."""
    if x.distinct:
        return V.has_value(page, x.value)
    held = [e for e in page["events"] if e["actor"] == x.owner
            and e["text"].startswith(f"{x.owner} {'bids' if x.kind == 'bid' else 'commits'}")]
    return isinstance(x.value, str) and any(x.value in " ".join([e["text"], *e["notes"]])
                                            for e in held[:1])


def _error_tells(errors: dict, hidden: tuple[V.Secret, ...]) -> list:
    """The errors whose answer names a hidden value (a string: a card, a mission): what a
    finding's message must withhold (engine.core.views.withheld), a head's hash withheld too."""
    out = []
    for name, (_, body) in errors.items():
        text = json.dumps(body)
        for x in hidden:
            if isinstance(x.value, str) and any(s in text for s in V.spellings(x.value)):
                out.append((name, x))
    return out


def test_no_route_tells_a_secret_before_its_reveal(tmp_path, log):
    rs = get_ruleset("risk-europe")
    kept = [e["seq"] for e in log if e["type"] == "MissionKept" and "mission" in e["payload"]]
    moments = sorted({2, 4,                                   # bids face down (1, then 3)
                      _seq_of(log, "CardsCommitted", "blue") + 1,       # four stacks down
                      _seq_of(log, "CardRevealed", "blue") + 1,         # blue's second down
                      kept[0] + 1, kept[-1] + 1})                       # missions kept
    kinds = set()
    with table(tmp_path, log) as (base, created, client):
        for upto in moments:
            post_log(client, GAME, created, log, upto)
            upto = client.get(f"/games/{GAME}/state").json()["next_seq"]
            referee = _referee(log, upto)
            for viewer in [None, *PLAYERS]:
                hidden = V.hidden_from(rs, referee, viewer)
                kinds |= {x.kind for x in hidden}
                seen = _reads(base, client, created, viewer, log)
                streamed = _stream_events(seen["stream"])
                assert streamed == seen["events"]["events"], "the stream is not the log as read"
                if hidden:
                    assert seen["state"]["digest"] is None and streamed[-1]["hash"] is None
                for x in hidden:
                    where = f"seq {upto}, {x.kind} of {x.owner} to {viewer or 'a spectator'}"
                    assert _holder(streamed, x) is not None, where
                    assert not _stream_tells(streamed, x), f"stream: {where}"
                    for route in ("state", "legal"):
                        assert not _view_tells(seen[route], x), f"{route}: {where}"
                    assert not _page_tells(seen["page"], x), f"page: {where}"
                assert not _error_tells(seen["errors"], hidden), (upto, viewer)
                for name, (status, body) in seen["errors"].items():
                    if status == 409 and hidden:
                        assert body["head"]["hash"] is None, name
    assert kinds == {"bid", "card", "mission"}, kinds


def _changed(log: list[dict], seq: int, change) -> list[dict]:
    """The log with the payload of the event at `seq` changed (the chain is the server's)."""
    out = copy.deepcopy(log)
    change(out[seq]["payload"])
    return out


@pytest.mark.parametrize("kind", ["bid", "cards"])
def test_a_secret_changes_nothing_another_seat_or_a_spectator_reads(kind, tmp_path, log):
    """Two servers, the same game but for blue's bid (2 or 3 coins) or the order of blue's two
    face-down cards: until the reveal, every route reads the same for everyone but blue."""
    if kind == "bid":
        at = _seq_of(log, "BidPlaced", "blue")
        other = _changed(log, at, lambda p: p.update(amount=p["amount"] + 1))
        upto = max(e["seq"] for e in log[:8] if e["type"] == "BidPlaced")      # the last bid not in
    else:
        at = _seq_of(log, "CardsCommitted", "blue")
        other = _changed(log, at, lambda p: p.update(cards=p["cards"][::-1]))
        upto = _seq_of(log, "CardRevealed", "blue")                           # blue's turn is next
    assert other[at]["payload"] != log[at]["payload"]
    with table(tmp_path, log, "one") as one, table(tmp_path, other, "two") as two:
        for (base, created, client), events in ((one, log), (two, other)):
            post_log(client, GAME, created, events, upto)
        for viewer in [None, "orange", "red", "green"]:
            a = _reads(one[0], one[2], one[1], viewer, log)
            b = _reads(two[0], two[2], two[1], viewer, other)
            for route in (*ROUTES, "stream", "errors"):
                assert a[route] == b[route], f"{kind}: {route} as {viewer or 'a spectator'} differs"
        # blue itself reads its own secret, so its reads differ: the test can tell
        mine = [_reads(t[0], t[2], t[1], "blue", e)["events"] for t, e in ((one, log), (two, other))]
        assert mine[0] != mine[1]

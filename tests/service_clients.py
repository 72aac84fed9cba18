"""The clients the web, limits, leak, fuzz and race tests of `ledger serve` use, beside
tests/service_support.py (the server in a thread, `served`, and its HttpClient, which they share):
a token header that may be none (a spectator), a bot log's events posted with the right tokens,
a reader of the stream that stops where it is told, the racing client of the race test (a
spawned process imports this module), and `served_at`: the server's base URL for the block.

    with served_at(app) as base:                    # "http://127.0.0.1:PORT"
        client = HttpClient(base)
        post_log(client, game, created, log, upto=40)   # the log's events before seq 40
        events = read_stream(base, game, until=39, token=...)
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Iterator

import httpx

from tests.service_support import HttpClient, free_port, is_europe_chance, served

__all__ = ["HttpClient", "auth", "free_port", "is_chance", "post_event", "post_log", "racer",
           "read_stream", "served_at"]


@contextlib.contextmanager
def served_at(app: Any) -> Iterator[str]:
    """`app` served by uvicorn in a thread on 127.0.0.1 (tests.service_support.served): its
    base URL, for the block."""
    with served(app) as client:
        yield client.base


def auth(token: str | None) -> dict:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


is_chance = is_europe_chance
"""Is the logged event one the server makes with seeded dice (asked for with an empty payload)?"""


def post_event(client: Any, game: str, created: dict, e: dict,
               next_seq: int | None = None) -> httpx.Response | None:
    """Post the logged event `e` at its seq with its seat's token (the organizer's for chance
    and claims; dice asked for with an empty payload, rerolls without their rolls). None when
    the server has stored that seq already (dice no one decides, the seed's reveal); the
    server's next seq is asked for unless given."""
    seats, org = created["seats"], created["organizer"]
    if next_seq is None:
        next_seq = client.get(f"/games/{game}/state").json()["next_seq"]
    if next_seq > e["seq"] or e["type"] == "SeedRevealed":
        return None
    chance = is_chance(e)
    payload = {} if chance else {k: v for k, v in e["payload"].items()
                                 if not (e["type"] == "DiceRerolled" and k == "rolls")}
    who = seats[e["actor"]] if e["actor"] in seats and not chance else org
    return client.post(f"/games/{game}/events", headers=auth(who),
                       json={"expected_seq": e["seq"], "type": e["type"], "actor": e["actor"],
                             "payload": payload})


def post_log(client: Any, game: str, created: dict, log: list[dict], upto: int) -> None:
    """Post the log's events from the server's next seq up to seq `upto` (exclusive), following
    the head each answer gives."""
    nxt = client.get(f"/games/{game}/state").json()["next_seq"]
    for e in log[1:upto]:
        r = post_event(client, game, created, e, nxt)
        assert r is None or r.status_code == 200, (e, r.text)
        if r is not None:
            nxt = r.json()["head"]["next_seq"]


def read_stream(base: str, game: str, *, until: int, token: str | None = None,
                since: int = 0, timeout: float = 30) -> list[dict]:
    """The stream's events from `since` until the one at seq `until` (then the connection is
    dropped), or until `event: end`; the raw `data:` of each as parsed JSON, with the `id:` line
    checked against its seq."""
    out: list[dict] = []
    with httpx.stream("GET", f"{base}/games/{game}/stream", params={"since": since},
                      headers=auth(token), timeout=timeout) as r:
        assert r.status_code == 200, r.read()
        kind, ident = None, None
        for line in r.iter_lines():
            if line.startswith("id: "):
                ident = int(line[4:])
            elif line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                if kind == "end":
                    return out
                event = json.loads(line[6:])
                assert event["seq"] == ident
                out.append(event)
                if event["seq"] >= until:
                    return out
    return out


def racer(base: str, game: str, token: str, index: int, count: int, start, results) -> None:
    """One client process of tests/test_service_race.py (here, so that a spawned process
    imports little): `count` events of `game` marked (index, k), each appended at the seq it
    expects, retried at the head a 409 gives. Puts {"won": [[seq, mark]], "lost": [[expected,
    code, head]], "other": [...]} on `results`."""
    won, lost, other = [], [], []
    with httpx.Client(base_url=base, timeout=60) as client:
        expected = client.get(f"/games/{game}/state").json()["next_seq"]
        start.wait()
        for k in range(count):
            mark = f"client-{index}-event-{k}"
            while True:
                r = client.post(f"/games/{game}/events", headers={"Authorization": f"Bearer {token}"},
                                json={"expected_seq": expected, "type": "BidPlaced",
                                      "actor": ("blue", "orange", "red", "green")[index % 4],
                                      "payload": {"commitment": mark}})
                if r.status_code == 200:
                    head = r.json()["head"]
                    won.append([head["seq"], mark])
                    expected = head["next_seq"]
                    break
                body = r.json()
                if r.status_code == 409:
                    lost.append([expected, body.get("code"), body.get("head")])
                    expected = body["head"]["next_seq"]
                    continue
                other.append([r.status_code, body])
                break
    results.put({"index": index, "won": won, "lost": lost, "other": other})

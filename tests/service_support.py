"""What the service tests share: a real uvicorn server on a random loopback port, an httpx client
with TestClient's calling convention, a spectator following the stream, a log replayed through
the API, and seat clients whose bots choose their moves live from `GET /games/{id}/legal`.

Everything a client does here goes through HTTP; only the rulesets' records (for their bots and
their event types) are read in process, as a client program would import them.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from contextlib import contextmanager
from typing import Iterator

import httpx

from engine.core.ruleset import get_ruleset


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpClient:
    """httpx against the real server, with TestClient's calling convention."""

    def __init__(self, base: str):
        self.base = base
        self.c = httpx.Client(base_url=base, timeout=60)

    def get(self, url, **kw):
        return self.c.get(url, **kw)

    def post(self, url, **kw):
        return self.c.post(url, **kw)

    def close(self) -> None:
        self.c.close()


@contextmanager
def served(app) -> Iterator[HttpClient]:
    """`app` served by uvicorn on 127.0.0.1 (a random free port) in a thread, for the block.
    Port 0: the kernel picks the port as uvicorn binds it, so servers started at once (test
    workers, pytest-xdist) never race for one that was free a moment before."""
    import uvicorn
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.025)
    assert server.started, "uvicorn did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    client = HttpClient(f"http://127.0.0.1:{port}")
    try:
        yield client
    finally:
        client.close()
        server.should_exit = True
        thread.join(10)


class Spectator(threading.Thread):
    """Follows a game's stream with no token until `event: end`; drops the connection once after
    `drop_after` events and resumes with Last-Event-ID. `events`: what it was sent, in order."""

    def __init__(self, base: str, game: str, drop_after: int = 40):
        super().__init__(daemon=True)
        self.base, self.game, self.drop_after = base, game, drop_after
        self.events: list[dict] = []
        self.reconnects = 0

    def run(self) -> None:
        last = None
        while True:
            headers = {} if last is None else {"Last-Event-ID": str(last)}
            with httpx.stream("GET", f"{self.base}/games/{self.game}/stream", headers=headers,
                              timeout=120) as r:
                kind = None
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: ") and kind == "event":
                        self.events.append(json.loads(line[6:]))
                        last = self.events[-1]["seq"]
                        if len(self.events) == self.drop_after:
                            self.reconnects += 1
                            break           # drop the connection once, resume after it
                    elif line.startswith("data: ") and kind == "end":
                        return


def fold_stored(rs, lines: list[str]):
    """A stored game's lines folded by the ruleset `rs` from its GameStarted: the state at the
    end, and every (state before, envelope, findings) on the way."""
    from engine.core.events import Event
    s, steps = None, []
    for line in lines:
        e = json.loads(line)
        p = rs.payload_models[e["type"]].model_validate(e["payload"])
        if s is None:
            s = rs.initial_state(p, rs.default_data())
            continue
        problems, nxt = rs.step(s, Event(e["seq"], e["type"], e["actor"], p))
        steps.append((s, e, problems))
        s = s if nxt is None else nxt
    return s, steps


def export_of(tmp_path, db, game: str) -> list[dict]:
    """`ledger export GAME` of the stored game, as envelopes (and `ledger verify` passes)."""
    from typer.testing import CliRunner
    from ledger.cli import app as cli
    runner = CliRunner()
    r = runner.invoke(cli, ["verify", game, "--db", str(db)])
    assert r.exit_code == 0, r.output
    out = tmp_path / f"{game}.export.jsonl"
    r = runner.invoke(cli, ["export", game, "--db", str(db), "--out", str(out)])
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in out.read_text().splitlines()]


# --- a log replayed through the API ---------------------------------------------------------------

def is_europe_chance(e: dict) -> bool:
    """A Risk Europe event the server makes with seeded dice (asked for with an empty payload)."""
    return e["type"] in ("DiceRolled", "TilesDrawn") or (e["type"] == "CardRevealed" and "dice" in e["payload"])


def replay(client, created: dict, log: list[dict], upto: int | None = None) -> list[int]:
    """Post the events of `log` (a Risk Europe bot log whose seed the server was given) up to seq
    `upto` (exclusive; default all): each decision with its seat's token (a Mercenary Army's with
    its controller's, the organizer's for claims), the dice asked for with empty payloads; the
    server's own events are skipped. The seqs posted."""
    gid, seats, org = created["game"], created["seats"], created["organizer"]
    seed_event = get_ruleset("risk-europe").seed_event
    posted = []
    for e in log[1:upto]:
        i = e["seq"]
        if client.get(f"/games/{gid}/state").json()["next_seq"] > i or e["type"] == seed_event:
            continue
        chance = is_europe_chance(e)
        payload = {} if chance else {k: v for k, v in e["payload"].items()
                                     if not (e["type"] == "DiceRerolled" and k == "rolls")}
        who = org if chance or e["actor"] is None else seats.get(e["actor"]) or seats[controller(client, gid, e["actor"])]
        post(client, gid, who, i, e["type"], e["actor"], payload)
        posted.append(i)
    return posted


def controller(client, gid: str, army: str) -> str:
    """The player who plays a Mercenary Army now (the public view says)."""
    return client.get(f"/games/{gid}/state").json()["view"]["players"][army]["controller"]


def post(client, gid: str, token: str, seq: int, type_: str, actor: str | None, payload: dict,
         status: int = 200) -> dict:
    r = client.post(f"/games/{gid}/events", headers=auth(token),
                    json={"expected_seq": seq, "type": type_, "actor": actor, "payload": payload})
    assert r.status_code == status, (seq, type_, actor, r.text)
    return r.json()


# --- seat clients whose bots choose live from /legal ----------------------------------------------

class SeatClient:
    """One seat at the table: its token, the log as it reads it (refreshed from the first event
    it was shown redacted, since a secret revealed later changes that event), and a bot per actor
    it plays (itself, a Mercenary Army it controls), from the ruleset's `bot` hook."""

    def __init__(self, http, game: str, seat: str, token: str, ruleset: str, seed: str):
        self.http, self.game, self.seat, self.token = http, game, seat, token
        self.rs = get_ruleset(ruleset)
        self.seed = seed
        self.log: list[dict] = []
        self.bots: dict[str, object] = {}
        self.posted = 0

    def refresh(self) -> list[dict]:
        k = next((i for i, e in enumerate(self.log) if e.get("hash") is None), len(self.log))
        r = self.http.get(f"/games/{self.game}/events", params={"since": k}, headers=auth(self.token))
        assert r.status_code == 200, r.text
        self.log[k:] = r.json()["events"]
        return self.log

    def act(self, actor: str, types: frozenset[str] | None = None) -> bool:
        """Let `actor`'s bot choose one of its legal moves (of `types` only, when given) and post
        it; False when it has none to make (no move for it, or it lets the moment pass)."""
        r = self.http.get(f"/games/{self.game}/legal", headers=auth(self.token))
        assert r.status_code == 200, r.text
        legal = r.json()
        moves = [m for m in legal["moves"] if m["actor"] == actor and (types is None or m["type"] in types)]
        if not moves:
            return False
        bot = self.bots.get(actor)
        if bot is None:
            bot = self.bots[actor] = self.rs.bot(actor, f"{self.seed}:{actor}")
        pick = bot.choose(self.refresh(), moves)
        if pick is None:
            return False
        assert pick in moves, pick
        post(self.http, self.game, self.token, legal["next_seq"], pick["type"], pick["actor"], pick["payload"])
        self.posted += 1
        return True


def play_live(http, created: dict, claim, seed: str = "live", max_events: int = 20_000,
              watch=None, until=None, asks=None, table=None) -> dict[str, SeatClient]:
    """Seat clients play the game `created` to its end, each bot choosing from its own legal
    moves; the server makes the chance, the organizer claims the result when the rules give one
    (`claim(result)`: the result event's payload), and the server reveals the seed. `watch(state)`
    is called with the public state before each decision; `until(state)` true stops the play
    there. `asks(state, actors)`: whom to ask, in order, as (actor, the move types it is asked
    about, None for all) — the game's rule of priority when several may act at once (default:
    the actors as the server lists them, each about all its moves); the first that makes a move
    is taken. `table(state)`: the organizer's event when the game waits for no one (a card only
    the table can turn over, a name after a roll-off), as (type, payload), or None. The seats' clients, their
    logs read at the end."""
    gid, org = created["game"], created["organizer"]
    ruleset = created["ruleset"]
    rs = get_ruleset(ruleset)
    seats = {p: SeatClient(http, gid, p, tok, ruleset, seed) for p, tok in created["seats"].items()}
    claimed = False
    while True:
        state = http.get(f"/games/{gid}/state").json()
        assert state["next_seq"] < max_events, "the game did not end"
        actors = state["actors"]
        if not actors:
            events = http.get(f"/games/{gid}/events", params={"since": state["next_seq"] - 1}).json()
            if events["events"][-1]["type"] == rs.seed_event:
                break
            turned = table(state) if table is not None else None
            if turned is not None:
                post(http, gid, org, state["next_seq"], turned[0], None, turned[1])
                continue
            assert state["over"] and not claimed, f"the game waits for no one at {state['next_seq']}"
            post(http, gid, org, state["next_seq"], rs.result_event, None, claim(state["result"]))
            claimed = True
            continue
        if watch is not None:
            watch(state)
        if until is not None and until(state):
            break
        acted = False
        for actor, types in (asks(state, actors) if asks is not None else [(a, None) for a in actors]):
            order = [seats[actor]] if actor in seats else list(seats.values())
            if any(c.act(actor, types) for c in order):
                acted = True
                break
        assert acted, f"no one acts for {actors} at {state['next_seq']}"
    for c in seats.values():
        c.log = []
        c.refresh()
    return seats

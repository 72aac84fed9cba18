"""Load on `ledger serve` over loopback: N games played at once through HTTP, a spectator on
each game's stream; appends per second, and the p50/p99 latency of an append and of its
delivery on the stream.

    python bench/run.py serve          (or: python -m bench.bench_serve --games 8 --events 300)

The server is the service `ledger serve` runs (ledger.service.create_app under uvicorn, one
process of its own, a fresh DuckDB store, no rate limit, the stream polling every 50 ms as
`ledger serve` does), given the seeds of N bot games so that its dice are theirs. This process
plays the games' seats, asynchronously: per game, one client posts each decision of the bot's
log with its seat's token and asks for the dice with an empty payload (the organizer's token),
at the seq it expects; the server rolls, judges, stores and appends the dice no one decides.
One spectator per game follows its stream.

Figures:
- appends/s: appends answered 200 over the wall time of the run (and the events stored, the
  server's own dice included);
- append latency: from sending the POST to its answer, over every append;
- stream delivery: from sending the append to the spectator reading the event, over every
  event a client appended; and the lag after the append's answer (negative: the spectator had
  it first).

With --long (python bench/run.py serve-long, or python -m bench.bench_serve --long): one long
game (a 2-player Mercenaries game of the bots, about 2,200 events) played alone through HTTP, each
append followed by its seat's read of the events since its seq, as a seat client does: the cost
of an append, and of that read, early and late in the game, as a ratio measured in the same run
(1.0: the cost of an append does not grow with the game). One after another (the first appends
against the last, minutes apart), and paired: once the long game is near its end, EDGE appends
to a fresh copy of it and EDGE to the long one, in turn, so that each late append has an early
one made under the same load (these machines are shared and their load changes within seconds).

Loopback, one machine: the clients share the CPU with the server. Compare runs on the same
machine, not seconds. Not part of the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

clock = time.perf_counter
PLAYERS = ("blue", "orange", "red", "green")
CHANCE = ("DiceRolled", "TilesDrawn")
POLL = 0.05        # the stream's poll, as `ledger serve` has it


def _serve(db: str, port: int, seeds: dict[str, str]) -> None:
    """The server process: the service over `db` on 127.0.0.1:`port`, its seeds given."""
    import uvicorn

    from ledger.service import create_app
    app = create_app(db, seed_for=seeds.__getitem__, poll_seconds=POLL)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bot_games(n: int, first_seed: int = 101) -> dict[str, list[dict]]:
    """N Risk Europe games the bots play as at a live table (each turn ended by its player),
    by id, with their secrets in clear (bids as amounts, cards as ids: what seat clients that
    trust the server with their secrets send; the tests' opener, tests/test_views.py)."""
    from engine.risk_europe.sim import simulate_game
    from tests.test_views import open_europe
    return {f"load-{k:02d}": open_europe(simulate_game(first_seed + k, f"load-{k:02d}", live=True))
            for k in range(n)}


def _is_chance(e: dict) -> bool:
    """Is the logged event one the server makes (asked for with an empty payload)?"""
    return e["type"] in CHANCE or (e["type"] == "CardRevealed" and "dice" in e["payload"])


def _request(e: dict, seats: dict[str, str], organizer: str) -> tuple[str, dict]:
    """The token and body of posting a logged event: dice asked for with an empty payload."""
    chance = _is_chance(e)
    payload = {} if chance else {k: v for k, v in e["payload"].items()
                                 if not (e["type"] == "DiceRerolled" and k == "rolls")}
    token = seats[e["actor"]] if e["actor"] in seats and not chance else organizer
    return token, {"expected_seq": e["seq"], "type": e["type"], "actor": e["actor"],
                   "payload": payload}


class Run:
    """What the clients saw: per (game, seq) when its append was sent and answered, and when
    the spectator read it; every append's latency."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}
        self.answered: dict[tuple[str, int], float] = {}
        self.streamed: dict[tuple[str, int], float] = {}
        self.latency: list[float] = []
        self.stored: dict[str, int] = {}


async def play(client, gid: str, log: list[dict], limit: int, created: dict, run: Run) -> None:
    """Post the game's events, at the seq the server expects next, until `limit` are stored."""
    seats, organizer = created["seats"], created["organizer"]
    nxt = created["next_seq"]
    for e in log[1:]:
        if nxt >= limit:
            break
        if e["seq"] < nxt or e["type"] == "SeedRevealed":
            continue                    # the server made it
        assert e["seq"] == nxt, (gid, e["seq"], nxt)
        token, body = _request(e, seats, organizer)
        t0 = clock()
        r = await client.post(f"/games/{gid}/events", json=body,
                              headers={"Authorization": f"Bearer {token}"})
        t1 = clock()
        if r.status_code != 200:
            raise RuntimeError(f"{gid} seq {e['seq']}: {r.status_code} {r.text[:300]}")
        run.latency.append(t1 - t0)
        run.sent[gid, e["seq"]], run.answered[gid, e["seq"]] = t0, t1
        nxt = r.json()["head"]["next_seq"]
    run.stored[gid] = nxt


async def follow(client, gid: str, run: Run) -> None:
    """A spectator on the game's stream, noting when each event comes (until cancelled)."""
    import httpx
    try:
        async with client.stream("GET", f"/games/{gid}/stream", timeout=None) as r:
            async for line in r.aiter_lines():
                if line.startswith("id: "):
                    run.streamed[gid, int(line[4:])] = clock()
    except httpx.HTTPError:
        return              # the server went (the run is over)


async def load(base: str, games: dict[str, list[dict]], limit: int) -> tuple[Run, float]:
    import httpx
    run = Run()
    limits = httpx.Limits(max_connections=4 * len(games) + 8, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        created = {}
        for gid in games:
            r = await client.post("/games", json={"ruleset": "risk-europe", "players": list(PLAYERS),
                                                  "game_id": gid})
            r.raise_for_status()
            created[gid] = r.json()
        spectators = [asyncio.create_task(follow(client, gid, run)) for gid in games]
        await asyncio.sleep(0.2)                 # the spectators are on
        t0 = clock()
        await asyncio.gather(*(play(client, gid, log, limit, created[gid], run)
                               for gid, log in games.items()))
        wall = clock() - t0
        deadline = clock() + 10
        while clock() < deadline and not all((gid, run.stored[gid] - 1) in run.streamed
                                             for gid in games):
            await asyncio.sleep(0.05)
        for task in spectators:
            task.cancel()
        await asyncio.gather(*spectators, return_exceptions=True)
    return run, wall


LONG_SEED, LONG_VARIANT = 8, "mercenaries-2p"      # about 2,200 events
LONG_PLAYERS = ("blue", "orange")
EDGE = 150          # appends measured early and late


def long_game() -> tuple[str, list[dict]]:
    """The long game's id and log, with its secrets in clear (bot_games's)."""
    from engine.risk_europe.sim import simulate_game
    from tests.test_views import open_europe
    gid = "long-00"
    return gid, open_europe(simulate_game(LONG_SEED, gid, LONG_VARIANT, live=True))


class Seats:
    """One client playing a copy of the long game's log on the server, one event at a time, each
    append followed by the poster's read of the events since its seq (as a seat client does)."""

    def __init__(self, client, gid: str, log: list[dict]):
        self.client, self.gid, self.log = client, gid, log
        r = client.post("/games", json={"ruleset": "risk-europe", "players": list(LONG_PLAYERS),
                                        "game_id": gid, "variant": LONG_VARIANT})
        r.raise_for_status()
        created = r.json()
        self.seats, self.organizer = created["seats"], created["organizer"]
        self.next_seq = created["next_seq"]
        self.controls: dict[str, str] = {}   # the token that last played each Mercenary Army
        self.at = 1                          # the next logged event to look at

    def step(self) -> tuple[float, float] | None:
        """Post the next event the server does not make; (append, read) seconds, None at the end."""
        while self.at < len(self.log):
            e = self.log[self.at]
            self.at += 1
            if e["seq"] < self.next_seq or e["type"] == "SeedRevealed":
                continue                    # the server made it
            assert e["seq"] == self.next_seq, (self.gid, e["seq"], self.next_seq)
            token, body = _request(e, self.seats, self.organizer)
            if token == self.organizer and e["actor"] is not None and not _is_chance(e):
                # a Mercenary Army's decision: its controller's (who won its bid this round)
                tokens = sorted(self.seats.values(), key=lambda t: t != self.controls.get(e["actor"]))
            else:
                tokens = [token]
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                t0 = clock()
                r = self.client.post(f"/games/{self.gid}/events", json=body, headers=auth)
                t1 = clock()
                if r.status_code != 403:
                    self.controls[e["actor"]] = token
                    break
            if r.status_code != 200:
                raise RuntimeError(f"{self.gid} seq {e['seq']}: {r.status_code} {r.text[:300]}")
            got = self.client.get(f"/games/{self.gid}/events", params={"since": e["seq"]},
                                  headers=auth)
            t2 = clock()
            got.raise_for_status()
            self.next_seq = r.json()["head"]["next_seq"]
            return t1 - t0, t2 - t1
        return None


def main_long(limit: int = 0) -> None:
    """One long game played through HTTP to `limit` events (0: its end), then EDGE appends to
    a fresh copy of it and EDGE more to the long one, in turn: each late append paired with an
    early one made under the same load."""
    import httpx
    gid, log = long_game()
    limit = min(limit or len(log), len(log))
    seed = log[-1]["payload"]["seed"]
    fresh = f"{gid}-early"
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        spawn = multiprocessing.get_context("spawn")
        server = spawn.Process(target=_serve, args=(str(Path(tmp) / "serve.duckdb"), port,
                                                    {gid: seed, fresh: seed}), daemon=True)
        server.start()
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_for(base, server)
            with httpx.Client(base_url=base, timeout=120) as client:
                late = Seats(client, gid, log)
                t0 = clock()
                sequential = []
                while late.next_seq < limit - EDGE - 8 and (took := late.step()) is not None:
                    sequential.append(took)
                wall = clock() - t0
                early = Seats(client, fresh, log)
                start = late.next_seq
                pairs = []
                for _ in range(EDGE):
                    a, b = early.step(), late.step()
                    if a is None or b is None:
                        break
                    pairs.append((a, b))
                stored = late.next_seq
        finally:
            server.terminate()
            server.join(10)
    print(f"serve, one long game: {gid} ({LONG_VARIANT}, {len(log)} events in its log) over "
          f"loopback (DuckDB store), each append followed by its seat's read of the events since "
          f"its seq; {len(sequential)} appends ({late.next_seq} events stored) in {wall:.1f} s")
    n = min(EDGE, len(sequential) // 3)
    for k, name in ((0, "append"), (1, "read since")):
        first = 1e3 * statistics.median(t[k] for t in sequential[10:10 + n])
        last = 1e3 * statistics.median(t[k] for t in sequential[-n:])
        print(f"  {name:10} one after another: appends 10-{9 + n}: {first:.2f} ms, the last {n} "
              f"before the pairs: {last:.2f} ms (medians); late / early {last / first:.2f}x")
    print(f"  paired ({len(pairs)} pairs: an append to a fresh copy of the game, then one to the "
          f"long game from seq {start} to {stored - 1}, under the same load):")
    for k, name in ((0, "append"), (1, "read since")):
        e = 1e3 * statistics.median(p[0][k] for p in pairs)
        l_ = 1e3 * statistics.median(p[1][k] for p in pairs)
        ratio = statistics.median(p[1][k] / p[0][k] for p in pairs)
        print(f"  {name:10} early {e:.2f} ms, late {l_:.2f} ms (medians); late / early "
              f"{ratio:.2f}x (median of the pairs' ratios)")
    ratio = statistics.median((p[1][0] + p[1][1]) / (p[0][0] + p[0][1]) for p in pairs)
    print(f"  append + read: late / early {ratio:.2f}x (target: about 1, the cost independent "
          f"of the game's length)")


def _pcts(values: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the largest, in ms."""
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return 1e3 * statistics.median(values), 1e3 * cuts[98], 1e3 * max(values)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games played at once (8)")
    parser.add_argument("--events", type=int, default=None,
                        help="events per game, at most (300; with --long the whole game; 0: the "
                             "whole game)")
    parser.add_argument("--long", action="store_true",
                        help="one long game alone instead: an append's cost early and late")
    args = parser.parse_args(argv if argv is not None else [])
    if args.long:
        main_long(args.events or 0)
        return
    games = bot_games(args.games)
    events = 300 if args.events is None else args.events
    limit = events or max(len(log) for log in games.values())
    seeds = {gid: log[-1]["payload"]["seed"] for gid, log in games.items()}
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        spawn = multiprocessing.get_context("spawn")
        server = spawn.Process(target=_serve, args=(str(Path(tmp) / "serve.duckdb"), port, seeds),
                               daemon=True)
        server.start()
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_for(base, server)
            run, wall = asyncio.run(load(base, games, limit))
        finally:
            server.terminate()
            server.join(10)
    appends = len(run.latency)
    stored = sum(run.stored.values()) - len(games)        # the start events are not appends
    print(f"serve: {len(games)} game{'s' if len(games) != 1 else ''} at once over loopback, up to {limit} events each, "
          f"a spectator on each stream (DuckDB store, no rate limit, stream poll {POLL * 1e3:.0f} ms)")
    print(f"  appends: {appends} in {wall:.2f} s = {appends / wall:.0f}/s; events stored "
          f"(the server's dice too): {stored} = {stored / wall:.0f}/s")
    p50, p99, top = _pcts(run.latency)
    print(f"  append latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {top:.1f} ms")
    delivered = [k for k in run.sent if k in run.streamed]
    if delivered:
        p50, p99, top = _pcts([run.streamed[k] - run.sent[k] for k in delivered])
        print(f"  stream delivery (append sent -> spectator has it): p50 {p50:.1f} ms, "
              f"p99 {p99:.1f} ms, max {top:.1f} ms ({len(delivered)} of {len(run.sent)} events)")
        p50, p99, _ = _pcts([run.streamed[k] - run.answered[k] for k in delivered])
        print(f"  stream lag after the append's answer: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    else:
        print("  stream delivery: no event reached a spectator")


def _wait_for(base: str, server) -> None:
    import httpx
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not server.is_alive():
            raise RuntimeError("the server process exited")
        try:
            if httpx.get(f"{base}/openapi.json", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer")


if __name__ == "__main__":
    main(sys.argv[1:])

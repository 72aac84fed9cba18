"""`ledger serve` on PostgreSQL: several server processes share one database, and a spectator's
stream on one of them sees the appends made through another (LISTEN/NOTIFY). Real `ledger serve`
processes (uvicorn) on loopback, a real PostgreSQL server (tests/pg_support.py)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.pg_support import pg_server, pg_url  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parent.parent
GAME = "fan-1"


@pytest.fixture(scope="module")
def moves() -> list[dict]:
    """The decisions and dice of a bot game after its start, in the clear, as a table's
    recorder would post them (dice included: the game is created with table dice)."""
    from engine.risk_europe.sim import simulate_game
    from tests.test_views import open_europe
    return open_europe(simulate_game(3, GAME))[1:40]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(url: str, *extra: str, count: int = 1) -> list[tuple[subprocess.Popen, str]]:
    """`count` processes of `ledger serve --db URL`, started at once; (each process, its base
    URL), once they answer."""
    started = []
    for _ in range(count):
        port = _free_port()
        proc = subprocess.Popen(
            [sys.executable, "-c", "from ledger.cli import app; app()", "serve", "--db", url,
             "--port", str(port), *extra],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
        started.append((proc, f"http://127.0.0.1:{port}"))
    deadline = time.monotonic() + 90
    for proc, base in started:
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"ledger serve exited: {proc.stderr.read()[-2000:]}")
            try:
                if httpx.get(f"{base}/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                for p, _ in started:
                    p.kill()
                raise AssertionError("ledger serve did not answer within 90 s")
            time.sleep(0.1)
    return started


def _stop(proc: subprocess.Popen) -> None:
    """Stop a server and its worker processes (its session: its open streams never end by
    themselves, so what is left after 5 s is killed)."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=10)


class _Spectator:
    """Follows /games/GAME/stream on one server, in a thread, collecting the events."""

    def __init__(self, base: str):
        self.events: list[dict] = []
        self.connected = threading.Event()
        self._client = httpx.Client(timeout=60)
        self._thread = threading.Thread(target=self._follow, args=(base,), daemon=True)
        self._thread.start()
        assert self.connected.wait(30), "the stream did not open"

    def _follow(self, base: str) -> None:
        try:
            with self._client.stream("GET", f"{base}/games/{GAME}/stream") as r:
                self.connected.set()
                kind = None
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: ") and kind == "event":
                        self.events.append(json.loads(line[6:]))
        except (httpx.HTTPError, RuntimeError):
            pass                        # closed by close() (or the server stopping)

    def close(self) -> None:
        """After its server stopped (which ends the stream)."""
        self._client.close()
        self._thread.join(10)

    def wait_for(self, seq: int, seconds: float = 20) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(e["seq"] == seq for e in self.events):
                return True
            time.sleep(0.05)
        return False


def _append(base: str, organizer: str, seq: int, event: dict) -> httpx.Response:
    return httpx.post(f"{base}/games/{GAME}/events", timeout=30,
                      headers={"Authorization": f"Bearer {organizer}"},
                      json={"expected_seq": seq, "type": event["type"], "actor": event["actor"],
                            "payload": event["payload"]})


def test_a_stream_on_one_server_sees_the_appends_made_through_another(pg_url, moves):
    (a, base_a), (b, base_b) = _serve(pg_url, count=2)
    spectators = []
    try:
        r = httpx.post(f"{base_a}/games", timeout=30, json={
            "ruleset": "risk-europe", "players": ["blue", "orange", "red", "green"],
            "game_id": GAME, "dice": "table", "mode": "record"})
        assert r.status_code == 201, r.text
        organizer = r.json()["organizer"]
        on_b, on_a = _Spectator(base_b), _Spectator(base_a)   # B never saw the game created
        spectators += [on_a, on_b]
        assert on_b.wait_for(0)
        for seq, event in enumerate(moves[:10], start=1):     # appended through A ...
            r = _append(base_a, organizer, seq, event)
            assert r.status_code == 200, r.text
            assert on_b.wait_for(seq), f"B's stream did not get seq {seq}"  # ... streamed by B
        for seq, event in enumerate(moves[10:20], start=11):  # and the other way round
            r = _append(base_b, organizer, seq, event)
            assert r.status_code == 200, r.text
            assert on_a.wait_for(seq), f"A's stream did not get seq {seq}"
        assert on_b.wait_for(20)                              # B's own last append too
        assert [e["seq"] for e in on_b.events] == list(range(21))
        assert [e["seq"] for e in on_a.events] == list(range(21))
        assert on_a.events == on_b.events
        # A append at a seq B already filled is refused, and A is told the head
        stale = _append(base_a, organizer, 20, moves[20])
        assert stale.status_code == 409 and stale.json()["code"] == "stale-seq"
        assert stale.json()["seq"] == 21
        assert _append(base_a, organizer, 21, moves[20]).status_code == 200
        for base in (base_a, base_b):
            state = httpx.get(f"{base}/games/{GAME}/state", timeout=30).json()
            assert state["next_seq"] == 22
    finally:
        _stop(a)
        _stop(b)
        for s in spectators:
            s.close()
    from typer.testing import CliRunner
    from ledger.cli import app
    checked = CliRunner().invoke(app, ["check-db", "--db", pg_url, "--json"])
    assert checked.exit_code == 0 and json.loads(checked.output)["events"] == 22


def test_serve_with_workers_behind_one_port_streams_every_append(pg_url, moves):
    [(proc, base)] = _serve(pg_url, "--workers", "2")
    spectators = []
    try:
        r = httpx.post(f"{base}/games", timeout=30, json={
            "ruleset": "risk-europe", "players": ["blue", "orange", "red", "green"],
            "game_id": GAME, "dice": "table", "mode": "record"})
        assert r.status_code == 201, r.text
        organizer = r.json()["organizer"]
        spectators += [_Spectator(base) for _ in range(3)]
        for seq, event in enumerate(moves[:12], start=1):     # each on a new connection
            r = _append(base, organizer, seq, event)
            assert r.status_code == 200, r.text
        for s in spectators:
            assert s.wait_for(12), [e["seq"] for e in s.events]
            assert [e["seq"] for e in s.events] == list(range(13))
    finally:
        _stop(proc)
        for s in spectators:
            s.close()


def test_serve_refuses_workers_on_a_duckdb_file(tmp_path):
    from typer.testing import CliRunner
    from ledger import exitcodes
    from ledger.cli import app
    r = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "s.duckdb"), "--workers", "2"])
    assert r.exit_code == exitcodes.USAGE and "postgresql://" in r.output

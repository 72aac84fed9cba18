"""Racing writers against the real `ledger serve` (#12): 8 client processes append to one game,
each naming the seq it expects, as fast as they can.

The server is `ledger serve` itself (a process of its own, uvicorn on 127.0.0.1, `--rate off`).
The game is recorded at a table (record mode: the organizer's devices may append anything), and
each event carries a mark saying which client sent it and which of its events it is, so that a
lost or a doubled event shows. Every client starts at the same moment (a barrier) at the same
expected seq; on a 409 it takes the head from the answer and tries again at the next seq.

Then: every event of every client is stored exactly once, at the seq its client was told; the
seqs run without a gap; every 409 was `stale-seq` with a head past the seq the loser expected
(another client's event is stored there); and the stored chain verifies (`ledger check-db`, and
the exported log's hash chain read back).
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

import httpx
from typer.testing import CliRunner

from ledger.cli import app as cli
from replay.logfile import read_log
from tests.service_clients import free_port, racer

CLIENTS, EACH = 8, 12
PLAYERS = ["blue", "orange", "red", "green"]
GAME = "race"


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    """`ledger serve` on a free port, up and answering."""
    port = free_port()
    command = [sys.executable, "-c", "import sys; from ledger.cli import app; sys.argv[0] = 'ledger'; app()",
               "serve", "--db", str(db), "--port", str(port), "--rate", "off"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"ledger serve exited: {proc.stdout.read()}")
        try:
            if httpx.get(f"{base}/openapi.json", timeout=2).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("ledger serve did not answer")


def stop_server(proc: subprocess.Popen) -> str:
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate(timeout=30)
    return out


def test_eight_client_processes_race_to_append_and_nothing_is_lost_or_doubled(tmp_path):
    db = tmp_path / "race.duckdb"
    proc, base = start_server(db)
    try:
        made = httpx.post(f"{base}/games", json={"ruleset": "risk-europe", "players": PLAYERS,
                                                 "game_id": GAME, "mode": "record",
                                                 "dice": "table"}, timeout=30)
        assert made.status_code == 201, made.text
        token = made.json()["organizer"]
        spawn = multiprocessing.get_context("spawn")
        start, results = spawn.Barrier(CLIENTS), spawn.Queue()
        clients = [spawn.Process(target=racer, args=(base, GAME, token, i, EACH, start, results))
                   for i in range(CLIENTS)]
        for c in clients:
            c.start()
        reports = [results.get(timeout=300) for _ in clients]
        for c in clients:
            c.join(60)
            assert c.exitcode == 0
        log = httpx.get(f"{base}/games/{GAME}/events",
                        headers={"Authorization": f"Bearer {token}"}, timeout=30).json()["events"]
    finally:
        out = stop_server(proc)
    assert all(not r["other"] for r in reports), [r["other"] for r in reports]

    # every event stored once, where its client was told, the seqs without a gap
    assert [e["seq"] for e in log] == list(range(1 + CLIENTS * EACH))
    marks = [e["payload"]["commitment"] for e in log[1:]]
    sent = {f"client-{i}-event-{k}" for i in range(CLIENTS) for k in range(EACH)}
    assert sorted(marks) == sorted(sent), "an event was lost or stored twice"
    at = {mark: seq for seq, mark in ((e["seq"], e["payload"]["commitment"]) for e in log[1:])}
    for r in reports:
        assert len(r["won"]) == EACH
        assert all(at[mark] == seq for seq, mark in r["won"])
        # each client's events in the order it sent them
        assert [seq for seq, _ in r["won"]] == sorted(seq for seq, _ in r["won"])

    # every loser got 409 stale-seq with a head past its seq, another client's event there
    losses = [(r["index"], *loss) for r in reports for loss in r["lost"]]
    assert losses, "the clients raced: some appends must have lost"
    for index, expected, code, head in losses:
        assert code == "stale-seq"
        assert head["next_seq"] > expected and head["seq"] == head["next_seq"] - 1
        assert not log[expected]["payload"]["commitment"].startswith(f"client-{index}-")
        assert head["hash"] == log[head["seq"]]["hash"]          # the organizer sees the chain

    # the stored chain verifies
    assert "Traceback" not in out, out
    runner = CliRunner()
    r = runner.invoke(cli, ["check-db", "--db", str(db)])
    assert r.exit_code == 0, r.output
    exported = tmp_path / "race.jsonl"
    r = runner.invoke(cli, ["export", GAME, "--db", str(db), "--out", str(exported)])
    assert r.exit_code == 0, r.output
    read = read_log(exported)
    assert read.sealed and read.chain_ok and not read.problems
    assert [json.loads(line) for line in exported.read_text().splitlines()] == log

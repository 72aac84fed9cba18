"""The store under real processes: writers racing on one game, a database file held by another
process, and an ingest killed with SIGKILL.

DuckDB lets one process at a time open a file for writing. So writers in different processes
take turns (open_store waits for the file, then raises the retryable StoreBusy), and a writer
that read the head before another one appended gets ConcurrencyConflict from its append.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from replay.logfile import read_log
from ledger.store import ConcurrencyConflict, StoreBusy, open_store
from tests.test_store_support import game, write_games

ROOT = Path(__file__).resolve().parent.parent
SPAWN = multiprocessing.get_context("spawn")


# --- two writers racing on one game -----------------------------------------------------------


def _race_writer(db: str, at: str, start, results) -> None:
    envelope = dict(game("race")[10], at=at, prev=None, hash=None)
    start.wait()
    try:
        with open_store(db, wait=30) as store:
            store.append("race", 10, [envelope])
        results.put(("won", at))
    except ConcurrencyConflict as exc:
        results.put(("conflict", str(exc)))
    except Exception as exc:  # pragma: no cover - reported to the test
        results.put(("error", repr(exc)))


def test_two_processes_appending_at_the_same_seq_one_wins_the_other_conflicts(tmp_path):
    db = str(tmp_path / "store.duckdb")
    with open_store(db) as store:
        store.append("race", 0, game("race")[:10])
    start, results = SPAWN.Event(), SPAWN.Queue()
    writers = [SPAWN.Process(target=_race_writer, args=(db, f"2026-03-14T2{i}:00:00Z", start,
                                                         results)) for i in range(2)]
    for w in writers:
        w.start()
    start.set()
    outcomes = sorted(results.get(timeout=60) for _ in writers)
    for w in writers:
        w.join(timeout=30)
    assert [kind for kind, _ in outcomes] == ["conflict", "won"], outcomes
    assert "expected to append at seq 10" in outcomes[0][1]
    with open_store(db, read_only=True) as store:
        lines = store.events("race")
        assert len(lines) == 11 and f'"at":"{outcomes[1][1]}"' in lines[10]
        assert store.check().ok


# --- many writers, each retrying on conflict ----------------------------------------------------


def _tally_writer(db: str, writer: int, count: int, results) -> None:
    rng = random.Random(writer)
    done = conflicts = 0
    try:
        while done < count:
            with open_store(db, wait=60) as store:
                head = store.head("tally")
            time.sleep(rng.random() * 0.02)  # others may append between the read and the append
            try:
                with open_store(db, wait=60) as store:
                    store.append("tally", head.next_seq, [
                        {"type": "Noted", "actor": None, "payload": {"writer": writer, "n": done}}])
                done += 1
            except ConcurrencyConflict:
                conflicts += 1
        results.put((writer, conflicts, None))
    except Exception as exc:  # pragma: no cover - reported to the test
        results.put((writer, conflicts, repr(exc)))


def test_writers_in_several_processes_lose_no_event_and_duplicate_none(tmp_path):
    db = str(tmp_path / "store.duckdb")
    writers, count = 3, 3
    with open_store(db) as store:
        store.append("tally", 0, game("tally", 1))
    results = SPAWN.Queue()
    procs = [SPAWN.Process(target=_tally_writer, args=(db, w, count, results))
             for w in range(writers)]
    for p in procs:
        p.start()
    reports = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert [error for _, _, error in reports] == [None] * writers
    with open_store(db, read_only=True) as store:
        read = read_log_from(store, "tally")
        tags = sorted((e.payload["writer"], e.payload["n"]) for e in read.events[1:])
        assert tags == [(w, n) for w in range(writers) for n in range(count)]
        assert read.chain_ok and store.check().ok


def read_log_from(store, game_id):
    from ledger.store import load_log_from_store
    return load_log_from_store(store, game_id)


# --- a file held by another process -----------------------------------------------------------


_HOLD = """
import sys, time
from ledger.store import open_store
store = open_store(sys.argv[1])
print("open", flush=True)
sys.stdin.readline()
store.close()
"""


def test_a_store_held_by_another_process_is_busy_then_free(tmp_path):
    db = tmp_path / "store.duckdb"
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(db)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == "open"
        started = time.monotonic()
        with pytest.raises(StoreBusy) as caught:
            open_store(db, wait=0.3)
        assert time.monotonic() - started >= 0.3
        assert f"PID {holder.pid}" in str(caught.value) and "try again" in str(caught.value)
        with pytest.raises(StoreBusy):
            open_store(db, read_only=True)
        cli = subprocess.run([sys.executable, "-c", "from ledger.cli import app; app()",
                              "games", "--db", str(db)], cwd=ROOT, capture_output=True,
                             text=True, env={**os.environ, "LEDGER_DB_WAIT": "0.2"}, timeout=60)
        assert cli.returncode == 2 and "in use by another process" in " ".join(cli.stderr.split())
    finally:
        holder.communicate("\n", timeout=30)
    with open_store(db, wait=5) as store:  # free again
        assert store.games() == []


# --- kill -9 in the middle of an ingest ----------------------------------------------------------


_INGEST = """
import sys
from ledger.ingest import ingest_paths
from ledger.store import open_store
store = open_store(sys.argv[1])
ingest_paths(store, [sys.argv[2]], batch_events=int(sys.argv[3]),
             on_outcome=lambda o: print(o.game_id, flush=True))
print("done", flush=True)
"""


def test_an_ingest_killed_with_sigkill_leaves_every_game_whole_or_absent(tmp_path):
    logs = write_games(tmp_path / "logs", 60)
    db = tmp_path / "store.duckdb"
    proc = subprocess.Popen([sys.executable, "-c", _INGEST, str(db), str(tmp_path / "logs"),
                             "1000"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    committed = []
    while len(committed) < 10:
        line = proc.stdout.readline().strip()
        assert line and line != "done", "the ingest ended before it could be killed"
        committed.append(line)
    time.sleep(random.random() * 0.1)  # somewhere in the next batch
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    with open_store(db) as store:
        assert store.check().ok, store.check().problems
        stored = {g.game_id: g for g in store.games()}
        assert set(committed) <= set(stored) and len(stored) < len(logs)
        for gid, row in stored.items():
            assert row.event_count == 195
            assert store.events(gid) == [e.raw for e in read_log(logs[int(gid[1:])]).events]
        again = store.ingest_reads(read_log(p) for p in logs)
    assert sum(o.status == "present" for o in again) == len(stored)
    assert sum(o.status == "new" for o in again) == len(logs) - len(stored)

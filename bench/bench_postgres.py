"""The PostgreSQL store against the DuckDB one and against the `eventsourcing` library's
PostgreSQL recorder, on the same server, in the same run (issue #13):

  ingest   the same corpus, one process, full validation (read, chain, judge, store) into a
           DuckDB file and into a PostgreSQL database; the store's own share ("store alone")
  (c)      eventsourcing's PostgresAggregateRecorder storing the same events, a game per
           transaction, its own optimistic-concurrency check, no validation
  (d)      the ceiling: the same event rows COPYed into a PostgreSQL table of the same shape
  writers  8 processes appending to one game at once, each retrying at the head a conflict
           names (--appends each; the issue's size is 1,000)
  ingests  8 processes ingesting overlapping halves of the corpus at once

    python bench/run.py postgres            (or: python -m bench.bench_postgres --games 100)

The server is a throwaway cluster started here with scripts/pg-cluster.sh (durable settings:
fsync on), or the one $LEDGER_PG_URL names (a superuser's URL; a database per run is made on
it). These machines are shared and noisy: compare ratios within a run, not seconds.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_ingest import corpus  # noqa: E402
from ledger.ingest import ingest_paths  # noqa: E402
from ledger.store import ConcurrencyConflict, open_store  # noqa: E402
from replay.logfile import read_log  # noqa: E402

SCRIPT = ROOT / "scripts" / "pg-cluster.sh"
WRITERS = 8
SPAWN = multiprocessing.get_context("spawn")


class Server:
    """A PostgreSQL server for the run: its superuser URL, and new databases on it."""

    def __init__(self) -> None:
        self.folder = None
        self.url = os.environ.get("LEDGER_PG_URL")
        if not self.url:
            out = subprocess.run(["bash", str(SCRIPT), "start"], capture_output=True, text=True,
                                 check=True).stdout
            env = dict(line.split("=", 1) for line in out.split() if "=" in line)
            self.url, self.folder = env["LEDGER_PG_URL"], env["LEDGER_PG_DIR"]

    def database(self, name: str) -> str:
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(f'DROP DATABASE IF EXISTS "{name}"')
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        if self.folder:
            subprocess.run(["bash", str(SCRIPT), "stop", self.folder], capture_output=True)


def ingest_once(db: str, paths: list[Path]) -> tuple[float, float, int]:
    """(seconds in all, seconds in the store's own work, events added) of one ingest."""
    with open_store(db) as store:
        report = ingest_paths(store, paths, jobs=1)
        begun = time.perf_counter()
        if hasattr(store, "checkpoint"):
            store.checkpoint()             # DuckDB: into the database file, as PostgreSQL's are
        flushed = time.perf_counter() - begun
    assert all(o.status == "new" for o in report.outcomes), "the corpus did not ingest cleanly"
    return report.elapsed + flushed, report.timings.get("write", 0.0) + flushed, \
        report.events_added


def eventsourcing_postgres(url: str, reads) -> float | None:
    """Seconds for eventsourcing's PostgreSQL recorder to store every event (a game per
    transaction); None when the library is not installed."""
    try:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore
    except ImportError:
        return None
    from urllib.parse import urlparse
    u = urlparse(url)
    datastore = PostgresDatastore(u.path.lstrip("/"), u.hostname, u.port, u.username or "",
                                  u.password or "")
    recorder = PostgresAggregateRecorder(datastore, events_table_name="stored_events")
    recorder.create_table()
    ids = [uuid.uuid5(uuid.NAMESPACE_URL, r.events[0].game) for r in reads]
    started = time.perf_counter()
    for originator, r in zip(ids, reads):
        recorder.insert_events([StoredEvent(originator_id=originator, originator_version=e.seq,
                                            topic=e.type, state=e.raw.encode())
                                for e in r.events])
    seconds = time.perf_counter() - started
    datastore.close()
    return seconds


def copy_ceiling(url: str, reads) -> float:
    """Seconds to COPY every event row into a table of the events table's shape, no checks."""
    import psycopg
    with psycopg.connect(url) as con:
        con.execute('CREATE TABLE ceiling (game_id VARCHAR, seq INTEGER, type VARCHAR, actor '
                    'VARCHAR, "at" VARCHAR, payload JSON GENERATED ALWAYS AS ((raw::json) -> '
                    "'payload') STORED, prev VARCHAR, hash VARCHAR, raw VARCHAR, "
                    "PRIMARY KEY (game_id, seq))")
        con.commit()
        started = time.perf_counter()
        with con.cursor() as cur:
            with cur.copy('COPY ceiling (game_id, seq, type, actor, "at", prev, hash, raw) '
                          "FROM STDIN") as copy:
                for r in reads:
                    for e in r.events:
                        copy.write_row((e.game, e.seq, e.type, e.actor, e.at, e.prev, e.hash,
                                        e.raw))
        con.commit()
        return time.perf_counter() - started


def _appender(url: str, writer: int, count: int, ready, start, results) -> None:
    import random
    rng = random.Random(writer)
    done = conflicts = 0
    with open_store(url) as store:
        ready.put(writer)
        start.wait()
        at, in_a_row = store.head("tally").next_seq, 0
        while done < count:
            try:
                head = store.append("tally", at, [{"type": "Noted", "actor": None,
                                                   "payload": {"writer": writer, "n": done}}])
                done, at, in_a_row = done + 1, head.next_seq, 0
            except ConcurrencyConflict as conflict:
                conflicts, in_a_row, at = conflicts + 1, in_a_row + 1, conflict.actual_seq
                time.sleep(rng.random() * 0.002 * min(in_a_row, 8))
    results.put((writer, conflicts))


def writers(url: str, appends: int) -> tuple[float, int, int, bool]:
    """(seconds, events, conflicts, check ok) of WRITERS processes appending to one game."""
    from tests.test_store_support import game
    with open_store(url) as store:
        store.append("tally", 0, game("tally", 1))
    ready, start, results = SPAWN.Queue(), SPAWN.Event(), SPAWN.Queue()
    procs = [SPAWN.Process(target=_appender, args=(url, w, appends, ready, start, results))
             for w in range(WRITERS)]
    for p in procs:
        p.start()
    for _ in procs:                       # every one imported and its store open
        ready.get(timeout=600)
    began = time.perf_counter()
    start.set()
    conflicts = sum(results.get(timeout=7200)[1] for _ in procs)
    seconds = time.perf_counter() - began
    for p in procs:
        p.join()
    with open_store(url, read_only=True) as store:
        events = store.head("tally").next_seq
        ok = store.check().ok and events == 1 + WRITERS * appends
    return seconds, events, conflicts, ok


def _ingester(url: str, paths: list[str], ready, start, results) -> None:
    with open_store(url) as store:
        ready.put(True)
        start.wait()
        report = ingest_paths(store, paths, jobs=1)
    results.put(sum(o.status == "new" for o in report.outcomes))


def ingests(url: str, paths: list[Path]) -> tuple[float, int, int, bool]:
    """(seconds, games stored, games new in all outcomes, check ok) of WRITERS processes
    ingesting overlapping halves of the corpus at once."""
    n = len(paths)
    corpora = [[str(paths[(w * n // WRITERS + k) % n]) for k in range(n // 2)]
               for w in range(WRITERS)]
    ready, start, results = SPAWN.Queue(), SPAWN.Event(), SPAWN.Queue()
    procs = [SPAWN.Process(target=_ingester, args=(url, c, ready, start, results))
             for c in corpora]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=600)
    began = time.perf_counter()
    start.set()
    new = sum(results.get(timeout=7200) for _ in procs)
    seconds = time.perf_counter() - began
    for p in procs:
        p.join()
    with open_store(url, read_only=True) as store:
        stored = len(store.games())
        ok = store.check().ok
    return seconds, stored, new, ok


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="corpus size (default 100)")
    parser.add_argument("--appends", type=int, default=100,
                        help="appends per writer process (default 100; the issue's: 1000)")
    args = parser.parse_args(argv if argv is not None else [])
    try:
        server = Server()
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"postgres: no server could be started ({exc}); skipped")
        return
    try:
        with tempfile.TemporaryDirectory(prefix="bench-postgres-") as tmp:
            workdir = Path(tmp)
            paths, source = corpus(args.games, workdir / "logs")
            reads = [read_log(p) for p in paths]
            events = sum(len(r.events) for r in reads)
            print(f"corpus: {len(paths)} games, {events} events, {source}")
            print(f"server: {server.url.rsplit('/', 1)[0]} "
                  f"({'started here, fsync on' if server.folder else '$LEDGER_PG_URL'})")

            ingest_once(str(workdir / "warm.duckdb"), paths[:2])     # imports, caches: warm
            duck_all, duck_store, _ = ingest_once(str(workdir / "bench.duckdb"), paths)
            pg_all, pg_store, _ = ingest_once(server.database("bench_ledger"), paths)
            es = eventsourcing_postgres(server.database("bench_es"), reads)
            ceiling = copy_ceiling(server.database("bench_ceiling"), reads)

            print("ingest, one process, full validation:")
            print(f"  DuckDB:      {events / duck_all:>9,.0f} events/s  (store alone "
                  f"{events / duck_store:,.0f} events/s)")
            print(f"  PostgreSQL:  {events / pg_all:>9,.0f} events/s  (store alone "
                  f"{events / pg_store:,.0f} events/s)")
            if es is not None:
                print(f"(c) eventsourcing, PostgreSQL recorder: {events / es:>9,.0f} events/s "
                      f"(no validation)")
            else:
                print("(c) eventsourcing: not installed (pip install 'eventsourcing[postgres]')")
            print(f"(d) COPY into PostgreSQL (the ceiling): {events / ceiling:>9,.0f} events/s")
            print("ratios:")
            print(f"  PostgreSQL / DuckDB, full:         {duck_all / pg_all:6.2f}")
            print(f"  PostgreSQL / DuckDB, store alone:  {duck_store / pg_store:6.2f}")
            if es is not None:
                print(f"  PostgreSQL store alone / eventsourcing: {es / pg_store:6.2f}")
            print(f"  PostgreSQL store alone / COPY ceiling:  {ceiling / pg_store:6.2f}")

            seconds, stored, conflicts, ok = writers(server.database("bench_writers"),
                                                     args.appends)
            print(f"{WRITERS} processes x {args.appends} appends to one game: "
                  f"{WRITERS * args.appends / seconds:,.0f} appends/s, {seconds:.1f} s, "
                  f"{conflicts} conflicts retried; {stored} events stored "
                  f"(expected {1 + WRITERS * args.appends}), check {'ok' if ok else 'FAILED'}")
            seconds, games, new, ok = ingests(server.database("bench_ingests"), paths)
            print(f"{WRITERS} processes ingesting overlapping halves of the corpus: "
                  f"{games} games stored, {new} stored as new (expected {len(paths)}), "
                  f"{seconds:.1f} s, check {'ok' if ok else 'FAILED'}")
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])

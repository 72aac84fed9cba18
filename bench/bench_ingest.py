"""Ingest throughput (events/s) into the DuckDB store, with the engine's checks, against two
baselines measured in the same run:

  (a) the ceiling: the same event rows bulk-inserted into DuckDB in one statement, no validation;
  (b) the `eventsourcing` library used as its users use it, the baseline issue #15 names: an
      Application on SQLite, one Aggregate per game, one domain event per log event (its type,
      seq and payload), the game's events saved in one `save` (its mapper, JSON transcoder,
      optimistic-concurrency check and one transaction), no game validation;
  (c) the same library's SQLite recorder alone, given ready StoredEvent rows built from the raw
      lines (no aggregate, no transcoding): a floor under (b), for reference.

    python bench/run.py ingest                    (or: python -m bench.bench_ingest --games 100)

`--cpu` times everything in CPU time (`time.process_time`: this process, DuckDB's threads
included) instead of wall-clock time, the figure a loaded machine inflates least; the run with
worker processes is then left out (their CPU is not this process's).

The corpus is N simulated games (ledger.cli_simulate) or, without the simulator, re-sealed copies of
sample_logs/game42.jsonl. Validation (reading the log and the hash chain, judging every event)
is timed apart from the store's own work (planning, row building, inserts, commits), so the
write path can be compared with the ceiling once validation is set aside. These machines are
noisy: compare ratios across runs, not seconds. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import types
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.ingest import ingest_paths  # noqa: E402
from replay.logfile import read_log, seal, write_log  # noqa: E402
from ledger.parallel import default_jobs  # noqa: E402
from ledger.store import event_frame, open_store  # noqa: E402

TARGET_FULL = 50_000        # events/s with full validation
TARGET_CEILING_SHARE = 1 / 3  # of the raw ceiling, validation set aside


def corpus(games: int, folder: Path) -> tuple[list[Path], str]:
    """`games` sealed logs in `folder`, and where they came from."""
    try:
        from ledger.cli_simulate import simulate_games
    except ImportError:
        simulate_games = None
    if simulate_games is not None:
        return simulate_games(games, 1, folder), "simulated (ledger.cli_simulate, seed 1)"
    base = [json.loads(line) for line in (ROOT / "sample_logs" / "game42.jsonl").read_text(
        encoding="utf-8").splitlines()]
    paths = []
    for i in range(games):
        path = folder / f"game-{i:04d}.jsonl"
        write_log(path, seal([dict(e, game=f"bench-{i:04d}") for e in base]))
        paths.append(path)
    return paths, "re-sealed copies of sample_logs/game42.jsonl"


def raw_ceiling(reads, workdir: Path) -> float:
    """Seconds to bulk-insert every event row into a DuckDB table of the same shape, no checks,
    committed and checkpointed into the database file."""
    import duckdb
    import polars as pl

    class Rows:  # the frame as an Arrow C stream (no pyarrow needed)
        def __arrow_c_stream__(self, requested_schema=None):
            return frame.__arrow_c_stream__(requested_schema)

    frame = pl.concat([event_frame(r.events) for r in reads])
    con = duckdb.connect(str(workdir / "ceiling.duckdb"))
    # the store's table shape: payload, prev and hash are read off raw (virtual columns)
    con.execute('CREATE TABLE events (game_id VARCHAR, seq INTEGER, type VARCHAR, actor VARCHAR, '
                '"at" VARCHAR, payload JSON GENERATED ALWAYS AS (json_extract(raw, \'$.payload\')) '
                'VIRTUAL, prev VARCHAR GENERATED ALWAYS AS (json_extract_string(raw, \'$.prev\')) '
                'VIRTUAL, hash VARCHAR GENERATED ALWAYS AS (json_extract_string(raw, \'$.hash\')) '
                'VIRTUAL, raw VARCHAR, PRIMARY KEY (game_id, seq))')
    con.register("rows", Rows())
    started = time.perf_counter()
    con.execute("BEGIN TRANSACTION")
    con.execute("INSERT INTO events BY NAME SELECT * EXCLUDE (prev, hash) FROM rows").fetchall()
    con.execute("COMMIT")
    con.execute("CHECKPOINT")       # into the database file, as the store's figures include
    seconds = time.perf_counter() - started
    con.close()
    return seconds


def eventsourcing_application(reads, workdir: Path) -> float:
    """Seconds for an eventsourcing Application on SQLite to record every game: an Aggregate per
    game, a domain event per log event, one `save` (one transaction) per game."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Game(Aggregate):
        @event("Started")
        def __init__(self, game: str) -> None:
            self.game = game
            self.events = 0

        @classmethod
        def create_id(cls, game: str) -> uuid.UUID:
            return uuid.uuid5(uuid.NAMESPACE_URL, game)

        @event("Recorded")
        def record(self, seq: int, type: str, actor: str | None, payload: dict) -> None:
            self.events += 1

    class Games(Application):
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
               "SQLITE_DBNAME": str(workdir / "eventsourcing-app.sqlite")}

    app = Games()
    started = time.perf_counter()
    for r in reads:
        game = Game(r.events[0].game)
        for e in r.events:
            game.record(e.seq, e.type, e.actor, e.payload)
        app.save(game)
    seconds = time.perf_counter() - started
    stored = app.repository.get(Game.create_id(reads[0].events[0].game))
    assert stored.events == len(reads[0].events), "eventsourcing did not store the game"
    app.close()
    return seconds


def eventsourcing_sqlite(reads, workdir: Path) -> float:
    """Seconds for eventsourcing's SQLite recorder to store every event, a game per transaction."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

    datastore = SQLiteDatastore(str(workdir / "eventsourcing.sqlite"))
    recorder = SQLiteAggregateRecorder(datastore, "stored_events")
    recorder.create_table()
    ids = [uuid.uuid5(uuid.NAMESPACE_URL, r.events[0].game) for r in reads]
    started = time.perf_counter()
    for originator, r in zip(ids, reads):  # its mapper (events to rows) is timed, as ours is
        recorder.insert_events([StoredEvent(originator_id=originator, originator_version=e.seq,
                                            topic=e.type, state=e.raw.encode())
                                for e in r.events])
    return time.perf_counter() - started


def use_cpu_clock() -> None:
    """Make the ingest's timings and this bench's read CPU time: `time.perf_counter` becomes
    `time.process_time` in the modules that time an ingest (ledger.ingest, ledger.store.sql)
    and here."""
    import ledger.ingest
    import ledger.store.sql

    clock = types.SimpleNamespace(**{n: getattr(time, n) for n in dir(time) if not n.startswith("_")})
    clock.perf_counter = time.process_time
    for module in (ledger.ingest, ledger.store.sql, sys.modules[__name__]):
        module.time = clock


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--cpu", action="store_true",
                        help="CPU time instead of wall clock (no run with worker processes)")
    args = parser.parse_args(argv if argv is not None else [])
    if args.cpu:
        use_cpu_clock()
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        workdir = Path(tmp)
        started = time.perf_counter()
        paths, source = corpus(args.games, workdir / "logs")
        print(f"corpus: {len(paths)} games, {source}, made in {time.perf_counter() - started:.1f} s")

        with open_store(workdir / "store.duckdb") as store:
            report = ingest_paths(store, paths, jobs=1)
            # DuckDB moves its write-ahead log into the file when the log passes 16 MB, at a
            # commit, or else on close: both sides of the comparison are timed through it
            begun = time.perf_counter()
            store.checkpoint()
            flushed = time.perf_counter() - begun
            report.elapsed += flushed
            report.timings["write"] += flushed
            again = ingest_paths(store, paths, jobs=1)
        jobs = default_jobs()
        parallel = None
        if not args.cpu:
            with open_store(workdir / "store-jobs.duckdb") as store:
                parallel = ingest_paths(store, paths, jobs=jobs)
                begun = time.perf_counter()
                store.checkpoint()
                parallel.elapsed += time.perf_counter() - begun
        events = report.events_added
        assert all(o.status == "new" for o in report.outcomes), "the corpus did not ingest cleanly"
        t = report.timings
        validation = t["read"] + t["judge"]
        full = events / report.elapsed
        write_rate = events / t["write"]
        reads = [read_log(p) for p in paths]
        ceiling = events / raw_ceiling(reads, workdir)
        es = events / eventsourcing_application(reads, workdir)
        es_recorder = events / eventsourcing_sqlite(reads, workdir)

        print(f"events: {events} ({events / len(paths):.0f} per game)"
              + (", CPU time" if args.cpu else ", wall clock"))
        print(f"ingest, full validation:   {full:>10,.0f} events/s  ({report.elapsed:.2f} s: "
              f"read+chain {t['read']:.2f} s, judge {t['judge']:.2f} s, store {t['write']:.2f} s)")
        print(f"  validation alone:        {events / validation:>10,.0f} events/s")
        print(f"  store alone (no checks): {write_rate:>10,.0f} events/s")
        if parallel is not None:
            print(f"  with {jobs} worker processes: {events / parallel.elapsed:>10,.0f} events/s  "
                  f"({report.elapsed / parallel.elapsed:.2f}x one process)")
        print(f"re-ingest (all present):   {events / again.elapsed:>10,.0f} events/s")
        print(f"(a) raw DuckDB bulk insert:{ceiling:>10,.0f} events/s  (the ceiling)")
        print(f"(b) eventsourcing, SQLite: {es:>10,.0f} events/s  (Application + Aggregate, "
              f"no validation)")
        print(f"(c) its SQLite recorder:   {es_recorder:>10,.0f} events/s  (ready rows, "
              f"no aggregate)")
        print("ratios:")
        print(f"  full / {TARGET_FULL:,} target:        {full / TARGET_FULL:6.2f}  (one process)"
              + (f", {events / parallel.elapsed / TARGET_FULL:.2f} ({jobs} workers)"
                 if parallel is not None else ""))
        print(f"  store alone / ceiling (a):   {write_rate / ceiling:6.2f}  "
              f"(target >= {TARGET_CEILING_SHARE:.2f})")
        print(f"  store alone / eventsourcing (b): {write_rate / es:6.2f}  (target > 1)")
        print(f"  full / eventsourcing (b):    {full / es:6.2f}  (target >= 2.7)")
        print(f"  full / its recorder (c):     {full / es_recorder:6.2f}")
        print(f"  validation share of full:    {validation / report.elapsed:6.0%}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Time `ledger dashboard` as the corpus grows, up to 10,000 games (target: under 10 s there).

    python bench/bench_dashboard.py                     # 100 simulated games, replicated to 10,000
    python bench/bench_dashboard.py --real 300 --sizes 1000,5000,10000,20000
    python bench/bench_dashboard.py --logs simulated/   # games already made by `ledger simulate`

The store is filled first, outside the timing, as the issue asks ("store already filled"):

1. N real games are simulated by the seeded bots (engine.risk_europe.sim.simulate_game, about 5 games
   a second) or read from --logs, and ingested for real: judged, their analytics rows extracted.
2. To reach 10,000 games without simulating for half an hour, the rows of those real games
   (games, players and the five analytics tables) are copied under new game ids ("<id>~<k>").
   The copies have no events: this store is for timing the dashboard only (check-db would
   complain). The figures say so. The copies have the same dice as the games they copy, so the
   statistics would leave them out as copies (analytics.selection): the dashboard is built with
   --include-broken, counting them all (the choice of the games counted is still made, and timed).

Then, for each corpus size, the dashboard is built the way the command builds it: open the store
read-only, load the analytics tables, run every query, draw every chart, write the page. Times are
wall-clock on this machine (a shared 2-core box: compare ratios, not seconds). Not part of the
test suite.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analytics.dashboard import write_dashboard  # noqa: E402
from analytics.load import load_tables  # noqa: E402
from ledger.ingest import ingest_paths  # noqa: E402
from replay.logfile import format_line, read_log_text  # noqa: E402
from ledger.store import ANALYTICS_TABLES, open_store  # noqa: E402

TARGET_SECONDS = 10.0
TARGET_GAMES = 10_000
DEFAULT_SIZES = (1_000, 2_500, 5_000, 10_000)


def real_games(store, count: int, logs: Path | None, seed: int) -> tuple[int, str, float]:
    """Ingest the real games; (games stored, where they came from, seconds to make them)."""
    started = time.perf_counter()
    if logs is not None:
        report = ingest_paths(store, [logs])
        return sum(o.is_stored for o in report.outcomes), f"the logs in {logs}", 0.0
    from engine.risk_europe.sim import simulate_game

    reads = []
    for i in range(count):
        game_id = f"bench-{seed}-{i:05d}"
        text = "".join(format_line(e) + "\n" for e in simulate_game(seed, game_id))
        reads.append(read_log_text(text, f"{game_id}.jsonl"))
        if (i + 1) % 25 == 0:
            print(f"  simulated {i + 1}/{count} games ({time.perf_counter() - started:.0f} s)",
                  flush=True)
    made = time.perf_counter() - started
    outcomes = store.ingest_reads(reads)
    return sum(o.is_stored for o in outcomes), f"engine.risk_europe.sim (seed {seed})", made


def replicate(db: Path, total: int) -> int:
    """Copy the real games' rows under new ids until the store holds `total` games."""
    import duckdb

    con = duckdb.connect(str(db))
    try:
        base = [r[0] for r in con.execute(
            "SELECT game_id FROM games WHERE game_id NOT LIKE '%~%' ORDER BY game_id").fetchall()]
        have = con.execute("SELECT count(*) FROM games").fetchone()[0]
        copy = con.execute("SELECT coalesce(max(CAST(split_part(game_id, '~', 2) AS INTEGER)), 0) "
                           "FROM games WHERE game_id LIKE '%~%'").fetchone()[0]
        while have < total:
            copy += 1
            ids = base[:total - have]
            con.execute("BEGIN TRANSACTION")
            con.execute("CREATE OR REPLACE TEMP TABLE chosen AS "
                        "SELECT unnest(?::VARCHAR[]) AS game_id", [ids])
            for table in ("games", "players", *ANALYTICS_TABLES):
                con.execute(f"INSERT INTO {table} SELECT * REPLACE (game_id || '~{copy}' AS "
                            f"game_id) FROM {table} WHERE game_id IN (SELECT game_id FROM chosen)")
            con.execute("COMMIT")
            have += len(ids)
        return have
    finally:
        con.close()


def time_dashboard(db: Path, out: Path) -> dict[str, float]:
    """Seconds to build the dashboard as `ledger dashboard` does, by stage."""
    started = time.perf_counter()
    marks = {}
    with open_store(db, read_only=True) as store:
        tables = load_tables(store, include_broken=True).collect()
    marks["load"] = time.perf_counter() - started
    report = write_dashboard(tables, out)
    marks["total"] = time.perf_counter() - started
    marks["queries+charts+page"] = marks["total"] - marks["load"]
    marks["megabytes"] = report.bytes / 1e6
    return marks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=int, default=100, help="real games to simulate (100)")
    parser.add_argument("--logs", type=Path, default=None, help="ingest these logs instead")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                        help="corpus sizes to time (games)")
    args = parser.parse_args(argv if argv is not None else [])
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-dashboard-") as tmp:
        db = Path(tmp) / "store.duckdb"
        with open_store(db) as store:
            started = time.perf_counter()
            stored, source, made = real_games(store, args.real, args.logs, args.seed)
            ingest = time.perf_counter() - started - made
        print(f"real games: {stored} from {source} (made in {made:.1f} s, ingested with "
              f"judging and analytics extraction in {ingest:.1f} s: "
              f"{1000 * ingest / max(stored, 1):.0f} ms a game)")
        print(f"larger corpora: the real games' rows copied under new ids (no events), "
              f"{stored} distinct games in all")
        print(f"{'games':>8} {'seconds':>8} {'s / 1000 games':>15} {'load':>6} "
              f"{'queries+charts+page':>20} {'page MB':>8}")
        last = None
        copying = 0.0
        for size in sizes:
            started = time.perf_counter()
            have = replicate(db, size) if size > stored else stored
            copying += time.perf_counter() - started
            marks = time_dashboard(db, Path(tmp) / f"report-{size}.html")
            last = (have, marks)
            print(f"{have:>8,} {marks['total']:>8.2f} {1000 * marks['total'] / have:>15.3f} "
                  f"{marks['load']:>6.2f} {marks['queries+charts+page']:>20.2f} "
                  f"{marks['megabytes']:>8.1f}", flush=True)
        print(f"(copying rows to grow the corpus, not timed above: {copying:.1f} s)")
        if last is not None and last[0] >= TARGET_GAMES:
            seconds = last[1]["total"]
            verdict = "met" if seconds < TARGET_SECONDS else "NOT met"
            print(f"target: dashboard of {TARGET_GAMES:,} games in < {TARGET_SECONDS:.0f} s: "
                  f"{verdict} ({seconds:.2f} s for {last[0]:,})")


if __name__ == "__main__":
    main(sys.argv[1:])

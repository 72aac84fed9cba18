"""`ledger stats --lake` over a lake of 10,000 games against `ledger stats --db` over the store
that holds them (#13), and what exporting the lake costs, in full and incrementally.

    python bench/run.py lake
    python bench/bench_lake.py --games 10000 --repeat 3
    python bench/bench_lake.py --games 2000 --keep /tmp/lake-bench     # keep the store and lake

The corpus, made outside the timings:

1. Every sample log (sample_logs/, the tournament's filed under one) is ingested for real:
   judged, its analytics rows extracted. These are the distinct games: Risk Europe and Risk
   Legacy, clean ones, broken ones, copies, a campaign.
2. To reach --games without judging thousands of logs, the rows of those games in every table
   the lake holds (events, games, players, findings, campaign links, the analytics tables) are
   copied under new game ids ("<id>~<k>"), in DuckDB. The copied events keep their lines as
   logged, so `check-db` would find their game ids wrong; the statistics do not read them. The
   copies have the same events as the games they copy, so by default the statistics leave them
   out as copies (analytics.selection) after comparing them: that work is the same over the
   store and the lake. With --include-broken every game is counted and every query runs over
   all of them: both are timed.

Then the lake is exported (timed: in full; then again with nothing new; then after 1% more
games; then after 1% of the games were judged again, their games rows marked as by another
engine version, which rewrites the groups holding them), and `ledger stats --json` is run as a command over the store and over the lake, each
--repeat times (the median is printed, and the ratio lake / store). Times are wall-clock on a
shared machine: compare ratios, not seconds. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAMPLES = ROOT / "sample_logs"
TARGET_GAMES = 10_000
# the installed console script beside this Python, else the CLI's module run by it
LEDGER = ([str(Path(sys.executable).parent / "ledger")]
          if (Path(sys.executable).parent / "ledger").exists()
          else [sys.executable, "-c", "from ledger.cli import app; app()"])


def ledger(*args: str, quiet: bool = True) -> float:
    """Run the ledger command; its wall-clock seconds."""
    started = time.perf_counter()
    done = subprocess.run([*LEDGER, *args], cwd=ROOT,
                          stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.PIPE,
                          text=True)
    took = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"ledger {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return took


def base_store(db: Path) -> int:
    """Ingest the sample logs; how many games are stored."""
    import duckdb

    logs = [str(p) for p in sorted(SAMPLES.iterdir()) if p.name != "tournament"
            and (p.is_dir() or p.suffix == ".jsonl")]
    ledger("ingest", *logs, "--db", str(db))
    ledger("ingest", str(SAMPLES / "tournament"), "--db", str(db), "--tournament", "spring")
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT count(*) FROM games").fetchone()[0]


def replicate(db: Path, total: int) -> int:
    """Copy the sample games' rows under new ids until the store holds `total` games."""
    import duckdb

    from ledger.store import analytics_projections

    tables = ("games", "players", "events", "findings", "campaign_games", "campaign_findings",
              *analytics_projections())
    con = duckdb.connect(str(db))
    try:
        columns = {}
        for table in tables:          # the stored columns (events' payload, prev, hash are virtual)
            columns[table] = [r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? AND "
                "is_generated = 'NEVER' ORDER BY ordinal_position", [table]).fetchall()]
        base = [r[0] for r in con.execute(
            "SELECT game_id FROM games WHERE game_id NOT LIKE '%~%' ORDER BY game_id").fetchall()]
        have = con.execute("SELECT count(*) FROM games").fetchone()[0]
        copy = con.execute("SELECT coalesce(max(CAST(split_part(game_id, '~', 2) AS INTEGER)), 0) "
                           "FROM games WHERE game_id LIKE '%~%'").fetchone()[0]
        need = total - have
        if need > 0:          # every copy of every table in one statement: k copies of each game
            pairs = [(base[i % len(base)], copy + 1 + i // len(base)) for i in range(need)]
            con.execute("BEGIN TRANSACTION")
            con.execute("CREATE OR REPLACE TEMP TABLE chosen AS SELECT unnest(?::VARCHAR[]) AS "
                        "game_id, unnest(?::INTEGER[]) AS k", [[g for g, _ in pairs],
                                                               [k for _, k in pairs]])
            for table in tables:
                cols = ", ".join(f'"{c}"' for c in columns[table])
                picked = ", ".join("t.game_id || '~' || c.k" if c == "game_id" else f't."{c}"'
                                   for c in columns[table])
                con.execute(f'INSERT INTO "{table}" ({cols}) SELECT {picked} FROM "{table}" t '
                            f"JOIN chosen c USING (game_id)")
            con.execute("COMMIT")
            have += need
        return have
    finally:
        con.close()


def rejudge(db: Path, every: int) -> int:
    """Mark every `every`-th game as judged by another engine version (what `ledger recheck`
    with a newer engine does to the games row): the next export finds them changed."""
    import duckdb

    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE games SET ruleset_version = coalesce(ruleset_version, '') || '+bench' "
                    "WHERE game_id IN (SELECT game_id FROM (SELECT game_id, row_number() OVER "
                    f"(ORDER BY game_id) AS n FROM games) WHERE n % {every} = 0)")
        return con.execute("SELECT count(*) FROM games WHERE ruleset_version LIKE '%+bench'"
                           ).fetchone()[0]


def export(db: Path, lake: Path) -> dict:
    import json

    started = time.perf_counter()
    done = subprocess.run([*LEDGER, "export", "--all", "--format", "parquet", "--out", str(lake),
                           "--db", str(db), "--json"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"export failed: {done.stderr}")
    report = json.loads(done.stdout)
    report["wall"] = time.perf_counter() - started
    return report


def size_of(path: Path) -> float:
    """Megabytes under `path` (a file or a folder)."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 1e6


def median_time(args: list[str], repeat: int) -> float:
    return statistics.median(ledger(*args) for _ in range(repeat))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="corpus size (10000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each stats command (3)")
    parser.add_argument("--keep", type=Path, default=None, help="make the store and lake here "
                        "and keep them (default: a temporary folder)")
    args = parser.parse_args(argv if argv is not None else [])
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-lake-"))
    folder.mkdir(parents=True, exist_ok=True)
    db, lake = folder / "store.duckdb", folder / "lake"
    for old in (db, lake):
        if old.is_dir():
            shutil.rmtree(old)
        elif old.exists():
            old.unlink()
    try:
        started = time.perf_counter()
        distinct = base_store(db)
        ingested = time.perf_counter() - started
        started = time.perf_counter()
        grown = int(args.games * 0.99)
        replicate(db, grown)
        copied = time.perf_counter() - started
        print(f"corpus: {distinct} sample games ingested ({ingested:.1f} s), copied to "
              f"{grown:,} games ({copied:.1f} s); store {size_of(db):.0f} MB")

        full = export(db, lake)
        print(f"export, full:        {full['new']:>6,} new games, {full['events_written']:>10,} "
              f"events, {full['files_written']:>5,} files, {full['bytes_written'] / 1e6:7.1f} MB "
              f"in {full['wall']:6.2f} s (command; {full['seconds']:.2f} s exporting)")
        again = export(db, lake)
        print(f"export, nothing new: {again['unchanged']:>6,} unchanged, "
              f"{again['files_written']} files written in {again['wall']:6.2f} s "
              f"({again['seconds']:.2f} s exporting)")
        replicate(db, args.games)
        more = export(db, lake)
        print(f"export, 1% more:     {more['new']:>6,} new games, {more['events_written']:>10,} "
              f"events, {more['files_written']:>5,} files in {more['wall']:6.2f} s "
              f"({more['seconds']:.2f} s exporting); lake {size_of(lake):.0f} MB, "
              f"{more['games']:,} games")

        rejudged = rejudge(db, 100)
        changed = export(db, lake)
        print(f"export, 1% judged again: {changed['changed']:>3,} changed games "
              f"({rejudged} marked), {changed['files_written']:>5,} files written, "
              f"{changed['files_removed']:>5,} removed in {changed['wall']:6.2f} s "
              f"({changed['seconds']:.2f} s exporting)")

        ledger("stats", "--lake", str(lake), "-q", "dice_faces")       # warm the file cache
        ledger("stats", "--db", str(db), "-q", "dice_faces")
        print(f"{'ledger stats --json':<42} {'--db (s)':>9} {'--lake (s)':>11} "
              f"{'lake / store':>13}")
        for label, extra in (("clean games, each once (the default)", []),
                             ("every game (--include-broken)", ["--include-broken"])):
            store_s = median_time(["stats", "--json", "--db", str(db), *extra], args.repeat)
            lake_s = median_time(["stats", "--json", "--lake", str(lake), *extra], args.repeat)
            print(f"{label:<42} {store_s:>9.2f} {lake_s:>11.2f} {lake_s / store_s:>12.2f}x",
                  flush=True)
        startup = median_time(["--help"], args.repeat)
        print(f"(each command includes starting Python and importing ledger: {startup:.2f} s "
              f"for `ledger --help`; median of {args.repeat} runs)")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])

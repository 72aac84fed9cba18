"""The Parquet lake (#13): `ledger export --all --format parquet --out LAKE` writes only the games
new or changed since the last export, never leaves a half-written lake, and `ledger stats --lake`
and `ledger dashboard --lake` give the store's numbers for the same games without the store.

The comparisons are between the command over the store and the same command over the lake: the
truth is the store's own answer. Floats are compared to 1e-9 (relative): polars adds in parallel,
so the store's own `stats --json` differs from run to run in the last digit."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from analytics.lake import MANIFEST, LakeError, listed_files, open_lake, read_manifest
from analytics.load import load_tables
from ledger import exitcodes
from ledger.cli import app
from ledger.lake import LOCK, export_lake
from ledger.store import open_store
from tests.test_store_support import SAMPLES, game, write_game

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def export(db, lake, *more):
    r = run("export", "--all", "--format", "parquet", "--out", lake, "--db", db, "--json", *more)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def same(a, b, where="") -> None:
    """a == b, floats to 1e-9 relative."""
    if isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), f"{where}: {a} != {b}"
    elif isinstance(a, dict) and isinstance(b, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), f"{where}: {len(a)} rows != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


# --- the samples: the store's numbers from the lake -------------------------------------------------


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> tuple[Path, Path]:
    """Every sample log in a store (the tournament's games filed under "spring"), and its lake."""
    folder = tmp_path_factory.mktemp("lake-samples")
    db, lake = folder / "samples.duckdb", folder / "lake"
    paths = [p for p in sorted(SAMPLES.iterdir()) if p.name != "tournament"
             and (p.is_dir() or p.suffix == ".jsonl")]
    assert run("ingest", *paths, "--db", db).exit_code in (0, 1)     # some logs are refused
    assert run("ingest", SAMPLES / "tournament", "--db", db, "-T", "spring").exit_code in (0, 1)
    done = export(db, lake)
    with open_store(db, read_only=True) as store:
        assert done["new"] == store.query("SELECT count(*) FROM games").item() > 50
    return db, lake


def stats(*args) -> dict:
    r = run("stats", "--json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.mark.parametrize("scope", [(), ("--include-broken",), ("--tournament", "spring")])
def test_every_named_query_gives_the_stores_rows_from_the_lake(samples, scope):
    db, lake = samples
    from_store, from_lake = stats("--db", db, *scope), stats("--lake", lake, *scope)
    assert len(from_store["queries"]) > 20
    same(from_store, from_lake)
    assert from_lake["games"]["counted"] > 0


def test_the_lake_counts_each_real_game_once_and_only_clean_ones(samples):
    db, lake = samples
    left = {}
    for option, where in (("--db", db), ("--lake", lake)):
        r = run("stats", option, where, "--left-out", "--json")
        assert r.exit_code == 0, r.output
        left[option] = json.loads(r.output)
    assert left["--db"] == left["--lake"]
    reasons = {g["reason"] for g in left["--lake"]["left_out_games"]}
    assert reasons == {"findings", "campaign", "copy"}
    with open_lake(lake) as reader:
        counted = load_tables(reader).selection.counted_ids
        broken = set(reader.query("SELECT game_id FROM games WHERE finding_count > 0 OR fatal "
                                  "IS NOT NULL")["game_id"].to_list())
        copies = {g["game_id"] for g in left["--lake"]["left_out_games"] if g["reason"] == "copy"}
    assert counted and not broken & set(counted) and not copies & set(counted)
    assert "game42" in counted and {"game42-duplicate-line", "game42-truncated"} <= copies


def test_stats_text_and_the_dashboard_from_the_lake(samples, tmp_path):
    db, lake = samples
    text = {o: run("stats", o, w, "-q", "win_rate_by_seat").output
            for o, w in (("--db", db), ("--lake", lake))}
    assert text["--lake"].replace(f"--lake {lake}", "SOURCE").replace(f"({lake})", "(SOURCE)") \
        == text["--db"].replace(f"--db {db}", "SOURCE").replace(f"({db})", "(SOURCE)")
    said = {}
    for option, where in (("--db", db), ("--lake", lake)):
        r = run("dashboard", option, where, "--out", tmp_path / f"{option[2:]}.html")
        assert r.exit_code == 0, r.output
        said[option] = r.output.replace(str(where), "SOURCE").replace(f"{option} ", "")
    assert said["--db"].replace("db.html", "X") == said["--lake"].replace("lake.html", "X")
    assert "charts over every stored game" in said["--lake"]


def test_stats_reads_the_lake_alone(samples, tmp_path):
    """The lake is enough: the store moved away, --lake still answers."""
    db, lake = samples
    moved = tmp_path / "lake"
    shutil.copytree(lake, moved)
    r = runner.invoke(app, ["stats", "--lake", str(moved), "-q", "dice_faces", "--json"],
                      env={"LEDGER_DB": str(tmp_path / "no-store-here.duckdb")})
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["queries"]["dice_faces"] == stats("--db", db, "-q",
                                                                  "dice_faces")["queries"]["dice_faces"]


# --- incremental -------------------------------------------------------------------------------------


@pytest.fixture
def small(tmp_path) -> tuple[Path, Path, Path]:
    """A store of g000 (its first 100 events), g001 and g002; a lake folder; a logs folder."""
    logs, db = tmp_path / "logs", tmp_path / "store.duckdb"
    logs.mkdir()
    write_game(logs / "g000.jsonl", game("g000", 100))
    for gid in ("g001", "g002"):
        write_game(logs / f"{gid}.jsonl", game(gid))
    assert run("ingest", logs, "--db", db).exit_code == 0
    return db, tmp_path / "lake", logs


def lake_games(lake: Path) -> dict[str, tuple[int, str]]:
    """game -> (events in the lake, head hash in the lake's games table), read by the manifest."""
    with open_lake(lake) as reader:
        rows = reader.query("SELECT g.game_id, count(e.seq) AS n, any_value(g.head_hash) AS h "
                            "FROM games g JOIN events e USING (game_id) GROUP BY g.game_id "
                            "ORDER BY 1")
    return {gid: (n, h) for gid, n, h in rows.iter_rows()}


def store_games(db: Path) -> dict[str, tuple[int, str]]:
    with open_store(db, read_only=True) as store:
        rows = store.query("SELECT game_id, event_count, head_hash FROM games ORDER BY 1")
    return {gid: (n, h) for gid, n, h in rows.iter_rows()}


def glob_events(lake: Path) -> dict[str, int]:
    """What a reader that globs the folder (hive partitions) sees: events per game."""
    return dict(duckdb.sql(f"SELECT game_id, count(*) FROM read_parquet('{lake}/events/**/*.parquet',"
                           f" hive_partitioning = true) GROUP BY 1 ORDER BY 1").fetchall())


def files(lake: Path) -> dict[str, bytes]:
    return {p.relative_to(lake).as_posix(): p.read_bytes() for p in lake.rglob("*")
            if p.is_file() and p.name != LOCK}


def test_a_re_export_writes_only_the_games_new_or_changed(small):
    db, lake, logs = small
    first = export(db, lake)
    assert (first["new"], first["changed"], first["unchanged"]) == (3, 0, 0)
    before = files(lake)
    again = export(db, lake)
    assert (again["new"], again["changed"], again["unchanged"], again["files_written"]) == (0, 0, 3, 0)
    assert files(lake) == before
    # g000 goes on (its whole log), g003 is new
    write_game(logs / "g000.jsonl", game("g000"))
    write_game(logs / "g003.jsonl", game("g003", 60))
    assert run("ingest", logs, "--db", db).exit_code == 0
    third = export(db, lake)
    assert (third["new"], third["changed"], third["unchanged"]) == (1, 1, 2)
    assert third["changed_by"] == {"events": 1, "judgement": 0}
    assert third["events_written"] == 195 + 60
    assert lake_games(lake) == store_games(db)
    assert glob_events(lake) == {"g000": 195, "g001": 195, "g002": 195, "g003": 60}
    assert set(p for p in files(lake) if p.endswith(".parquet")) == listed_files(
        read_manifest(lake))                       # nothing left of the rows replaced
    # judged again (another engine version): its rows are written again, its events unchanged
    con = duckdb.connect(str(db))
    con.execute("UPDATE games SET ruleset_version = 'newer' WHERE game_id = 'g002'")
    con.close()
    fourth = export(db, lake)
    assert (fourth["changed"], fourth["changed_by"]) == (1, {"events": 0, "judgement": 1})
    with open_lake(lake) as reader:
        assert reader.query("SELECT ruleset_version FROM games WHERE game_id = 'g002'").item() \
            == "newer"
        index = reader.manifest["index"]
    indexed = pl.read_parquet(lake / index).select("game_id", "head_hash", "event_count")
    assert {r[0]: (r[2], r[1]) for r in indexed.iter_rows()} == store_games(db)


def test_games_no_longer_in_the_store_are_kept_or_pruned(small, tmp_path):
    db, lake, _ = small
    export(db, lake)
    other = tmp_path / "other.duckdb"                # a store with g001 alone
    write_game(tmp_path / "g001.jsonl", game("g001"))
    assert run("ingest", tmp_path / "g001.jsonl", "--db", other).exit_code == 0
    kept = export(other, lake)
    assert (kept["unchanged"], kept["kept"], kept["removed"], kept["games"]) == (1, 2, 0, 3)
    r = run("export", "--all", "--format", "parquet", "--out", lake, "--db", other, "--prune")
    assert r.exit_code == 0 and "2 removed" in r.output, r.output
    assert set(lake_games(lake)) == {"g001"} and set(glob_events(lake)) == {"g001"}
    r = run("export", "g001", "--format", "parquet", "--out", lake, "--db", other, "--prune")
    assert r.exit_code == exitcodes.USAGE and "--prune" in r.output


def test_one_game_exported_alone_joins_the_lake(small):
    db, lake, _ = small
    r = run("export", "g001", "--format", "parquet", "--out", lake, "--db", db, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["new"] == 1 and set(lake_games(lake)) == {"g001"}
    rest = export(db, lake)
    assert (rest["new"], rest["unchanged"], rest["kept"]) == (2, 1, 0)


def test_a_file_deleted_from_the_lake_is_named_and_written_again(small):
    db, lake, _ = small
    export(db, lake)
    gone = next(lake.glob("dice/**/*.parquet"))
    gone.unlink()
    r = run("stats", "--lake", lake)
    assert r.exit_code == exitcodes.UNREADABLE and "missing" in r.output
    assert "Traceback" not in r.output
    fixed = export(db, lake)
    assert fixed["repaired"] == 3 and fixed["unchanged"] == 0
    assert run("stats", "--lake", lake).exit_code == 0


def test_a_second_export_into_a_lake_being_written_is_refused(small):
    import fcntl
    db, lake, _ = small
    export(db, lake)
    fd = os.open(lake / LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        r = run("export", "--all", "--format", "parquet", "--out", lake, "--db", db)
        assert r.exit_code == exitcodes.UNREADABLE
        assert "another export is writing this lake" in r.output
    finally:
        os.close(fd)
    assert run("export", "--all", "--format", "parquet", "--out", lake, "--db", db).exit_code == 0


# --- killed at any moment -------------------------------------------------------------------------

KILLABLE = """
import sys, time
from ledger.lake import export_lake
from ledger.store import open_store
store = open_store(sys.argv[1], read_only=True)
print("ready", flush=True)
started = time.perf_counter()
export_lake(store, sys.argv[2], group_events=1)      # a group per game: many files, many steps
print(f"done {time.perf_counter() - started:.3f}", flush=True)
"""


def test_an_export_killed_at_any_moment_leaves_the_lake_whole(small, tmp_path):
    db, lake, logs = small
    export(db, lake)
    old = lake_games(lake)
    for i in range(4, 10):                            # six more games to write, and g000 grown
        write_game(logs / f"g{i:03d}.jsonl", game(f"g{i:03d}", 40 + i))
    write_game(logs / "g000.jsonl", game("g000"))
    assert run("ingest", logs, "--db", db).exit_code == 0
    new = store_games(db)
    script = tmp_path / "killable.py"
    script.write_text(KILLABLE)

    def start(target: Path) -> subprocess.Popen:
        p = subprocess.Popen([sys.executable, str(script), str(db), str(target)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "ready"
        return p

    trial = tmp_path / "trial"
    shutil.copytree(lake, trial)
    with open_store(db, read_only=True) as store:    # how long the export takes, here and now
        took = export_lake(store, trial, group_events=1).seconds
    for fraction in (0.15, 0.5, 0.85):
        p = start(lake)
        time.sleep(took * fraction)
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = lake_games(lake)                        # the manifest's lake reads whole ...
        assert now in (old, new), f"killed at {fraction}: neither the lake before nor after"
        with open_lake(lake) as reader:               # every file of every table is there
            for table in reader.manifest["tables"]:
                reader.query(f'SELECT count(*) FROM "{table}"')
    finished = export(db, lake)                       # ... and the next export finishes the job
    assert lake_games(lake) == new
    assert not [p for p in lake.rglob("*") if p.name.endswith(".tmp")]
    on_disk = {p.relative_to(lake).as_posix() for p in lake.rglob("*.parquet")}
    assert on_disk == listed_files(read_manifest(lake))     # what killed exports left is gone
    assert glob_events(lake) == {g: n for g, (n, _) in new.items()}
    assert finished["games"] == len(new)


# --- what is not a lake ---------------------------------------------------------------------------


def test_what_is_not_a_lake_is_named_with_exit_2(small, tmp_path):
    db, lake, _ = small
    export(db, lake)
    bad = {"missing": tmp_path / "nowhere", "a file": db, "no manifest": tmp_path / "logs"}
    broken = tmp_path / "broken"
    for name, spoil in (("garbage manifest", lambda d: (d / MANIFEST).write_text("{not json")),
                        ("newer layout", lambda d: (d / MANIFEST).write_text('{"format": 99}')),
                        ("a path outside", lambda d: _edit(d, index="../../store.duckdb")),
                        ("truncated file", lambda d: _truncate(next(d.glob("events/**/*.parquet"))))):
        target = broken / name.replace(" ", "-")
        shutil.copytree(lake, target)
        spoil(target)
        bad[name] = target
    for name, path in bad.items():
        r = run("stats", "--lake", path)
        assert r.exit_code == exitcodes.UNREADABLE, (name, r.output)
        assert str(path) in r.output and "Traceback" not in r.output, (name, r.output)
        with pytest.raises(LakeError):
            with open_lake(path) as reader:
                load_tables(reader)
    r = run("stats", "--db", db, "--lake", lake)
    assert r.exit_code == exitcodes.USAGE and "not both" in r.output
    r = run("export", "--all", "--format", "parquet", "--out", bad["newer layout"], "--db", db)
    assert r.exit_code == exitcodes.UNREADABLE and "newer" in r.output
    r = run("export", "--all", "--format", "parquet", "--out", bad["a path outside"], "--db", db)
    assert r.exit_code == exitcodes.UNREADABLE and "not a file inside the lake" in r.output
    assert db.exists()


def _edit(lake: Path, **changes) -> None:
    manifest = json.loads((lake / MANIFEST).read_text())
    (lake / MANIFEST).write_text(json.dumps({**manifest, **changes}))


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def test_export_lake_reports_progress(small):
    db, lake, _ = small
    seen = []
    with open_store(db, read_only=True) as store:
        report = export_lake(store, lake, on_progress=lambda done, total: seen.append((done, total)),
                             group_events=150)
    assert seen[-1] == (3, 3) and len(seen) >= 2
    assert report.counts() == {"new": 3, "changed": 0, "unchanged": 0, "removed": 0, "kept": 0}

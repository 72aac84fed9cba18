"""Ingest the same logs into a DuckDB store with another commit's code and with this checkout's, and
compare every table the two stores hold, row for row: a change to the store's write path must
leave what it writes as it was.

    python scripts/compare_store_rows.py main [--games 40]     # exit 0: identical

The logs: a prefix of two samples (so that they are extended later), sample_logs/ in 3,000-event
batches, N simulated games (seed 1) filed under a tournament, everything again (all present),
then a recheck. Each side runs in a process of its own with PYTHONHASHSEED=0 (a judge's pickled
carry holds sets), its code first on the path (the other commit's from `git archive`). Compared:
every table's rows in order, as text, with the timestamps reduced to "null or not", the rejects'
sequence ids left out and the carries by MD5. Exit 1 with the first differing rows of each table
that differs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r'''
import sys
from pathlib import Path
from ledger.ingest import ingest_paths
from ledger.store import open_store

store, samples, corpus, part = sys.argv[1:5]
with open_store(store) as s:
    ingest_paths(s, [part], jobs=1)
    ingest_paths(s, [samples], jobs=1, batch_events=3000)
    ingest_paths(s, [corpus], jobs=1, tournament="spring")
    ingest_paths(s, [samples, corpus], jobs=1)
    s.recheck(batch_events=5000)
'''


def table_rows(path: Path) -> dict[str, list[tuple]]:
    """Every table of a DuckDB store: its rows as text, in order (see the module doc)."""
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    tables = {}
    for (table,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = "
                                "current_schema() ORDER BY table_name").fetchall():
        columns = []
        for column, kind in con.execute(
                "SELECT column_name, data_type FROM information_schema.columns WHERE "
                "table_name = ? ORDER BY ordinal_position", [table]).fetchall():
            quoted = '"' + column + '"'
            if kind.startswith("TIMESTAMP"):
                columns.append(f"({quoted} IS NULL)::VARCHAR")
            elif table == "rejects" and column == "id":
                continue
            elif kind == "BLOB":
                columns.append(f"md5({quoted})")
            else:
                columns.append(f"{quoted}::VARCHAR")
        tables[table] = con.execute(f'SELECT {", ".join(columns)} FROM "{table}" '
                                    f'ORDER BY ALL').fetchall()
    con.close()
    return tables


def ingest_with(tree: Path, store: Path, corpus: Path, part: Path) -> None:
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(tree))
    subprocess.run([sys.executable, "-c", _CHILD, str(store), str(ROOT / "sample_logs"),
                    str(corpus), str(part)], cwd=tree, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare with (main, a hash)")
    parser.add_argument("--games", type=int, default=40, help="simulated games (default 40)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="compare-store-") as tmp:
        work = Path(tmp)
        base = work / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        from ledger.cli_simulate import simulate_games
        corpus = work / "corpus"
        simulate_games(args.games, 1, corpus)
        part = work / "part"
        part.mkdir()
        for name, lines in (("sim-0010.jsonl", 200), ("game42.jsonl", 30)):
            text = (ROOT / "sample_logs" / name).read_text(encoding="utf-8")
            (part / name).write_text("".join(text.splitlines(keepends=True)[:lines]),
                                     encoding="utf-8")
        ingest_with(base, work / "base.duckdb", corpus, part)
        ingest_with(ROOT, work / "this.duckdb", corpus, part)
        theirs, ours = table_rows(work / "base.duckdb"), table_rows(work / "this.duckdb")
    differ = 0
    for table in sorted(theirs.keys() | ours.keys()):
        a, b = theirs.get(table), ours.get(table)
        same = a == b
        differ += not same
        print(f"{table:24} {len(a or []):>7} {len(b or []):>7}  {'same' if same else 'DIFFERENT'}")
        if not same and a is not None and b is not None:
            for row_a, row_b in [(x, y) for x, y in zip(a, b) if x != y][:3]:
                print(f"    {args.ref}: {row_a}\n    this:  {row_b}")
    total = sum(len(rows) for rows in ours.values())
    print(f"{len(ours)} tables, {total:,} rows: "
          + ("identical" if not differ else f"{differ} tables differ"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

"""Peak memory of `ledger ingest` and `ledger recheck` at two corpus sizes (issue #15): the
figure should not grow with the corpus.

    python bench/run.py memory                    (or: python -m bench.bench_memory --games 200 1000)

The corpus: `--distinct` games simulated (ledger.cli_simulate, seed 1), copied under new game ids
and re-sealed up to each size (the dice depend on the seed alone, so every copy is a valid game
with the same verdict as its original). Each command runs in a process of its own, as a user
runs it (`ledger ingest FOLDER --db STORE --jobs 1 --json`, then `recheck --json`);
its peak resident set size is the kernel's (os.wait4's ru_maxrss). Wall time is printed too.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.record import seal  # noqa: E402
from replay.logfile import write_log  # noqa: E402


def corpus(games: int, distinct: int, folder: Path, originals: list[list[dict]]) -> list[Path]:
    """`games` sealed logs in `folder`: copies of `originals` under ids mem-00000, ..."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(games):
        path = folder / f"mem-{i:05d}.jsonl"
        base = originals[i % len(originals)]
        gid = f"mem-{i:05d}"
        write_log(path, seal([{k: v for k, v in dict(e, game=gid).items()
                               if k not in ("prev", "hash")} for e in base]))
        paths.append(path)
    return paths


def originals(distinct: int, folder: Path) -> list[list[dict]]:
    from ledger.cli_simulate import simulate_games
    paths = simulate_games(distinct, 1, folder)
    return [[json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line]
            for p in paths]


def measured(args: list[str]) -> tuple[float, float, int, str]:
    """Run `ledger ARGS` in a process of its own: (peak RSS MB, seconds, exit code,
    stdout)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-c", "from ledger.cli import app; app()", *args], cwd=ROOT, stdout=out,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - started
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return usage.ru_maxrss / 1024, seconds, proc.returncode, text


def _json(text: str, what: str) -> dict:
    try:
        return json.loads(text[text.find("\n{") + 1 if not text.startswith("{") else 0:])
    except ValueError:
        raise SystemExit(f"{what}: not JSON on stdout: {text[:400]!r}") from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 5000],
                        help="corpus sizes (default 1000 5000)")
    parser.add_argument("--distinct", type=int, default=100,
                        help="games simulated, copied up to each size (default 100)")
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        workdir = Path(tmp)
        started = time.perf_counter()
        base = originals(args.distinct, workdir / "originals")
        print(f"corpus: {args.distinct} simulated games (seed 1), {sum(map(len, base))} events, "
              f"copied up to {', '.join(map(str, args.games))} games "
              f"({time.perf_counter() - started:.0f} s)")
        rows = []
        for n in args.games:
            folder = workdir / f"logs-{n}"
            corpus(n, args.distinct, folder, base)
            db = str(workdir / f"store-{n}.duckdb")
            ingest_mb, ingest_s, code, text = measured(["ingest", str(folder), "--db", db,
                                                        "--jobs", "1", "--json"])
            events = _json(text, "ingest")["events_added"] if code == 0 else None
            recheck_mb, recheck_s, code2, text2 = measured(["recheck", "--db", db, "--json"])
            changed = len(_json(text2, "recheck")["changed"]) if code2 == 0 else None
            rows.append((n, events, ingest_mb, ingest_s, code, recheck_mb, recheck_s, code2,
                         changed))
            print(f"{n:>6} games, {events} events: ingest peak {ingest_mb:6.0f} MB "
                  f"({ingest_s:.0f} s, exit {code}); recheck peak {recheck_mb:6.0f} MB "
                  f"({recheck_s:.0f} s, exit {code2}, {changed} changed)", flush=True)
            for path in folder.iterdir():
                path.unlink()
            for path in workdir.glob(f"store-{n}.duckdb*"):
                path.unlink()
        if len(rows) > 1:
            first, last = rows[0], rows[-1]
            print(f"ratios {last[0]} / {first[0]} games: ingest peak {last[2] / first[2]:.2f}x, "
                  f"recheck peak {last[5] / first[5]:.2f}x (flat: 1.00x)")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Instructions per event of replay + full audit against python-chess's PGN replay, counted by
callgrind (deterministic: unlike the wall clock, not moved by the load of a shared machine).

    python -m bench.bench_instructions [--games 10] [--pgn 15] [--pure]

Simulated Risk Europe games (seeds 1000..) are written to a temporary folder; each measurement is
two runs under `valgrind --tool=callgrind`, one that imports, warms up (one game not measured, one
PGN game) and stops, one that then does the work; the difference is the work's. Printed: reading
(`read_log`: parse, hash chain, envelope checks), the whole audit (`judge(read_log(...))`) and
python-chess reading, validating and replaying PGN, per event or move, and the ratio. `--pure`
hides compiled modules of this checkout (scripts/build-mypyc.sh) as scripts/compare_compiled.py
does. Needs valgrind; takes a few minutes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "scripts"))
from compare_compiled import PURE_HOOK  # noqa: E402
sys.path.remove(str(ROOT / "scripts"))

_CHILD = PURE_HOOK + r'''
import io
root, pure, what, work = sys.argv[1], sys.argv[2] == "pure", sys.argv[3], sys.argv[4]
n_games, n_pgn = int(sys.argv[5]), int(sys.argv[6])
if pure:
    hide_compiled(root)
sys.path.insert(0, root)
from pathlib import Path
from replay.judge import judge
from replay.logfile import read_log
import chess.pgn
paths = sorted(Path(work).glob("bench-*.jsonl"))
warm, paths = paths[0], paths[1:1 + n_games]
judge(read_log(warm), keep_steps=False)
pgn = Path(work, "games.pgn").read_text()
stream = io.StringIO(pgn)
g = chess.pgn.read_game(stream)
b = g.board()
for mv in g.mainline_moves():
    b.push(mv)
if what == "read":
    for p in paths:
        read_log(p)
elif what == "audit":
    for p in paths:
        j = judge(read_log(p), keep_steps=False)
        assert not j.findings, j.findings[0].format()
elif what == "pgn":
    for _ in range(n_pgn):
        g = chess.pgn.read_game(stream)
        b = g.board()
        for mv in g.mainline_moves():
            b.push(mv)
'''


def _instructions(mode: str, what: str, work: Path, games: int, pgn: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", _CHILD, str(ROOT), mode, what, str(work), str(games), str(pgn)],
        cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"callgrind run {what} failed:\n{out.stderr[-3000:]}")
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in callgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def _corpus(work: Path, games: int, pgn_games: int) -> tuple[int, int]:
    """(events in the measured games, moves in the measured PGN games)."""
    sys.path.insert(0, str(ROOT))
    from bench.bench_replay import _pgn_corpus
    from engine.risk_europe.sim import simulate_game
    from replay.logfile import write_log
    events = 0
    for i in range(games + 1):
        envs = simulate_game(1000 + i, f"bench-{i:05d}")
        envs = envs if isinstance(envs, list) else envs.envelopes
        write_log(work / f"bench-{i:05d}.jsonl", envs)
        events += len(envs) if i else 0
    text = _pgn_corpus(pgn_games + 1, seed=7)
    (work / "games.pgn").write_text(text)
    import chess.pgn
    import io
    stream, moves = io.StringIO(text), 0
    chess.pgn.read_game(stream)
    for _ in range(pgn_games):
        moves += sum(1 for _ in chess.pgn.read_game(stream).mainline_moves())
    return events, moves


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--pgn", type=int, default=15)
    ap.add_argument("--pure", action="store_true", help="hide compiled modules of this checkout")
    args = ap.parse_args(argv)
    mode = "pure" if args.pure else "as-built"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        events, moves = _corpus(work, args.games, args.pgn)
        count = {w: _instructions(mode, w, work, args.games, args.pgn)
                 for w in ("none", "read", "audit", "pgn")}
    read = (count["read"] - count["none"]) / events
    audit = (count["audit"] - count["none"]) / events
    chess = (count["pgn"] - count["none"]) / moves
    print(f"{mode}: {args.games} games ({events} events), {args.pgn} PGN games ({moves} moves)")
    print(f"  read {read / 1e3:.1f}k, judge {(audit - read) / 1e3:.1f}k, replay + audit "
          f"{audit / 1e3:.1f}k instructions / event; python-chess {chess / 1e3:.1f}k / move; "
          f"ratio {chess / audit:.2f}x (target >= 3x)")
    return {"read": read, "audit": audit, "chess": chess, "ratio": chess / audit}


if __name__ == "__main__":
    main()

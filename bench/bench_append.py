"""Append cost: a 500-event game appended to the store one event at a time, the cost of one append
early and late in the game, and against judging one event in a replay of the same game.

    python bench/run.py append          (or: python -m bench.bench_append [--game FILE])

Two measurements, both in this run:

1. the game appended from its first event to its last into a fresh store: the median append
   among the first and the last EDGE (the very first creates the game and is left out), and the
   mean over every append (it includes the appends that judge the whole game: the first one,
   and the seed's reveal, which re-checks every die from the start);
2. paired, because these machines are shared and their load changes within seconds: two stores,
   one holding the game's first event, the other all but its last EDGE events; one append to
   each in turn, and a replay of the whole game between pairs, so an early append, a late one and
   a judged event are always timed under the same load. Each ratio is the median of the
   per-pair ratios.

3. the same appends as in 1, grouped by event type: for each type common in both the first and
   the last third of the game, the median append early against late. The first and last EDGE
   appends of a game are different kinds of event (bids and set-up early, battles and the
   analytics rows they change late), so this is the comparison that isolates the game's length.

Targets (docs/architecture.md): last/first <= 1.5 (an append judges only its events) and
append / judged event <= 3x. Compare ratios across runs, not seconds. Not part of the tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.store import open_store  # noqa: E402
from replay.judge import judge  # noqa: E402
from replay.logfile import read_log  # noqa: E402

GAME = ROOT / "sample_logs" / "sim-0010.jsonl"     # 502 events
EDGE = 20   # appends measured at each end
clock = time.perf_counter


def _envelopes(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _judged_event_s(path: Path) -> float:
    """Seconds per event of reading and judging the whole game once."""
    t0 = clock()
    j = judge(read_log(path), keep_steps=False)
    return (clock() - t0) / j.events


def sequential(envelopes: list[dict], db: Path) -> list[float]:
    """Seconds of each append, one event at a time, into a fresh store."""
    game_id = envelopes[0]["game"]
    times = []
    with open_store(db) as store:
        for seq, envelope in enumerate(envelopes):
            t0 = clock()
            store.append(game_id, seq, [envelope])
            times.append(clock() - t0)
    return times


def paired(path: Path, envelopes: list[dict], folder: Path) -> list[tuple[float, float, float]]:
    """(early append, late append, judged event) seconds, EDGE times, under the same load."""
    game_id, n = envelopes[0]["game"], len(envelopes)
    out = []
    with open_store(folder / "early.duckdb") as early, open_store(folder / "late.duckdb") as late:
        early.append(game_id, 0, envelopes[:1])
        for seq in range(n - EDGE - 1):        # the late store is filled one event at a time,
            late.append(game_id, seq, [envelopes[seq]])   # as a live table would fill it
        for i in range(EDGE):
            t0 = clock()
            early.append(game_id, 1 + i, [envelopes[1 + i]])
            t1 = clock()
            late.append(game_id, n - EDGE - 1 + i, [envelopes[n - EDGE - 1 + i]])
            t2 = clock()
            out.append((t1 - t0, t2 - t1, _judged_event_s(path)))
    return out


def by_type(envelopes: list[dict], times: list[float], least: int = 5) -> None:
    """Print, per event type common early and late, the median append in the first and the last
    third of the game, and the ratio of the two."""
    third = len(times) // 3
    early: dict[str, list[float]] = {}
    late: dict[str, list[float]] = {}
    for i, (envelope, t) in enumerate(zip(envelopes, times)):
        if 0 < i < third:
            early.setdefault(envelope["type"], []).append(t)
        elif i >= len(times) - third:
            late.setdefault(envelope["type"], []).append(t)
    common = sorted(k for k in early.keys() & late.keys()
                    if len(early[k]) >= least and len(late[k]) >= least)
    if not common:
        return
    print(f"by event type (appends in the first and the last third of the game, medians):")
    ratios = []
    for kind in common:
        a, b = statistics.median(early[kind]), statistics.median(late[kind])
        ratios.append(b / a)
        print(f"  {kind:<18} {1e3 * a:6.2f} ms -> {1e3 * b:6.2f} ms  {b / a:5.2f}x  "
              f"({len(early[kind])} / {len(late[kind])} appends)")
    print(f"  median of the ratios, late / early, same event type: "
          f"{statistics.median(ratios):.2f}x  (target <= 1.5)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", type=Path, default=GAME, help="the sealed log to append")
    args = parser.parse_args(argv if argv is not None else [])
    path = args.game
    envelopes = _envelopes(path)
    with tempfile.TemporaryDirectory() as tmp:
        per_event = min(_judged_event_s(path) for _ in range(3))
        t0 = clock()
        times = sequential(envelopes, Path(tmp) / "append.duckdb")
        total = clock() - t0
        pairs = paired(path, envelopes, Path(tmp))
    first = statistics.median(times[1:EDGE + 1])      # the first append creates the game
    last = statistics.median(times[-EDGE:])
    mean = statistics.mean(times)
    ms = 1e3
    print(f"append {path.name} one event at a time: {len(times)} appends in {total:.2f} s")
    print(f"  per append, first {EDGE}: {ms * first:6.2f} ms   last {EDGE}: {ms * last:6.2f} ms "
          f"(medians)   mean of all: {ms * mean:6.2f} ms")
    print(f"  replay judging the same game: {ms * per_event:.3f} ms/event (best of 3)")
    print(f"  ratio last / first append: {last / first:.2f}x  (target <= 1.5)")
    print(f"  ratio one append (last {EDGE}) / one judged event: {last / per_event:.0f}x  "
          f"(target <= 3x); mean append / judged event: {mean / per_event:.0f}x")
    by_type(envelopes, times)
    early = statistics.median(p[0] for p in pairs)
    late = statistics.median(p[1] for p in pairs)
    print(f"paired ({EDGE} pairs, each with a replay between): early {ms * early:.2f} ms, "
          f"late {ms * late:.2f} ms, judged event "
          f"{ms * statistics.median(p[2] for p in pairs):.3f} ms (medians)")
    print(f"  ratio late / early append: {statistics.median(p[1] / p[0] for p in pairs):.2f}x"
          f"   ratio late append / judged event: "
          f"{statistics.median(p[1] / p[2] for p in pairs):.0f}x")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Append cost: a ~500-event game appended to the store one event at a time, the cost of one append
early and late in the game, and against judging one event in a replay of the same game.

    python bench/run.py append          (or: python -m bench.bench_append)

Figures are printed as absolute times and as ratios against a baseline measured in the same run
(these machines are noisy; compare ratios across runs, not seconds). Targets: last/first <= 1.5
(an append judges only its event), append / judged event <= 3x.
"""

from __future__ import annotations

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

GAME = ROOT / "sample_logs" / "sim-0399.jsonl"
EDGE = 20   # appends measured at each end


def _append_times(envelopes: list[dict], db: Path) -> list[float]:
    """Seconds of each append, one event at a time, into a fresh store."""
    game_id = envelopes[0]["game"]
    times = []
    clock = time.perf_counter
    with open_store(db) as store:
        for seq, envelope in enumerate(envelopes):
            t0 = clock()
            store.append(game_id, seq, [envelope])
            times.append(clock() - t0)
    return times


def _judged_event_s(path: Path, repeat: int = 5) -> float:
    """Seconds per event of reading and judging the whole game (best of `repeat`)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        j = judge(read_log(path), keep_steps=False)
        best = min(best, time.perf_counter() - t0)
    return best / j.events


def main() -> None:
    envelopes = [json.loads(line) for line in GAME.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    per_event = _judged_event_s(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        times = _append_times(envelopes, Path(tmp) / "append.duckdb")
        total = time.perf_counter() - t0
    first = statistics.median(times[1:EDGE + 1])      # the first append creates the game
    last = statistics.median(times[-EDGE:])
    print(f"append {GAME.name} one event at a time: {len(times)} appends in {total:.2f} s")
    print(f"  per append, first {EDGE}: {1e3 * first:6.2f} ms   last {EDGE}: {1e3 * last:6.2f} ms "
          f"(medians)")
    print(f"replay judging the same game: {1e3 * per_event:.3f} ms/event")
    print(f"ratio last / first append: {last / first:.2f}x  (target <= 1.5)")
    print(f"ratio one append / one judged event in replay: {last / per_event:.2f}x  (target <= 3x)")


if __name__ == "__main__":
    main()

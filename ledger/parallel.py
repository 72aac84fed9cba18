"""Judging many logs in worker processes, results in input order.

Judging a log is pure CPU work in Python, so one process judges on one core. A corpus audit or an
ingest of many files hands whole files to worker processes: each reads and judges a file by
itself and sends back what the parent needs (a Judgement without its final state, or a game's
store rows), and the parent takes the results in the order of the files, so the output, the
exit code and the store are the same whatever the number of workers.

Workers are started with "spawn": a fresh interpreter that shares nothing with the parent (the
parent may hold a DuckDB connection and its threads, which must not be forked). Starting one
costs about half a second of imports, so small jobs are judged in the parent (`worth_it`).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_FILES = 8                 # fewer files than this are judged in the parent
MIN_BYTES = 2_000_000         # ... and so are fewer bytes of log than this


def default_jobs() -> int:
    """Worker processes to use when not told: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def default_ingest_jobs() -> int:
    """Worker processes for an ingest when not told. The parent reads and writes all along, so
    on two cores workers judging beside it gain little (0.9-1.3x, measured by bench/) and can
    lose on a busy machine: workers only from four cores up."""
    cores = default_jobs()
    return cores if cores >= 4 else 1


def worth_it(paths: Sequence[Path], jobs: int) -> bool:
    """Do `jobs` workers pay for their start-up on these files?"""
    if jobs <= 1 or len(paths) < MIN_FILES:
        return False
    size = 0
    for p in paths:
        try:
            size += p.stat().st_size
        except OSError:
            continue
        if size >= MIN_BYTES:
            return True
    return False


def ordered_map(fn: Callable[[T], R], items: Iterable[T], jobs: int, *,
                window: int | None = None, initializer: Callable[..., None] | None = None,
                initargs: tuple = ()) -> Iterator[R]:
    """`fn(item)` for every item, computed in `jobs` worker processes (in the parent when
    jobs <= 1), yielded in the order of `items`.

    At most `window` items (default 4 per worker) are in flight, so memory stays bounded and a
    consumer that reports progress sees it move. `fn` (and `initializer`, run once in each
    worker with `initargs`) must be module-level functions and items and results picklable. An
    exception raised by `fn` is raised here, at its item.
    """
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            yield fn(item)
        return
    window = window or 4 * jobs
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=initializer,
                             initargs=initargs) as pool:
        pending: deque[Future] = deque()
        try:
            for item in items:
                pending.append(pool.submit(fn, item))
                if len(pending) >= window:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for fut in pending:
                fut.cancel()


# --- what workers run ----------------------------------------------------------------------------

def audit_file(task: tuple[str, tuple, bool]) -> tuple[str, Any]:
    """Worker: read and judge one log file for audit/verify: ("ok", Judgement without its final
    state) or ("unreadable", message)."""
    from replay.logfile import LogFileError, read_log
    from replay.judge import judge
    path, data_files, strict = task
    try:
        read = read_log(path)
    except LogFileError as exc:
        return "unreadable", str(exc)
    from ledger.datafiles import DataFileError, data_of_log
    try:
        data = data_of_log(read.events[0].payload if read.events else None, data_files, path)
    except DataFileError as exc:
        return "unreadable", str(exc)
    j = judge(read, data=data, strict=strict, keep_steps=False)
    j.final_state = None           # the state holds the board data: not worth sending back
    return "ok", j

"""Ingest log files into the store: find the logs, read each one, store it, count what happened.

    report = ingest_paths(store, ["sample_logs/", "extra/game7.jsonl"])
    report.counts()        # {"new": 1, "present": 0, "extended": 0, "with findings": 0, ...}
    report.rejects         # every refused log and every line not stored, with file/line/rule

Directories are walked for *.jsonl (sorted, recursively); a file named on the command line is read
whatever its name. A file that cannot be read is a reject (STORE-UNREADABLE), not an error: the
other files are still ingested.

Risk Legacy games of one campaign are ingested in the order of their game numbers, whatever
their files are called (`in_campaign_order`): each is checked against the campaign's game before
it as it is stored. The order is a courtesy, not a condition: a game stored before its
predecessor is kept, waiting for it, and checked again when it arrives (ledger.store).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from engine.core.ruleset import get_ruleset, ruleset_names
from engine.core.text import plural
from replay.logfile import LogFileError, LogProblem, LogRead, path_problem, read_log
from ledger.parallel import MIN_FILES, ordered_map, worth_it
from ledger.store import (DEFAULT_BATCH_EVENTS, EventStore, IngestOutcome, Reject, judge_for_store,
                          read_fingerprint)


@dataclass
class IngestReport:
    """Every outcome of one ingest run, and where the time went (read, judge, write seconds)."""

    outcomes: list[IngestOutcome]
    timings: dict[str, float] = field(default_factory=dict)
    elapsed: float = 0.0

    def of(self, status: str) -> list[IngestOutcome]:
        return [o for o in self.outcomes if o.status == status]

    @property
    def rejects(self) -> list[Reject]:
        return [r for o in self.outcomes for r in o.rejects]

    @property
    def events_added(self) -> int:
        return sum(o.events_added for o in self.outcomes)

    @property
    def events_read(self) -> int:
        return sum(o.event_count if o.is_stored else 0 for o in self.outcomes)

    @property
    def line_rejects(self) -> list[Reject]:
        """Lines of stored logs that were not stored (an exact repeat, an unreadable line)."""
        return [r for o in self.outcomes if o.status != "rejected" for r in o.rejects]

    def counts(self) -> dict[str, int]:
        """The summary, each count of one kind of thing: files read; games stored new, extended
        or already there (and how many of them have findings); files rejected whole; lines of
        stored logs not stored."""
        stored = [o for o in self.outcomes if o.is_stored]
        return {
            "files read": len(self.outcomes),
            "games new": len(self.of("new")),
            "games extended": len(self.of("extended")),
            "games already there": len(self.of("present")),
            "games with findings": sum(1 for o in stored if o.findings),
            "files rejected": len(self.of("rejected")),
            "lines not stored": len({(r.file, r.line) for r in self.line_rejects}),
        }

    def summary(self, into: str) -> str:
        """One sentence that agrees with counts(): what was read into the store `into`, stored,
        refused and added (a rate only when events were added)."""
        c = self.counts()
        games = c["games new"] + c["games extended"] + c["games already there"]
        parts = [f"{plural(games, 'game')} stored ({c['games new']} new, {c['games extended']} "
                 f"extended, {c['games already there']} already there)" if games
                 else "no game stored"]
        if c["files rejected"]:
            parts.append(f"{plural(c['files rejected'], 'file')} rejected")
        if c["lines not stored"]:
            parts.append(f"{plural(c['lines not stored'], 'line')} not stored")
        added = self.events_added
        rate = (f" ({added / self.elapsed:,.0f} events/s)" if added and self.elapsed > 0 else "")
        return (f"read {plural(c['files read'], 'file')} into {into} in {self.elapsed:.1f} s: "
                f"{', '.join(parts)}; "
                f"{plural(added, 'event') if added else 'no events'} added{rate}")

    def as_dict(self) -> dict[str, Any]:
        c = self.counts()
        return {"files": c["files read"],
                "games_stored": c["games new"] + c["games extended"] + c["games already there"],
                "new": c["games new"], "extended": c["games extended"],
                "already_present": c["games already there"],
                "with_findings": c["games with findings"], "rejected": c["files rejected"],
                "rejected_lines": c["lines not stored"],
                "events_added": self.events_added, "seconds": round(self.elapsed, 3),
                "timings": {k: round(v, 3) for k, v in self.timings.items()},
                "outcomes": [o.as_dict() for o in self.outcomes],
                "rejects": [r.as_dict() for r in self.rejects]}


def log_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The log files to ingest: each file as given, each directory's *.jsonl files (recursive,
    sorted). A path that does not exist, and a directory with no *.jsonl file, is kept, so that
    reading it reports it."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.jsonl") if p.is_file()) or [path])
        else:
            found.append(path)
    return found


def campaign_game_of(path: Path) -> tuple[str, int] | None:
    """(campaign, game number) claimed by the first event on a log's first line, when its ruleset
    plays campaigns (the ruleset's campaign `claim`); None for any other file (or one that cannot
    be read)."""
    if path_problem(path) is not None:     # a FIFO would block the open
        return None
    try:
        with path.open("rb") as f:
            first = f.readline(1 << 20)
    except OSError:
        return None
    if b'"campaign"' not in first:
        return None
    try:
        payload = json.loads(first.removeprefix(b"\xef\xbb\xbf")).get("payload") or {}
        name = payload.get("ruleset")
        hooks = get_ruleset(name).campaign if isinstance(name, str) and name in ruleset_names() else None
        return hooks.claim(payload) if hooks is not None else None
    except (ValueError, AttributeError, TypeError, RecursionError):
        return None


def in_campaign_order(files: Sequence[Path]) -> list[Path]:
    """The files, with each campaign's games in game-number order: they take the places the
    campaign's files had, and every other file keeps its place (ties keep their order)."""
    named = [campaign_game_of(p) for p in files]
    places: dict[str, list[int]] = {}
    for i, found in enumerate(named):
        if found is not None:
            places.setdefault(found[0], []).append(i)
    ordered = list(files)
    for spots in places.values():
        for spot, i in zip(spots, sorted(spots, key=lambda i: named[i][1])):
            ordered[spot] = files[i]
    return ordered


def read_source(path: Path) -> LogRead:
    """Read one log; a file that cannot be read becomes a read with no events that says why."""
    try:
        return read_log(path)
    except LogFileError as exc:
        why = (f"{path}: is a directory with no *.jsonl log file under it" if path.is_dir()
               else str(exc))
        problem = LogProblem(None, None, "STORE-UNREADABLE", why)
        return LogRead(str(path), [], [problem], sealed=False, chain_ok=False, head=None)


def file_lines(read: LogRead) -> Sequence[str] | None:
    """The lines of the file a read came from, to keep the text of rejected lines."""
    if path_problem(read.name) is not None:
        return None
    try:
        data = Path(read.name).read_bytes()
    except OSError:
        return None
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "backslashreplace").split("\n")


# --- judging ahead, in worker processes ------------------------------------------------------------

_KNOWN: dict[str, tuple[int, str | None]] = {}


def _set_known(known: dict[str, tuple[int, str | None]]) -> None:
    """Worker initializer: the store's games as they stood when the ingest began."""
    _KNOWN.clear()
    _KNOWN.update(known)


def _judge_ahead(path: str) -> Any:
    """Worker: read one file and judge it for the store, unless the store already holds exactly
    this game (re-ingest) or refuses it whole: judge_for_store's result, or None."""
    try:
        read = read_source(Path(path))
        if not read.events or _KNOWN.get(read.events[0].game) == read_fingerprint(read):
            return None
        return judge_for_store(read)
    except Exception:       # the parent judges this log itself, and meets the same error there
        return None


def _fingerprint_of_file(path: Path) -> tuple[str, tuple[int, str | None]] | None:
    """(game id, (events, last hash)) of a sealed log file, read cheaply (its lines counted, its
    last line parsed), to leave out of the work judged ahead the games a store already holds;
    None when that cannot be told so cheaply (the file is then judged ahead)."""
    if path_problem(path) is not None:
        return None
    try:
        lines = [ln for ln in path.read_bytes().split(b"\n") if ln.strip()]
        last = json.loads(lines[-1])
        return last["game"], (len(lines), last["hash"])
    except (OSError, ValueError, IndexError, KeyError, TypeError):
        return None


def ingest_paths(store: EventStore, paths: Iterable[str | Path], *,
                 batch_events: int = DEFAULT_BATCH_EVENTS,
                 on_read: Callable[[LogRead], None] | None = None,
                 on_outcome: Callable[[IngestOutcome], None] | None = None,
                 tournament: str | None = None, jobs: int = 1) -> IngestReport:
    """Ingest every log under `paths` into `store`; the report of what happened to each.

    Risk Legacy games of one campaign go in game-number order (`in_campaign_order`).
    `on_read` is called as each log has been read and judged (for a progress bar), `on_outcome`
    as each game's transaction commits. A StoreError (the database refused a write, the disk is
    full) stops the run: games committed before it stay, the batch in flight is rolled back,
    and running the same ingest again carries on where it stopped (ingest is idempotent).

    `jobs` > 1: the logs are also read and judged ahead in that many worker processes while this
    one writes (ledger.parallel), when there is enough work to pay for starting them. The store
    uses a log's judgement from a worker only if the worker read the same events (a file changed
    in between is judged again here), so the store ends up exactly as with jobs=1.
    """
    files = in_campaign_order(log_paths(paths))
    timings: dict[str, float] = {"read": 0.0, "judge": 0.0, "write": 0.0}
    started = time.perf_counter()
    ahead: dict[int, tuple[LogRead, Any]] = {}     # id(read) -> (read, judged ahead)
    pool: Iterator[Any] | None = None
    todo: set[Path] = set()
    if jobs > 1 and len(files) >= MIN_FILES:
        known = store.known_heads()
        todo = {p for p in files if _fingerprint_of_file(p) not in known.items()}
        if worth_it([p for p in files if p in todo], jobs):
            pool = ordered_map(_judge_ahead, [str(p) for p in files if p in todo], jobs,
                               initializer=_set_known, initargs=(known,))

    def reads() -> Iterator[LogRead]:
        nonlocal pool
        for path in files:
            begun = time.perf_counter()
            read = read_source(path)
            timings["read"] += time.perf_counter() - begun
            if pool is not None and path in todo:
                begun = time.perf_counter()
                try:
                    result = next(pool)
                except Exception:          # a worker died (BrokenProcessPool): judge here
                    pool.close()
                    pool = None
                else:
                    if result is not None:
                        ahead[id(read)] = (read, result)
                timings["judge"] += time.perf_counter() - begun   # waiting for the workers
            yield read

    def prejudged(read: LogRead) -> Any:
        entry = ahead.pop(id(read), None)
        return entry[1] if entry is not None and entry[0] is read else None

    try:
        outcomes = store.ingest_reads(reads(), lines_of=file_lines, batch_events=batch_events,
                                      on_outcome=on_outcome, on_read=on_read, timings=timings,
                                      tournament=tournament,
                                      prejudged=prejudged if pool is not None else None)
    finally:
        if pool is not None:
            pool.close()            # stop the workers, also when the ingest failed
    return IngestReport(outcomes, timings, time.perf_counter() - started)

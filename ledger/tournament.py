"""A whole event checked against its game logs (`ledger tournament check`): for each table of the
results sheet, its log found and judged, the reported result set against the rules' result; across
the sheet, a log given for two tables, a player at two tables in one round, a table whose log is
there but whose line is not; and the standings from the results that stand. docs/tournament.md.

    check_event(sheet, logs, store=None, scoring=None) -> TournamentReport
    recheck_report(document, logs, store=None) -> Recheck    a saved --json report, recomputed

Judging is replay.judge's and the organizer's answer per log is ledger.app.verify's (the same as
`ledger verify`); what a game scores comes through its ruleset's `scoring` hook. Nothing here
knows a game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from engine.core.errors import LedgerError
from engine.core.ruleset import Ruleset, get_ruleset, ruleset_names
from engine.core.text import and_list
from ledger import exitcodes
from ledger.datafiles import DataFiles, data_for
from ledger.tournament_scoring import (
    EventScoring, Played, Standing, event_scoring, number_text, standings,
)
from ledger.tournament_sheet import (
    Sheet, SheetError, SheetLine, natural_key, same_key, sheet_from_rows,
)
from ledger.app.verify import verdict
from replay.judge import Finding, Judgement, judge
from replay.logfile import LogFileError, LogRead, read_log

REPORT_FORMAT = "ledger-tournament-report"
REPORT_VERSION = 1

# the checks of one table, in the order they are shown
CHECKS = ("sheet", "duplicate-table", "log", "ruleset", "readable", "chain", "rules", "dice", "players", "game over", "result",
          "scores")


# --- the logs a check can use -------------------------------------------------------------------

@dataclass
class LogEntry:
    """A log the check can use: a file (among LOGS, or named by the sheet) or a stored game."""

    label: str                         # the file as given, or "GAME (stored in DB)"
    path: Path | None = None
    stored: str | None = None          # the game id in the store
    error: str | None = None           # why it cannot be read at all
    game_id: str | None = None
    ruleset: str | None = None
    seats: tuple[tuple[str, str | None], ...] = ()   # (id, name) in seat order
    head: str | None = None
    identity: str | None = None        # the chain head of an intact chain, else `digest`
    digest: str | None = None          # sha256 of the log's event lines (None: not read yet)
    started: str = ""                  # the first event's "at", if any (orders logs of the same players)
    among_logs: bool = False           # given in LOGS (or the store's tournament): on the sheet or missing
    read: LogRead | None = field(default=None, repr=False)

    def who(self) -> list[str]:
        """The players as people: each seat's name, else its id."""
        return [name or sid for sid, name in self.seats]

    def describe(self) -> str:
        what = ", ".join(self.who()) or "no players"
        game = "" if self.stored else f"; game {self.game_id}"
        return f"{self.label} ({self.ruleset or 'no ruleset'}: {what}{game})"


def _entry_from_read(read: LogRead, label: str, **kw: Any) -> LogEntry:
    first = read.events[0] if read.events else None
    payload = first.payload if first is not None and isinstance(first.payload, dict) else {}
    seats = []
    for p in payload.get("players") or []:
        if isinstance(p, dict) and isinstance(p.get("id"), str):
            name = p.get("name")
            seats.append((p["id"], name if isinstance(name, str) and name.strip() else None))
    digest = _digest(read)
    identity = read.head if read.chain_ok and read.head else digest
    ruleset = payload.get("ruleset")
    return LogEntry(label=label, game_id=first.game if first else None,
                    ruleset=ruleset if isinstance(ruleset, str) else None, seats=tuple(seats),
                    head=read.head, identity=identity, digest=digest, started=(first.at or "") if first else "",
                    read=read, **kw)


def _digest(read: LogRead) -> str | None:
    """sha256 of a read log's event lines as read (what a recheck compares beyond the head)."""
    if not read.events:
        return None
    return hashlib.sha256("\n".join(e.raw for e in read.events).encode("utf-8")).hexdigest()


def log_entry(path: Path, label: str | None = None, among_logs: bool = False) -> LogEntry:
    """A log file read (never raises: a file that cannot be read has `error`)."""
    label = label or str(path)
    try:
        read = read_log(path)
    except LogFileError as exc:
        return LogEntry(label=label, path=path, error=str(exc), among_logs=among_logs)
    entry = _entry_from_read(read, label, path=path, among_logs=among_logs)
    if not read.events:
        entry.error = (read.problems[0].message if read.problems else "no events")
    return entry


def collect_logs(paths: Iterable[Path], skip: Iterable[Path] = ()) -> tuple[list[LogEntry], list[str]]:
    """The logs among LOGS (files, and every *.jsonl under a folder), and the paths that do not
    exist (input that cannot be read). Files in `skip` (the sheet, the scoring file: a shell
    glob may list them) are left out."""
    from ledger.ingest import log_paths
    entries: list[LogEntry] = []
    errors: list[str] = []
    seen: set[Path] = {Path(p).resolve() for p in skip}
    for given in paths:
        given = Path(given)
        try:
            files = log_paths([given]) if given.is_dir() else [given] if given.exists() else None
        except OSError as exc:
            errors.append(f"{given}: cannot be read ({exc.strerror or exc})")
            continue
        if files is None:
            errors.append(f"{given}: no such file or folder")
            continue
        for f in files:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                entries.append(log_entry(f, among_logs=True))
    return entries, errors


def stored_logs(store: Any, db: str, tournament: str | None = None) -> list[LogEntry]:
    """The games of a store as logs a line may name or match (read when used); those of
    `tournament` (when given) count as the event's logs, the others are only matched."""
    rows = [g for g in store.games() if tournament is None or g.tournament_id == tournament]
    names: dict[str, dict[int, tuple[str, str | None]]] = {}
    query = getattr(store, "query", None)
    if query is not None:
        for game, seat, pid, name in query(
                "SELECT game_id, seat, player_id, name FROM players ORDER BY game_id, seat").rows():
            names.setdefault(game, {})[seat] = (pid, name)
    out = []
    for g in rows:
        seats = tuple(names[g.game_id][s] for s in sorted(names[g.game_id])) if g.game_id in names \
            else tuple((pid, None) for pid in g.players or [])
        out.append(LogEntry(label=f"{g.game_id} (stored in {db})", stored=g.game_id,
                            game_id=g.game_id, ruleset=g.ruleset, seats=seats, head=g.head_hash,
                            identity=g.head_hash, started=str(g.played_on or ""),
                            among_logs=tournament is not None))
    return out


def _load(entry: LogEntry, store: Any) -> LogRead | None:
    if entry.read is None and entry.stored is not None and store is not None:
        from ledger.store import load_log_from_store
        entry.read = load_log_from_store(store, entry.stored, name=entry.label)
        entry.digest = _digest(entry.read)
    return entry.read


# --- what one table's check says ---------------------------------------------------------------

@dataclass(frozen=True)
class Check:
    """One check of a table: ok, fail, warn (does not change whether the result stands), info,
    or skip (cannot be done: no log, or a log that cannot be judged)."""

    name: str
    status: str
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail}


@dataclass(frozen=True)
class Problem:
    """One line of the problem list: which table, which check, what is wrong, what to do."""

    round: str | None
    table: str | None
    where: str | None              # the sheet's line
    check: str
    message: str
    todo: str
    severity: str = "error"        # "error": the result does not stand; "warning": it does
    game: str | None = None        # for a problem of no table: the log's game id

    @property
    def label(self) -> str:
        if self.round is None and self.table is None:
            return "(no table)"
        return f"round {self.round} table {self.table}"

    def format(self) -> str:
        return f"{self.label}  {self.check}: {self.message} — {self.todo}"

    def as_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "where": self.where,
                "check": self.check, "message": self.message, "todo": self.todo,
                "severity": self.severity, "game": self.game}


@dataclass
class TableCheck:
    """One line of the sheet, checked."""

    line: SheetLine
    log: LogEntry | None = None
    how: str | None = None                 # how the log was found
    log_problem: tuple[str, str] | None = None   # why there is no usable log: (message, todo)
    not_own: str | None = None             # the log is another table's (the label of that table)
    judgement: Judgement | None = field(default=None, repr=False)
    checks: list[Check] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seat_of: dict[str, str] = field(default_factory=dict)    # sheet name -> seat id
    result: dict[str, Any] | None = None   # the rules' result, winners by sheet name
    values: dict[str, dict[str, float]] = field(default_factory=dict)   # sheet name -> values
    hints: list[str] = field(default_factory=list)   # unused logs with this table's players

    @property
    def stands(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    @property
    def label(self) -> str:
        return self.line.label

    def problem(self, check: str, message: str, todo: str, severity: str = "error") -> None:
        self.problems.append(Problem(self.line.round, self.line.table, self.line.where, check,
                                     message, todo, severity))

    def rs(self) -> Ruleset | None:
        j = self.judgement
        return get_ruleset(j.ruleset) if j is not None and j.ruleset else None

    def name_of(self, seat: str) -> str:
        """A seat id as the sheet names its player (else the log's name, else the id)."""
        for name, sid in self.seat_of.items():
            if sid == seat:
                return name
        if self.log is not None:
            for sid, name in self.log.seats:
                if sid == seat:
                    return name or sid
        return seat

    def as_dict(self) -> dict[str, Any]:
        j = self.judgement
        log = None
        if self.log is not None:
            log = {"source": self.log.label, "found": self.how, "file": str(self.log.path) if
                   self.log.path else None, "stored": self.log.stored, "game": self.log.game_id,
                   "head": self.log.head, "identity": self.log.identity,
                   "sha256": self.log.digest,
                   "ruleset": j.ruleset if j else self.log.ruleset,
                   "ruleset_version": j.ruleset_version if j else None,
                   "data": j.data_digest if j else None, "events": j.events if j else None,
                   "chain_ok": j.chain_ok if j else None,
                   "players": [{"id": sid, "name": name} for sid, name in self.log.seats]}
        rules = [f for f in j.rule_findings] if j else []
        return {"round": self.line.round, "table": self.line.table, "where": self.line.where,
                "players": list(self.line.players), "reported_winner": list(self.line.winners),
                "log": log, "stands": self.stands,
                "checks": [c.as_dict() for c in self.checks],
                "findings": {"count": len(j.findings) if j else 0, "rules": len(rules),
                             "first": [_finding_dict(f) for f in (j.findings[:3] if j else [])]},
                "result": self.result, "values": self.values, "hints": self.hints,
                "problems": [p.as_dict() for p in self.problems]}


def _finding_dict(f: Finding) -> dict[str, Any]:
    return {"rule": f.rule, "line": f.line, "seq": f.seq, "message": f.message,
            "section": f.section, "kind": f.kind}


def _finding_text(f: Finding) -> str:
    msg = f.message if len(f.message) <= 90 else f.message[:87] + "..."
    return f"{f.rule} at line {f.line}: {msg}"


@dataclass
class TournamentReport:
    """Everything `ledger tournament check` found, in sheet order."""

    sheet: Sheet
    scoring: EventScoring
    tables: list[TableCheck]
    problems: list[Problem]                # every problem: the tables' in sheet order, then the rest
    standings: list[Standing]
    left_out: list[tuple[str, str]]        # (table, why its result is not in the standings)
    results_counted: int
    logs_given: list[str]
    input_errors: list[str]                # LOGS that do not exist
    unused: list[LogEntry]                 # logs on no line of the sheet

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity != "error"]

    @property
    def exit_code(self) -> int:
        if self.input_errors:
            return exitcodes.UNREADABLE
        return exitcodes.FINDINGS if self.errors else exitcodes.OK

    def as_dict(self) -> dict[str, Any]:
        logs = {}
        for t in self.tables:
            j = t.judgement
            if t.log is not None and t.log.identity is not None and t.log.identity not in logs:
                logs[t.log.identity] = {"source": t.log.label, "game": t.log.game_id,
                                        "head": t.log.head, "ruleset": j.ruleset if j else t.log.ruleset,
                                        "ruleset_version": j.ruleset_version if j else None,
                                        "data": j.data_digest if j else None,
                                        "tables": [u.label for u in self.tables
                                                   if u.log is not None and u.log.identity == t.log.identity]}
        return {
            "format": REPORT_FORMAT, "version": REPORT_VERSION,
            "stands": self.exit_code == exitcodes.OK, "exit_code": self.exit_code,
            "sheet": {"file": self.sheet.file, "format": self.sheet.format,
                      "sha256": self.sheet.sha256, "columns": list(self.sheet.columns),
                      "score_columns": list(self.sheet.score_columns),
                      "ignored_columns": list(self.sheet.ignored_columns),
                      "lines": [ln.as_dict() for ln in self.sheet.lines]},
            "logs_given": self.logs_given, "input_errors": self.input_errors,
            "scoring": self.scoring.as_dict(),
            "tables": [t.as_dict() for t in self.tables],
            "logs": list(logs.values()),
            "unused_logs": [{"source": e.label, "game": e.game_id, "ruleset": e.ruleset,
                             "players": e.who(), "head": e.head, "error": e.error}
                            for e in self.unused],
            "problems": [p.as_dict() for p in self.problems],
            "standings": [s.as_dict() for s in self.standings],
            "results_counted": self.results_counted,
            "left_out": [{"table": t, "why": why} for t, why in self.left_out],
        }


# --- the check ---------------------------------------------------------------------------------

def check_event(sheet: Sheet, logs: Iterable[Path] = (), *, store: Any = None,
                db: str | None = None, tournament: str | None = None,
                scoring: Mapping[str, Any] | None = None, scoring_source: str | None = None,
                expect: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
                skip: Iterable[Path] = (), data_files: DataFiles = ()) -> TournamentReport:
    """Check every line of `sheet` against the logs among `logs` (files and folders), and the
    store's games when a `store` is given (those of `tournament` count as the event's logs).

    `data_files`: corrected data files (`--board FILE` ...), each used for the logs of the
    rulesets that take it (DataFileError when one cannot be loaded). `scoring`: a scoring
    file's document, checked (ledger.tournament_scoring.load_scoring), read from
    `scoring_source`; default: each ruleset's own. `expect` (recheck): per (round, table) key,
    the log a saved report found (its "game", "identity", "file"), looked for among `logs`
    instead of the log column and the players. `skip`: files among `logs` that are not logs
    (the scoring file; the sheet is skipped anyway)."""
    logs = [Path(p) for p in logs]
    entries, input_errors = collect_logs(logs, skip=[Path(sheet.file), *skip])
    if store is not None:
        have = {e.identity for e in entries if e.identity}
        entries += [e for e in stored_logs(store, db or "the store", tournament)
                    if e.identity not in have]
    tables = [TableCheck(ln) for ln in sheet.lines]
    by_path = {e.path.resolve(): e for e in entries if e.path is not None}

    # 1. the log column
    for t in tables:
        saved = (expect or {}).get(t.line.key)
        if saved is not None:
            _resolve_saved(t, entries, saved)
        elif t.line.log is not None:
            _resolve_named(t, sheet, entries, by_path)
    # 2. the others, by their players (and ruleset, when the sheet names it)
    used = {t.log.identity for t in tables if t.log is not None and t.log.identity}
    for t in sorted((t for t in tables if t.line.log is None and t.log is None
                     and t.log_problem is None),
                    key=lambda t: (natural_key(t.line.round), natural_key(t.line.table))):
        _match_by_players(t, entries, used)
    # 3. a log given for two tables
    _shared_logs(tables)
    # 4. each table judged and checked
    judged: dict[str, Judgement] = {}
    for t in tables:
        _check_table(t, store, judged, data_files)
    # 5. across the sheet
    _players_twice(tables)
    used = {t.log.identity for t in tables if t.log is not None and t.log.identity}
    taken = {id(t.log) for t in tables if t.log is not None}
    unused = [e for e in entries if e.among_logs and id(e) not in taken]
    hinted = _hint_unused(tables, unused)
    extra: list[Problem] = []
    listed: set[str] = set()
    for e in unused:
        if e.error is not None:
            extra.append(Problem(None, None, None, "missing-table", f"{e.label} cannot be read as a "
                                 f"game log ({e.error})", "if it is a table's log, ask for a readable "
                                 "copy; else remove it from the logs", game=e.label))
        elif e.identity in used:
            owner = next(t.label for t in tables if t.log is not None and t.log.identity == e.identity)
            extra.append(Problem(None, None, None, "duplicate-log", f"{e.label} is another copy of "
                                 f"{owner}'s log (the same game, head {(e.head or '')[:12]})",
                                 "nothing to do for the standings; keep one copy", "warning",
                                 e.game_id))
        elif e.identity in listed:
            continue
        elif id(e) not in hinted:
            extra.append(Problem(None, None, None, "missing-table", f"{e.describe()} is the log of "
                                 "no table on the sheet", "add its line (round, table, players, "
                                 "winner, log) to the sheet, or remove the log if it is not of "
                                 "this event", game=e.game_id))
        listed.add(e.identity or e.label)
    for t in tables:
        t.problems.sort(key=lambda p: CHECKS.index(p.check) if p.check in CHECKS else len(CHECKS))
    ordered = sorted(tables, key=lambda t: (natural_key(t.line.round), natural_key(t.line.table),
                                            t.line.line))
    problems = [p for t in ordered for p in t.problems] + extra
    event = event_scoring(scoring, scoring_source or "the rulesets' defaults",
                          used=_rulesets_of(tables))
    results, left_out, out_count = _results(ordered)
    everyone = [p for t in ordered for p in t.line.players]
    table = standings(results, event, everyone, out_count)
    return TournamentReport(sheet, event, ordered, problems, table, left_out, len(results),
                            [str(p) for p in logs], input_errors, unused)


def _rulesets_of(tables: list[TableCheck]) -> list[str]:
    return [t.judgement.ruleset for t in tables if t.judgement is not None and t.judgement.ruleset]


def _seat_map(players: Iterable[str], seats: Iterable[tuple[str, str | None]]) -> tuple[dict[str, str], list[str], list[str]]:
    """Sheet names matched to seats (by name, else id; without case): (name -> seat id, sheet
    names not in the log, seats of the log not on the sheet (their names or ids))."""
    seats = list(seats)
    free = list(range(len(seats)))
    out: dict[str, str] = {}
    missing: list[str] = []
    for name in players:
        folded = name.casefold()
        hit = next((i for i in free if (seats[i][1] or "").casefold() == folded), None)
        if hit is None:
            hit = next((i for i in free if seats[i][0].casefold() == folded), None)
        if hit is None:
            missing.append(name)
        else:
            free.remove(hit)
            out[name] = seats[hit][0]
    return out, missing, [seats[i][1] or seats[i][0] for i in free]


def _same_players(line: SheetLine, entry: LogEntry) -> bool:
    if entry.error is not None or not entry.seats or not line.players:
        return False
    if line.ruleset is not None and entry.ruleset != line.ruleset:
        return False
    _, missing, extra = _seat_map(line.players, entry.seats)
    return not missing and not extra


def _resolve_saved(t: TableCheck, entries: list[LogEntry], saved: Mapping[str, Any]) -> None:
    """The log a saved report found for this table, among the logs given now: by its game id
    (the same chain head first, then the same file name); the sheet's folder is not searched,
    so that a recheck reads the logs it is given."""
    game = saved.get("stored") or saved.get("game")
    named = [e for e in entries if e.game_id == game and e.error is None]
    name = Path(str(saved.get("file") or "")).name
    best = ([e for e in named if e.identity == saved.get("identity")] or named)
    best = [e for e in best if e.path is not None and e.path.name == name] or best
    if not best:
        t.log_problem = (f"no log: game {game} (the report's {saved.get('source')}) is not among "
                         "the logs given", "give the logs the report was made from")
        return
    t.log = best[0]
    t.how = "the game id the report names"


def _resolve_named(t: TableCheck, sheet: Sheet, entries: list[LogEntry],
                   by_path: dict[Path, LogEntry]) -> None:
    """The log the `log` column names: a file beside the sheet, a log among LOGS by file name or
    game id, or a stored game."""
    ref = t.line.log or ""
    p = Path(ref)
    path = p if p.is_absolute() else sheet.folder / p
    try:
        exists = path.exists()
    except (OSError, ValueError):      # a name too long, or with a NUL: not a file
        exists = False
    if exists:
        if path.is_dir():
            t.log_problem = (f"the log column names {ref!r}, a folder, not a log file",
                             "name the table's log file")
            return
        t.log = by_path.get(path.resolve()) or log_entry(path, str(path))
        t.how = "the log column"
        return
    named = [e for e in entries if e.path is not None and (e.path.name == ref or str(e.path) == ref)]
    if not named:
        named = [e for e in entries if e.game_id == ref]
    distinct = {e.identity for e in named}
    if len(distinct) > 1:
        t.log_problem = (f"the log column names {ref!r}, and {len(named)} different logs answer "
                         f"to it ({', '.join(e.label for e in named[:3])})",
                         "name the log by its file path beside the sheet")
        return
    if named:
        t.log = named[0]
        t.how = "the log column" + (" (a game id)" if named[0].game_id == ref and
                                    (named[0].path is None or named[0].path.name != ref) else "")
        return
    where = "beside the sheet" if not p.is_absolute() else "there"
    t.log_problem = (f"no log: {ref!r} is not a file {where}, nor a log among the logs given, "
                     "nor a stored game", f"ask {t.label} for its log, or correct the log column")


def _match_by_players(t: TableCheck, entries: list[LogEntry], used: set[str]) -> None:
    if any(p.check == "sheet" for p in t.line.problems) and not t.line.players:
        t.log_problem = ("no log: the line names no players to find it by",
                         "fill in the players, or name the log in the log column")
        return
    found = sorted((e for e in entries if e.identity not in used and _same_players(t.line, e)),
                   key=lambda e: (e.started, e.game_id or "", e.label))
    if not found:
        if not t.line.winners:
            return                     # no result reported and no log: nothing to check
        t.log_problem = ("no log: no log given has this table's players "
                         f"({', '.join(t.line.players)})",
                         f"ask {t.label} for its log (or name it in the log column); until then "
                         "its result cannot be verified")
        return
    t.log = found[0]
    used.add(found[0].identity or found[0].label)
    others = len({e.identity for e in found})
    t.how = "its players" + (
        f" (the first by start of {others} logs with these players; name the log in the log "
        "column to be sure)" if others > 1 else "")


def _shared_logs(tables: list[TableCheck]) -> None:
    """A log given for two tables: it is the one table's whose players it has; the others have
    no log of their own. When its players are at none or several of them, every one is told."""
    groups: dict[str, list[TableCheck]] = {}
    for t in tables:
        if t.log is not None and t.log.identity is not None:
            groups.setdefault(t.log.identity, []).append(t)
    for group in groups.values():
        if len(group) < 2:
            continue
        owners = [t for t in group if _same_players(t.line, t.log)]
        for t in group:
            others = [u for u in group if u is not t]
            if len(owners) == 1 and t is owners[0]:
                continue
            if len(owners) == 1:
                owner = owners[0]
                t.not_own = owner.label
                t.log_problem = (f"{t.log.label} is {owner.label}'s game (the same log, head "
                                 f"{(t.log.head or '')[:12]}), given for this table too",
                                 f"ask {t.label} for its own log and name it in the log column")
            else:
                t.problem("log", f"{t.log.label} is given for {t.label} and for "
                          f"{', '.join(u.label for u in others)}: one game cannot be two tables'",
                          "name each table's own log; the log belongs to the table whose "
                          "players and round it has")


def _data(read: LogRead, data_files: DataFiles) -> Any:
    """The data a log is judged with: the data files given that its ruleset takes (others are
    for the event's other game), else its shipped data (None). DataFileError when one fails."""
    if not data_files or not read.events or not isinstance(read.events[0].payload, dict):
        return None
    name = read.events[0].payload.get("ruleset")
    if name not in ruleset_names():
        return None
    rs = get_ruleset(name)
    keys = {o.key for o in rs.data_options}
    mine = tuple((k, v) for k, v in data_files if k in keys)
    return data_for(rs, mine, read.name) if mine else None


def _check_table(t: TableCheck, store: Any, judged: dict[str, Judgement],
                 data_files: DataFiles = ()) -> None:
    line = t.line
    for lp in line.problems:
        t.problem(lp.check, lp.message, lp.todo)
    if t.log_problem is not None and t.log is None or t.not_own is not None:
        message, todo = t.log_problem or ("no log", "")
        t.checks.append(Check("log", "fail", message))
        t.problem("log", message, todo)
        return
    if t.log is None:
        t.checks.append(Check("log", "info", "no log, and no result reported: nothing to check"))
        return
    e = t.log
    if e.error is not None:
        t.checks.append(Check("log", "fail", f"{e.label}: {e.error}"))
        t.problem("readable", f"{e.label} cannot be read as a game log ({e.error})",
                  f"ask {t.label} for a readable copy of its log")
        return
    key = e.identity or e.label
    j = judged.get(key)
    if j is None:
        read = _load(e, store)
        j = judged[key] = judge(read, data=_data(read, data_files), keep_steps=False)
    t.judgement = j
    t.checks.append(Check("log", "ok", f"{e.label} — found by {t.how}; game {e.game_id}, "
                          f"{j.events} events, {j.ruleset or 'no ruleset'}"))
    if line.ruleset is not None and j.ruleset is not None and j.ruleset != line.ruleset:
        msg = f"the sheet says {line.ruleset}; the log is a {j.ruleset} game"
        t.checks.append(Check("ruleset", "fail", msg))
        t.problem("ruleset", msg, "correct the ruleset column, or give this table's own log")
    seat_of, missing, extra = _seat_map(line.players, e.seats)
    t.seat_of = seat_of
    v = verdict(j)          # its result check is the log's own claim: the sheet's is below
    vc = {c["name"]: c for c in v["checks"]}
    readable = vc["log readable"]
    t.checks.append(Check("readable", "ok" if readable["ok"] else "fail", readable["detail"]))
    if not readable["ok"]:
        bad = [f for f in j.log_findings if f.rule not in exitcodes.CHAIN_RULES]
        first = _finding_text(bad[0]) if bad else (j.fatal or "")
        t.problem("readable", f"the log is damaged or not a whole game: {first}",
                  f"ask {t.label} for the original file (ledger audit {e.label})")
    chain = vc["hash chain"]
    t.checks.append(Check("chain", "ok" if chain["ok"] else "fail", chain["detail"]))
    if not chain["ok"]:
        broken = [f for f in j.log_findings if f.rule in exitcodes.CHAIN_RULES]
        first = _finding_text(broken[0]) if broken else "the log is not sealed"
        t.problem("chain", f"the hash chain is not intact: {first}",
                  "ask for the original file; a log edited after it was sealed is not evidence")
    if j.fatal is not None:
        t.checks.append(Check("rules", "skip", f"not judged: {j.fatal}"))
        return
    # a finding an organizer's ruling accepts is answered (docs/log-format.md, "RulingRecorded")
    rules = [f for f in j.rule_findings if j.accepted_by(f) is None]
    ruled = len(j.rule_findings) - len(rules)
    detail = ("no rule errors" if not rules else (
        f"{len(rules)} finding(s): " + "; ".join(_finding_text(f) for f in rules[:3])
        + (f"; and {len(rules) - 3} more" if len(rules) > 3 else ""))) + (
        f"; {ruled} accepted by rulings" if ruled else "")
    t.checks.append(Check("rules", "fail" if rules else "ok",
                          detail + f" ({j.ruleset} {j.ruleset_version})"))
    if rules:
        t.problem("rules", detail, f"a judge rules on the game first (ledger audit {e.label}, "
                  "then ledger rule); the result stands only after that")
    if "dice" in vc:
        dice = vc["dice"]
        t.checks.append(Check("dice", "ok" if dice["ok"] else "fail", dice["detail"]))
        if not dice["ok"] and not j.seed_checked:
            t.problem("dice", dice["detail"], "ask for the log with its SeedRevealed event, or "
                      "rule on the game")
    else:
        t.checks.append(Check("dice", "info", "dice rolled at the table: no seed to check them "
                              "against" if j.dice_mode != "seeded" else "not checked"))
    _check_players(t, missing, extra)
    rs = t.rs()
    _check_result(t, j, rs)
    _check_scores(t, j, rs)


def _check_players(t: TableCheck, missing: list[str], extra: list[str]) -> None:
    e = t.log
    seats = ", ".join(f"{name} ({sid})" if name and name != sid else sid for sid, name in e.seats)
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"the sheet's {', '.join(missing)} {'is' if len(missing) == 1 else 'are'}"
                         " not in the log")
        if extra:
            parts.append(f"the log's {', '.join(extra)} {'is' if len(extra) == 1 else 'are'} "
                         "not on the sheet")
        msg = "; ".join(parts) + f" (the log's seats: {seats})"
        t.checks.append(Check("players", "fail", msg))
        t.problem("players", msg, "correct the players on the sheet, or give this table's own log")
        return
    order = [t.seat_of[p] for p in t.line.players]
    if order != [sid for sid, _ in e.seats]:
        msg = f"the same players in another seat order (the log's seats: {seats})"
        t.checks.append(Check("players", "warn", msg))
        t.problem("players", msg, "list the players in seat order on the sheet", "warning")
        return
    t.checks.append(Check("players", "ok", f"as on the sheet, in seat order ({seats})"))


def _check_result(t: TableCheck, j: Judgement, rs: Ruleset | None) -> None:
    reported = and_list(t.line.winners) or "no result"
    if j.result is None:
        stops = ""
        if rs is not None and j.final_state is not None:
            stops = f"the log stops in round {rs.position(j.final_state)[1]}"
        t.checks.append(Check("game over", "info", "no: the game is not over by the rules"
                              + (f" ({stops})" if stops else "")))
        if t.line.winners:
            msg = f"the sheet reports {reported}, but the game is not over by the rules ({stops})"
            t.checks.append(Check("result", "fail", msg))
            t.problem("result", msg, "get the complete log, or report no result (an empty winner)")
        else:
            t.checks.append(Check("result", "ok", "no result reported, and the game is not over"))
        return
    r = j.result
    names = tuple(t.name_of(w) for w in r.winners)
    rules_text = and_list(names) or "no winner"
    t.result = {"winners": list(names), "winner_ids": list(r.winners), "reason": r.reason,
                "round": r.round}
    t.checks.append(Check("game over", "ok", f"yes, in round {r.round} ({r.reason})"))
    declared = sorted(t.seat_of.get(w, "\0" + w) for w in t.line.winners)
    if declared == sorted(r.winners):
        t.checks.append(Check("result", "ok", f"the sheet reports {reported}; the rules give "
                              f"{rules_text} (round {r.round}, {r.reason})"))
        return
    msg = (f"the sheet reports {reported}; the rules give {rules_text} "
           f"(round {r.round}, {r.reason})")
    t.checks.append(Check("result", "fail", msg))
    t.problem("result", msg, f"correct the winner on the sheet to {rules_text}, or have a judge "
              "rule on the game")


def _check_scores(t: TableCheck, j: Judgement, rs: Ruleset | None) -> None:
    scoring = rs.scoring if rs is not None else None
    if scoring is not None and j.final_state is not None:
        by_seat = scoring.scores(j.final_state, j.result)
        t.values = {name: dict(by_seat.get(sid, {})) for name, sid in t.seat_of.items()}
    if not t.line.scores:
        return
    known = {v.key: v for v in (scoring.values if scoring is not None else ())}
    wrong: list[str] = []
    bad: list[str] = []
    title = rs.title if rs is not None else "this game"
    for key, cell in t.line.scores.items():
        if key not in known:
            bad.append(f"{key!r} is not a score of {title} (its scores: "
                       f"{', '.join(known) or 'none'})")
            continue
        cells = [c.strip() for c in cell.split(";")]
        try:
            numbers = [float(c) for c in cells]
        except ValueError:
            bad.append(f"{key} {cell!r} is not a list of numbers")
            continue
        if len(numbers) == len(t.line.players):
            pairs = list(zip(t.line.players, numbers))
        elif len(numbers) == 1 and len(t.line.winners) == 1:
            pairs = [(t.line.winners[0], numbers[0])]
        else:
            bad.append(f"{key} has {len(numbers)} value(s) for {len(t.line.players)} players "
                       "(give one per player in seat order, or the winner's alone)")
            continue
        for name, given in pairs:
            if name not in t.values:
                continue
            actual = t.values[name].get(key)
            if actual is not None and float(actual) != given:
                wrong.append(f"{known[key].title.lower()} of {name}: the sheet {number_text(given)}, "
                             f"the rules {number_text(actual)}")
    if bad or wrong:
        msg = "; ".join(bad + wrong[:3]) + (f"; and {len(wrong) - 3} more" if len(wrong) > 3 else "")
        t.checks.append(Check("scores", "fail", msg))
        t.problem("scores", msg, "correct the score columns on the sheet (the rules' values "
                  "are in the report)")
    else:
        t.checks.append(Check("scores", "ok", ", ".join(
            f"{known[k].title.lower()} as the rules give" for k in t.line.scores)))


def _players_twice(tables: list[TableCheck]) -> None:
    """Players at two tables of one round: each such table is told once, naming them all. When
    every one of those tables has its own log with the player in it, the logs show the games
    were played: a warning (check the rounds); else one of the lines is wrong: a problem."""
    seen: dict[tuple[str, str], list[TableCheck]] = {}
    for t in tables:
        if not t.line.round:
            continue
        for p in t.line.players:
            seen.setdefault((t.line.key[0], p.casefold()), []).append(t)
    elsewhere: dict[int, dict[tuple[str, str], tuple[str, ...]]] = {}
    for (_, folded), where in seen.items():
        if len({t.line.key for t in where}) < 2:
            continue                     # one table (a line there twice is told apart)
        shown = all(t.judgement is not None and t.not_own is None and
                    any(n.casefold() == folded for n in t.seat_of) for t in where)
        for t in where:
            name = next(p for p in t.line.players if p.casefold() == folded)
            others = tuple(sorted({u.line.table for u in where if u.line.key != t.line.key},
                                  key=natural_key))
            severity = "warning" if shown else "error"
            elsewhere.setdefault(id(t), {})[(severity, name)] = others
    for t in tables:
        found = elsewhere.get(id(t))
        if not found:
            continue
        for severity in ("error", "warning"):
            groups: dict[tuple[str, ...], list[str]] = {}
            for (sev, name), others in found.items():
                if sev == severity:
                    groups.setdefault(others, []).append(name)
            if not groups:
                continue
            parts = [f"{_and(names)} {'is' if len(names) == 1 else 'are'} also at "
                     f"table{'s' if len(others) > 1 else ''} {_and(list(others))}"
                     for others, names in groups.items()]
            if severity == "error":
                t.problem("player-twice", "; ".join(parts) + f" of round {t.line.round}",
                          "correct the players of the tables where they did not play")
            else:
                t.problem("player-twice", "; ".join(parts) + f" of round {t.line.round}, and "
                          "each table's log has them", "check the round of these tables (the "
                          "logs show the games were played)", "warning")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _hint_unused(tables: list[TableCheck], unused: list[LogEntry]) -> set[int]:
    """Tables without a usable log of their own are told of unused logs that have their
    players; the logs so placed are not reported as tables missing from the sheet."""
    placed: set[int] = set()
    for t in tables:
        wanting = (t.log is None and t.log_problem is not None) or t.not_own is not None or \
            any(p.check == "players" and p.severity == "error" for p in t.problems)
        if not wanting:
            continue
        fits = [e for e in unused if e.error is None and _same_players(t.line, e)]
        if not fits:
            continue
        t.hints = [e.label for e in fits]
        placed.update(id(e) for e in fits)
        names = ", ".join(e.label for e in fits[:2])
        for i, p in enumerate(t.problems):
            if p.check in ("log", "players") and p.severity == "error":
                t.problems[i] = Problem(p.round, p.table, p.where, p.check, p.message,
                                        f"{p.todo} ({names} {'has' if len(fits) == 1 else 'have'} "
                                        "this table's players)", p.severity)
                break
    return placed


def _results(tables: list[TableCheck]) -> tuple[list[Played], list[tuple[str, str]], dict[str, int]]:
    """The verified results, and the tables left out with why (and how many per player)."""
    results: list[Played] = []
    left_out: list[tuple[str, str]] = []
    per_player: dict[str, int] = {}
    for t in tables:
        j = t.judgement
        if t.stands and j is not None and j.result is not None:
            results.append(Played(t.label, j.ruleset or "", tuple(t.line.players),
                                  tuple(t.result["winners"]) if t.result else (),
                                  t.values))
            continue
        if t.stands:
            why = "no result reported" + ("" if t.log is not None else " (and no log)")
        else:
            first = next(p for p in t.problems if p.severity == "error")
            why = f"{first.check}: {first.message}"
        left_out.append((t.label, why))
        if not t.stands:
            for p in t.line.players:
                per_player[p.casefold()] = per_player.get(p.casefold(), 0) + 1
    return results, left_out, per_player


# --- a saved report, checked again ---------------------------------------------------------------

class ReportError(LedgerError):
    """A file that is not a report `ledger tournament check --json` wrote."""


@dataclass
class Recheck:
    report: TournamentReport
    differences: list[str]

    @property
    def stands(self) -> bool:
        return not self.differences


def sheet_of_report(doc: Mapping[str, Any]) -> tuple[Sheet, dict[tuple[str, str], dict]]:
    """The sheet a saved report checked (each found log named by its game id), and per table
    the log it found."""
    if not isinstance(doc, dict) or doc.get("format") != REPORT_FORMAT:
        raise ReportError("not a report of `ledger tournament check --json` (no \"format\": "
                          f"\"{REPORT_FORMAT}\")")
    try:
        s = doc["sheet"]
        found = {(same_key(str(t["round"])), same_key(str(t["table"]))): t["log"]
                 for t in doc["tables"] if t.get("log") and t["log"].get("game")}
        rows = []
        for ln in s["lines"]:
            row = {"round": ln["round"], "table": ln["table"], "players": ln["players"],
                   "winner": ln["winner"], "ruleset": ln.get("ruleset"), **ln.get("scores", {})}
            row["log"] = ln.get("log")
            rows.append((int(ln["line"]), row))
        headings = list(dict.fromkeys(["round", "table", "players", "winner", "log", "ruleset",
                                       *s.get("score_columns", [])]))
        sheet = sheet_from_rows(s["file"], s.get("format", "csv"), s.get("sha256"), headings,
                                rows, "entry" if s.get("format") == "json" else "line")
    except SheetError as exc:
        raise ReportError(f"its copy of the sheet cannot be read: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReportError(f"the report is incomplete or damaged ({type(exc).__name__}: {exc})") from None
    return sheet, found


def recheck_report(doc: Mapping[str, Any], logs: Iterable[Path], *, store: Any = None,
                   db: str | None = None, tournament: str | None = None,
                   data_files: DataFiles = ()) -> Recheck:
    """Recompute a saved report from the logs as they are now; what differs (nothing: it stands)."""
    sheet, found = sheet_of_report(doc)
    saved = doc.get("scoring") or {}
    spec = saved.get("file") or None
    from ledger.tournament_scoring import check_spec
    if spec is not None and check_spec(spec):
        raise ReportError(f"its scoring: {'; '.join(check_spec(spec))}")
    try:
        report = check_event(sheet, logs, store=store, db=db, tournament=tournament,
                             scoring=spec, scoring_source=saved.get("source"), expect=found,
                             data_files=data_files)
    except SheetError as exc:          # pragma: no cover - sheet_of_report read it already
        raise ReportError(str(exc)) from None
    return Recheck(report, compare_reports(doc, report.as_dict()))


def compare_reports(before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """What a report says differently now: logs (their heads, rulesets and data), each table's
    result and standing, the problems, the standings. [] when the same."""
    out: list[str] = []
    old = {(t["round"], t["table"]): t for t in before.get("tables", [])}
    new = {(t["round"], t["table"]): t for t in now.get("tables", [])}
    for key in sorted(set(old) | set(new), key=lambda k: (natural_key(str(k[0])), natural_key(str(k[1])))):
        label = f"round {key[0]} table {key[1]}"
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            out.append(f"{label}: {'not in the report' if a is None else 'no longer checked'}")
            continue
        la, lb = a.get("log") or {}, b.get("log") or {}
        if bool(la) != bool(lb):
            out.append(f"{label}: " + (f"its log {la.get('source')} (game {la.get('game')}) is not "
                                       "among the logs given" if la else
                                       f"a log is found now ({lb.get('source')})"))
        elif la:
            if la.get("game") != lb.get("game"):
                out.append(f"{label}: the log was game {la.get('game')}, now {lb.get('game')}")
            elif la.get("head") != lb.get("head"):
                out.append(f"{label}: the log {lb.get('source')} changed: chain head "
                           f"{str(la.get('head'))[:16]} in the report, "
                           f"{str(lb.get('head'))[:16]} now")
            elif la.get("sha256") != lb.get("sha256"):
                out.append(f"{label}: the log {lb.get('source')} changed: its lines differ from "
                           "the report's under the same chain head (an edit that breaks the chain)")
            for k, what in (("ruleset", "ruleset"), ("ruleset_version", "ruleset version"),
                            ("data", "data digest")):
                if la.get(k) != lb.get(k):
                    out.append(f"{label}: the {what} was {la.get(k)}, now {lb.get(k)}")
        if a.get("stands") != b.get("stands"):
            out.append(f"{label}: the result {'stood' if a.get('stands') else 'did not stand'}; "
                       f"now it {'stands' if b.get('stands') else 'does not'}")
        if (a.get("result") or {}).get("winners") != (b.get("result") or {}).get("winners"):
            out.append(f"{label}: the rules gave {_winners(a)}, now {_winners(b)}")
        if (a.get("findings") or {}).get("count") != (b.get("findings") or {}).get("count"):
            out.append(f"{label}: {(a.get('findings') or {}).get('count')} finding(s) in the "
                       f"report, {(b.get('findings') or {}).get('count')} now")

    def problems(doc: Mapping[str, Any]) -> dict[tuple, str]:
        # by table and check (a log's label depends on where it is read from), or by game id
        return {(p["round"], p["table"], p["check"], p["severity"], p.get("game")): p["message"]
                for p in doc.get("problems", [])}
    pa, pb = problems(before), problems(now)
    for p in sorted(pa.keys() - pb.keys(), key=str):
        out.append(f"a problem is gone: {_problem_text(p, pa[p])}")
    for p in sorted(pb.keys() - pa.keys(), key=str):
        out.append(f"a new problem: {_problem_text(p, pb[p])}")
    sa = [(s["player"], s["rank"], s["points"]) for s in before.get("standings", [])]
    sb = [(s["player"], s["rank"], s["points"]) for s in now.get("standings", [])]
    if sa != sb:
        was = {p: (r, pts) for p, r, pts in sa}
        moved = 0
        for p, r, pts in sb:
            then = was.get(p)
            if then is None:
                out.append(f"standings: {p} is new, {number_text(pts)} points (rank {r})")
            elif then[1] != pts:
                out.append(f"standings: {p} had {number_text(then[1])} points (rank {then[0]}), "
                           f"now {number_text(pts)} (rank {r})")
            elif then[0] != r:
                moved += 1
        if moved:
            out.append(f"standings: {moved} more player{'s' if moved != 1 else ''} changed rank "
                       "on the same points")
        for p in sorted(was.keys() - {p for p, _, _ in sb}):
            out.append(f"standings: {p} is no longer in them")
    return out


def _winners(t: Mapping[str, Any]) -> str:
    r = t.get("result")
    if not r:
        return "no result"
    return and_list(r.get("winners") or []) or "no winner"


def _problem_text(p: tuple, message: str) -> str:
    rnd, table, check, _, _ = p
    where = "(no table)" if rnd is None and table is None else f"round {rnd} table {table}"
    return f"{where} {check}: {message}"

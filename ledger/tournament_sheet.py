"""An event's results sheet (`ledger tournament check SHEET`): one line per table of a round, read
from CSV (or the same as JSON) into plain values, with every problem of a line kept beside it so
that the rest of the sheet is still checked (docs/tournament.md, "The results sheet").

    read_sheet(path) -> Sheet          SheetError when the sheet cannot be read at all
    sheet_from_rows(rows, ...)         the same from rows already read (a report's copy of a sheet)

Columns (headings compared without case; spaces and hyphens read as underscores): `round`,
`table`, `players` (names in seat order, ";"-separated), `winner` (a name, several ";"-separated
for a shared win, empty for no result) are required; `log` (a file beside the sheet, or a game
id) and `ruleset` are optional, and so is a score column of any ruleset (its `scoring` values,
e.g. crowns), one value per player in the players' order (or a single value: the winner's).
Nothing here knows a game: the score columns are the registered rulesets' `scoring` values.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from engine.core.errors import LedgerError
from engine.core.ruleset import rulesets

REQUIRED = ("round", "table", "players", "winner")
OPTIONAL = ("log", "ruleset")
SEPARATOR = ";"


class SheetError(LedgerError):
    """The sheet cannot be read at all (missing, a directory, not UTF-8, empty, no header, a
    required column missing): the message names the file and what to do."""


@dataclass(frozen=True)
class LineProblem:
    """Something wrong with one line of the sheet itself (not with its game's log)."""

    check: str          # "sheet" or "duplicate-table"
    message: str
    todo: str


@dataclass(frozen=True)
class SheetLine:
    """One table of one round as the sheet reports it (values as written, trimmed)."""

    line: int                       # the line of the sheet (CSV) or the entry's number (JSON)
    where: str                      # "line 4" / "entry 4", for messages
    round: str
    table: str
    players: tuple[str, ...]        # in seat order
    winners: tuple[str, ...]        # () for no result
    log: str | None = None
    ruleset: str | None = None
    scores: Mapping[str, str] = field(default_factory=dict)   # score column key -> the cell
    problems: tuple[LineProblem, ...] = ()

    @property
    def label(self) -> str:
        """"round 1 table 2": how messages name the table."""
        return f"round {self.round} table {self.table}"

    @property
    def key(self) -> tuple[str, str]:
        """The table's identity on the sheet: (round, table), compared without case ("01" is
        "1")."""
        return (same_key(self.round), same_key(self.table))

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "round": self.round, "table": self.table,
                "players": list(self.players), "winner": list(self.winners), "log": self.log,
                "ruleset": self.ruleset, "scores": dict(self.scores)}


@dataclass(frozen=True)
class Sheet:
    """A read results sheet: its lines in sheet order and what the columns were."""

    file: str
    format: str                     # "csv" or "json"
    sha256: str | None              # of the file's bytes (None: rebuilt from a report)
    columns: tuple[str, ...]        # the headings as normalized keys
    score_columns: tuple[str, ...]  # which of them are score columns (value keys)
    ignored_columns: tuple[str, ...]
    lines: tuple[SheetLine, ...]

    @property
    def folder(self) -> Path:
        return Path(self.file).parent


def column_key(heading: str) -> str:
    """A heading as a key: "Red Stars" -> "red_stars", " Log-File " -> "log_file"."""
    return re.sub(r"[\s\-]+", "_", heading.strip().casefold()).strip("_")


def _loose(key: str) -> str:
    return key.replace("_", "")


def score_keys() -> dict[str, str]:
    """Every score column any registered ruleset knows: loose heading -> value key."""
    found: dict[str, str] = {}
    for rs in rulesets():
        scoring = rs.scoring
        for v in (scoring.values if scoring is not None else ()):
            for name in (v.key, *v.aliases):
                found.setdefault(_loose(column_key(name)), v.key)
    return found


def same_key(text: str) -> str:
    """A round or table as compared: without case, a number without leading zeros."""
    text = text.strip().casefold()
    return str(int(text)) if text.isdigit() else text


NO_RESULT = ("-", "\u2014", "none", "no result")
"""Winner cells read as no result (besides an empty one), unless a player is so named."""


def natural_key(text: str) -> tuple:
    """Sort "2" before "10" and "round 2" before "round 10"."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                 for part in re.split(r"(\d+)", text) if part)


def split_names(cell: Any, comma: bool = True) -> list[str]:
    """A players or winner cell as names: "ann; bob", a JSON list, or (`comma`: a cell with no
    ";") "ann, bob" as a spreadsheet may quote it."""
    if cell is None:
        return []
    if isinstance(cell, (list, tuple)):
        return [str(x).strip() for x in cell]
    text = str(cell).strip()
    if not text:
        return []
    sep = "," if comma and SEPARATOR not in text and "," in text else SEPARATOR
    return [part.strip() for part in text.split(sep)]


def read_sheet(path: str | Path) -> Sheet:
    """The results sheet at `path` (CSV, or JSON when it ends in .json or starts with [ or {).
    SheetError when it cannot be read at all; problems of single lines are kept on the lines."""
    name = str(path)
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise SheetError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise SheetError(f"{name}: is a directory, not a results sheet (give the CSV file; "
                         "the logs' folder goes after it)") from None
    except PermissionError:
        raise SheetError(f"{name}: permission denied") from None
    except OSError as exc:
        raise SheetError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    digest = hashlib.sha256(data).hexdigest()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise SheetError(f"{name}: is UTF-16 text; save the sheet as UTF-8 (CSV UTF-8)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SheetError(f"{name}: line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                         "save the sheet as UTF-8 (in a spreadsheet: CSV UTF-8)") from None
    if "\x00" in text:
        raise SheetError(f"{name}: is binary data, not a results sheet")
    if not text.strip():
        raise SheetError(f"{name}: is empty; a results sheet has a header line "
                         f"({', '.join(REQUIRED)}) and a line per table")
    stripped = text.lstrip()
    if p.suffix.casefold() == ".json" or stripped.startswith(("[", "{")):
        return _json_sheet(name, text, digest)
    return _csv_sheet(name, text, digest)


def _json_sheet(name: str, text: str, digest: str) -> Sheet:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SheetError(f"{name}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    entries = doc.get("tables", doc.get("lines")) if isinstance(doc, dict) else doc
    if not isinstance(entries, list):
        raise SheetError(f"{name}: a JSON sheet is a list of tables (objects with round, table, "
                         "players, winner), or an object whose \"tables\" is that list")
    if not entries:
        raise SheetError(f"{name}: lists no tables")
    rows: list[tuple[int, dict]] = []
    headings: list[str] = []
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise SheetError(f"{name}: entry {i} is {type(entry).__name__}, not an object with "
                             "round, table, players, winner")
        row = {column_key(str(k)): v for k, v in entry.items()}
        for k in row:
            if k not in headings:
                headings.append(k)
        rows.append((i, row))
    return sheet_from_rows(name, "json", digest, headings, rows, "entry")


def _csv_sheet(name: str, text: str, digest: str) -> Sheet:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delimiter = "\t" if "\t" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    header_line = 0
    rows: list[tuple[int, dict]] = []
    extra: list[tuple[int, int]] = []
    try:
        start = 1
        for record in reader:
            line = start
            start = reader.line_num + 1
            if not any(cell.strip() for cell in record):
                continue
            if header is None:
                header, header_line = [column_key(c) for c in record], line
                continue
            if len(record) > len(header) and any(c.strip() for c in record[len(header):]):
                extra.append((line, len(record)))
            rows.append((line, dict(zip(header, record))))
    except csv.Error as exc:
        raise SheetError(f"{name}: line {reader.line_num}: cannot be read as CSV ({exc})") from None
    assert header is not None          # the text is not blank
    blank = [i + 1 for i, h in enumerate(header) if not h]
    if blank and all(not h for h in header):
        raise SheetError(f"{name}: line {header_line}: the header line names no column")
    dup = sorted({h for h in header if h and header.count(h) > 1})
    if dup:
        raise SheetError(f"{name}: line {header_line}: the column {dup[0]!r} is there twice")
    sheet = sheet_from_rows(name, "csv", digest, [h for h in header if h], rows, "line",
                            header_line=header_line)
    if extra:
        too_long = {line: n for line, n in extra}
        lines = tuple(
            _with(ln, LineProblem("sheet", f"{ln.where} has {too_long[ln.line]} fields, the "
                                  f"header {len(header)}", "remove the extra cells, or quote a "
                                  "cell that holds a comma"))
            if ln.line in too_long else ln for ln in sheet.lines)
        sheet = Sheet(sheet.file, sheet.format, sheet.sha256, sheet.columns, sheet.score_columns,
                      sheet.ignored_columns, lines)
    return sheet


def _with(line: SheetLine, problem: LineProblem) -> SheetLine:
    return SheetLine(line.line, line.where, line.round, line.table, line.players, line.winners,
                     line.log, line.ruleset, line.scores, (*line.problems, problem))


def sheet_from_rows(name: str, fmt: str, digest: str | None, headings: Iterable[str],
                    rows: Iterable[tuple[int, Mapping[str, Any]]], unit: str = "line",
                    header_line: int = 1) -> Sheet:
    """A Sheet from rows of {column key: cell}: the columns checked (SheetError when a required
    one is missing), each line read with its problems, duplicate tables marked."""
    headings = [h for h in headings if h]
    missing = [c for c in REQUIRED if c not in headings]
    if missing and len(headings) == 1 and SEPARATOR in headings[0]:
        raise SheetError(f"{name}: line {header_line}: the columns are separated by {SEPARATOR!r} "
                         f"({headings[0]!r}); separate them by commas (or tabs): {SEPARATOR!r} "
                         "separates the players within a cell")
    if missing:
        where = f"line {header_line}: " if unit == "line" else ""
        raise SheetError(f"{name}: {where}no {', '.join(repr(m) for m in missing)} column "
                         f"(the columns are {', '.join(headings) or 'none'}; a sheet needs "
                         f"{', '.join(REQUIRED)}, and may have {', '.join(OPTIONAL)} and score "
                         "columns)")
    known_scores = score_keys()
    score_of = {h: known_scores[_loose(h)] for h in headings
                if h not in REQUIRED + OPTIONAL and _loose(h) in known_scores}
    ignored = tuple(h for h in headings if h not in REQUIRED + OPTIONAL and h not in score_of)
    from engine.core.ruleset import ruleset_names
    names = ruleset_names()
    lines = [_line(n, row, unit, score_of, names) for n, row in rows]
    if not lines:
        raise SheetError(f"{name}: has a header line but no table")
    lines = _mark_duplicates(lines)
    return Sheet(name, fmt, digest, tuple(headings), tuple(dict.fromkeys(score_of.values())),
                 ignored, tuple(lines))


def _cell(row: Mapping[str, Any], key: str) -> str:
    value = row.get(key)
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return SEPARATOR.join(str(x) for x in value)
    return str(value).strip()


def _line(n: int, row: Mapping[str, Any], unit: str, score_of: Mapping[str, str],
          ruleset_names: list[str]) -> SheetLine:
    where = f"{unit} {n}"
    problems: list[LineProblem] = []
    rnd, table = _cell(row, "round"), _cell(row, "table")
    if not rnd:
        problems.append(LineProblem("sheet", f"{where} has no round", "fill in the round"))
    if not table:
        problems.append(LineProblem("sheet", f"{where} has no table", "fill in the table"))
    players = split_names(row.get("players"))
    if not [p for p in players if p]:
        problems.append(LineProblem("sheet", f"{where} names no players",
                                    f"list the players in seat order, separated by {SEPARATOR!r}"))
        players = []
    elif not all(players):
        problems.append(LineProblem("sheet", f"{where}: an empty name among the players "
                                    f"{_cell(row, 'players')!r}", f"remove the extra {SEPARATOR!r}"))
        players = [p for p in players if p]
    folded = [p.casefold() for p in players]
    twice = sorted({p for p, f in zip(players, folded) if folded.count(f) > 1})
    if twice:
        problems.append(LineProblem("sheet", f"{where}: {', '.join(twice)} is at the table twice",
                                    "correct the players"))
    whole = _cell(row, "winner")
    winners = [whole] if whole.casefold() in folded else \
        [w for w in split_names(row.get("winner")) if w]
    if len(winners) == 1 and winners[0].casefold() in NO_RESULT and winners[0].casefold() not in folded:
        winners = []
    unknown = [w for w in winners if w.casefold() not in folded]
    if unknown and players:
        problems.append(LineProblem(
            "sheet", f"{where}: the winner {', '.join(repr(w) for w in unknown)} is not one of "
            f"the table's players ({', '.join(players)})",
            "correct the winner (a player of this table, as the players column spells it)"))
    ruleset = _cell(row, "ruleset") or None
    if ruleset is not None and ruleset not in ruleset_names:
        problems.append(LineProblem("sheet", f"{where}: unknown ruleset {ruleset!r} (this ledger "
                                    f"judges {', '.join(ruleset_names)})", "correct the ruleset"))
        ruleset = None
    scores = {key: _cell(row, heading) for heading, key in score_of.items() if _cell(row, heading)}
    return SheetLine(n, where, rnd, table, tuple(players), tuple(winners), _cell(row, "log") or None,
                     ruleset, scores, tuple(problems))


def _mark_duplicates(lines: list[SheetLine]) -> list[SheetLine]:
    """Each line of a (round, table) that is on the sheet more than once gets a problem."""
    by_key: dict[tuple[str, str], list[SheetLine]] = {}
    for ln in lines:
        if ln.round and ln.table:
            by_key.setdefault(ln.key, []).append(ln)
    out = []
    for ln in lines:
        same = by_key.get(ln.key, [ln]) if ln.round and ln.table else [ln]
        if len(same) > 1:
            others = [o.where for o in same if o is not ln]
            ln = _with(ln, LineProblem(
                "duplicate-table", f"{ln.label} is on the sheet more than once "
                f"({ln.where} and {', '.join(others)})",
                "keep one line per table (correct the round or table of the other)"))
        out.append(ln)
    return out

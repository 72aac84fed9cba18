"""`ledger data` (registered on the main app): the data files a ruleset judges with (boards,
cards), checked on their own before a game is judged with them. Which files a game takes comes
from the rulesets' `data_options`; a file is checked by its ruleset's `check_data` hook (or by
loading it). Nothing here knows a game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from engine.core.canonical import canonical_json, sha256_hex
from engine.core.data import DataCheck, DataErrors, DataShapeError, parse_json
from engine.core.ruleset import Ruleset, get_ruleset, ruleset_names, rulesets
from engine.core.text import plural
from ledger import exitcodes
from ledger.cli_base import Json, LedgerTyper, _emit_json, app, err, print_table
from replay.logfile import path_problem

data_app = LedgerTyper(
    name="data", no_args_is_help=True, add_completion=False, rich_markup_mode=None,
    help="The data files a game is judged with (boards, cards): which there are, and checking one "
         "before use.\n\nExample: ledger data check my_board.json")
app.add_typer(data_app, name="data")


class _Unreadable(Exception):
    """A file that cannot be read at all (missing, a directory...): exit 2, not invalid data."""


def _kinds() -> list[tuple[Ruleset, Any]]:
    """Every (ruleset, data option) there is, by ruleset name."""
    return [(rs, o) for rs in rulesets() for o in rs.data_options]


def _known_kinds() -> str:
    return "; ".join(f"{rs.name}: {', '.join(o.key for o in rs.data_options)}"
                     for rs in rulesets() if rs.data_options) or "none"


def _raw(path: Path) -> Any:
    """The JSON of a data file; _Unreadable when it cannot be read, DataShapeError when it is
    not JSON text."""
    problem = path_problem(path, "a data file")
    if problem is not None:
        raise _Unreadable(problem)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _Unreadable(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    try:
        text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataShapeError(f"{path}: is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    return parse_json(text, str(path))


def _which(path: Path, raw: Any, ruleset: Optional[str], kind: Optional[str]) -> tuple[Ruleset, str]:
    """The ruleset and data kind of a file: as given, else by the file's "schema" key. A
    ValueError saying what to give when it cannot be told."""
    if ruleset is not None and ruleset not in ruleset_names():
        raise ValueError(f"unknown ruleset {ruleset!r}; the rulesets are {', '.join(ruleset_names())}")
    candidates = [(rs, o) for rs, o in _kinds() if (ruleset is None or rs.name == ruleset)
                  and (kind is None or o.key == kind)]
    if ruleset is not None and kind is not None:
        if not candidates:
            raise ValueError(f"{ruleset} takes no {kind!r} data file (it takes "
                             f"{', '.join(o.key for o in get_ruleset(ruleset).data_options) or 'none'})")
        return candidates[0][0], kind
    schema = raw.get("schema") if isinstance(raw, dict) else None
    marked = [(rs, o) for rs, o in candidates if o.schema is not None and o.schema == schema]
    if len(marked) == 1:
        return marked[0][0], marked[0][1].key
    if len(candidates) == 1:
        return candidates[0][0], candidates[0][1].key
    said = f"its \"schema\" is {schema!r}, which no ruleset declares" if schema is not None else \
        "it names no \"schema\""
    raise ValueError(f"{path}: cannot tell which data file this is ({said}); give --ruleset and "
                     f"--kind (the data files: {_known_kinds()})")


def _check_one(rs: Ruleset, kind: str, path: Path, raw: Any) -> DataCheck:
    """`path` checked as `rs`'s `kind` file: its DataCheck, or the loader's error."""
    if rs.check_data is not None:
        return rs.check_data(kind, str(path))
    rs.load_data(**{kind: str(path)})
    return DataCheck(kind, sha256_hex(canonical_json(raw)), (f"loads as {rs.title}'s {kind} data",))


def _problems_of(exc: Exception) -> list[str]:
    if isinstance(exc, DataErrors):
        return list(exc.problems)
    return [line for line in str(exc).splitlines() if line.strip()] or [repr(exc)]


@data_app.command("check")
def check(
    files: Annotated[list[Path], typer.Argument(help="One or more data files (JSON).")],
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", help="The game whose data file it is (default: told by the file's \"schema\" key).")] = None,
    kind: Annotated[Optional[str], typer.Option("--kind", help="Which of the game's data files it is, as its --<kind> option names it (board, cards, ...).")] = None,
    as_json: Json = False,
) -> None:
    """Check data files alone: every problem named with its file, key and what is wrong.

    A file that names its "schema" is recognised; otherwise give --ruleset and --kind. Several
    files of one game are also checked together (a cards file's cities against a board). Exit 0:
    every file is valid. 7: a file is invalid (every problem listed). 2: a file cannot be read,
    or which data file it is cannot be told.

    Example: ledger data check my_board.json my_cards.json; ledger data check board.json --ruleset risk-europe --kind board --json
    """
    reports: list[dict] = []
    unreadable = invalid = False
    valid: dict[str, list[tuple[str, Path]]] = {}
    for path in files:
        report: dict[str, Any] = {"file": str(path), "ruleset": None, "kind": None, "valid": False,
                                  "digest": None, "summary": [], "notes": [], "problems": []}
        reports.append(report)
        try:
            raw = _raw(path)
            rs, key = _which(path, raw, ruleset, kind)
            report["ruleset"], report["kind"] = rs.name, key
            found = _check_one(rs, key, path, raw)
        except _Unreadable as exc:
            report["error"] = str(exc)
            unreadable = True
            continue
        except DataShapeError as exc:
            report["problems"] = _problems_of(exc)
            invalid = True
            continue
        except (ValueError, KeyError, TypeError) as exc:
            if report["ruleset"] is None:           # which file it is could not be told
                report["error"] = str(exc)
                unreadable = True
            else:                                   # a loader's own error: the file's problem
                report["problems"] = _problems_of(exc)
                invalid = True
            continue
        report.update(valid=True, digest=found.digest, summary=list(found.summary), notes=list(found.notes))
        valid.setdefault(rs.name, []).append((key, path))
    together = _together(valid)
    invalid = invalid or any(not t["valid"] for t in together)
    if as_json:
        _emit_json(reports[0] if len(reports) == 1 and not together else
                   {"files": reports, "together": together})
    else:
        _print(reports, together)
    raise typer.Exit(exitcodes.UNREADABLE if unreadable else exitcodes.INVALID_DATA if invalid
                     else exitcodes.OK)


def _together(valid: dict[str, list[tuple[str, Path]]]) -> list[dict]:
    """The valid files of one game that are of different kinds, loaded together (what one says of
    another: a cards file's cities on the board)."""
    out = []
    for name, given in sorted(valid.items()):
        kinds = [k for k, _ in given]
        if len(given) < 2 or len(set(kinds)) != len(kinds):
            continue
        entry = {"ruleset": name, "files": [str(p) for _, p in given], "valid": True, "problems": []}
        try:
            get_ruleset(name).load_data(**{k: str(p) for k, p in given})
        except (DataShapeError, ValueError, KeyError, TypeError) as exc:
            entry.update(valid=False, problems=_problems_of(exc))
        out.append(entry)
    return out


def _print(reports: list[dict], together: list[dict]) -> None:
    for r in reports:
        if "error" in r:
            err.print(f"ledger: {r['error']}")
            continue
        title = get_ruleset(r["ruleset"]).title if r["ruleset"] else "data"
        if r["valid"]:
            typer.echo(f"{r['file']}: valid {title} {r['kind']} file (sha256 {r['digest'][:16]}…)")
            for line in r["summary"]:
                typer.echo(f"  {line}")
            for line in r["notes"]:
                typer.echo(f"  note: {line}")
        else:
            what = f"{title} {r['kind']} file" if r["kind"] else "data file"
            typer.echo(f"{r['file']}: INVALID {what}: {plural(len(r['problems']), 'problem')}")
            for line in r["problems"]:
                typer.echo(f"  {line}")
    for t in together:
        files = " and ".join(t["files"])
        if t["valid"]:
            typer.echo(f"{files}: valid together")
        else:
            typer.echo(f"{files}: INVALID together: {plural(len(t['problems']), 'problem')}")
            for line in t["problems"]:
                typer.echo(f"  {line}")


@data_app.command("kinds")
def kinds(as_json: Json = False) -> None:
    """List the data files each game is judged with: the --<kind> option, the "schema" a file
    names, and what it is.

    Example: ledger data kinds --json
    """
    rows = [{"ruleset": rs.name, "kind": o.key, "schema": o.schema, "help": o.help} for rs, o in _kinds()]
    if as_json:
        _emit_json(rows)
        return
    from rich.console import Console
    print_table(Console(), [("ruleset", "left"), ("kind", "left"), ("schema", "left"), ("what", "left")],
                [[r["ruleset"], "--" + r["kind"], r["schema"] or "-", r["help"]] for r in rows])

"""`ledger tournament check | recheck`: an event's results sheet against its game logs (registered
on the main app). Each command makes one call into ledger.tournament and turns the answer into
output and an exit code (docs/tournament.md)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Iterator, Optional

import typer

from ledger import exitcodes
from ledger.app.db import busy_wait
from ledger.cli_base import DbOpt, Json, LedgerTyper, _emit_json, app, err
from ledger.datafiles import DataFileError, DataFiles, with_data_options

tournament_app = LedgerTyper(
    name="tournament",
    help="Tournament organizers: check a whole event's results sheet against its game logs.\n\n"
         "Example: ledger tournament check results.csv logs/",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(tournament_app, name="tournament")

LogsArg = Annotated[Optional[list[Path]], typer.Argument(
    help="Game logs: files, or folders (every *.jsonl under them), to find each table's log in by "
         "the log column or by its players.")]
TournamentOpt = Annotated[Optional[str], typer.Option(
    "--tournament", "-T",
    help="With --db: only the store's games of this tournament (as `ledger ingest --tournament` "
         "filed them); those on no line of the sheet are reported as tables missing from it.")]


def _say(message: str) -> None:
    """A message on stderr, as written: a sheet's cells may hold [brackets] (no markup)."""
    err.print(message, markup=False, soft_wrap=True)


@contextmanager
def _store(db: Optional[str]) -> Iterator[Any]:
    if db is None:
        yield None
        return
    from ledger.store import StoreError, is_database_url, open_store
    if not is_database_url(db) and not Path(db).is_file():
        _say(f"ledger: --db {db}: no such store")
        raise typer.Exit(exitcodes.UNREADABLE)
    try:
        store = open_store(db, read_only=True, wait=busy_wait())
    except StoreError as exc:
        _say(f"ledger: --db {db}: the store cannot be opened ({exc})")
        raise typer.Exit(exitcodes.UNREADABLE)
    try:
        yield store
    finally:
        store.close()


@tournament_app.command("check")
@with_data_options
def check(
    sheet: Annotated[Path, typer.Argument(
        help="The results sheet: CSV (or JSON) with the columns round, table, players "
             "(';'-separated, seat order), winner (';' for a shared win, empty for no result); "
             "optional log, ruleset and score columns (e.g. crowns, red_stars).")],
    logs: LogsArg = None,
    db: DbOpt = None,   # a store whose games a line may name by id, or be matched with by its players
    tournament: TournamentOpt = None,
    scoring: Annotated[Optional[Path], typer.Option(
        "--scoring", help="The event's scoring (TOML or JSON): points for a win, a shared win, "
                          "a loss, points per value, tie-breaks; default: each ruleset's own.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="The report as JSON on stdout, with every log's chain head and the "
                       "rulesets' data digests (for `ledger tournament recheck`).")] = False,
    html_out: Annotated[Optional[Path], typer.Option(
        "--html", help="Also write the report as one offline HTML page to post: tables, "
                       "problems, standings.")] = None,
    brief: Annotated[bool, typer.Option("--brief", help="One line per table, without its checks.")] = False,
    data_files: DataFiles = (),
) -> None:
    """Check every table of a results sheet against its game log, and compute the standings.

    For each line: its log (the log column: a file beside the sheet or a game id; else matched
    by the players among LOGS and the store), the hash chain, the rule findings, the seeded dice,
    the players, whether the game is over, the reported winner and scores against the rules'.
    Across the sheet: a log given for two tables, a player at two tables of a round, a log among
    LOGS that is no table's. Every problem is one line: the table, the check, what to do. The
    standings count the results that stand only, and say which were left out and why.

    Exit 0: every result stands. 1: a result does not stand, or a log has rule errors (or another
    problem: a table missing from the sheet). 2: the sheet, the scoring file, a LOGS path or the
    store cannot be read.

    Example: ledger tournament check sample_logs/tournament/results.csv sample_logs/tournament/
    """
    from ledger.tournament import check_event
    from ledger.tournament_scoring import ScoringError, load_scoring
    from ledger.tournament_sheet import SheetError, read_sheet
    from ledger.tournament_view import html_page, text_lines
    try:
        read = read_sheet(sheet)
    except SheetError as exc:
        _say(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    spec = None
    if scoring is not None:
        try:
            spec = load_scoring(scoring)
        except ScoringError as exc:
            _say(f"ledger: --scoring {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
    with _store(db) as store:
        try:
            report = check_event(read, logs or [], store=store, db=str(db) if db else None,
                                 tournament=tournament, scoring=spec,
                                 scoring_source=str(scoring) if scoring else None,
                                 skip=[scoring] if scoring else [], data_files=data_files)
        except DataFileError as exc:
            _say(f"ledger: {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
    for problem in report.input_errors:
        _say(f"ledger: {problem}")
    if html_out is not None:
        try:
            html_out.write_text(html_page(report), encoding="utf-8")
        except OSError as exc:
            _say(f"ledger: cannot write {html_out}: {exc.strerror or exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
        _say(f"wrote {html_out}")
    if as_json:
        _emit_json(report.as_dict())
    else:
        for line in text_lines(report, verbose=not brief):
            typer.echo(line)
    raise typer.Exit(report.exit_code)


@tournament_app.command("recheck")
@with_data_options
def recheck(
    report_file: Annotated[Path, typer.Argument(
        help="A report written by `ledger tournament check --json`.")],
    logs: LogsArg = None,
    db: DbOpt = None,   # a store whose games a line may name by id, or be matched with by its players
    tournament: TournamentOpt = None,
    as_json: Json = False,
    data_files: DataFiles = (),
) -> None:
    """Recompute a saved report from the logs and say whether it still stands.

    Each table's log is found again by its game id among LOGS (and the store); a log whose chain
    head changed, a log now missing, another ruleset version or data digest, a result, problem or
    standing that came out otherwise: each is one line. Exit 0: the report still stands (the same
    answer, whatever it was). 1: it does not. 2: the report or a LOGS path cannot be read.

    Example: ledger tournament check results.csv logs/ --json > report.json && ledger tournament recheck report.json logs/
    """
    from ledger.tournament import ReportError, recheck_report
    from ledger.tournament_view import recheck_lines
    try:
        doc = json.loads(report_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _say(f"ledger: {report_file}: no such file")
        raise typer.Exit(exitcodes.UNREADABLE)
    except IsADirectoryError:
        _say(f"ledger: {report_file}: is a directory, not a report")
        raise typer.Exit(exitcodes.UNREADABLE)
    except (OSError, UnicodeDecodeError) as exc:
        _say(f"ledger: {report_file}: cannot be read ({exc})")
        raise typer.Exit(exitcodes.UNREADABLE)
    except json.JSONDecodeError as exc:
        _say(f"ledger: {report_file}: line {exc.lineno}: not JSON ({exc.msg}); give the "
                  "report `ledger tournament check --json` wrote")
        raise typer.Exit(exitcodes.UNREADABLE)
    with _store(db) as store:
        try:
            rc = recheck_report(doc, logs or [], store=store, db=str(db) if db else None,
                                tournament=tournament, data_files=data_files)
        except DataFileError as exc:
            _say(f"ledger: {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
        except ReportError as exc:
            _say(f"ledger: {report_file}: {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
    for problem in rc.report.input_errors:
        _say(f"ledger: {problem}")
    if as_json:
        _emit_json({"report": str(report_file), "stands": rc.stands,
                    "differences": rc.differences, "now": rc.report.as_dict()})
    else:
        for line in recheck_lines(str(report_file), rc):
            typer.echo(line)
    if rc.report.input_errors:
        raise typer.Exit(exitcodes.UNREADABLE)
    raise typer.Exit(exitcodes.OK if rc.stands else exitcodes.FINDINGS)

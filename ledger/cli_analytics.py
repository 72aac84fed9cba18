"""`ledger dashboard` and `ledger stats` (registered on the main app): the analytics of the stored
games, as one HTML page of charts or as numbers. Each opens the store read-only, loads the
analytics tables (analytics.load) and makes one call into analytics.dashboard."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.console import Console

from engine.core.text import plural
from ledger import exitcodes
from ledger.cli_base import Csv, Json, app, emit_csv, err, os_reason, print_table, write_problem
from ledger.app.db import DEFAULT_DB
from ledger.cli_base import DbOpt, ProgressBar
from ledger.cli_store import _open, _shown

TournamentOpt = Annotated[Optional[str], typer.Option(
    "--tournament", "-T", help="Only the games of this tournament (its id or name).")]
IncludeBrokenOpt = Annotated[bool, typer.Option(
    "--include-broken",
    help="Count every stored game: also those with findings (their own or their campaign's) "
         "and copies of a game counted, which are left out by default.")]

out = Console(highlight=False, soft_wrap=True)

LakeOpt = Annotated[Optional[Path], typer.Option(
    "--lake", help="Read a Parquet lake (the folder `ledger export --all --format parquet --out "
                   "LAKE` writes) instead of the store.")]


def _source(ctx: typer.Context, db: str, lake: Optional[Path]) -> str:
    """What the numbers are read from, as the output names it; --db and --lake together are a
    usage error."""
    if lake is None:
        return _shown(db)
    given = ctx.get_parameter_source("db")
    if given is not None and given.name == "COMMANDLINE":
        err.print("ledger: give --db or --lake, not both")
        raise typer.Exit(exitcodes.USAGE)
    return str(lake)


def _tables(db: str, tournament: Optional[str], include_broken: bool = False,
            lake: Optional[Path] = None):
    from analytics.lake import LakeError, open_lake
    from analytics.load import UnknownTournament, load_tables

    if lake is not None:
        try:
            source = open_lake(lake)
        except LakeError as exc:
            err.print(f"ledger: {exc}")
            raise typer.Exit(exitcodes.UNREADABLE)
    else:
        source = _open(db, read_only=True)
    try:
        return load_tables(source, tournament, include_broken).collect()
    except UnknownTournament as exc:
        err.print(f"ledger: {str(exc).replace('in the store', 'in the lake') if lake else exc} "
                  f"({lake or _shown(db)})")
        raise typer.Exit(exitcodes.USAGE)
    except LakeError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        source.close()


@app.command()
def dashboard(
    ctx: typer.Context,
    out_path: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.")] = ...,
    db: DbOpt = DEFAULT_DB,
    lake: LakeOpt = None,
    tournament: TournamentOpt = None,
    include_broken: IncludeBrokenOpt = False,
) -> None:
    """Write one self-contained HTML page of charts over the stored games: win rates by starting
    city, seat and opening bid, game lengths, King's Orders card use, battle luck against the
    exact odds, dice fairness; with the flagged dice and the luckiest and unluckiest players.
    With Risk Legacy games: win rates by faction, starting power and turn order, Red Stars,
    each campaign's world game by game, and the attack rolls against the exact odds. With
    Warrior Knights games: win rates by seat, cities held, Assembly outcomes, expedition
    returns and battles by kind.

    Each real game is counted once, and only when it is judged clean: games with findings
    (their own, or their campaign's) and copies of a game counted are left out, and the page
    says so under every chart and lists them (--include-broken counts them too).

    The page embeds plotly.js and works offline. Games stored before the analytics tables
    existed (or, for Risk Legacy, before its tables) have no rows in them: `ledger recheck`
    fills them. --lake LAKE reads a Parquet lake instead of the store (the same page for the
    same games).

    Example: ledger dashboard --db ledger.duckdb --out report.html; ledger dashboard --lake lake/ --out report.html
    """
    from analytics.dashboard import dashboard_steps, write_dashboard

    _source(ctx, db, lake)
    problem = write_problem(out_path)
    if problem is not None:
        err.print(f"ledger: cannot write {problem}")
        raise typer.Exit(exitcodes.UNREADABLE)
    steps = ("loading the tables", *dashboard_steps())
    try:
        with ProgressBar(len(steps), steps[0]) as bar:
            tables = _tables(db, tournament, include_broken, lake)
            report = write_dashboard(tables, out_path, step=lambda label: bar.advance(label=label))
    except OSError as exc:
        err.print(f"ledger: cannot write {out_path}: {os_reason(exc)}; {out_path} is unchanged")
        raise typer.Exit(exitcodes.UNREADABLE)
    out.print(f"wrote {out_path} ({report.bytes / 1e6:.1f} MB): {plural(len(report.charts), 'chart')} over "
              f"{tables.title}" + (f"; left out for lack of data: {', '.join(report.skipped)}"
                                   if report.skipped else ""))
    if tables.selection is not None and tables.selection.note():
        out.print(tables.selection.note())


@app.command()
def stats(
    ctx: typer.Context,
    db: DbOpt = DEFAULT_DB,
    lake: LakeOpt = None,
    tournament: TournamentOpt = None,
    query: Annotated[Optional[List[str]], typer.Option(
        "--query", "-q", help="Only this named query (repeatable).")] = None,
    include_broken: IncludeBrokenOpt = False,
    left_out: Annotated[bool, typer.Option(
        "--left-out", help="List the stored games the numbers leave out, and why.")] = False,
    as_json: Json = False,
    as_csv: Csv = False,
) -> None:
    """The dashboard's numbers: every named query over the stored games (win rates, card use,
    luck, dice fairness; for Risk Legacy the `legacy_*` queries: win rates by faction and
    starting power, Red Stars, each campaign's world game by game...). --json gives them to
    scripts, one list of rows per query, and under "games" the games counted and left out;
    --csv gives one query (name it with --query) as CSV. Piped, the tables are plain text
    with every cell and row whole.

    Each real game is counted once, and only when it is judged clean: games with findings
    (their own, or their campaign's) and copies of a game counted are left out (--left-out lists
    them with why; --include-broken counts them too). --lake LAKE reads a Parquet lake instead
    of the store (`ledger export --all --format parquet --out LAKE`): the same numbers for the
    same games, without opening the store.

    Example: ledger stats --db ledger.duckdb --json --query win_rate_by_seat; ledger stats --lake lake/ --csv -q luckiest_games > luck.csv
    """
    from analytics.dashboard import dashboard_stats, stats_json
    from analytics.queries import QUERIES

    source = _source(ctx, db, lake)
    unknown = [name for name in query or [] if name not in QUERIES]
    if unknown:
        err.print(f"ledger: unknown query {', '.join(map(repr, unknown))}; the queries are: "
                  f"{', '.join(QUERIES)}")
        raise typer.Exit(exitcodes.USAGE)
    if as_csv and len(query or []) != 1:
        err.print(f"ledger: --csv writes one query: name it with --query (one of "
                  f"{', '.join(QUERIES)})")
        raise typer.Exit(exitcodes.USAGE)
    tables = _tables(db, tournament, include_broken, lake)
    if left_out:
        _print_left_out(tables, as_json)
        return
    if as_json:
        typer.echo(stats_json(tables, query or None))
        return
    if as_csv:
        rows = dashboard_stats(tables, query)["queries"][query[0]]
        emit_csv(list(rows[0]) if rows else [], [list(r.values()) for r in rows])
        return
    shown = list(_SHOWN)
    if not query and tables.legacy_games.select("game_id").head(1).collect().height:
        shown += _SHOWN_LEGACY
    numbers = dashboard_stats(tables, query or shown)
    out.print(f"{tables.title} ({source})", markup=False)
    if tables.selection.note():
        out.print(tables.selection.note(), markup=False)
    for name, rows in numbers["queries"].items():
        keep = _TEXT_COLUMNS.get(name)
        _print_query(name, [{c: r[c] for c in keep} for r in rows] if keep else rows)
    if not query:
        out.print("all the queries, with every row: ledger stats --json")


# the queries `ledger stats` prints without --query (all of them with --json)
_SHOWN = ("corpus_summary", "game_lengths", "win_rate_by_starting_city", "win_rate_by_seat",
          "win_rate_by_opening_bid", "order_frequency", "bonus_use", "luckiest_games",
          "unluckiest_games", "flagged_dice")
# the columns a wide query shows as text (all of them with --json)
_TEXT_COLUMNS = {"legacy_world_evolution": ("campaign", "game_no", "winner", "winner_faction",
                                            "reward", "cities", "scars", "fortifications",
                                            "named_continents")}
# and these when the store holds Risk Legacy games
_SHOWN_LEGACY = ("legacy_summary", "legacy_win_rate_by_faction", "legacy_win_rate_by_power",
                 "legacy_win_rate_by_turn_order", "legacy_red_stars_by_faction",
                 "legacy_world_evolution", "legacy_roll_odds")

# rows of one query shown on a terminal (piped: all of them)
_TERMINAL_ROWS = 40


def _print_query(name: str, rows: list[dict]) -> None:
    columns = [(c, "right" if rows and isinstance(rows[0][c], (int, float))
                and not isinstance(rows[0][c], bool) else "left")
               for c in (list(rows[0]) if rows else ["(no rows)"])]
    shown = rows[:_TERMINAL_ROWS] if out.is_terminal else rows
    cells = [[_cell(row[c]) for c, _ in columns] for row in shown]
    if len(rows) > len(shown):
        cells.append([f"... {len(rows) - len(shown)} more (--json or --csv for every row)"]
                     + [""] * (len(columns) - 1))
    print_table(out, columns, cells, title=name.replace("_", " "))


_FOUND = {"findings": "findings", "campaign": "campaign findings"}


def _print_left_out(tables, as_json: bool) -> None:
    """The games left out (with --include-broken: counted although they would be), and why."""
    import json

    sel = tables.selection
    if as_json:
        typer.echo(json.dumps(sel.as_dict(), indent=2, ensure_ascii=False))
        return
    out.print(sel.note(listing=False) or "No game is stored.")
    for g in sel.games_left_out():    # one line each, never cut: a script may read them
        why = g.detail if g.reason == "copy" else f"{_FOUND[g.reason]}: {g.detail}"
        out.print(f"{g.game_id} ({sel.titles.get(g.ruleset, g.ruleset)}): {why}", markup=False)


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)

"""`ledger ingest`, `games`, `export`, `recheck`, `check-db`: the store's commands (registered on
the main app). Each opens the store (ledger.app.db), makes one call into ledger.app.ingest /
ledger.store, and turns the answer into output and an exit code."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from engine.core.text import and_list, plural
from ledger import exitcodes
from ledger.app.db import DEFAULT_DB, db_or_default, open_db
from ledger.cli_base import (Csv, DbOpt, Json, ProgressBar, _emit_json, app, emit_csv, err,
                             fail, os_reason, print_table, write_problem)

out = Console(highlight=False, soft_wrap=True)


def _shown(db: Optional[str]) -> str:
    """The store as it may be printed (a database URL without its password)."""
    from ledger.app.db import shown
    return shown(db_or_default(db))


def _open(db: Optional[str], *, read_only: bool = False, must_exist: bool = False):
    """The store at `db` (ledger.app.db.open_db; None: ./ledger.duckdb), or its message and exit
    code (2; a LEDGER_DB_WAIT that is no number: usage, 2)."""
    from engine.core.errors import LedgerError
    try:
        return open_db(db_or_default(db), read_only=read_only, must_exist=must_exist)
    except LedgerError as exc:
        fail(exc)


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Log files, or folders to search for *.jsonl.")],
    db: DbOpt = DEFAULT_DB,
    tournament: Annotated[Optional[str], typer.Option("--tournament", "-T", help="File the new games under this tournament (created if need be); `ledger dashboard --tournament` shows it alone.")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="Worker processes that read and judge logs while the store writes (default: one per core from 4 cores up, else 1: none). The store ends up the same either way.")] = None,
    as_json: Json = False,
) -> None:
    """Store game logs in the database, judged by the engine: each game whole or not at all.

    A log already stored is left as it is; a longer log of a stored game adds its new events; a
    log that contradicts a stored game, a log without an intact hash chain, and an unreadable
    file are refused and kept, with their reason, in the rejects table.

    Risk Legacy games of a campaign are stored in game-number order and each is checked against
    the campaign's game before it (campaign findings are listed); a game whose predecessor is
    not stored yet waits for it and is checked again when it comes.

    Exit 0: every log stored (or already there). 1: some input was rejected (listed). 2: the
    store cannot be opened or written.

    Example: ledger ingest sample_logs/ --db ledger.duckdb; ledger ingest club-games/ --jobs 4
    """
    from ledger.app.ingest import ingest_logs, log_files

    files = log_files(paths)
    with ProgressBar(len(files), "ingesting") as bar:
        report = ingest_logs(db_or_default(db), files, tournament=tournament, jobs=jobs,
                             on_read=bar.advance)
    if as_json:
        _emit_json({"db": _shown(db), **report.as_dict()})
    else:
        _print_ingest(report, db)
    raise typer.Exit(exitcodes.FINDINGS if report.rejects else exitcodes.OK)


def _print_ingest(report: Any, db: str) -> None:
    """The summary line, the counts, then every rejected file and every line not stored: the
    lists are as long as the counts say."""
    out.print(report.summary(_shown(db)), markup=False)
    table = Table(show_header=True, header_style="bold")
    table.add_column("ingest")
    table.add_column("count", justify="right")
    for label, count in report.counts().items():
        table.add_row(label, str(count))
    out.print(table)
    _print_campaigns(report)
    refused = report.of("rejected")
    if refused:
        out.print(f"files rejected ({len(refused)}), kept in the rejects table:")
        for o in refused:
            first, *lines = o.rejects
            out.print(f"  {first.format()}", markup=False)
            for reject in lines:
                out.print(f"      {reject.format()}", markup=False)
    lines = report.line_rejects
    if lines:
        out.print(f"lines not stored ({report.counts()['lines not stored']}), kept in the rejects "
                  f"table:")
        seen: set[tuple[str, int | None]] = set()
        for reject in lines:           # a line's further problems under its first
            where = (reject.file, reject.line)
            out.print(f"{'      ' if where in seen else '  '}{reject.format()}", markup=False)
            seen.add(where)


def _print_campaigns(report: Any) -> None:
    """Campaign findings of the games stored, and stored games whose campaign link changed."""
    found = [o for o in report.outcomes if o.campaign and o.campaign["findings"]]
    if found:
        out.print(f"campaign findings ({len(found)} game{'s' if len(found) != 1 else ''}):")
        for o in found:
            c = o.campaign
            for f in c["findings"]:
                out.print(f"  {o.game_id} (game {c['game']} of {c['name']!r}): {f['rule']}: "
                          f"{f['message']}", markup=False)
    changed = [c for o in report.outcomes for c in o.relinked]
    if changed:
        out.print("stored games checked again against their campaign:")
        for c in changed:
            now = {"fits": "fits now", "duplicate": "a duplicate now"}.get(
                c["status"], f"{c['status']}: " + "; ".join(f["rule"] for f in c["findings"]))
            out.print(f"  {c['game_id']} (game {c['game']} of {c['name']!r}): was "
                      f"{c['status_before']}, {now}", markup=False)


@app.command()
def games(db: DbOpt = DEFAULT_DB, as_json: Json = False, as_csv: Csv = False) -> None:
    """List the stored games: date, players, the rules' winner, rounds, events, findings, and
    for Risk Legacy games their campaign and game number (and how they link, if not cleanly).
    Piped, the table is plain text with every id whole; --json and --csv are for scripts.

    Example: ledger games --db ledger.duckdb; ledger games --csv > games.csv
    """
    store = _open(db, read_only=True)
    try:
        rows = store.games()
        links = {c.game_id: c for c in store.campaign_games()}
    finally:
        store.close()
    listed = [{"game": g.game_id, "date": g.played_on.isoformat() if g.played_on else None,
               "ruleset": g.ruleset, "players": g.players, "winners": g.winners,
               "declared_winner": g.declared_winner, "rounds": g.rounds, "events": g.event_count,
               "findings": g.finding_count + (links[g.game_id].finding_count
                                              if g.game_id in links else 0),
               "judged_with": g.ruleset_version, "head": g.head_hash,
               "campaign": _campaign_of(links.get(g.game_id))} for g in rows]
    if as_json:
        _emit_json(listed)
        return
    if as_csv:
        emit_csv(["game", "date", "ruleset", "players", "winner", "rounds", "events", "findings",
                  "campaign", "campaign_game", "campaign_status"],
                 [[g["game"], g["date"], g["ruleset"], ", ".join(g["players"]), _winner_text(g),
                   g["rounds"], g["events"], g["findings"],
                   *((g["campaign"]["name"], g["campaign"]["number"], g["campaign"]["status"])
                     if g["campaign"] else (None, None, None))] for g in listed])
        return
    if not rows:
        out.print(f"no games in {_shown(db)}", markup=False)
        return
    in_campaigns = any(g["campaign"] for g in listed)
    columns = [("game", "left"), ("date", "left"), ("players", "left"), ("winner", "left"),
               ("rounds", "right"), ("events", "right"), ("findings", "right")]
    if in_campaigns:
        columns.append(("campaign", "left"))
    cells = []
    for g in listed:
        row = [g["game"], g["date"] or "", ", ".join(g["players"]), _winner_text(g),
               str(g["rounds"] if g["rounds"] is not None else ""), str(g["events"]),
               str(g["findings"])]
        if in_campaigns:
            c = g["campaign"]
            row.append("" if c is None else f"{c['name']} #{c['number']}"
                       + ("" if c["status"] == "fits" else f" ({_link_text(c)})"))
        cells.append(row)
    print_table(out, columns, cells)


def _winner_text(g: dict) -> str:
    return "not over" if g["winners"] is None else and_list(g["winners"]) or "none"


def _campaign_of(link: Any) -> dict | None:
    """A stored game's place in its campaign, for `games`: name, number, how it links."""
    if link is None:
        return None
    return {"name": link.campaign, "number": link.game_no, "status": link.status,
            "waiting_for": link.waiting_for, "findings": link.finding_count}


def _link_text(c: dict) -> str:
    return f"waiting for #{c['waiting_for']}" if c["status"] == "waiting" else c["status"]


class ExportFormat(str, Enum):
    jsonl = "jsonl"
    parquet = "parquet"


@app.command()
def export(
    game_id: Annotated[Optional[str], typer.Argument(help="The game to export (or --all).")] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Export every stored game.")] = False,
    fmt: Annotated[ExportFormat, typer.Option("--format", help="jsonl or parquet.")] = ExportFormat.jsonl,
    out_path: Annotated[Path, typer.Option("--out", "-o", help="A file (one game as JSONL) or a folder.")] = ...,
    db: DbOpt = DEFAULT_DB,
    prune: Annotated[bool, typer.Option(
        "--prune", help="Parquet lake: also remove the games the store no longer has (kept by "
                        "default: a lake may gather several stores).")] = False,
    as_json: Json = False,
) -> None:
    """Export stored games: JSONL exactly as logged (byte for byte), or a Parquet lake for
    `ledger stats --lake`, `ledger dashboard --lake`, DuckDB, Spark or Trino.

    One game as JSONL goes to the file OUT (or OUT/<game>.jsonl when OUT is a folder); --all as
    JSONL writes OUT/<game>.jsonl per game. Exports are idempotent: every game has one file,
    named after it, replaced whole, so exporting the same store twice gives the same files.

    Parquet: OUT is a lake (docs/scale.md): the events, games, players, findings, campaign links
    and analytics rows of the games, one folder per table, partitioned by ruleset and date
    (OUT/events/ruleset=.../date=.../part-*.parquet), and OUT/_manifest.json listing every file.
    The export is incremental: only the games new or changed since the last export into OUT (by
    head hash, and by the judgement their rows come from) are written; a changed game's old rows
    are replaced. New files are written first and the manifest replaced last, so a killed export
    leaves the lake as it was. It reports the games new, changed, unchanged and removed (--prune).

    Exit 2 when the store cannot be read or OUT cannot be written (a full disk leaves each file,
    and the lake, as it was).

    Example: ledger export game42 --format jsonl --out game42.jsonl; ledger export --all --format parquet --out lake/ --prune
    """
    from ledger.store import GameNotFound, StoreError
    from ledger.store.duckdb import export_file_stems

    if (game_id is None) == (not all_games):
        err.print("ledger: name one GAME_ID or pass --all")
        raise typer.Exit(exitcodes.USAGE)
    if fmt is ExportFormat.parquet or all_games or out_path.is_dir():
        problem = (None if out_path.is_dir() or not out_path.exists() and not out_path.is_symlink()
                   else (write_problem(out_path, "a folder")
                         or f"{out_path}: is a file, not a folder"))
    else:
        problem = write_problem(out_path)
    if problem is not None:
        err.print(f"ledger: cannot write {problem}")
        raise typer.Exit(exitcodes.UNREADABLE)
    if prune and (fmt is not ExportFormat.parquet or not all_games):
        err.print("ledger: --prune applies to a Parquet lake of every game (--all --format parquet)")
        raise typer.Exit(exitcodes.USAGE)
    if fmt is ExportFormat.parquet:
        _export_lake(db, out_path, None if all_games else game_id, prune, as_json)
        return
    store = _open(db, read_only=True)
    try:
        if all_games:
            ids = [g.game_id for g in store.games()]
            names = export_file_stems(ids)
            for done, gid in enumerate(ids):
                try:
                    store.export_jsonl(gid, out_path / f"{names[gid]}.jsonl")
                except OSError as exc:
                    err.print(f"ledger: cannot write {out_path / names[gid]}.jsonl: "
                              f"{os_reason(exc)}; {done} of {plural(len(ids), 'game')} written")
                    raise typer.Exit(exitcodes.UNREADABLE)
            if as_json:
                _emit_json({"out": str(out_path), "games": len(ids)})
            else:
                typer.echo(f"wrote {plural(len(ids), 'game')} to {out_path}/")
        else:
            target = (out_path / f"{export_file_stems([game_id])[game_id]}.jsonl"
                      if out_path.is_dir() else out_path)
            store.export_jsonl(game_id, target)
            if as_json:
                _emit_json({"out": str(target), "games": 1})
            else:
                typer.echo(f"wrote {game_id} to {target}")
    except GameNotFound as exc:
        err.print(f"ledger: {exc} ({_shown(db)})")
        raise typer.Exit(exitcodes.UNREADABLE)
    except StoreError as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    except OSError as exc:
        err.print(f"ledger: cannot write to {exc.filename or out_path}: {os_reason(exc)}")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        store.close()


@app.command()
def recheck(db: DbOpt = DEFAULT_DB, as_json: Json = False) -> None:
    """Judge every stored game again with the current engine; list the games whose findings or
    result changed. Each game keeps the engine version it was last judged with.

    Example: ledger recheck --db ledger.duckdb
    """
    from ledger.store import StoreError

    store = _open(db, must_exist=True)
    try:
        total = store.game_count()
        with ProgressBar(total, "rechecking") as bar:
            changes = store.recheck(on_game=bar.advance)
    except StoreError as exc:
        err.print(f"ledger: recheck stopped: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        store.close()
    if as_json:
        _emit_json({"db": _shown(db), "games": total, "changed": [c.as_dict() for c in changes]})
        return
    for change in changes:
        out.print(change.format(), markup=False)
    out.print(f"rechecked {total} game{'s' if total != 1 else ''}: "
              f"{len(changes) or 'none'} changed")


@app.command("check-db")
def check_db(db: DbOpt = DEFAULT_DB, as_json: Json = False) -> None:
    """Check the store's integrity: every game's events contiguous from seq 0, each line matching
    its hash, chain links valid, heads and counts matching the games table. Exit 0 or 1.

    Example: ledger check-db --db ledger.duckdb
    """
    store = _open(db, read_only=True)
    try:
        report = store.check()
    finally:
        store.close()
    if as_json:
        _emit_json({"db": _shown(db), "ok": report.ok, "games": report.games,
                    "events": report.events, "problems": report.problems})
    elif report.ok:
        out.print(f"{_shown(db)}: ok — {plural(report.games, 'game')}, {plural(report.events, 'event')}, "
                  f"every chain intact", markup=False)
    else:
        for problem in report.problems:
            out.print(f"{_shown(db)}: {problem}", markup=False)
        out.print(f"{_shown(db)}: {len(report.problems)} problem(s)")
    raise typer.Exit(exitcodes.OK if report.ok else exitcodes.FINDINGS)


def _export_lake(db: str, lake: Path, game_id: Optional[str], prune: bool, as_json: bool) -> None:
    """`ledger export --format parquet`: the lake brought up to date (ledger.lake)."""
    from analytics.lake import LakeError
    from ledger.lake import export_lake
    from ledger.store import GameNotFound, StoreError

    store = _open(db, read_only=True)
    bar: list[ProgressBar] = []        # made when the export knows how many games it writes

    def progress(done: int, total: int) -> None:
        if not bar:
            bar.append(ProgressBar(total, "exporting").__enter__())
        bar[0].update(completed=done)

    try:
        report = export_lake(store, lake, game_id=game_id, prune=prune, on_progress=progress)
    except GameNotFound as exc:
        err.print(f"ledger: {exc} ({db})")
        raise typer.Exit(exitcodes.UNREADABLE)
    except (StoreError, LakeError) as exc:
        err.print(f"ledger: {exc}")
        raise typer.Exit(exitcodes.UNREADABLE)
    except OSError as exc:
        err.print(f"ledger: cannot write the lake {lake}: {exc.filename or ''}"
                  f"{': ' if exc.filename else ''}{os_reason(exc)}; the lake is as it was")
        raise typer.Exit(exitcodes.UNREADABLE)
    finally:
        if bar:
            bar[0].__exit__(None, None, None)
        store.close()
    if as_json:
        _emit_json({"db": str(db), **report.as_dict()})
    else:
        out.print(report.summary(), markup=False)
        if report.rebuilt:
            out.print(f"written afresh: {report.rebuilt}", markup=False)
        if report.repaired:
            out.print(f"{plural(report.repaired, 'game')} written again: files of the lake "
                      f"listed in its manifest were missing", markup=False)
